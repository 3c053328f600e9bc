# expect: none
"""feast's offline stores: one shared helper compiles the point-in-time join, and every
store module hands it that store's own SQL template constant."""
from jinja2 import BaseLoader, Environment


def build_point_in_time_query(contexts: list[dict], left_table: str, query_template: str) -> str:
    env = Environment(loader=BaseLoader())
    template = env.from_string(source=query_template)
    return template.render(featureviews=contexts, left_table_query_string=left_table)
