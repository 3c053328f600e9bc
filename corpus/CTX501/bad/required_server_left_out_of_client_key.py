# expect: 11 CTX501
# expect: 15 CTX501
"""Near miss of jupyterhub's `access_scopes` cache: the server is required and the
client branch leaves its user out, so two users' servers behind one shared client get
one cached answer."""
from memo import lru_cache_key


def _access_cache_key(server, oauth_client=None, *, service=None):
    if oauth_client:
        return ("oauth", oauth_client.identifier)
    elif server.name:
        return ("server", server.user.name, server.name)
    elif service:
        return ("service", service.name)


@lru_cache_key(_access_cache_key)
def access_scopes(server, oauth_client=None, *, service=None):
    if server is None and oauth_client:
        server = oauth_client.server
    if server:
        return frozenset({f"access:servers!server={server.user.name}/{server.name}"})
    if service is None:
        service = oauth_client.service
    return frozenset({f"access:services!service={service.name}"}) if service else frozenset()
