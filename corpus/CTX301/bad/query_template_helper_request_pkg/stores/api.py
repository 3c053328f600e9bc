# expect: none
from stores import offline_utils


def preview_query(body: dict) -> str:
    return offline_utils.build_point_in_time_query(body["contexts"], left_table=body["table"],
                                                   query_template=body["template"])
