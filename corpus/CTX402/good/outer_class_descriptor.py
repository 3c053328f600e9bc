# expect: none
"""The cache sits under a descriptor that calls it with the class (Django's
`classproperty`): the cache is keyed on classes, which live as long as the process,
so no instance is kept however many are built."""
import functools
import inspect


class classproperty:
    def __init__(self, method):
        self.fget = method

    def __get__(self, instance, cls=None):
        return self.fget(cls)


class Expression:
    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs

    @classproperty
    @functools.lru_cache(maxsize=128)
    def constructor_signature(cls):
        return inspect.signature(cls.__init__)

    def combine(self, other):
        return Expression(self, other)


def combine_all(parts):
    return [Expression(p).combine(p) for p in parts]
