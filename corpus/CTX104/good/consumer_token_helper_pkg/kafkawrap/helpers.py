# expect: none
"""Ends the consume span the wrapper keeps current between polls."""
from opentelemetry import context


def end_consume(holder):
    if holder.token:
        context.detach(holder.token)
    holder.token = None
    if holder.span is not None:
        holder.span.end()
    holder.span = None
