# expect: 11 CTX106
# expect: 19 CTX106
# expect: 26 CTX106
import os
from contextlib import contextmanager

@contextmanager
def env(k, v):
    old = os.environ[k]
    os.environ.update({k: v})
    yield
    os.environ[k] = old

@contextmanager
def patched(obj, new):
    old = obj.attr
    target = obj
    target.attr = new
    yield
    obj.attr = old

@contextmanager
def chdir_style(cfg, new):
    old = cfg.settings["mode"]
    cfg.settings.update(mode=new)
    yield
    cfg.settings["mode"] = old
