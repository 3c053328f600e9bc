# expect: none
"""The same personas, but the operators' text is message content, not a template: it
goes in as a SystemMessage (never formatted), or the prompt uses the author's literals,
or the template format does not walk attributes."""
import yaml
from langchain_core.messages import SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

SYSTEM_TEMPLATE = "You are {persona_name}. Answer briefly."


def load_personas(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


PERSONAS = load_personas("/etc/assistant/personas.yaml")


def persona_prompt(name: str) -> ChatPromptTemplate:
    persona = PERSONAS[name]
    return ChatPromptTemplate.from_messages(
        [
            SystemMessage(content=persona["system"]),
            ("system", SYSTEM_TEMPLATE),
            MessagesPlaceholder("history"),
            ("placeholder", "{scratchpad}"),
            ("human", "{question}"),
        ]
    )


def persona_prompt_mustache(name: str) -> ChatPromptTemplate:
    return ChatPromptTemplate.from_messages(
        [("system", PERSONAS[name]["system"]), ("human", "{{question}}")], template_format="mustache"
    )
