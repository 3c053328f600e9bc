# expect: 18 CTX303
# expect: 23 CTX303
"""Prompt templates stored per tenant and loaded into LangChain and LlamaIndex.

LangChain's f-string template formats with str.format (attribute walks); LlamaIndex's
PromptTemplate substitutes only {key}: the same data source, a lesser finding there."""
from langchain_core.prompts import PromptTemplate as LCPrompt
from llama_index.core import PromptTemplate


def tenant_record(db, tenant_id: str) -> dict:
    return db.fetch_one("SELECT * FROM prompts WHERE tenant = ?", tenant_id)


def llama_prompt(db, tenant_id: str) -> PromptTemplate:
    record = tenant_record(db, tenant_id)
    # edited by the tenant in the admin UI
    return PromptTemplate(record["template"])


def langchain_prompt(db, tenant_id: str) -> LCPrompt:
    record = tenant_record(db, tenant_id)
    return LCPrompt.from_template(record["template"])
