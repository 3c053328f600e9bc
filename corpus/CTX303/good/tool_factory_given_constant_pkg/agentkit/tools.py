# expect: none
"""motleycrew-style tool factory: the prompt template is a parameter, and every caller
in the project hands it one of its own template constants."""
from langchain_core.prompts import PromptTemplate


def create_llm_tool(llm, prompt: str, name: str):
    template = PromptTemplate.from_template(prompt)

    def call_llm(**kwargs) -> str:
        return (template | llm).invoke(kwargs)

    return name, call_llm
