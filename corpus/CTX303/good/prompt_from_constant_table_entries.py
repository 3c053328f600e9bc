# expect: none
"""Persona prompts picked from a constant table, walked directly or through a helper."""
from langchain_core.prompts import PromptTemplate

PERSONAS = {
    "terse": {"system": "Answer in one line: {question}"},
    "teacher": {"system": "Explain step by step: {question}"},
}


def build_all():
    return {name: PromptTemplate.from_template(spec["system"]) for name, spec in PERSONAS.items()}


def build_one(style, table=PERSONAS):
    entry = table.get(style, PERSONAS["terse"])
    return PromptTemplate(template=entry["system"], input_variables=["question"])


def default_prompt():
    return build_one("terse", table=PERSONAS)
