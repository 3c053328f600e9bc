# expect: 21 CTX303
# expect: 32 CTX303
"""Few-shot examples default to the module's table, but one caller loads them from a
file the operators edit, and another function walks examples read from a request."""
import json

from flask import request
from langchain_core.prompts import HumanMessagePromptTemplate, PromptTemplate

EXAMPLES = [{"content": "summarise {text}"}]


class PlannerChain:
    def __init__(self, messages):
        self.messages = messages

    @classmethod
    def from_llm(cls, llm, examples=EXAMPLES):
        messages = []
        for example in examples:
            messages.append(HumanMessagePromptTemplate.from_template(example["content"]))
        return cls(messages)


def load_planner(llm, path):
    with open(path) as fh:
        return PlannerChain.from_llm(llm, examples=json.load(fh))


def preview():
    for example in request.get_json()["examples"]:
        PromptTemplate.from_template(example["content"])
