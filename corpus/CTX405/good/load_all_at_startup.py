# expect: none
def load_serving_adapters(model, adapter_dirs: dict) -> list[str]:
    """Multi-adapter serving: every configured adapter is meant to stay resident."""
    loaded = []
    for name, path in adapter_dirs.items():
        model.load_adapter(path, adapter_name=name)
        loaded.append(name)
    return loaded
