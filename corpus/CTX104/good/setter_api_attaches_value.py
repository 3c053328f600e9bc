# expect: none
"""Public setters whose whole job is to leave a value in the current context."""
from opentelemetry.context import attach, set_value


def set_workflow_name(workflow_name: str) -> None:
    attach(set_value("workflow_name", workflow_name))


def set_entity_path(entity_path: str) -> None:
    if not entity_path:
        raise ValueError("empty entity path")
    attach(set_value("entity_path", entity_path))
