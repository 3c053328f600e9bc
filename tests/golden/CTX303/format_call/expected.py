import string


class _SafeFormatter(string.Formatter):
    """str.format that refuses attribute and index access in fields ({x.attr}, {x[0]}).

    Added by ctxlint (CTX303): the format string is not a literal.
    """

    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name:
            raise ValueError(f"attribute and index access is not allowed in format fields: {field_name!r}")
        return super().get_field(field_name, args, kwargs)


def render(tenant_prompt, profile, question):
    # tenant_prompt is saved by workspace admins
    return _SafeFormatter().format(tenant_prompt, profile=profile, question=question)
