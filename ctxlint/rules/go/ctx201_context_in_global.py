"""CTX201 context-in-global (Go): a context.Context kept in a package-level var, map or sync.Map."""

from __future__ import annotations

from ctxlint.rules import Rule
from ctxlint.semantic.go.ctx import CANCEL_CONSTRUCTORS, ROOT_CONTEXTS

_STORE_METHODS = {"Store": 1, "LoadOrStore": 1, "Swap": 1, "CompareAndSwap": 2}


class ContextInGlobal(Rule):
    code = "CTX201"
    name = "context-in-global"
    language = "go"
    summary = "A context.Context kept in a package-level var, map, slice or sync.Map."
    tokens = ("context",)
    doc = """\
## What it does
Finds package-level variables whose type is or holds `context.Context` (a map,
slice, array or pointer of contexts), or whose value is evidently a context
(`var base = context.Background()`), and — when the variable's type does not say
so (`sync.Map`, `map[string]any`) — stores of a context into a package-level
map, slice or `sync.Map` (`Store`, `LoadOrStore`, `Swap`, `CompareAndSwap`,
`m[k] = ctx`, `s = append(s, ctx)`). Each context is reported once: at the
declaration when its type holds a context, otherwise at the store.
`context.CancelFunc` values and function types taking a context are not findings.
Test code is not checked (`_test.go` files, fuzz harnesses, helpers that import a
test driver: `GoFacts.is_test_code`): a test binary's package-level context (a root
for its fixtures, a pre-cancelled context to exercise an error path) serves no
request and outlives none.

## Why is this bad
A request's context is scoped to one call: its values, deadline and cancellation
belong to that call. Kept in a global, it outlives the request (with its values: user ids,
tenant tokens, spans), it is shared across requests and tenants, and every entry
that a terminal path forgets to delete leaks the request it came from. A root
context (`context.Background()`) in a global carries no values, but every function
that uses it instead of its caller's ctx drops that caller's cancellation,
deadline and trace; the message says which of the two a finding is.

## Example
```go
var reqContexts = map[*http.Request]context.Context{}
```

## Use instead
Pass the context as the first parameter of each call
(`func Do(ctx context.Context, ...)`), or derive it on the request:
`r = r.WithContext(ctx)`. Keep cancel funcs, not contexts, when a later call must
stop the work.

## Fix safety
No fix: where the context should travel instead is a design decision.

## Source
The `context` package docs ("Do not store Contexts inside a struct type; instead,
pass a Context explicitly to each function that needs it"); Go blog "Contexts and
structs"; distribution/distribution#2242.
"""

    def check(self, facts):
        if facts.is_test_code:
            return
        reported: set[int] = set()
        for spec in facts.package_vars:
            names = [n for n in spec.children_by_field_name("name")]
            typ = spec.child_by_field_name("type")
            value = spec.child_by_field_name("value")
            vals = value.named_children if value is not None else []
            for i, n in enumerate(names):
                if facts.text_of(n) == "_":
                    continue
                held = facts.is_context_type(typ)
                if not held and typ is None:
                    v = vals[i] if len(vals) == len(names) else None
                    held = facts.is_context_value(v)
                if held:
                    reported.add(spec.id)
                    v = vals[i] if len(vals) == len(names) else None
                    yield facts.finding(self, n, _declaration_message(facts, facts.text_of(n), v))
        if not facts.package_var_names:
            return
        yield from self._stores(facts, reported)

    def _global(self, facts, ident, reported) -> object | None:
        """The var_spec of a package-level var `ident` names (not shadowed locally), if not reported."""
        if ident is None or ident.type != "identifier":
            return None
        name = facts.text_of(ident)
        if name == "_":
            return None  # the blank identifier stores nothing, whatever `var _ I = T{}` declares
        spec = facts.package_var_names.get(name)
        if spec is None or spec.id in reported:
            return None
        fn = facts.enclosing_function(ident)
        while fn is not None:
            if facts.memo(f"declares:{fn.id}:{name}", lambda fn=fn: facts.declares(fn, name)):
                return None
            fn = facts.enclosing_function(fn)
        return spec

    def _stores(self, facts, reported):
        for call in facts.nodes("call_expression"):
            f = call.child_by_field_name("function")
            if f is None or f.type != "selector_expression":
                continue
            fld = f.child_by_field_name("field")
            idx = _STORE_METHODS.get(facts.text_of(fld)) if fld is not None else None
            if idx is None:
                continue
            if self._global(facts, f.child_by_field_name("operand"), reported) is None:
                continue
            args = call.child_by_field_name("arguments")
            argv = [a for a in args.named_children if a.type != "comment"] if args is not None else []
            if len(argv) > idx and facts.is_context_value(argv[idx], facts.enclosing_function(call)):
                yield facts.finding(self, call, (
                    f"a context.Context is stored in package-level `{facts.text_of(f.child_by_field_name('operand'))}`: "
                    "it outlives the call that stored it and is shared by every caller "
                    "(its values, deadline and cancellation)"))
        for st in facts.nodes("assignment_statement"):
            left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
            if left is None or right is None:
                continue
            lefts, rights = left.named_children, right.named_children
            if len(lefts) != len(rights):
                continue
            fn = facts.enclosing_function(st)
            for l, r in zip(lefts, rights):
                target = l.child_by_field_name("operand") if l.type == "index_expression" else l
                if self._global(facts, target, reported) is None:
                    continue
                value = r
                if r.type == "call_expression":
                    g = r.child_by_field_name("function")
                    if g is not None and g.type == "identifier" and facts.text_of(g) == "append":
                        args = r.child_by_field_name("arguments")
                        value = next((a for a in (args.named_children[1:] if args is not None else [])
                                      if facts.is_context_value(a, fn)), None)
                if value is not None and facts.is_context_value(value, fn):
                    yield facts.finding(self, st, (
                        f"a context.Context is stored in package-level `{facts.text_of(target)}`: "
                        "it outlives the call that stored it and is shared by every caller "
                        "(its values, deadline and cancellation)"))


def _declaration_message(facts, name: str, value) -> str:
    """What is true of package-level `name` given its initial value (None: only its type is known)."""
    fn = facts.context_func(value.child_by_field_name("function")) if value is not None and value.type == "call_expression" else None
    if fn in ROOT_CONTEXTS:
        return (f"package-level `{name}` holds a root context (context.{fn}()): it has no deadline, no cancellation "
                "and no values, so every function that uses it instead of its caller's ctx drops that caller's "
                "cancellation, deadline and trace; pass ctx as a parameter")
    if fn in CANCEL_CONSTRUCTORS:
        return (f"package-level `{name}` holds a context made by context.{fn}: every caller shares its "
                "cancellation and deadline, and once it is cancelled or expired every later use fails; "
                "pass ctx as a parameter")
    return (f"package-level `{name}` holds a context.Context: whatever context is stored there outlives the call "
            "that made it and is shared by every caller (its values, deadline and cancellation); "
            "pass ctx as a parameter")
