# expect: 19 CTX103 never passed
# expect: 34 CTX103 never passed
"""Near misses of resetting tokens named by strings: the exit loop's names leave one
token out, and another class's exit reads its tokens by name but only clears the
attributes (the values stay bound)."""
import contextvars

current_org = contextvars.ContextVar("current_org", default=None)
current_team = contextvars.ContextVar("current_team", default=None)
audit_tag = contextvars.ContextVar("audit_tag", default=None)


class OrgScope:
    def __init__(self, org, team):
        self._org, self._team = org, team

    def __enter__(self):
        self._org_token = current_org.set(self._org)
        self._team_token = current_team.set(self._team)
        return self

    def __exit__(self, *exc):
        for var, slot in ((current_org, "_org_token"),):
            token = getattr(self, slot)
            var.reset(token)


class AuditScope:
    def __init__(self, tag):
        self._tag = tag
        self._tag_token = None

    def __enter__(self):
        self._tag_token = audit_tag.set(self._tag)
        return self

    def __exit__(self, *exc):
        for slot in ("_tag_token",):
            if getattr(self, slot) is not None:
                setattr(self, slot, None)
