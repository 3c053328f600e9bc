def capture_activations(model, layer, batch):
    captured = []
    handle = None
    handle_1 = layer.register_forward_hook(lambda mod, inp, out: captured.append(out.detach()))
    try:
        model(batch)
        return captured, handle
    finally:
        handle_1.remove()
