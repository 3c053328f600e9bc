# expect: 16 CTX403
"""A temperature pre-hook is registered on the same model at every decode step; the
local keeps only the newest handle, so the cleanup after the loop removes one hook
and leaves every earlier one running on later calls."""
import functools


def _set_temperature(module, args, kwargs, *, temperature):
    kwargs["temperature"] = temperature
    return args, kwargs


def sample_with_schedule(model, tokens, schedule):
    hook = None
    for temperature in schedule:
        hook = model.register_forward_pre_hook(
            functools.partial(_set_temperature, temperature=temperature), with_kwargs=True)
        tokens = model(tokens)
    if hook is not None:
        hook.remove()
    return tokens
