# expect: 19 CTX301
"""Per-tenant system prompts stored in the settings table, rendered with jinja2.Template."""
from dataclasses import dataclass

from jinja2 import Template


@dataclass
class TenantSettings:
    tenant_id: str
    system_prompt: str  # editable by the tenant's admins in the dashboard


class PromptBuilder:
    def __init__(self, settings: TenantSettings):
        self.settings = settings

    def system_message(self, user_name: str, today: str) -> dict:
        text = Template(self.settings.system_prompt).render(user_name=user_name, today=today)
        return {"role": "system", "content": text}
