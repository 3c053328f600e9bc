"""CTX501 cache-key-missing-scope: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import UNSAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.cache_keys import (
    PER_RUN_IDS, cache_key_facts, ident_words, scope_kind,
)
from ctxlint.semantic.python.registries import empty_container
from ctxlint.semantic.python.keys import (
    KEY_TOKENS, KIND_NOUN, KIND_PLURAL, fix_anchor, key_text, label_use, scope_object_id,
)


class CacheKeyMissingScope(Rule):
    code = "CTX501"
    name = "cache-key-missing-scope"
    summary = ("A shared cache key (or the digest that builds it) reaches none of the scope ids "
               "while one is in scope: entries are shared across tenants/adapters/users.")
    tokens = KEY_TOKENS
    fix_safety = UNSAFE
    doc = """\
## What it does
Finds a key used with a shared cache — a module-level, class-level or long-lived
`self.` container used as a cache (indexed by a digest, also one a same-file helper
returns; filled the memo way, whatever it is called: on a miss for a key, `if key not
in c:` or `c.get(key)` is None, a value computed by a call is stored under that key; a
cachetools cache; or, as a hint, named
cache/memo/prefix/block/kv/hash/registry), a `hash()`/`hashlib` digest that a
key-building function returns (a function returning the builtin `hash()` is one,
whatever it is called), a key-builder's return value (`cache_key()`,
`block_key()`, or any same-file helper another key is built from), or a
`SomethingKey(...)` constructor — when the key,
followed through the function's local assignments, reaches none of the scope ids
(tenant, user, session, adapter/LoRA, cache salt, multimodal hash; configurable with
`scope-ids` / `extend-scope-ids`) although the function can reach one: a parameter
named as a scope id, an attribute path of a parameter (`req.lora_request.lora_int_id`,
or a field of the parameter's annotated class in the same file), an item path of a
parameter by a string key (`kwargs["metadata"]["tenant_id"]`, `meta.get("user_id")`),
such a path that a helper of this module reads from a parameter (or a part of one) it
is handed (`self._call(kwargs, params)`; two helper levels and more; such a mapping
scopes a key only where it is handed on whole, not where another of its items is read,
`kwargs[k]`), a scope
ContextVar read, or a scope the object holds and a setter switches
(`use_adapter(a)` sets `self.active_adapter = a`; read here as `self.active_adapter`).
The message names the missing scope plainly: "the key does not include the tenant
(`req.tenant_id` is available here)". A request id alone does not demand scoping (a shared cache keyed on
it would never hit), a key holding a scope object's own id (`request.id`, `seq.uuid`,
`session.id`) is per-request or already scoped, a scope id computed only from what the key is built
from (`project_id = getattr(credentials, "project_id")` beside the key `credentials`) is
carried by the key, and a container stored in the value must depend on the scope:
a cache of scope-independent values is not reported (a slot taken from a free pool,
`free_ids.pop()`, stored under a content digest does depend: the request that took it
fills it, as a prefix cache's KV block). A chained block digest computed inline
(`prev = hash((prev, *chunk))` keying the cache) is reported at the digest, where the
previous key is first used and where the id belongs. A key on a path where the
scope id is known to be unset (`if user_id is None: return base_id`; after `if
key.cache_salt: return f"{base}@{key.cache_salt}"`, `return base`; `base if not salt
else ...`) is the shared bucket by design, so a builder that adds the id on every path
where it is set is not reported; a digest that only shortens part of a returned key that carries
the id is not the key; a value built from a fresh random value (`bcrypt.gensalt()`,
`os.urandom`, `uuid4()`: a password hash) is never looked up, so it is no key.
Only lookups and insertions are key uses: removing an entry (`pop`, `del`,
`discard`, also behind `if key in cache:`) serves nobody's data, and indexing a cache
by a key its own walk gave (`for k in self.data: self.data[k]`) reads an entry stored
under that key, scoped or not where it was stored (storing under such a key, `for k in
list(c): c[k] = render(tenant_id, k)`, writes this call's data under every key and is
reported). A record built only from the
entries of a container being walked (`PinnedKey(key=k, pin_count=n) for k, n in
pins.items()`) lists existing keys and is no new key (one more argument of other data,
`ChildKey(parent, tokens)`, makes it one), and a key whose whole value was compared with
the scope id before it is used (`if k.cache_salt != cache_salt: continue`, a
comprehension condition) carries that scope. An entry whose stored value records its
scope as a field (`cache[emb] = (question, answer, emb, session_id)`, `Entry(...,
tenant_id=tenant_id)`, a record of a class of this file) can be told apart by its
reader, so its key need not carry that scope, provided some reader of the cache compares
that field with the scope (`hit.tenant_id == tenant_id`, `session.name not in hit[3]`,
`check(entry, session)`); a stored field nobody compares protects no one. A value only computed from the scope (`render(tenant_id, q)`) does not record it. A key minted in the call (`uuid4().hex`, or the own
id of an object created here, `job.handle`, when its class fills that field from a
fresh value itself) is per call by construction (`id(obj)` is not: addresses of freed
objects are reused). A key the function maps to
its scope (it stores the bare scope id or scope object under the same key,
`SESSION_OF[run_id] = session_id`, or reads a scope id through it) belongs to that
scope: a run registry is how workers find a run's session, and adding the session to
its key would defeat the lookup. A scope value built only from the instance's own
attributes (`namespace = self.database_name + "." + self.collection_name`) does not
oblige a key of that instance's own cache (`self._stores`): it is one value for every
entry the cache ever holds; beside a module-level cache it still does. So is a
scope value that is an attribute of the instance fixed at construction (`self.namespace`
given to the constructor, here or as a field of a base class in another file, and
assigned by no other method of the class or its same-file bases): the instance is built
for one scope and its own containers are per scope (a setter that switches it, or
`setattr(self, ...)`, makes it shared again). A function that returns keys read out of
an existing store (`list(kv._data.keys())`, or a list filled only with the items of a
scan, `for key in batch: keys.append(key[len(prefix):])` after `cursor, batch = await
redis.scan(...)`, `async for doc in cursor`) lists keys stored elsewhere and builds
none. Likewise an
instance bound to one scope: a method that leaves unless the scope id it is given
equals the instance's own (`if session_id != self.config.session_id: raise` or
`return None`, an `assert`, or a helper called first that raises on the mismatch)
serves only that scope, so keys of the instance's own cache there need no session;
and a cache every insertion of which sits past such a guard holds only that scope's
entries, so reading it elsewhere is safe too. A guard that only logs pins nothing, and
a module-level cache is shared by every instance whatever the guard.

Not reported: a key function that dispatches on which of several optional inputs
the caller passed (`if client: return ("oauth", client.id) elif server: ...`): in the
branch keyed by one input, an alternative input tested only in a later branch (or
already found falsy by an earlier one) is not a missing scope id.

A key holding the id of one unit of work, generated per run (`task_id`, `job_id`,
`run_id`, `workflow_run_id`, as `request_id`; skyvern's memo by `task.workflow_run_id or
task.task_id`), cannot be shared across tenants: it is not reported. A web endpoint
named like a key builder (`block_key`, a route handler) returns the response, not a
key. A function named
after the key it looks up with (`get_script_by_cache_key_value`) that only returns what
it found and a flag (`return None, False`) builds no key.

A function builds a key by what its value is and where it goes, whatever it is called:
it returns builtin `hash()` values (also a list it appends them to, vLLM's chained
block hashes) or a digest (`hashlib.blake2b(...).hexdigest()`) that a caller uses as a
container key (an index, a membership test, the key of `get`/`setdefault`/`pop`).

## Why is this bad
A cache that outlives one request serves every tenant. If the key does not say
whose entry it is, tenant B gets tenant A's cached answer, a request with LoRA
adapter 2 reuses KV blocks computed with adapter 1 (wrong output), and shared
prefix blocks let one tenant time another's prompts (CVE-2025-46570).

## Example
```python
_ASSET_CACHE = LRUCache(maxsize=4096)

def execute(run: Run, generate):
    for step in run.steps:
        key = step_cache_key(step)
        if key not in _ASSET_CACHE:          # run.tenant_id is not in the key
            _ASSET_CACHE[key] = generate(run.tenant_id, step)
```

## Use instead
```python
        key = step_cache_key(run.tenant_id, step)
```
or append the id to the hashed tuple: `hash((parent, chunk, req.adapter_id))`.

## Fix safety
Unsafe (applied with `--fix --unsafe-fixes`): the fix adds the in-scope id to the
key — appended to the key's tuple, or the key wrapped as `(key, id)`. A hashlib or
xxhash digest takes bytes, never a tuple, so there the id goes inside the
`repr(...)`/`str(...)` the bytes come from (`repr((chunk, id))`), or is appended as
bytes (`data + repr(id).encode()`). No fix is offered for an inline key spelled at
several uses. The rewrite changes the key's shape, so existing entries stop
matching (the cache refills); code that decodes keys must be checked.

## Source
vllm-project/vllm#3263 (prefix caching ignored the LoRA adapter), vllm-project/vllm#17045
and CVE-2025-46570 (cache_salt for tenant-isolated prefix caching),
backblaze-labs/genblaze#68 (asset cache keyed on step fields only).
"""

    def check(self, facts):
        ck = cache_key_facts(facts)
        done: set[tuple[int, str]] = set()
        for sink in ck.sinks():
            fn = sink.function
            reach = ck.reach(fn)
            demanded = self._demanded(ck, sink, reach.demanded(include_self=self._self_ids_count(facts, sink)))
            # on a path where the scope id is known None (`if user_id is None: return base_id`)
            # the key is the shared bucket by design: there is no id to carry
            demanded = [(sid, text) for sid, text in demanded if not ck.known_none(fn, sink.node, text)
                        and _bound_before(fn, text, sink.node)
                        and not _alternative_input(facts, fn, text, sink.node)]
            if demanded and sink.keys:
                # a key part already compared with the scope value (`[... for key in c if
                # key.cache_salt == cache_salt]`, `if k.salt != salt: continue`) carries it
                names = ck.whole_names(fn, sink.keys)
                demanded = [(sid, text) for sid, text in demanded if not ck.filtered_on(fn, sink.node, text, names)]
            if demanded and sink.kind == "container":
                # a key the function maps to its scope (`SESSION_OF[run_id] = session_id`)
                # belongs to that one scope: it is not shared across it
                owned = ck.owned_scope_kinds(fn, sink.keys[0])
                # an entry whose stored value records its scope (`(q, answer, emb,
                # session_id)`) is told apart by the reader: the key need not carry it
                owned |= ck.entry_tagged_kinds(fn, sink.container, sink.values)
                demanded = [(sid, text) for sid, text in demanded if scope_kind(sid) not in owned]
            if demanded and sink.kind == "container" and sink.container.scope not in ("module", "class"):
                # a method that leaves unless the id equals the instance's own
                # (`if session_id != self.config.session_id: raise`) serves one scope; a
                # cache filled only past such guards holds that one scope's entries
                pinned = ck.pinned_exprs(fn, sink.node)
                filled = ck.filled_pinned_kinds(sink.container)
                demanded = [(sid, text) for sid, text in demanded
                            if text not in pinned and scope_kind(sid) not in filled]
            if not demanded:
                continue
            if sink.kind == "container" and ck.existing_key(fn, sink.keys[0], sink.container):
                continue  # `for k in self.data: self.data[k]`: an entry read back by its own key
            if sink.kind == "keyclass" and ck.rebuilt_from_entries(fn, sink.keys):
                continue  # `PinnedKey(key=k, pin_count=n) for k, n in pins.items()`: a listing
            if sink.kind == "container" and not ck.container_shared(fn, sink.container):
                continue
            if sink.kind == "container" and ck.per_call_key(fn, sink.keys[0]):
                continue  # minted in this call (uuid4, a new object's own id): no other call has it
            skip = ()
            if sink.kind == "container" and isinstance(sink.keys[0], ast.Name) \
                    and (got := ck.entry_of(fn, sink.keys[0].id)) and all(c is sink.container for c, _p in got):
                # `for k in list(c): c[k] = render(tenant_id, k)`: the key is one the
                # container holds; the values stored into it here are no part of it
                skip = (sink.container.name,)
            if _scoped(ck, facts, fn, sink.keys, skip):
                continue
            if sink.part_of and all(_scoped(ck, facts, o.function, o.keys) for o in sink.part_of):
                continue  # a part of keys that carry the scope themselves (`_make_key` adds the tenant)
            if sink.kind == "hash" and self._digest_only_part(ck, sink, demanded):
                continue
            if sink.kind == "container" and not self._value_depends_on_scope(ck, sink):
                continue
            ident = (id(fn), ast.dump(ck.resolve(fn, sink.keys[0])[0]) if sink.keys else "")
            if ident in done:
                continue
            done.add(ident)
            sid, text = demanded[0]
            kind = scope_kind(sid)
            plural = KIND_PLURAL.get(kind, f"values of {sid}")
            if sink.kind == "container":
                what = f"key `{key_text(facts, sink.keys[0])}` of shared cache `{sink.container.name}`"
            elif sink.kind == "hash":
                what = f"digest `{key_text(facts, sink.node)}` returned as a key by `{fn.name}()`"
            elif sink.kind == "keyclass":
                what = f"key `{key_text(facts, sink.node)}`"
            else:
                what = f"key `{key_text(facts, sink.node)}` built by `{fn.name}()`"
            if sink.kind == "container" and all(_flushed_on_switch(facts, ck, fn, t, sink.container.name)
                                                for _s, t in demanded):
                continue  # every setter that switches a scope it misses empties this cache: per scope
            fix = None
            obj = ck.switched_object(fn, text)
            chained = _chained_digest(ck, fn, sink) if sink.kind == "container" else None
            if chained is not None:
                anchor = _chain_anchor(ck, chained) if not obj else None
            else:
                anchor = fix_anchor(ck, sink) if not obj else None
            advice = f"add `{text}.{sid}` to the key" if obj else f"add `{text}` to the key"
            if anchor is not None:
                node, mode = anchor
                fix = Fix(
                    description=f"add `{text}` to the cache key",
                    safety=UNSAFE,
                    codemod="add_scope_id_to_key",
                    data={"line": node.lineno, "col": node.col_offset, "end_line": node.end_lineno,
                          "end_col": node.end_col_offset, "scope_expr": text, "mode": mode},
                )
            where = sink.node
            if sink.kind == "container":
                if chained is not None:
                    # `prev = hash((prev, *tokens))`: the key's first use is feeding the
                    # previous block's key into the next digest, where the id belongs
                    where = chained
                    what = f"chained digest `{key_text(facts, chained)}`, the key of shared cache " \
                           f"`{sink.container.name}`,"
            yield facts.finding(
                self, where,
                f"{what} does not include the {KIND_NOUN.get(kind, f'`{sid}`')} (`{text}` is available "
                f"here): entries are shared across {plural}; {advice}",
                fix=fix)

    @staticmethod
    def _self_ids_count(facts, sink) -> bool:
        """Do ids of a per-scope `self` oblige this key? For containers, yes (a module cache
        written by a per-tenant object). For digests and key builders only when they hash
        prefix/KV blocks (`Sequence.hash_of_block`), whose table is global by nature; a
        per-session object's own memo digests feed its own cache."""
        if sink.kind == "container":
            return True
        cls = facts.enclosing_class(sink.function)
        words = set(ident_words(sink.function.name)) | set(ident_words(cls.name if cls else ""))
        return bool(words & {"block", "blocks", "prefix", "kv"})

    @staticmethod
    def _digest_only_part(ck, sink, demanded) -> bool:
        """Is the digest only a part of what the builder returns, and does every returned
        key built from it carry a scope id (`f"{base[:n]}_{md5(base)}__{user_id}"`: the
        digest shortens a long base name, the key still includes the user), or sit on a
        path where every demanded scope value is unset (`if not tenant: return digest`,
        the shared bucket)?"""
        fn = sink.function
        rets = ck.returns_using(fn, sink.node)
        return bool(rets) and all(ck.hits(fn, ck.closure(fn, [r]))
                                  or all(ck.known_none(fn, r, text) for _sid, text in demanded) for r in rets)

    @staticmethod
    def _demanded(ck, sink, demanded):
        """Drop locals named like a scope id that are the cache's own data: the value it
        stores (`project_id = fetch(); cache[name] = project_id`), a name bound from the
        key itself (`user = sha256(username)...`), or one computed only from parameters the
        key is built from (`project_id = getattr(credentials, "project_id")` beside the key
        `credentials`: the key determines it)."""
        fn = sink.function
        local = ck.defs(fn)
        params = ck.params(fn)
        out = []
        value_names = {v.id for v in sink.values if isinstance(v, ast.Name)}
        per_instance = sink.kind == "container" and getattr(sink.container, "scope", None) not in (
            None, "module", "class")
        key_names = {n.id for n in ck.closure(fn, sink.keys) if isinstance(n, ast.Name)} if sink.keys else set()
        for sid, text in demanded:
            if text in local and text not in params:
                if text in value_names:
                    continue
                src = ck.closure(fn, [d.value for d in local[text]])
                if any(n is sink.node for n in src):
                    continue
                used = {n.id for n in src if isinstance(n, ast.Name) and n.id in params}
                if used and used <= key_names:
                    # `project_id = getattr(credentials, "project_id")` beside the key
                    # `credentials`: the id is a function of the key, which carries it
                    continue
                if per_instance and all(_instance_constant(d.value) for d in local[text]):
                    # `namespace = self.database_name + "." + self.collection_name` beside
                    # `self._cache`: one value for the container's whole life, so it
                    # cannot tell two of its entries apart
                    continue
            out.append((sid, text))
        return out

    @staticmethod
    def _value_depends_on_scope(ck, sink) -> bool:
        """Does what the container stores depend on a scope? (in this function, else
        at its other insertion sites in the file). Scope-independent values (a tokenizer
        per model name) may be shared whatever the key."""
        def touches(f, values) -> bool:
            clo = ck.closure(f, values)
            reach = ck.reach(f)
            roots = reach.roots | reach.item_roots
            return bool(ck.hits(f, clo)) or any(isinstance(n, ast.Name) and n.id in roots for n in clo)

        fn = sink.function
        # a content digest mapped to a slot taken from a pool (`free_ids.pop()`): the slot is
        # filled afterwards by the request that took it (a prefix-cache block table)
        content = bool(sink.keys) and ck.digest_derived(fn, sink.keys[0])

        def depends(f, values) -> bool:
            return touches(f, values) or content and any(ck.pooled_value(f, v) for v in values)

        if sink.values:
            return depends(fn, sink.values)
        return any(s.value is not None and s.function is not None and depends(s.function, [s.value])
                   for s in sink.container.inserts)


def _instance_constant(value: ast.AST | None) -> bool:
    """Is `value` built only from `self.` attributes and constants (no parameter, no
    other name, no call but str/format helpers)? Beside a `self.` cache such a value is
    the same for every entry the instance ever holds."""
    if value is None:
        return False
    for n in ast.walk(value):
        if isinstance(n, ast.Name) and n.id != "self":
            return False
        if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in ("str", "format")) \
                and not (isinstance(n.func, ast.Attribute) and n.func.attr in ("format", "join", "lower")):
            return False
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
               for n in ast.walk(value))


def _scoped(ck, facts, fn, keys, skip=()) -> bool:
    """Do the key expressions `keys` of def `fn` reach a scope value (the tenant, the
    adapter, a label naming one, a scope object's id), through what they are built from
    (`ck.closure`, leaving out the containers named in `skip`)?"""
    clo = ck.closure(fn, keys, skip=skip)
    return bool(ck.hits(fn, clo) or label_use(ck, fn, clo) or scope_object_id(facts, clo)
                or _per_run_id(clo))


def _per_run_id(nodes) -> bool:
    """Does the key hold the id of one unit of work (`PER_RUN_IDS`: `task.task_id`,
    `workflow_run_id`)? Generated per run, it is never shared across tenants."""
    return any((isinstance(n, ast.Name) and n.id in PER_RUN_IDS)
               or (isinstance(n, ast.Attribute) and n.attr in PER_RUN_IDS) for n in nodes)


def _flushed_on_switch(facts, ck, fn, text: str, container: str) -> bool:
    """Does the setter that switches `text` (`self.active_adapter`, a setter-switched
    attribute: `cache_keys.switched_scope_attrs`) also empty `container` (`self._c.clear()`,
    `self._c = {}`)? Then every entry in the cache was computed under the current scope,
    and a key without it cannot serve another scope's answer."""
    setter = ck.switch_setter(fn, text)
    if setter is None:
        return False
    for n in facts.walk(setter):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "clear" \
                and facts.dotted(n.func.value) == container and not n.args:
            return True
        if isinstance(n, ast.Assign) and any(facts.dotted(t) == container for t in n.targets) \
                and empty_container(facts, n.value):
            return True
    return False


def _chained_digest(ck, fn, sink) -> ast.AST | None:
    """The digest of a chained block key (`prev = hash((prev, *chunk))`, `h =
    sha256(h + data).hexdigest()`): the container's key is a local whose own earlier value
    is hashed into its next one, by a statement before the cache use. The digest call, or
    None when the key is not such a chain."""
    key = sink.keys[0] if sink.keys else None
    if not isinstance(key, ast.Name):
        return None
    for d in ck.defs(fn).get(key.id, ()):
        if d.kind not in ("assign", "aug") or d.stmt.lineno > sink.node.lineno:
            continue
        if not any(isinstance(n, ast.Name) and n.id == key.id and isinstance(n.ctx, ast.Load)
                   for n in ast.walk(d.value)) and d.kind != "aug":
            continue
        for n in ast.walk(d.value):
            if ck.digest_call(n):
                return n
    return None


def _chain_anchor(ck, digest: ast.AST) -> tuple[ast.AST, str] | None:
    """Where the fix puts the id into a chained digest: the tuple the builtin `hash()`
    digests (`hash((prev, chunk))` -> append), without starred parts; else no fix (a
    hashlib chain takes bytes built in ways the codemod does not rewrite)."""
    if ck.builtin_hash(digest) and len(digest.args) == 1 and isinstance(digest.args[0], ast.Tuple) \
            and digest.args[0].elts and not any(isinstance(e, ast.Starred) for e in digest.args[0].elts):
        return digest.args[0], "append"
    return None


def _bound_before(fn, text: str, node: ast.AST) -> bool:
    """Is the scope value `text` (`tenant_id`, `req.tenant_id`) available at `node`: its
    root name is a parameter of `fn`, not a local of `fn`, or a local bound by a
    statement that starts before `node`? A local first bound later in the function
    (`namespace = data.get(...)` in a branch after the `return` that builds the key)
    is not there to add."""
    root = text.split(".")[0].split("[")[0]
    a = fn.args
    if root in {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if x is not None}:
        return True
    where = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    bound = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id == root and isinstance(n.ctx, ast.Store):
            bound.append((n.lineno, n.col_offset))
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            bound.extend((n.lineno, n.col_offset) for al in n.names if (al.asname or al.name.split(".")[0]) == root)
    return not bound or min(bound) < where


def _alternative_input(facts, fn, text: str, node: ast.AST) -> bool:
    """Is the scope value `text` (`spawner.user`) rooted in a parameter that defaults to
    None and that the `if`/`elif` chain around `node` tests only in a later branch
    (`if oauth_client: return ("oauth", ...) elif spawner: return ("spawner", ...)`)?
    The chain dispatches on which of several alternative inputs the caller passed
    (jupyterhub's `_access_cache_key`): in the branch that keys by the first, the other
    is not an id the key lacks; nor is it in a branch after one that tested it alone
    (`elif service:` after `elif spawner:`, where the spawner is falsy)."""
    root = text.split(".")[0].split("[")[0]
    a = fn.args
    defaults = dict(zip([x.arg for x in (*a.posonlyargs, *a.args)][::-1], a.defaults[::-1]))
    defaults.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    d = defaults.get(root)
    if not (isinstance(d, ast.Constant) and d.value is None):
        return False
    child, cur = node, facts.parents.get(node)
    while cur is not None and cur is not fn:
        if isinstance(cur, ast.If) and any(child is b for b in cur.body):
            tested: set[str] = set()
            nxt = cur.orelse
            while len(nxt) == 1 and isinstance(nxt[0], ast.If):
                tested |= _tested_names(nxt[0].test)
                nxt = nxt[0].orelse
            if root in tested and root not in _tested_names(cur.test):
                return True
            # an earlier branch of the chain took `elif spawner:`: here it is falsy
            prev, up = cur, facts.parents.get(cur)
            while isinstance(up, ast.If) and len(up.orelse) == 1 and up.orelse[0] is prev:
                if root in _tested_names(up.test) and len(_tested_names(up.test)) == 1:
                    return True
                prev, up = up, facts.parents.get(up)
        child, cur = cur, facts.parents.get(cur)
    return False


def _tested_names(test: ast.AST) -> set[str]:
    """Names an `if` test checks for presence: `x`, `x is not None`, `x and y`."""
    if isinstance(test, ast.Name):
        return {test.id}
    if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and len(test.ops) == 1 \
            and isinstance(test.ops[0], ast.IsNot) and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None:
        return {test.left.id}
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return set().union(*(_tested_names(v) for v in test.values))
    return set()
