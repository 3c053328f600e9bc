# expect: 9 CTX301
"""Near miss of feast's shared join helper: one caller hands it a template taken from
the API request body, so whoever sends the request writes the template."""
from jinja2 import BaseLoader, Environment


def build_point_in_time_query(contexts: list[dict], left_table: str, query_template: str) -> str:
    env = Environment(loader=BaseLoader())
    template = env.from_string(source=query_template)
    return template.render(featureviews=contexts, left_table_query_string=left_table)
