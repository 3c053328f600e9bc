# expect: none
"""The tracer is handed its environment; the annotation `Environment` admits the
`SandboxedEnvironment` its caller builds (sqlfluff's JinjaTracer), so what compiles
the text is not known here."""
from jinja2 import Environment


class Tracer:
    def __init__(self, raw: str, env: Environment) -> None:
        self.raw = raw
        self.env = env

    def probe(self, parts: list[str]) -> bool:
        try:
            self.env.from_string(f"{self.env.block_start_string} {' '.join(parts)} {self.env.block_end_string}")
        except Exception:
            return False
        return True
