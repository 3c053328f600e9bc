"""CTX505 acquire-release-key-mismatch: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.cache_keys import (
    cache_key_facts, ident_words,
)
from ctxlint.semantic.python.keys import (
    class_field_values, holds_entry, key_text, key_written_fields, object_class,
    reads_key_back, reads_stored_key,
)


def _key_signature(ck, fn, key: ast.AST, depth: int = 1):
    """How a key is derived, for comparing acquire and release: ("call", helper) for a
    helper's result, ("attr", name) for an attribute or parameter (`item.digest`,
    `digest`), ("tuple", (part signatures...)) for a tuple of such parts
    (`(model, digest)`) or an f-string built from them (`f"{model}:{digest}"`, its
    literal text one more part), None when unknown (loop variables, several definitions, a part
    of unknown derivation)."""
    expr, exact = ck.resolve(fn, key)
    if not exact:
        return None
    if isinstance(expr, ast.Tuple) and depth > 0 and expr.elts \
            and not any(isinstance(e, ast.Starred) for e in expr.elts):
        parts = tuple(_key_signature(ck, fn, e, depth - 1) for e in expr.elts)
        return None if None in parts else ("tuple", parts)
    if isinstance(expr, ast.JoinedStr) and depth > 0:
        # f"{model}:{digest}": its formatted parts, plus one marker for literal text
        vals = [v.value for v in expr.values if isinstance(v, ast.FormattedValue)]
        parts = tuple(_key_signature(ck, fn, v, depth - 1) for v in vals)
        if any(isinstance(v, ast.Constant) and v.value for v in expr.values):
            parts += (("text", frozenset()),)
        return None if None in parts or not vals else ("tuple", parts) if len(parts) > 1 else parts[0]
    if isinstance(expr, ast.Call):
        # only a key helper of this file (or a digest) is a derivation worth comparing;
        # `self._free.pop()` or `uuid4()` hand out fresh ids
        name = (ck.facts.dotted(expr.func) or "").split(".")[-1]
        if name and (name in ck.function_names or ck.digest_call(expr)):
            return ("call", name)
        return None
    if isinstance(expr, ast.Attribute):
        return ("attr", _id_words(expr.attr))
    if isinstance(expr, ast.Name):
        if expr.id in ck.defs(fn):
            return None
        return ("attr", _id_words(expr.id))
    return None


def _id_words(name: str) -> frozenset:
    """Words of an id name without counter prefixes (`_next_slot_id` -> {slot, id})."""
    return frozenset(w for w in ident_words(name) if w not in ("next", "new", "cur", "current", "last"))


def _same_key(a, b) -> bool:
    """Do two key signatures name the same derivation? Attribute spellings match when the
    words of one contain the other's (`req.request_id` ~ `request_id`, `_next_lease_id` ~
    `lease_id`)."""
    if a[0] != b[0]:
        return False
    if a[0] == "call":
        return a[1] == b[1]
    if a[0] == "tuple":
        return len(a[1]) == len(b[1]) and all(_same_key(x, y) for x, y in zip(a[1], b[1]))
    return a[1] <= b[1] or b[1] <= a[1]


def _describe(sig) -> str:
    """Readable text of a key signature: `helper()`, `digest`, `(model, digest)`."""
    kind, what = sig
    if kind == "call":
        return f"{what}()"
    if kind == "tuple":
        return "(" + ", ".join(_describe(p) for p in what) + ")"
    return "_".join(sorted(what))


def _strict_part(sig, acq_sigs) -> bool:
    """Is the release key `sig` one part of an acquire side's tuple key of two or more
    parts, or a tuple of fewer of its parts (`digest` or `(digest,)` where acquire keyed
    `(model, digest)`)? Such a key never equals a stored key: the dict holds tuples of
    all the parts."""
    for a in acq_sigs:
        if a is None or a[0] != "tuple" or len(a[1]) < 2:
            continue
        # a part is the same derivation spelled the same (`digest` and `digest`), not one
        # id whose words contain another's (`child_request_id` is not `request_id`)
        if sig[0] == "tuple":
            if len(sig[1]) < len(a[1]) and all(x in a[1] for x in sig[1]):
                return True
        elif sig in a[1]:
            return True
    return False


class AcquireReleaseKeyMismatch(Rule):
    code = "CTX505"
    name = "acquire-release-key-mismatch"
    summary = "The release side of a container (remove/count down) indexes it by a key built differently from the acquire side."
    tokens = ("pop(", "del ", "-=", "discard(", "remove(", "- 1")
    doc = """\
## What it does
For a container indexed by two kinds of method — an acquire side that inserts or
counts up (`refs[k] = refs.get(k, 0) + 1`, `setdefault`, `add`) and a release side
that removes or counts down (`pop`, `del`, `refs[k] -= 1`), whatever the methods are
called — finds a release side that derives its key differently from an acquire side
that builds its key with a helper or digest, or as a tuple: the release calls a
different helper, reads a raw attribute (`item.digest`) instead of
`combine(digests)`, or indexes by one part of the acquire side's tuple or f-string
key (`digest` where acquire keyed `(model, digest)` or `f"{model}:{digest}"`; a tuple
of fewer parts likewise). Keys are
compared by how they are derived, never by their spelling; two raw spellings of one
id (`spec.provider_id` and a `provider_id` parameter) are not reported, nor is a
release key read back from the stored object on which every acquire side stored the
very key it used, not rebound in between, the class resolved by binding to this file's
class, every acquire path's stored value seen into (`lease = Lease(owner, ...)`; `c[owner] = lease`; released by
`lease.owner` on a parameter annotated `Lease`, on `self` in a `Lease` method, or on a
value read out of the container): the same value flows key -> field -> release key.
Likewise a release key read back from the slot where every acquire side put its key:
a ContextVar it sets to the key (`_level.set(level)` beside `c[level] = ...`, released
by `_level.get()` or a read-only property returning it) or an instance attribute it
assigns the key to (`self._current = key`, released by `self._current`).

A release keyed by a field of another object (`response.req_id`, `job.seq`,
`handle._seq`) is reported only when that field is shown to hold another value: the
object is an entry of the container (annotated with, narrowed by `isinstance` to, or
built from a class the acquire side stores or the container's annotation declares, or
read out of the container) whose field not every acquire side set to its key; or the
field is a raw input the acquire side only fed into its helper (`reply.prompt` where
acquire keyed `slot_key(model, prompt)`); or the object's class (of this file) assigns
that field only values derived otherwise (`self.digest = sha256(data).hexdigest()`
where acquire keyed `chunk_key(data, tenant)`). A field of an inbound message, or of an
object of unknown or another module's class, is not reported: an id the acquire side
mints and sends out (`req.req_id = rid`, `command.timer.seq = seq`, `Query(seq=seq)`)
comes back in the peer's reply, so `response.req_id` is the very key; likewise a
handle built with its key (`_Timer(seq, ...)`) and released by `handle._seq` after an
`isinstance` guard.
The finding is at the release side's key expression.

Not reported: a release def's bare-parameter key whose every call in the module
passes the key the acquire side derived (`self._delete(name)` after `name =
self._normalize(name)`).

A bare parameter of the release side is compared as a part of the acquire side's key
only when an acquire-side function takes a parameter of that name too (`pin(tenant,
adapter)` / `unpin(tenant, adapter)`): a parameter is whatever the caller passes, and a
name resembling an attribute of the key (`_on_drained(drain_token)` beside
`f"{run_id}:{self._next_drain_token}"`, pydantic-ai, whose subscriber echoes the whole
token back) says nothing about its value. When another method removes entries while
walking the container itself (`for k, (view, _) in self._views.items(): ... del
self._views[k]`, disnake `ViewStore.__verify_integrity`), the message says the entry
stays until that sweep, not that it is never released.

## Why is this bad
The release looks up a key that acquire never stored: the refcount never drops,
the entry is never evicted, and the cached data (vision embeddings, KV blocks,
adapter weights) outlives every request that used it — a leak that only shows
under load.

## Example
```python
def acquire(self, items):
    key = combine([it.digest for it in items])
    self.refs[key] = self.refs.get(key, 0) + 1

def release(self, item):
    key = item.digest                  # not the key acquire used
    if key in self.refs:
        self.refs[key] -= 1
```

## Use instead
Derive both keys from one helper: `key = combine([it.digest for it in items])` in both.

## Fix safety
No automatic fix: the release side's signature usually has to change.

## Source
sgl-project/sglang#20162 (multimodal embedding cache released by a per-item digest
while acquired by the combined digest).
"""

    def check(self, facts):
        ck = cache_key_facts(facts)
        for c in facts.containers:
            if c.kind in ("list", "deque"):
                continue
            sites = [s for s in (*c.inserts, *c.reads, *c.removals) if s.key is not None and s.method is not None]
            by_method: dict[str, list] = {}
            for s in sorted(sites, key=lambda s: (s.node.lineno, s.node.col_offset)):
                by_method.setdefault(s.method.name, []).append(s)
            # roles by what a method does to the container, not by its name: the acquire
            # side inserts or counts up, the release side removes or counts down
            acq = list(dict.fromkeys(s.method.name for s in c.inserts
                                     if s.key is not None and s.method is not None and not _decrements(facts, s)))
            rel = list(dict.fromkeys(s.method.name for s in (*c.removals, *c.inserts)
                                     if s.key is not None and s.method is not None and s.method.name not in acq
                                     and (s in c.removals or _decrements(facts, s))))
            if not acq or not rel:
                continue
            acq_sigs = set()
            acq_text: dict = {}  # a tuple key's source text, for the message
            for m in acq:
                for s in by_method[m]:
                    sg = _key_signature(ck, s.function, s.key)
                    acq_sigs.add(sg)
                    if sg is not None and sg[0] == "tuple":
                        acq_text.setdefault(sg, key_text(facts, ck.resolve(s.function, s.key)[0]))
            # only a key derived by a helper or digest on the acquire side is compared: two
            # raw spellings (`req.id`, `rid`) are the same value more often than not
            if None in acq_sigs or not acq_sigs or not any(k in ("call", "tuple") for k, _n in acq_sigs):
                continue
            for m in rel:
                # a release method that also indexes by the acquire-side key handles
                # several roles (writer/follower): the other key is deliberate
                reported = any(_same_key(sg, a) for s in by_method[m]
                               if (sg := _key_signature(ck, s.function, s.key)) for a in acq_sigs)
                for s in by_method[m]:
                    sig = _key_signature(ck, s.function, s.key)
                    if sig is None or reported or any(_same_key(sig, a) for a in acq_sigs):
                        continue
                    expr, _ = ck.resolve(s.function, s.key)
                    if reads_stored_key(ck, c, acq, s.function, expr):
                        # `lease.owner`, where acquire stored `_OperationLease(owner, ...)`
                        # under `owner`: the very key value, carried by the stored object
                        continue
                    if reads_key_back(ck, c, acq, s.function, s.key):
                        # `_level.set(level)` beside `c[level] = ...`, released by
                        # `_level.get()` (or a property returning it): the same value
                        continue
                    # a bare parameter is whatever the caller passes: it is "a part" of the
                    # acquire side's f-string or tuple only as the same argument of a paired
                    # signature (`unpin(tenant, adapter)` beside `pin(tenant, adapter)` keying
                    # `f"{tenant}/{adapter}"`), not because its name resembles an attribute's
                    # (`_on_drained(drain_token)` beside `f"{run_id}:{self._next_drain_token}"`,
                    # pydantic-ai, where the peer echoes the whole string back)
                    bare_param = isinstance(expr, ast.Name) and expr.id in ck.params(s.function)
                    part = _strict_part(sig, acq_sigs) and (
                        not bare_param or _paired_parameter(ck, c, acq, expr.id))
                    if not part and not any(k == "call" for k, _n in acq_sigs):
                        continue  # tuple keys on both sides, spelled from other parts: unknown
                    if not part and isinstance(expr, ast.Name) and expr.id in ck.params(s.function) \
                            and _callers_pass_acquire_key(ck, s.function, expr.id, acq_sigs):
                        # `_delete_event(name)`, whose every caller in the module hands it
                        # the key the acquire side derived (`name = self._normalize_name(name)`)
                        continue
                    if not part and isinstance(expr, ast.Name) and expr.id in ck.params(s.function) \
                            and not _helper_input(ck, c, acq, expr.id):
                        # a bare parameter: the caller may pass the helper's result (it
                        # usually does); only the raw input the acquire side transforms
                        # (`incref(name)` keys `slot_key(name, rev)`, `decref(name)` keys
                        # `name`) is a demonstrable mismatch
                        continue
                    if not part and _foreign_field(ck, s.function, expr) \
                            and not _field_differs(ck, c, acq, acq_sigs, s.function, expr, sig):
                        # a field of another object (`response.req_id`, `job.seq`): its
                        # value is whatever that object carries, most often the id the
                        # acquire side sent out and the peer echoes back; report it only
                        # when it is shown to hold another value
                        continue
                    reported = True
                    acq_desc = ", ".join(sorted(f"`{acq_text.get(a) or _describe(a)}`" for a in acq_sigs))
                    yield facts.finding(
                        self, expr,
                        f"`{m}()` indexes `{c.name}` by `{key_text(facts, expr)}`, but "
                        f"`{', '.join(acq)}()` keyed it by {acq_desc}"
                        + (", of which it is only a part" if part else "")
                        + (f": this release never finds the entry, which stays until `{sweep}()` sweeps "
                           "the container; derive both keys from one helper" if (sweep := _sweeper(facts, c, [m]))
                           else ": the entry is never found and never released; derive both keys from one helper"))


def _foreign_field(ck, fn, expr: ast.AST) -> bool:
    """Is release key `expr` a field of an object other than the instance itself
    (`response.req_id`, `job.seq`, `handle._seq`, `self.current.seq`), not an attribute of
    the receiver (`self._active`, a slot the class itself keeps)?"""
    if not isinstance(expr, ast.Attribute):
        return False
    me = ck._self_param(fn)
    return not (me and isinstance(expr.value, ast.Name) and expr.value.id == me)


def _field_differs(ck, c, acq: list[str], acq_sigs: set, fn, expr: ast.Attribute, sig) -> bool:
    """Can the field `expr` (`obj.F`, read in release def `fn`) be shown to hold another
    value than the acquire side's derived key? Only then is a release by it a mismatch:

    - `obj` is an entry of the container (`holds_entry`: annotated with, narrowed to or
      built from a class the acquire side stores or the container declares, or read out
      of the container), and `reads_stored_key` (tried before) did not find the key in
      `F` on every stored entry;
    - `F` is a raw input of the acquire side's derivation (`item.digest` where acquire
      keyed `combine([it.digest ...])`, `request.prompt` where it keyed
      `prefix_digest(prompt)`): the underived value, never the derived key;
    - `obj`'s class (a class of this file, `object_class`) assigns `F` only values
      derived otherwise (`self.content_hash = sha256(...)` where acquire keyed
      `block_key(...)`).

    A field into which the acquire side writes its key (`key_written_fields`: `req.req_id
    = req_id`, `command.timer.seq = seq`) is the key sent out and echoed back: never
    shown to differ. Anything else (an attribute of a message parameter, of an object
    of unknown or foreign class) is unknown: False."""
    obj = expr.value
    if holds_entry(ck, c, acq, fn, obj, expr):
        return True
    if expr.attr in key_written_fields(ck, c, acq):
        return False
    if _raw_input(ck, c, acq, sig):
        return True
    cls = object_class(ck, fn, obj, expr)
    values = class_field_values(ck, cls, expr.attr) if cls else None
    if not values:
        return False
    for m, v in values:
        vs = _derivation_signature(ck, m, v)
        if vs is None or vs[0] == "attr" or any(_same_key(vs, a) for a in acq_sigs):
            return False
    return True


def _derivation_signature(ck, fn, expr: ast.AST):
    """`_key_signature` of a value a class stores in a field, also reading a method call
    on a digest (`hashlib.sha256(...).hexdigest()`) as that digest's derivation."""
    sig = _key_signature(ck, fn, expr)
    if sig is None and isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) \
            and ck.digest_call(expr.func.value):
        name = (ck.facts.dotted(expr.func.value.func) or "").split(".")[-1]
        return ("call", name) if name else None
    return sig


def _raw_input(ck, c, acq: list[str], sig) -> bool:
    """Is release key signature `sig` (an attribute or parameter, `("attr", words)`) one
    of the raw inputs an acquire side feeds into the call that derives its key: a
    parameter (`prefix_digest(prompt)`) or a field (`combine([it.digest ...])`) passed
    to it, the same id words exactly? The release then indexes by the underived value."""
    if sig is None or sig[0] != "attr":
        return False
    for site in c.inserts:
        fn = site.function
        if site.method is None or site.method.name not in acq or fn is None or site.key is None:
            continue
        me = ck._self_param(fn)
        params = ck.params(fn)
        for n in ck.closure(fn, [site.key]):
            if not isinstance(n, ast.Call):
                continue
            for a in (*n.args, *(k.value for k in n.keywords)):
                for m in ast.walk(a):
                    words = _id_words(m.attr) if isinstance(m, ast.Attribute) else \
                        _id_words(m.id) if isinstance(m, ast.Name) and m.id in params and m.id != me else None
                    if words and words == sig[1]:
                        return True
    return False


def _callers_pass_acquire_key(ck, fn, param: str, acq_sigs: set) -> bool:
    """Does every call of release def `fn` in this module (`self.fn(...)` in its class, or
    `fn(...)` for a module function; at least one) pass, as parameter `param`, a key whose
    derivation is one of the acquire side's (`acq_sigs`)? The parameter then holds the
    derived key, whatever the name it shares with a raw input (dask's
    `EventExtension._delete_event(name)`, called only with `self._normalize_name(name)`)."""
    facts = ck.facts
    args = fn.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    cls = facts.enclosing_class(fn)
    if cls is not None and facts.parents.get(fn) is cls:
        positional = positional[1:]  # `self` / `cls`
    index = positional.index(param) if param in positional else None
    seen = 0
    for call in facts.nodes(ast.Call):
        f = call.func
        if cls is not None:
            if not (isinstance(f, ast.Attribute) and f.attr == fn.name and isinstance(f.value, ast.Name)
                    and facts.enclosing_class(call) is cls):
                continue
        elif not (isinstance(f, ast.Name) and f.id == fn.name):
            continue
        arg = next((k.value for k in call.keywords if k.arg == param), None)
        if arg is None and index is not None and index < len(call.args) \
                and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
            arg = call.args[index]
        caller = facts.enclosing_function(call)
        if arg is None or caller is None:
            return False
        sig = _key_signature(ck, caller, arg)
        if sig is None or not any(_same_key(sig, a) for a in acq_sigs):
            return False
        seen += 1
    return seen > 0


def _container_expr(node: ast.AST) -> ast.AST | None:
    """The container expression of a removal site's node (`self._views` of
    `del self._views[k]` or `self._views.pop(k)`)."""
    if isinstance(node, ast.Subscript):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.value
    return None


def _sweeper(facts, c, rel: list[str]) -> str | None:
    """The name of a method (not one of `rel`, the release being reported) that removes entries of the
    container `c` while walking the container itself (`for k, (view, _) in
    self._views.items(): ...` then `del self._views[k]`, disnake `ViewStore.__verify_integrity`):
    a sweep that reclaims what a mismatched release misses. None when there is none."""
    for s in c.removals:
        fn, m = s.function, s.method
        if fn is None or m is None or m.name in rel:
            continue
        target = _container_expr(s.node)
        if target is None:
            continue
        want = ast.dump(target)
        for n in facts.walk(fn):
            if not isinstance(n, (ast.For, ast.comprehension)):
                continue
            it = n.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args \
                    and it.func.attr in ("items", "keys", "values"):
                it = it.func.value
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("list", "tuple") \
                    and len(it.args) == 1:
                inner = it.args[0]  # `for k in list(self._views):`
                it = inner.func.value if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                    and inner.func.attr in ("items", "keys", "values") else inner
            if ast.dump(it) == want:
                return m.name
    return None


def _paired_parameter(ck, c, acq: list[str], param: str) -> bool:
    """Does an acquire-side function of container `c` take a parameter `param` too, so
    that the release side's parameter of that name is the same argument of a paired API
    (`pin(tenant, adapter)` / `unpin(tenant, adapter)`)?"""
    return any(site.method is not None and site.method.name in acq and site.function is not None
               and param in ck.params(site.function) for site in c.inserts)


def _helper_input(ck, c, acq: list[str], param: str) -> bool:
    """Is `param` a parameter of an acquire-side function that it passes into the call
    deriving its key there?"""
    for site in c.inserts:
        fn = site.function
        if site.method is None or site.method.name not in acq or fn is None or site.key is None:
            continue
        if param not in ck.params(fn):
            continue
        for n in ck.closure(fn, [site.key]):
            if isinstance(n, ast.Call) and any(isinstance(m, ast.Name) and m.id == param
                                               for a in [*n.args, *(k.value for k in n.keywords)]
                                               for m in ast.walk(a)):
                return True
    return False


def _decrements(facts, site) -> bool:
    """Is an insertion site a count-down (`c[k] -= 1`, `c[k] = c[k] - 1`,
    `c[k] = c.get(k, 0) - 1`): a release, not an acquire?"""
    stmt = facts.parents.get(site.node)
    if isinstance(stmt, ast.AugAssign):
        return isinstance(stmt.op, ast.Sub)
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp):
        return isinstance(stmt.value.op, ast.Sub)
    return False
