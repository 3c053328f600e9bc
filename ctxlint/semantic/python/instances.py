"""Instance-lifetime facts of a class of this module (read by CTX402).

What the module shows about how many instances of a class there are, how long they
live and how heavy they are — the evidence that decides whether a class-wide cache
keyed on `self` (`functools.lru_cache` on a method) keeps something alive that would
otherwise be freed:

- *many instances*: the class (or a subclass defined here) is constructed inside a
  function, other than as part of an owner (`__init__`-like methods, a value stored
  on `self` or another object), other than as an alternate constructor of the class
  itself, other than into a module global, by a memoized factory or in a function
  this module calls only at module level or from `__init__` (`main()` under
  `if __name__ == "__main__"`): once per loop iteration, or once per call of a
  factory or handler (`many_instances`);
- *per-request data*: its `__init__` takes a web framework's request object
  (`requests.REQUEST_TYPES`) (`per_request_init`);
- *a loadable model*: it derives (through bases defined here) from a well-known
  class whose instances are checkpoints loaded into memory with their weights
  (`MODEL_BASES`), which user code loads, deletes and reloads any number of times
  per process (`model_base`);
- *a torch module*: it derives from `torch.nn.Module` (`TORCH_MODULE_BASES`), so it
  holds tensors (`is_torch_module`);
- *an enumeration*: it derives from `enum.Enum`; its instances are its members,
  created once at import (`is_enum`);
- a method *returns tensors* when a `return` hands back the result of a `torch.*`
  call, a local bound to one, a method chain on one (`x.clone().contiguous()`), or a
  call of a method of the class (or a function of this module) that returns tensors
  (`returns_tensors`).

Base classes are matched by import-resolved qualified names; a relative import
(`from ...modeling_utils import PreTrainedModel`) is resolved against the file's
path, so the library's own files match too.
"""

from __future__ import annotations

import ast
from pathlib import PurePath

from ctxlint.semantic.python.syntax import FunctionNode

#: Well-known base classes of loadable models: instances hold a checkpoint's weights
#: and are created by `from_pretrained`-style loaders, any number per process.
#: Sources: transformers docs, "Models" (`PreTrainedModel`, `TFPreTrainedModel`,
#: `FlaxPreTrainedModel`; `PreTrainedAudioTokenizerBase` subclasses PreTrainedModel in
#: transformers/modeling_utils.py); diffusers docs, "ModelMixin" and "DiffusionPipeline";
#: peft docs, "PeftModel"; sentence-transformers docs, "SentenceTransformer";
#: huggingface_hub docs, "Mixins & serialization methods" (`PyTorchModelHubMixin`).
MODEL_BASES: frozenset[str] = frozenset({
    "transformers.PreTrainedModel", "transformers.modeling_utils.PreTrainedModel",
    "transformers.modeling_utils.PreTrainedAudioTokenizerBase",
    "transformers.TFPreTrainedModel", "transformers.modeling_tf_utils.TFPreTrainedModel",
    "transformers.FlaxPreTrainedModel", "transformers.modeling_flax_utils.FlaxPreTrainedModel",
    "diffusers.ModelMixin", "diffusers.models.ModelMixin", "diffusers.models.modeling_utils.ModelMixin",
    "diffusers.DiffusionPipeline", "diffusers.pipelines.DiffusionPipeline",
    "diffusers.pipelines.pipeline_utils.DiffusionPipeline",
    "peft.PeftModel", "peft.peft_model.PeftModel",
    "sentence_transformers.SentenceTransformer",
    "sentence_transformers.SentenceTransformer.SentenceTransformer",
    "huggingface_hub.PyTorchModelHubMixin", "huggingface_hub.hub_mixin.PyTorchModelHubMixin",
})
#: torch's module base class (PyTorch docs, torch.nn.Module): instances hold tensors.
TORCH_MODULE_BASES: frozenset[str] = frozenset({
    "torch.nn.Module", "torch.nn.modules.module.Module", "torch.nn.modules.Module",
})
#: Enumeration bases (Python docs, enum): instances are the members, made at import.
ENUM_BASES: frozenset[str] = frozenset({
    "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum",
})
#: Named-tuple bases (Python docs, typing.NamedTuple): the instance is a tuple of its
#: fields, hashed and compared by value.
NAMED_TUPLE_BASES: frozenset[str] = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
#: Field annotations whose values are plain immutable data (Python docs, built-in types).
_PLAIN_FIELD_TYPES = frozenset({"int", "float", "bool", "str", "bytes", "complex", "None"})
#: `torch.*` functions whose result is not a tensor (PyTorch docs, torch).
NON_TENSOR_TORCH_CALLS = frozenset({
    "device", "dtype", "finfo", "iinfo", "is_tensor", "is_storage", "is_floating_point", "is_complex",
    "is_nonzero", "numel", "get_default_dtype", "is_grad_enabled", "no_grad", "enable_grad",
    "inference_mode", "set_grad_enabled", "get_device", "compile", "manual_seed", "seed", "initial_seed",
    "is_inference_mode_enabled", "result_type", "promote_types", "can_cast",
})
#: Methods that run once per object (their constructions belong to the owner).
ONCE_PER_OBJECT = frozenset({"__init__", "__post_init__", "__new__", "__init_subclass__"})
#: Decorators that memoize a function: a factory so decorated builds one instance per key.
_MEMOIZERS = frozenset({"lru_cache", "cache", "cached", "memoize"})


def resolve_qualname(facts, expr: ast.AST) -> str | None:
    """`facts.qualname(expr)` with a relative import resolved against the file's path
    (`...modeling_utils.PreTrainedModel` in `transformers/models/x/modeling_x.py` ->
    "transformers.modeling_utils.PreTrainedModel"); the longest package path the file's
    directories give, so a caller should match on suffixes (`matches`)."""
    q = facts.qualname(expr)
    if not q or not q.startswith("."):
        return q
    level = len(q) - len(q.lstrip("."))
    rest = q[level:]
    parts = list(PurePath(str(facts.path)).parent.parts)
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if len(parts) >= level - 1 else []
    parts = [p for p in parts if p.isidentifier()]
    return ".".join([*parts, rest]) if parts else rest


def matches(qualname: str | None, table: frozenset[str]) -> str | None:
    """The entry of `table` that `qualname` names: equal, or, for a relative import
    resolved through the file's path, the entry that the qualname ends with."""
    if not qualname:
        return None
    if qualname in table:
        return qualname
    for entry in table:
        if qualname.endswith("." + entry):
            return entry
    return None


def in_module_classes(facts) -> dict[str, ast.ClassDef]:
    """Class name -> first ClassDef of that name in this module (`PythonFacts.classes_by_name`)."""
    return facts.classes_by_name


def base_qualnames(facts, cls: ast.ClassDef) -> list[tuple[ast.ClassDef, str]]:
    """(class, resolved qualname) of every base of `cls` and of its bases defined in
    this module, nearest first."""
    def build():
        classes = in_module_classes(facts)
        out: list[tuple[ast.ClassDef, str]] = []
        seen, todo = {id(cls)}, [cls]
        while todo:
            k = todo.pop(0)
            for b in k.bases:
                q = resolve_qualname(facts, b)
                if q:
                    out.append((k, q))
                local = classes.get(b.id) if isinstance(b, ast.Name) else None
                if local is not None and id(local) not in seen:
                    seen.add(id(local))
                    todo.append(local)
        return out
    return facts.memo(f"instances.bases.{id(cls)}", build)


def _derives(facts, cls: ast.ClassDef, table: frozenset[str]) -> str | None:
    for _, q in base_qualnames(facts, cls):
        hit = matches(q, table)
        if hit:
            return hit
    return None


def model_base(facts, cls: ast.ClassDef) -> str | None:
    """The entry of `MODEL_BASES` the class derives from, or None."""
    return _derives(facts, cls, MODEL_BASES)


def is_torch_module(facts, cls: ast.ClassDef) -> bool:
    """Does the class derive from `torch.nn.Module` (directly, through bases defined
    here, or through a loadable-model base, all of which are torch modules)?"""
    return bool(_derives(facts, cls, TORCH_MODULE_BASES) or model_base(facts, cls))


def is_enum(facts, cls: ast.ClassDef) -> bool:
    """Does the class derive from an `enum` base (`ENUM_BASES`)?"""
    return bool(_derives(facts, cls, ENUM_BASES))


def is_plain_value_type(facts, cls: ast.ClassDef) -> bool:
    """Is `cls` a value type whose instances hold nothing but plain immutable data: a
    `typing.NamedTuple` subclass, or a `@dataclass(frozen=True)`, whose annotated fields
    are all `int`/`float`/`bool`/`str`/`bytes`/`complex`/`None` (also `X | None`,
    `Optional[X]`, `tuple[X, ...]` of those), and whose body assigns no other `self.`
    attribute? Such an instance is hashed and compared by its field values (equal ones
    share one cache entry), and keeping it alive keeps only those few values (textual's
    `Color(NamedTuple)` of ints and a float)."""
    named = bool(_derives(facts, cls, NAMED_TUPLE_BASES))
    frozen = any(isinstance(d, ast.Call) and (facts.qualname(d.func) or "").endswith("dataclass")
                 and any(k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value is True
                         for k in d.keywords) for d in cls.decorator_list)
    if not (named or frozen):
        return False
    fields = [st for st in cls.body if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)]
    if not fields or not all(scalar_annotation(st.annotation, containers=True) for st in fields):
        return False
    return not any(isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                   and isinstance(n.value, ast.Name) and n.value.id == "self" for n in ast.walk(cls))


def scalar_annotation(ann: ast.AST | None, containers: bool = False) -> bool:
    """Is `ann` a Python scalar type (`float`, `Optional[float]`, `int | None`,
    `Union[int, str]`, the string form `"int"`)? With `containers`, an immutable
    container of such (`tuple[int, ...]`, `frozenset[str]`) counts too. Shared by CTX402
    (`is_plain_value_type`) and CTX406 (a scalar `forward` argument holds no graph)."""
    if ann is None:
        return False
    if isinstance(ann, ast.Constant):
        return ann.value is None or (isinstance(ann.value, str) and ann.value.strip() in _PLAIN_FIELD_TYPES)
    if isinstance(ann, ast.Name):
        return ann.id in _PLAIN_FIELD_TYPES
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return scalar_annotation(ann.left, containers) and scalar_annotation(ann.right, containers)
    if isinstance(ann, ast.Subscript):
        head = ann.value.attr if isinstance(ann.value, ast.Attribute) else getattr(ann.value, "id", "")
        parts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        if head in ("Optional", "Union") or (containers and head in ("tuple", "Tuple", "FrozenSet", "frozenset")):
            return all((containers and isinstance(p, ast.Constant) and p.value is Ellipsis)
                       or scalar_annotation(p, containers) for p in parts)
    return False


def subclasses(facts, cls: ast.ClassDef) -> list[ast.ClassDef]:
    """`cls` and the classes of this module that derive from it (transitively)."""
    out = [cls]
    changed = True
    while changed:
        changed = False
        names = {c.name for c in out}
        for c in facts.nodes(ast.ClassDef):
            if c not in out and any(isinstance(b, ast.Name) and b.id in names for b in c.bases):
                out.append(c)
                changed = True
    return out


def _constructions(facts, cls: ast.ClassDef) -> list[ast.Call]:
    """Calls of this module that construct `cls` by its name (`Cls(...)`, or through a
    module-level alias resolved by the value facts)."""
    out = [c for c in facts.nodes(ast.Call) if isinstance(c.func, ast.Name) and c.func.id == cls.name]
    if out:
        return out
    # the class object handed around (`Alias = Cls`, `make(Cls)`): resolve calls by value
    for n in facts.nodes(ast.Name):
        if n.id == cls.name and isinstance(n.ctx, ast.Load) and not isinstance(facts.parents.get(n), ast.ClassDef):
            from ctxlint.semantic.python.values import module_values
            return list(module_values(facts).calls_to(cls))
    return []


def many_instances(facts, cls: ast.ClassDef) -> tuple[ast.Call, str] | None:
    """A construction of `cls` (or of a subclass defined here) that makes a new
    instance per loop iteration or per call of a function, with the reason in words
    ("in a loop in `read_all()`", "on every call of `view_for_block()`"); None when
    every construction is at module level, part of an owner (`__init__`-like, stored
    on `self`), a module global, an alternate constructor of the class itself, or in a
    memoized factory."""
    family = subclasses(facts, cls)
    for k in family:
        for c in _constructions(facts, k):
            fn = facts.enclosing_function(c)
            if fn is None or fn.name in ONCE_PER_OBJECT:
                continue
            owner = facts.enclosing_class(fn)
            if owner is not None and owner in family:
                continue  # an alternate constructor (`from_config`) of the class itself
            if _memoized(facts, fn) or _stored_long_lived(facts, c, fn) or _runs_once(facts, fn) \
                    or lazy_singleton(facts, c, fn):
                continue
            loop = _enclosing_loop(facts, c, fn)
            if loop is not None:
                return c, f"`{k.name}` is constructed in a loop in `{fn.name}()` (line {c.lineno})"
            return c, f"`{fn.name}()` constructs a new `{k.name}` on every call (line {c.lineno})"
    return None


def _memoized(facts, fn: ast.AST) -> bool:
    for d in getattr(fn, "decorator_list", ()):
        q = facts.qualname(d.func if isinstance(d, ast.Call) else d) or ""
        if q.split(".")[-1] in _MEMOIZERS:
            return True
    return False


def _stored_long_lived(facts, call: ast.Call, fn: ast.AST) -> bool:
    """Is the new instance stored straight on an owner (`self.x = ...`,
    `app.state.engine = ...`) or into a module global?"""
    p = facts.parents.get(call)
    if not isinstance(p, (ast.Assign, ast.AnnAssign)):
        return False
    targets = p.targets if isinstance(p, ast.Assign) else [p.target]
    declared = {n for s in ast.walk(fn) if isinstance(s, ast.Global) for n in s.names}
    for t in targets:
        if isinstance(t, ast.Attribute):
            return True
        if isinstance(t, ast.Name) and t.id in declared:
            return True
    return False


def _slot_text(facts, e: ast.AST, declared: set[str]) -> str | None:
    """The text of a long-lived slot `e` names: a module global the function declares
    `global`, or a class attribute (`cls._instance`, `Registry._instance`); else None."""
    if isinstance(e, ast.Name) and e.id in declared:
        return e.id
    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and (
            e.value.id == "cls" or e.value.id in facts.classes_by_name):
        return f"{e.value.id}.{e.attr}"
    return None


def _unset_test(facts, test: ast.AST, declared: set[str]) -> str | None:
    """The slot an `if` test says is not built yet (`G is None`, `not G`), or None."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        return _slot_text(facts, test.left, declared)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _slot_text(facts, test.operand, declared)
    return None


def lazy_singleton(facts, call: ast.Call, fn: ast.AST) -> bool:
    """Is construction `call` the lazy build of a singleton: it runs only under
    `if <slot> is None:` (or `if not <slot>:`; a lock and a second check inside are
    the double-checked form), and the new instance — directly or through the local it
    is bound to — is assigned to that same slot inside the guarded block? The slot is
    a module global (declared `global`) or a class attribute (`cls._instance`). Every
    later call finds the slot set and skips the construction: one instance per
    process, not one per call (the "lazy initialization" / double-checked locking
    idiom; Python docs, `threading.Lock`, and the Singleton recipes built on it)."""
    declared = {n for s in ast.walk(fn) if isinstance(s, ast.Global) for n in s.names}
    p = facts.parents.get(call)
    names: set[str] = set()
    if isinstance(p, (ast.Assign, ast.AnnAssign)) and p.value is call:
        for t in (p.targets if isinstance(p, ast.Assign) else [p.target]):
            slot = _slot_text(facts, t, declared)
            if slot:
                names.add("slot:" + slot)
            elif isinstance(t, ast.Name):
                names.add(t.id)
    if not names:
        return False
    for a in facts.ancestors(call):
        if a is fn:
            return False
        if not (isinstance(a, ast.If) and _inside_body(facts, call, a.body)):
            continue
        slot = _unset_test(facts, a.test, declared)
        if slot is None:
            continue
        if "slot:" + slot in names:
            return True
        for n in ast.walk(a):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in names \
                    and n.lineno > call.lineno \
                    and any(_slot_text(facts, t, declared) == slot for t in n.targets):
                return True
    return False


def _inside_body(facts, node: ast.AST, body: list) -> bool:
    ids = {id(s) for s in body}
    return any(id(a) in ids for a in facts.ancestors(node))


def _runs_once(facts, fn: ast.AST) -> bool:
    """Is every call of `fn` in this module at module level (`if __name__ ==
    "__main__": main()`) or in an `__init__`-like method? A function nobody here
    calls is not known to run once."""
    from ctxlint.semantic.python.values import module_values
    calls = module_values(facts).calls_to(fn)
    if not calls:
        return False
    for c in calls:
        caller = facts.enclosing_function(c)
        if caller is not None and caller.name not in ONCE_PER_OBJECT:
            return False
    return True


def _enclosing_loop(facts, node: ast.AST, fn: ast.AST) -> ast.AST | None:
    for a in facts.ancestors(node):
        if a is fn:
            return None
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp,
                          ast.GeneratorExp)):
            return a
    return None


def per_request_init(facts, cls: ast.ClassDef) -> str | None:
    """The request type an `__init__` parameter of the class is annotated with
    (`def __init__(self, request: starlette.requests.Request)`), or None."""
    from ctxlint.semantic.python.requests import is_request_type
    init = next((s for s in cls.body if isinstance(s, FunctionNode) and s.name == "__init__"), None)
    if init is None:
        return None
    for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs):
        if a.annotation is None:
            continue
        for n in ast.walk(a.annotation):
            if isinstance(n, (ast.Name, ast.Attribute)):
                q = facts.qualname(n)
                if q and is_request_type(q):
                    return q
    return None


def returns_tensors(facts, fn: ast.AST, cls: ast.ClassDef | None, depth: int = 2) -> bool:
    """Does a `return` of `fn` hand back tensors (see the module doc)?"""
    for n in facts.walk(fn):
        if isinstance(n, ast.Return) and n.value is not None and _tensor_expr(facts, n.value, fn, cls, depth, 3):
            return True
    return False


def _tensor_expr(facts, e: ast.AST, fn: ast.AST, cls, depth: int, hops: int) -> bool:
    if hops <= 0:
        return False
    if isinstance(e, (ast.Tuple, ast.List)):
        return any(_tensor_expr(facts, x, fn, cls, depth, hops) for x in e.elts)
    if isinstance(e, ast.BinOp):
        return _tensor_expr(facts, e.left, fn, cls, depth, hops) or _tensor_expr(facts, e.right, fn, cls, depth, hops)
    if isinstance(e, ast.Subscript):
        return _tensor_expr(facts, e.value, fn, cls, depth, hops)
    if isinstance(e, ast.Name):
        for n in facts.walk(fn):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == e.id for t in n.targets) \
                    and _tensor_expr(facts, n.value, fn, cls, depth, hops - 1):
                return True
        return False
    if isinstance(e, ast.Call):
        q = facts.qualname(e.func) or ""
        parts = q.split(".")
        if (len(parts) == 2 and parts[0] == "torch" and parts[1] not in NON_TENSOR_TORCH_CALLS
                and parts[1][:1].islower()) or q.startswith("torch.nn.functional."):
            return True
        f = e.func
        if isinstance(f, ast.Attribute):
            if isinstance(f.value, ast.Name) and f.value.id == "self" and cls is not None and depth > 0:
                from ctxlint.semantic.python.calls import call_graph
                m = call_graph(facts).find_method(cls, f.attr)
                return m is not None and m is not fn and returns_tensors(facts, m, cls, depth - 1)
            return _tensor_expr(facts, f.value, fn, cls, depth, hops)  # x.clone().contiguous()
    return False


def from_parameters(facts, fn: ast.AST, expr: ast.AST, depth: int = 3) -> bool:
    """Is `expr` computed from `fn`'s parameters (other than `self`), through local
    assignments, unpacking and loop variables (`frame, h, w = fhw` with `for fhw in
    video_fhw`)?"""
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)} - {"self", "cls"}
    if fn.args.vararg:
        params.add(fn.args.vararg.arg)
    if fn.args.kwarg:
        params.add(fn.args.kwarg.arg)
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    if names & params:
        return True
    if depth <= 0:
        return False
    for n in facts.walk(fn):
        src, tgt = None, None
        if isinstance(n, ast.Assign):
            src, tgt = n.value, n.targets
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            src, tgt = n.iter, [n.target]
        if src is None:
            continue
        bound = {m.id for t in tgt for m in ast.walk(t) if isinstance(m, ast.Name)}
        if bound & names and from_parameters(facts, fn, src, depth - 1):
            return True
    return False
