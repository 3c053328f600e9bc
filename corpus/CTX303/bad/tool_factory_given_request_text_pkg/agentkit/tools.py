# expect: 8 CTX303
"""Near miss of the motleycrew-style factory: one caller hands it the template a user
posted, so its fields can walk the values the tool formats."""
from langchain_core.prompts import PromptTemplate


def create_llm_tool(llm, prompt: str, name: str):
    template = PromptTemplate.from_template(prompt)

    def call_llm(**kwargs) -> str:
        return (template | llm).invoke(kwargs)

    return name, call_llm
