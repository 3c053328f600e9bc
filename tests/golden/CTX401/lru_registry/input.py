"""Per-user agent graphs."""
import functools

_USER_AGENT_GRAPHS = dict()


def get_user_subagent(integration_id, user_id, compile_agent):
    key = (integration_id, user_id)
    graph = _USER_AGENT_GRAPHS.get(key)
    if graph is None:
        graph = _USER_AGENT_GRAPHS[key] = compile_agent(integration_id, user_id)
    return graph
