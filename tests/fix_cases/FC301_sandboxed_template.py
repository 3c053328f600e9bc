# fix: kept
# fix case (sandboxed_environment): a tenant-edited template compiles in the sandbox; plain templates render the same
from dataclasses import dataclass

from jinja2 import Template


@dataclass
class TenantSettings:
    tenant_id: str
    system_prompt: str  # editable by the tenant's admins


class PromptBuilder:
    def __init__(self, settings: TenantSettings):
        self.settings = settings

    def system_message(self, user_name: str, today: str) -> dict:
        text = Template(self.settings.system_prompt).render(user_name=user_name, today=today)
        return {"role": "system", "content": text}


def behaviour():
    b = PromptBuilder(TenantSettings("t", "Hi {{ user_name | upper }}, today is {{ today }}."))
    return b.system_message("ann", "Monday")
