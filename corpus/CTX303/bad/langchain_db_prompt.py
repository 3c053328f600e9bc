# expect: 16 CTX303
# expect: 23 CTX303
"""Prompt templates saved per workspace and loaded into LangChain as f-string templates."""
from langchain_core.prompts import ChatPromptTemplate, PromptTemplate


class PromptRow:
    def __init__(self, name: str, template: str, variables: list[str]):
        self.name = name
        self.template = template
        self.variables = variables


def load_prompt(row: PromptRow) -> PromptTemplate:
    # row.template is edited by workspace admins in the UI
    return PromptTemplate(
        template=row.template,
        input_variables=row.variables,
    )


def load_chat(row: PromptRow) -> ChatPromptTemplate:
    return ChatPromptTemplate.from_template(row.template)
