# expect: none
"""authlib's PKCE extension: called once per grant class it extends, it registers its
validators under hook names in the grant's own callback table. That `register_hook`
takes a hook name first; it is no torch hook and hands back no removable handle."""


class CodeChallenge:
    SUPPORTED = {"plain", "S256"}

    def __init__(self, required=True):
        self.required = required

    def __call__(self, grant):
        grant.register_hook("after_validate_authorization_request_payload", self.validate_code_challenge)
        grant.register_hook("after_validate_token_request", self.validate_code_verifier)

    def validate_code_challenge(self, grant, redirect_uri):
        request = grant.request
        method = request.payload.data.get("code_challenge_method", "plain")
        if self.required and method not in self.SUPPORTED:
            raise ValueError("unsupported code_challenge_method")

    def validate_code_verifier(self, grant, result):
        if self.required and not grant.request.payload.data.get("code_verifier"):
            raise ValueError("missing code_verifier")
