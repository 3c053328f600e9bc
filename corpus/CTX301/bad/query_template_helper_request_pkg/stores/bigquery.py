# expect: none
from stores import offline_utils

POINT_IN_TIME_JOIN = """
SELECT * FROM {{ left_table_query_string }}
{% for fv in featureviews %} LEFT JOIN {{ fv.table }} USING (entity_id){% endfor %}
"""


def get_historical_features(contexts: list[dict], table: str) -> str:
    return offline_utils.build_point_in_time_query(contexts, left_table=table, query_template=POINT_IN_TIME_JOIN)
