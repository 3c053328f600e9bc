"""CTX504 cache-key-parts-untagged: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.cache_keys import (
    NON_DEMANDING_KINDS, SCOPE_KIND_WORDS, cache_key_facts, ident_words, scope_kind,
)
from ctxlint.semantic.python.keys import (
    KEY_TOKENS,
)


def _part_kinds(ck, fn, part: ast.AST) -> set[str]:
    """Scope kinds a key part carries: scope ids it reaches (not whole objects), else the
    kind its own name or callee says (`lora_extra_keys`, `_gen_mm_keys(...)`)."""
    kinds = {scope_kind(sid) for sid, _n in ck.hits(fn, ck.closure(fn, [part])) if sid != "<root>"}
    if kinds:
        return kinds
    name = None
    if isinstance(part, ast.Name):
        name = part.id
    elif isinstance(part, ast.Call):
        name = (ck.facts.dotted(part.func) or "").split(".")[-1]
    elif isinstance(part, ast.Attribute):
        name = part.attr
    # naming evidence only from variables and helper calls, never from constants
    # (`_TENANT_SCOPE_FIELDS` holds field names, not a tenant's value)
    if name and not name.isupper() and not isinstance(part, ast.Attribute):
        return {SCOPE_KIND_WORDS[w] for w in ident_words(name) if w in SCOPE_KIND_WORDS
                and SCOPE_KIND_WORDS[w] not in NON_DEMANDING_KINDS}
    return set()


def _tagged(ck, fn, part: ast.AST, depth: int = 0) -> bool:
    """Is a key part labelled with its kind (`("salt", s)`, `[("lora", name)]`, `{"tenant": t}`)
    or empty? Names are followed through their definitions."""
    if depth > 4:
        return False
    if isinstance(part, ast.Constant):
        return True
    if isinstance(part, ast.JoinedStr):
        # f"salt={s}", f"lora:{name!r}": a word before the first formatted value
        head = part.values[0] if part.values else None
        return isinstance(head, ast.Constant) and isinstance(head.value, str) and any(c.isalpha() for c in head.value)
    if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Add):
        # "adapter:" + name
        left = part.left
        while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add):
            left = left.left
        return isinstance(left, ast.Constant) and isinstance(left.value, str) and any(c.isalpha() for c in left.value)
    if isinstance(part, ast.Call) and _tagging_call(ck, part):
        return True
    if isinstance(part, (ast.Tuple, ast.List)):
        if not part.elts:
            return True
        first = part.elts[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return True
        return all(isinstance(e, (ast.Tuple, ast.List, ast.Dict)) and _tagged(ck, fn, e, depth + 1)
                   for e in part.elts)
    if isinstance(part, ast.Dict):
        return all(isinstance(k, ast.Constant) for k in part.keys)
    if isinstance(part, ast.IfExp):
        return _tagged(ck, fn, part.body, depth + 1) and _tagged(ck, fn, part.orelse, depth + 1)
    if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id in ("tuple", "list") \
            and len(part.args) == 1:
        return _tagged(ck, fn, part.args[0], depth + 1)
    if isinstance(part, ast.Name):
        ds = ck.defs(fn).get(part.id, [])
        return bool(ds) and all(_tagged(ck, fn, d.value, depth + 1) for d in ds if d.kind in ("assign", "aug", "mutate"))
    return False


def _distinct_tags(parts: list[ast.AST], tags: list[str]) -> list[str]:
    """Two parts of one kind (`lora_keys`, `weight_keys`: both adapter) get tags from
    their own names (`lora`, `weight`), so they cannot stand in for each other either."""
    out = list(tags)
    for i, (p, t) in enumerate(zip(parts, tags)):
        if t and tags.count(t) > 1:
            name = p.id if isinstance(p, ast.Name) else p.attr if isinstance(p, ast.Attribute) else ""
            words = [w for w in ident_words(name) if w not in ("key", "keys", "part", "parts", "extra")]
            if words:
                out[i] = "_".join(words)
    return out if len(set(filter(None, out))) == len([t for t in out if t]) else tags


_TAG_PARAMS = frozenset({"kind", "tag", "label", "namespace", "scope"})


def _tagging_call(ck, call: ast.Call) -> bool:
    """A helper that labels a part with a kind given as a string literal:
    `_key_part("lora", keys)` (what the `tag_key_parts` codemod writes), `tagged("salt", s)`
    — the first argument is a str literal and the callee is a same-file function whose
    first parameter is named kind/tag/label, or whose name says it tags."""
    if len(call.args) < 2 or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
        return False
    name = (ck.facts.dotted(call.func) or "").split(".")[-1]
    if not name:
        return False
    if {"tag", "tagged", "label", "labelled", "labeled"} & set(ident_words(name)):
        return True
    index = ck.facts.memo("ck_first_params", lambda: {
        fn.name: (fn.args.posonlyargs + fn.args.args)[0].arg if (fn.args.posonlyargs + fn.args.args) else ""
        for fn in ck.facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef)})
    return index.get(name) in _TAG_PARAMS


def _concat_parts(node: ast.AST) -> list[ast.AST] | None:
    """Operands of a sequence concatenation `a + b + c`, or the elements of a display with
    a starred part (`(*a, *b)`): the variable-length key shapes whose parts can slide."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts: list[ast.AST] = []
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                stack.append(n.right)
                stack.append(n.left)
            else:
                parts.append(n)
        if any(isinstance(p, (ast.Constant, ast.JoinedStr)) and not isinstance(getattr(p, "value", None), (tuple, list))
               for p in parts):
            return None  # string/number arithmetic, not a sequence key
        return parts
    if isinstance(node, (ast.Tuple, ast.List)) and any(isinstance(e, ast.Starred) for e in node.elts):
        return [e.value if isinstance(e, ast.Starred) else e for e in node.elts]
    return None


def _accumulated_parts(ck, fn, node: ast.AST, done: set) -> list[ast.AST] | None:
    """The parts of a key list built by `append`/`extend`/`+=` in `fn` (`extra = [];
    if lora: extra.append(lora.name); if salt: extra.append(salt)`), when `node` is a
    use of that list with at least two such additions; each list is judged once."""
    if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
        return None
    ds = ck.defs(fn).get(node.id, [])
    adds = [d.value for d in ds if d.kind in ("mutate", "aug")]
    if len(adds) < 2 or ("acc", id(fn), node.id) in done:
        return None
    done.add(("acc", id(fn), node.id))
    firsts = [e for d in ds if d.kind == "assign" and isinstance(d.value, (ast.List, ast.Tuple))
              for e in d.value.elts]
    return [*firsts, *adds]


class CacheKeyPartsUntagged(Rule):
    code = "CTX504"
    name = "cache-key-parts-untagged"
    summary = "A key concatenates bare values of two or more scope kinds: adapter name \"X\" equals salt \"X\"."
    tokens = KEY_TOKENS
    fix_safety = SAFE
    doc = """\
## What it does
Flags a cache key (or its extra-key list) assembled by concatenating
variable-length parts — `lora_keys + mm_keys + salt_keys`, `(*adapter_keys,
*salt_keys)`, a list that `append`s whichever ids are present — where two or more
parts carry different scope kinds (tenant, user, session, adapter/LoRA, cache salt,
multimodal hash) as bare values. Parts labelled with their kind
(`[("salt", s)]`, `{"tenant": t}`) are fine. The finding is at the key expression.

## Why is this bad
When a part may be empty, the parts slide: a request with LoRA "acme" and no salt
and a request with no LoRA and salt "acme" produce the same key, so one reuses the
other's cached KV blocks — an isolation break between adapters and tenants.

## Example
```python
lora_keys = [req.lora_name] if req.lora_name else []
salt_keys = [req.cache_salt] if req.cache_salt else []
extra_keys = lora_keys + salt_keys
```

## Use instead
```python
lora_keys = [("lora", req.lora_name)] if req.lora_name else []
salt_keys = [("cache_salt", req.cache_salt)] if req.cache_salt else []
extra_keys = lora_keys + salt_keys
```

## Fix safety
Safe: the fix (`tag_key_parts`) wraps each scope part as `(tag, part)`; keys change
shape but stay equal exactly when the tagged parts are equal. `data.tags` has one
string per part, "" for parts left as they are.

## Source
vllm-project/vllm prefix-caching extra keys (LoRA name, multimodal hashes and
cache_salt concatenated untagged before the tagged-key change); the cache_salt
design of vllm-project/vllm#17045.
"""

    def check(self, facts):
        ck = cache_key_facts(facts)
        done: set[int] = set()
        for sink in ck.sinks():
            fn = sink.function
            clo = sorted((n for n in ck.closure(fn, sink.keys) if hasattr(n, "lineno")),
                         key=lambda n: (n.lineno, n.col_offset))
            for n in clo:
                if id(n) in done:
                    continue
                p = facts.parents.get(n)
                if isinstance(n, ast.BinOp) and isinstance(p, ast.BinOp) and isinstance(p.op, ast.Add) and p.left is n:
                    continue  # the outermost `a + b + c` is judged as a whole
                parts = _concat_parts(n) or _accumulated_parts(ck, fn, n, done)
                if not parts:
                    continue
                done.add(id(n))
                tags: list[str] = []
                bare_kinds: list[str] = []
                for p in parts:
                    ks = _part_kinds(ck, fn, p)
                    if len(ks) == 1 and not _tagged(ck, fn, p):
                        k = next(iter(ks))
                        tags.append("cache_salt" if k == "salt" else "lora" if k == "adapter" else k)
                        bare_kinds.append(k)
                    else:
                        tags.append("")
                kinds = sorted(set(bare_kinds))
                if len(kinds) < 2:
                    continue
                tags = _distinct_tags(parts, tags)
                fix = Fix(description="tag each key part with its kind", safety=SAFE,
                          codemod="tag_key_parts",
                          data={"line": n.lineno, "col": n.col_offset, "end_line": n.end_lineno,
                                "end_col": n.end_col_offset, "tags": tags,
                                "parts": [[q.lineno, q.col_offset, q.end_lineno, q.end_col_offset]
                                          for q in parts]})
                yield facts.finding(
                    self, n,
                    f"key concatenates bare {', '.join(kinds)} parts: a value of one kind can equal "
                    "a value of another when a part is empty (adapter \"X\" = salt \"X\"); tag each part, "
                    "e.g. `(\"cache_salt\", salt)`", fix=fix)
