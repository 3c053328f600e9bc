# expect: none
from agentkit.tools import create_llm_tool

ANSWER_PROMPT = "Answer the question {question} using only these notes:\n{notes}"


def build_answerer(llm):
    return create_llm_tool(llm, prompt=ANSWER_PROMPT, name="answerer")
