# expect: none
"""jupyterhub's `access_scopes` cache: the key function dispatches on which one of
several alternative inputs the caller passed, and each branch keys by that input's own
identity. In the client branch the server (and its user) is not a missing id: it is
another way of naming the same thing, tested only when no client is given."""
from memo import lru_cache_key


def _access_cache_key(oauth_client=None, *, server=None, service=None):
    if oauth_client:
        return ("oauth", oauth_client.identifier)
    elif server:
        return ("server", server.user.name, server.name)
    elif service:
        return ("service", service.name)


@lru_cache_key(_access_cache_key)
def access_scopes(oauth_client=None, *, server=None, service=None):
    if server is None and oauth_client:
        server = oauth_client.server
    if server:
        return frozenset({f"access:servers!server={server.user.name}/{server.name}"})
    if service is None:
        service = oauth_client.service
    return frozenset({f"access:services!service={service.name}"}) if service else frozenset()
