# expect: 12 CTX302
# expect: 20 CTX302
"""Literal jinja2 prompt templates handed to LangChain and to a jinja2 Environment."""
from jinja2 import Environment
from langchain_core.prompts import PromptTemplate

SUPPORT_PROMPT = PromptTemplate(
    template=(
        "You are the support bot of {{ company }}.\n"
        "Customer: {{ customer.name }}\n"
        "Plan: {{ customer.plan }}\n"
        "Internal: {{ customer.__dict__ }}\n"
    ),
    input_variables=["company", "customer"],
    template_format="jinja2",
)

_ENV = Environment()
DEBUG = _ENV.from_string("""Request {{ req.id }}
Headers: {{ req|attr("__dict__") }}
""")
