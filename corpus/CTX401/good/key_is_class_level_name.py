# expect: none
"""The key is a property over a class attribute: every instance of the class built here
has the same name, so a second call for the same old name overwrites one entry (dbt's
renamed-method deprecations)."""


class Deprecation:
    _name: str = ""

    @property
    def name(self) -> str:
        return self._name


deprecations: dict[str, Deprecation] = {}


def renamed_method(old_name: str, new_name: str) -> None:
    class RenamedMethodDeprecation(Deprecation):
        _name = "adapter:{}".format(old_name)

    dep = RenamedMethodDeprecation()
    deprecations[dep.name] = dep
