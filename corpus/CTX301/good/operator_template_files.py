# expect: none
"""panel's auth provider: the login, logout and error pages are template files the
operator names with `--basic-login-template` and friends (here constructor arguments),
read whole and compiled, as a loader's templates would be. Nothing outside the
deployment chooses or writes them."""
import jinja2

_env = jinja2.Environment()


class BasicAuthProvider:
    def __init__(self, login_template=None, logout_template=None, error_template=None):
        self._login_template = self._error_template = self._logout_template = None
        if error_template:
            with open(error_template) as f:
                self._error_template = _env.from_string(f.read())
        if logout_template:
            with open(logout_template) as f:
                self._logout_template = _env.from_string(f.read())
        if login_template:
            with open(login_template) as f:
                self._login_template = _env.from_string(f.read())
