# expect: 20 CTX303
"""Assistant personas are configured in a YAML file the operators edit; the persona's
system text becomes the system message of a LangChain chat prompt (f-string format)."""
import yaml
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder


def load_personas(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


PERSONAS = load_personas("/etc/assistant/personas.yaml")


def persona_prompt(name: str) -> ChatPromptTemplate:
    persona = PERSONAS[name]
    # `{user.__class__.__init__.__globals__}` in the YAML text would be resolved by
    # str.format against the values the chain passes
    return ChatPromptTemplate.from_messages(
        [
            ("system", persona["system"]),
            MessagesPlaceholder("history"),
            ("human", "{question}"),
        ]
    )
