_ASSET_CACHE = {}


def execute(run, generate):
    urls = []
    for step in run.steps:
        key = step_cache_key(step)
        if key not in _ASSET_CACHE:
            _ASSET_CACHE[key] = generate(run.tenant_id, step)
        urls.append(_ASSET_CACHE[key])
    return urls
