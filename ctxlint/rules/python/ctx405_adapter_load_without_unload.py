"""CTX405 adapter-load-without-unload: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule


#: Well-known adapter-loading APIs: peft `PeftModel.load_adapter`/`add_adapter`,
#: diffusers `load_lora_weights`, transformers' PeftAdapterMixin `load_adapter`/`add_adapter`.
_LOAD_ADAPTER = {"load_adapter", "add_adapter", "load_lora_weights", "load_lora_adapter"}
#: The APIs that undo them: peft `delete_adapter`/`merge_and_unload`/`unload`, diffusers
#: `unload_lora_weights`/`delete_adapters`, vLLM `remove_lora`.
_UNLOAD_ADAPTER = {"delete_adapter", "delete_adapters", "unload", "unload_lora_weights",
                   "remove_adapter", "unload_lora", "delete_lora", "remove_lora",
                   "merge_and_unload", "unload_lora_adapter", "delete_adapter_layers"}


class AdapterLoadWithoutUnload(Rule):
    code = "CTX405"
    reported_when = (
        "always: the class or function shows the leak by itself (an entry that a path it owns never removes).")
    name = "adapter-load-without-unload"
    summary = "An adapter loaded and used inside a loop with no delete_adapter/unload in the loop or a finally."
    tokens = ("load_adapter", "add_adapter", "load_lora_weights", "load_lora_adapter")
    doc = """\
## What it does
Flags `load_adapter`/`add_adapter`/`load_lora_weights` inside a loop that also
uses the model it loads into (another method of it such as `set_adapter` or
`generate`, a call of the model, or the model passed to a function such as
`evaluate(model, batch)`), when neither the loop body nor a `finally` of the function calls
`delete_adapter`/`delete_adapters`/`unload*`/`unload_lora_weights`.

Test code is not checked (`test_*.py`, `*_test.py`, `conftest.py`, modules
importing `pytest` or `unittest`: `PythonFacts.is_test_code`): a test's fakes and
fixtures live for one test.

## Why is this bad
Each loaded adapter stays registered in the shared model's per-adapter module
dicts (`lora_A`, `lora_B`, scalings, ...). A sweep or a per-request loop over
adapters keeps every one of them resident: GPU memory grows with the number of
adapters until the process runs out.

## Example
```python
for name, path in adapter_dirs.items():
    model.load_adapter(path, adapter_name=name)
    model.set_adapter(name)
    scores[name] = evaluate(model, batch)
```

## Use instead
```python
for name, path in adapter_dirs.items():
    model.load_adapter(path, adapter_name=name)
    try:
        model.set_adapter(name)
        scores[name] = evaluate(model, batch)
    finally:
        model.set_adapter("default")
        model.delete_adapter(name)
```

## Fix safety
No automatic fix: which adapter to switch back to is the caller's choice.

## Source
huggingface/peft#738 (memory grows when loading adapters in a loop).
"""

    def check(self, facts):
        if facts.is_test_code:
            return  # a test's state lives for one test (PythonFacts.is_test_code)
        for call in facts.nodes(ast.Call):
            attr = call.func.attr if isinstance(call.func, ast.Attribute) else None
            if attr not in _LOAD_ADAPTER:
                continue
            fn = facts.enclosing_function(call)
            loop = None
            for a in facts.ancestors(call):
                if a is fn:
                    break
                if isinstance(a, (ast.For, ast.AsyncFor, ast.While)):
                    loop = a
                    break
            if loop is None:
                continue
            calls = [n for n in facts.walk(loop, into_defs=True) if isinstance(n, ast.Call)]
            names = [(n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")) for n in calls]
            if any(n in _UNLOAD_ADAPTER or n.startswith("unload") for n in names):
                continue
            if not _uses_model(facts, loop, call):
                continue  # loads only (a start-up loop registering every adapter to serve them all)
            if fn is not None and _finally_unloads(facts, fn):
                continue
            yield facts.finding(self, call,
                                f"`{attr}()` in a loop that uses each adapter, with no `delete_adapter`/`unload` "
                                "in the loop or a `finally`: every adapter stays resident in the model")


def _uses_model(facts, loop, load: ast.Call) -> bool:
    """Does the loop use the model it loads into, besides loading: another method called
    on the same receiver (`model.set_adapter(name)`, `model.generate(...)`), the model
    called (`model(x)`), or the model passed to a call (`evaluate(model, batch)`)?"""
    recv = facts.dotted(load.func.value)
    if not recv:
        return False
    for n in facts.walk(loop, into_defs=True):
        if not isinstance(n, ast.Call) or n is load:
            continue
        f = n.func
        if isinstance(f, ast.Attribute) and facts.dotted(f.value) == recv and f.attr not in _LOAD_ADAPTER:
            return True
        if facts.dotted(f) == recv:
            return True
        if any(facts.dotted(a) == recv for a in [*n.args, *(k.value for k in n.keywords)]):
            return True
    return False


def _finally_unloads(facts, fn) -> bool:
    for t in facts.walk(fn, into_defs=False):
        if isinstance(t, ast.Try):
            for s in t.finalbody:
                for n in ast.walk(s):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                            (n.func.attr in _UNLOAD_ADAPTER or n.func.attr.startswith("unload")):
                        return True
    return False
