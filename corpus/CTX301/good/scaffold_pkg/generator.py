# expect: none
"""Reduced from pipecat-ai's cli/generators/project.py: a scaffolding CLI walks the
`.jinja2` files shipped inside its own package and renders each; only the package's
authors write that text."""
from pathlib import Path

from jinja2 import Template


class ProjectGenerator:
    def __init__(self, bot_name: str):
        self.bot_name = bot_name

    def _templates_dir(self) -> Path:
        return Path(__file__).parent / "templates"

    def generate(self, dest: Path) -> None:
        self._copy_and_render(self._templates_dir() / "client", dest)

    def _copy_and_render(self, source_dir: Path, dest_dir: Path) -> None:
        for item in source_dir.rglob("*"):
            if item.suffix == ".jinja2":
                self._render(item, dest_dir / item.relative_to(source_dir).with_suffix(""))

    def _render(self, template_file: Path, dest_file: Path) -> None:
        template_content = template_file.read_text(encoding="utf-8")
        template = Template(template_content)
        dest_file.write_text(template.render(bot_name=self.bot_name))
