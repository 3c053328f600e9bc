# expect: none
"""Reduced from sentry_sdk/logger.py (`logger.info(template, **kwargs)`), haystack
logging.py (`msg.format(**extra)`) and haystack validators/json_schema.py
(`error_template` component parameter): a library function formats the template its
caller wrote. A bare parameter with nothing showing it was read from outside the
program (a request, a file, the environment, a database) is the developer's string."""


class _DefaultKey(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _capture_log(severity: str, template: str, **kwargs) -> dict:
    body = template
    if kwargs:
        body = template.format_map(_DefaultKey(kwargs))
    return {"severity": severity, "body": body}


def info(template: str, **kwargs) -> dict:
    return _capture_log("info", template, **kwargs)


class JsonSchemaValidator:
    def __init__(self, error_template: str | None = None):
        self.error_template = error_template

    def _error(self, message: str, path: str) -> str:
        if self.error_template is None:
            return f"{message} at {path}"
        return self.error_template.format(error_message=message, error_path=path)


def interpolate(msg: str, extra: dict) -> str:
    safe_extra = {k: str(v) for k, v in extra.items()}
    return msg.format(**safe_extra)
