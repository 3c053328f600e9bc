# expect: none
"""A planner chain whose few-shot examples default to the module's own table."""
from langchain_core.prompts import AIMessagePromptTemplate, ChatPromptTemplate, HumanMessagePromptTemplate

EXAMPLES = [
    {"role": "user", "content": "summarise {{the report}} for me"},
    {"role": "assistant", "content": '[{{"step": "summarise", "id": 0}}]'},
]


class PlannerChain:
    def __init__(self, prompt):
        self.prompt = prompt

    @classmethod
    def from_llm(cls, llm, examples=EXAMPLES, verbose=False):
        messages = []
        for example in examples:
            if example["role"] == "user":
                messages.append(HumanMessagePromptTemplate.from_template(example["content"]))
            else:
                messages.append(AIMessagePromptTemplate.from_template(example["content"]))
        human = HumanMessagePromptTemplate.from_template("Now I input: {input}.")
        return cls(ChatPromptTemplate.from_messages([*messages, human]))


def load_planner(llm):
    return PlannerChain.from_llm(llm)
