# expect: none
# A step cache key is a digest fed by many `update()` calls; the tenant's project id
# goes in first. Every part fed to the digest is part of the key, however far down the
# function the digest is read.
import hashlib
import json

_STEP_CACHE: dict[str, bytes] = {}


def step_cache_key(step, project_id: str) -> str:
    h = hashlib.md5()
    h.update(project_id.encode())
    h.update(json.dumps(sorted(step.config.sections[0].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[1].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[2].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[3].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[4].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[5].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[6].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[7].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[8].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[9].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[10].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[11].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[12].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[13].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[14].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[15].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[16].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[17].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[18].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[19].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[20].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[21].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[22].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[23].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[24].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[25].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[26].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[27].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[28].items()), sort_keys=True, default=str).encode())
    h.update(json.dumps(sorted(step.config.sections[29].items()), sort_keys=True, default=str).encode())
    return h.hexdigest()


def cached_output(step, project_id: str):
    return _STEP_CACHE.get(step_cache_key(step, project_id))


def store_output(step, project_id: str, output: bytes) -> None:
    _STEP_CACHE[step_cache_key(step, project_id)] = output
