import string


def render(tenant_prompt, profile, question):
    # tenant_prompt is saved by workspace admins
    return tenant_prompt.format(profile=profile, question=question)
