import configparser
from string import Formatter


class _SafeFormatter(Formatter):
    """str.format that refuses attribute and index access in fields ({x.attr}, {x[0]}).

    Added by ctxlint (CTX303): the format string is not a literal.
    """

    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name:
            raise ValueError(f"attribute and index access is not allowed in format fields: {field_name!r}")
        return super().get_field(field_name, args, kwargs)


def build_system_context(cfg: configparser.ConfigParser, session) -> str:
    template = cfg.get("llm", "system_prompt")
    values = {"hostname": session.hostname, "session": session}
    return _SafeFormatter().vformat(template, (), values)


def greeting(cfg, user):
    return cfg.get("llm", "greeting").format(user=user)
