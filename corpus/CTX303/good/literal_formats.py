# expect: none
"""Format strings written by the developers, and .format() of objects that are not strings."""
import logging

from langchain_core.prompts import PromptTemplate

GREETING = "Hello {name}, you have {count} new messages."
PROMPTS = {
    "summary": "Summarise in {words} words:\n{text}",
    "title": "Give a title for:\n{text}",
}


class Reply:
    TEMPLATE = "{user}: {text}"

    def render(self, user: str, text: str) -> str:
        return self.TEMPLATE.format(user=user, text=text)


def greet(name: str, count: int) -> str:
    return GREETING.format(name=name, count=count) + " ({}/{})".format(count, 10)


def task_prompt(kind: str, **values) -> str:
    return PROMPTS[kind].format_map(values)


def render_qa(prompt: PromptTemplate, question: str) -> str:
    # PromptTemplate.format, not str.format
    return prompt.format(question=question)


def fmt_record(formatter: logging.Formatter, record: logging.LogRecord) -> str:
    return formatter.format(record)


QA = PromptTemplate.from_template("Question: {question}\nAnswer:")
