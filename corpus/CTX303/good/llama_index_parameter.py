# expect: none
"""Reduced from llama-index-core agent/workflow/react_agent.py (`_update_prompts`) and
indices/property_graph/sub_retrievers/cypher_template.py: a LlamaIndex PromptTemplate
(key-only SafeFormatter) built from a parameter of a developer-facing API, with nothing
showing the text was read from outside the program: no finding."""
from llama_index.core import PromptTemplate


class ReActAgent:
    def __init__(self, formatter):
        self.formatter = formatter

    def _update_prompts(self, prompts: dict) -> None:
        if "react_header" in prompts:
            react_header = prompts["react_header"]
            if isinstance(react_header, str):
                react_header = PromptTemplate(react_header)
            self.formatter.system_header = react_header.format()


class CypherTemplateRetriever:
    def __init__(self, llm, output_cls):
        self.llm = llm
        self.output_cls = output_cls

    def _retrieve(self, question: str):
        return self.llm.structured_predict(self.output_cls, PromptTemplate(question))
