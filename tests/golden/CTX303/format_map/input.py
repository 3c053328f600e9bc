import configparser


def build_system_context(cfg: configparser.ConfigParser, session) -> str:
    template = cfg.get("llm", "system_prompt")
    values = {"hostname": session.hostname, "session": session}
    return template.format_map(values)


def greeting(cfg, user):
    return cfg.get("llm", "greeting").format(user=user)
