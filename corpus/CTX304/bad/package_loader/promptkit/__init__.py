# expect: none
"""Prompt kit: templates shipped in the package under prompts/."""
from jinja2 import Environment, PackageLoader

env = Environment(loader=PackageLoader("promptkit", "prompts"))


def rag_prompt(question: str, passages: list[str]) -> str:
    return env.get_template("rag.j2").render(question=question, passages=passages)


def rerank_prompt(query: str, document: str) -> str:
    return env.get_template("rerank.j2").render({"query": query, "doc": document})
