def capture_activations(model, layer, batch):
    captured = []
    handle = None
    layer.register_forward_hook(lambda mod, inp, out: captured.append(out.detach()))
    model(batch)
    return captured, handle
