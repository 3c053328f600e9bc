# expect: none
"""Each decode step removes its own pre-hook before the next one is registered; the
layer loop in `trace_layers` hooks a different module per iteration and keeps every
handle."""
import functools


def _set_temperature(module, args, kwargs, *, temperature):
    kwargs["temperature"] = temperature
    return args, kwargs


def sample_with_schedule(model, tokens, schedule):
    for temperature in schedule:
        hook = model.register_forward_pre_hook(
            functools.partial(_set_temperature, temperature=temperature), with_kwargs=True)
        try:
            tokens = model(tokens)
        finally:
            hook.remove()
    return tokens


def trace_layers(model, record):
    handles = []
    for layer in model.layers:
        handle = layer.register_forward_hook(record)
        handles.append(handle)
    return handles
