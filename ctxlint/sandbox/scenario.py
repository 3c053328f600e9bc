"""The sandbox's workload and its invariant checks (A)-(G). Runs in the child process.

torch is imported lazily here (inside the functions): the linter never imports it.

Workload (seeded, identical in every round; request ids carry the round):
  - a pool of `POOL_BLOCKS` blocks of `BLOCK_SIZE` tokens (the manager's own);
  - a `PREFIX_TOKENS`-token system prefix shared by every request;
  - 32 requests = 4 tenants x {base, adapter A, adapter B, adapter labelled "X"} x 2;
    the 8 base-model ones are multimodal (one image each, digest "img-1" for the
    first of each pair, "img-2" for the second, identical token ids otherwise); the
    two requests of an adapter pair differ only in their suffix;
  - collision probes: a tenant whose cache salt is "X" (base model) against a
    salt-less tenant using an adapter labelled "X" with the same tokens; adapter "A"
    reloaded under the same label with new weights (new digest), same tokens;
  - 10 aborts at fixed points: 3 queued, 3 between prefix match and allocation,
    3 mid-decode, 1 asyncio task cancelled while its submit awaits the scheduler;
  - each freshly computed KV block's payload is filled with its owner's scope code,
    so a cross-scope prefix hit also shows as wrong content.
A warm-up round is followed by `MEASURED_ROUNDS` rounds.

Checks (exact counts):
  A free list back to the pool size, no block twice in it, no block handed to two live
    requests at once;
  B every per-request registry empty after each round (those the manager declares, and
    any other container on it still holding one of the round's request ids);
  C no prefix hit across (tenant salt, adapter id, adapter digest, image digests), no
    wrong payload content, and each same-tenant same-adapter pair shares exactly the
    3 prefix blocks (a cache that is off fails too);
  D memory steady over the measured rounds: tracemalloc growth under 64 KiB on CPU,
    `torch.cuda.memory_allocated()` delta 0 on CUDA;
  E 20 adapters loaded, used and deleted (3 while the body raises): every weakref dead
    after gc, hook count back to baseline, every adapter changed the output;
  F the encoder embedding cache drains to 0 entries;
  G the mean loss a training epoch returns carries no autograd history.

Sources: vLLM prefix caching (block hash chained over parent hash, tokens and extra
keys: LoRA, cache salt, multimodal hashes; vllm-project/vllm#17045, #30931), SGLang
`pad_input_ids`, PEFT hook handling (huggingface/peft#2761), ray-project/ray#40940.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import inspect
import random
import tracemalloc
import weakref
from dataclasses import dataclass, field
from typing import Any, Optional

from ctxlint.sandbox.protocol import IMAGE_TOKEN_ID, Request, Target

POOL_BLOCKS = 64
BLOCK_SIZE = 16
PREFIX_TOKENS = 48
PREFIX_BLOCKS = PREFIX_TOKENS // BLOCK_SIZE
TENANTS = (("t0", "salt-0"), ("t1", "salt-1"), ("t2", "salt-2"), ("t3", "salt-3"))
ADAPTER_LABELS = (None, "A", "B", "X")
WAVE = 4
DECODE_TOKENS = 16
MEASURED_ROUNDS = 5
CPU_GROWTH_LIMIT = 64 * 1024  # bytes
N_ADAPTERS = 20
RAISING_ADAPTERS = (3, 9, 15)
ABORT_KINDS = ("queued", "matched", "mid-decode", "queued", "matched", "mid-decode",
               "async-cancel", "queued", "matched", "mid-decode")


class SyntheticFailure(RuntimeError):
    """Raised on purpose inside an adapter body (check E)."""


@dataclass
class CheckResult:
    """One invariant's outcome: passed is None when the target lacks the part it needs."""

    id: str
    name: str
    passed: Optional[bool]
    numbers: dict = field(default_factory=dict)
    detail: str = ""

    def as_dict(self) -> dict:
        """{id, name, passed, numbers, detail}: JSON-able, as in the sandbox report."""
        return {"id": self.id, "name": self.name, "passed": self.passed,
                "numbers": self.numbers, "detail": self.detail}


_GRID_DIGEST = object()  # "the grid's digest for this adapter label"


def _digest(*parts: object) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16]


@dataclass
class _Live:
    req: Request
    image_blocks: list[int]
    blocks: list[int] = field(default_factory=list)
    prompt_idents: set = field(default_factory=set)
    acquired: bool = False


class Workload:
    """The seeded request set of one round (the same token ids every round)."""

    def __init__(self, seed: int):
        rng = random.Random(seed)
        tok = lambda n: tuple(rng.randrange(1, 30000) for _ in range(n))  # noqa: E731
        self.system = tok(PREFIX_TOKENS)
        self.digests = {label: _digest(label, "v1", seed) for label in ADAPTER_LABELS if label}
        self.reload_digest = _digest("A", "v2", seed)
        self.grid: list[tuple[str, Optional[str], int, tuple, tuple]] = []
        for tenant, _salt in TENANTS:
            mm_suffix = tok(12)
            for label in ADAPTER_LABELS:
                for k in (0, 1):
                    if label is None:
                        toks = self.system + (IMAGE_TOKEN_ID,) * BLOCK_SIZE + mm_suffix
                        imgs = (f"img-{k + 1}",)
                    else:
                        toks = self.system + tok(20)
                        imgs = ()
                    self.grid.append((tenant, label, k, toks, imgs))
        self.probe_tokens = self.system + tok(20)
        self.reload_tokens = self.system + tok(20)
        self.abort_tokens = [self.system + tok(8) for _ in ABORT_KINDS]
        self.decode = [tuple(rng.randrange(1, 30000) for _ in range(20)) for _ in range(8)]

    def request(self, rid: str, tenant: str, salt: Optional[str], label: Optional[str],
                toks: tuple, imgs: tuple = (), digest: Any = _GRID_DIGEST) -> Request:
        """A `Request` of the workload: `rid` request id, `tenant`/`salt` its tenant
        and cache salt, `label` its adapter (None: base model), `toks` token ids,
        `imgs` image digests; `digest` is the adapter's weight digest (default:
        the grid's digest for `label`)."""
        if digest is _GRID_DIGEST:
            digest = self.digests[label] if label else None
        return Request(rid, tenant, salt, label, digest, toks, imgs)


class Driver:
    """Runs the workload against one target and collects the numbers for the checks."""

    def __init__(self, target: Target, device: str, seed: int):
        import torch
        self.torch = torch
        self.t = target
        self.kv = target.kv
        self.device = device
        self.w = Workload(seed)
        self.salts = dict(TENANTS)
        self.codes: dict[tuple, int] = {}
        self.scopes: dict[int, tuple] = {}
        self.owner: dict[int, tuple[int, int]] = {}
        self.incarnation = 0
        self.held: dict[int, set[str]] = {}
        self.live: dict[str, _Live] = {}
        self.c = {"hits": 0, "cross_scope_hits": 0, "wrong_content_blocks": 0, "double_allocations": 0,
                  "hits_beyond_prompt": 0, "acquires": 0, "releases": 0, "async_cancelled": 0}
        self.cross_kinds: dict[str, int] = {}
        self.pair_shared: dict[tuple, int] = {}
        self.rounds: list[dict] = []
        self.round_ids: set[str] = set()

    # -------------------------------------------------------------- bookkeeping
    def code(self, scope: tuple) -> int:
        """A small int naming a cache scope (salt, adapter, digest, images), written
        into the blocks of that scope so a cross-scope hit shows in the payload."""
        c = self.codes.get(scope)
        if c is None:
            c = self.codes[scope] = len(self.codes) + 1
            self.scopes[c] = scope
        return c

    def block_scope(self, live: _Live, index: int) -> tuple:
        """The scope block `index` of a live request must belong to: its salt,
        adapter id and digest, and the image digests up to that block."""
        r = live.req
        n_img = sum(1 for b in live.image_blocks if b <= index)
        return (r.tenant_salt, r.adapter_id, r.adapter_digest, r.image_digests[:n_img])

    def _kind(self, got: tuple, want: tuple) -> str:
        names = ("salt", "adapter", "digest", "image")
        return "+".join(n for n, a, b in zip(names, got, want) if a != b) or "same"

    def _write(self, live: _Live, new_blocks: list[int], first_index: int, prompt: bool) -> None:
        rid = live.req.request_id
        for j, b in enumerate(new_blocks):
            others = self.held.setdefault(b, set())
            if others - {rid}:
                self.c["double_allocations"] += 1
            others.add(rid)
            code = self.code(self.block_scope(live, first_index + j))
            self.incarnation += 1
            self.owner[b] = (code, self.incarnation)
            self.kv.block_payload(b).fill_(float(code))
            if prompt:
                live.prompt_idents.add((b, self.incarnation))
        live.blocks.extend(new_blocks)

    def _check_hits(self, live: _Live, hits: list[int]) -> None:
        full = len(live.req.token_ids) // BLOCK_SIZE
        if len(hits) > full:
            self.c["hits_beyond_prompt"] += len(hits) - full
        for i, b in enumerate(hits):
            self.c["hits"] += 1
            want = self.code(self.block_scope(live, i))
            own = self.owner.get(b)
            if own is None or own[0] != want:
                self.c["cross_scope_hits"] += 1
                kind = self._kind(self.scopes[own[0]], self.scopes[want]) if own else "never-written"
                self.cross_kinds[kind] = self.cross_kinds.get(kind, 0) + 1
            if bool((self.kv.block_payload(b) != float(want)).any()):
                self.c["wrong_content_blocks"] += 1
            self.held.setdefault(b, set()).add(live.req.request_id)
            live.prompt_idents.add((b, own[1] if own else -1))
        live.blocks.extend(hits)

    # ------------------------------------------------------------ request steps
    def admit(self, req: Request) -> _Live:
        """`add_request` (and the encoder cache's acquire for image requests); returns the live request."""
        toks = req.token_ids
        img = [i for i in range(len(toks) // BLOCK_SIZE)
               if all(t == IMAGE_TOKEN_ID for t in toks[i * BLOCK_SIZE:(i + 1) * BLOCK_SIZE])]
        live = self.live[req.request_id] = _Live(req, img)
        self.round_ids.add(req.request_id)
        self.kv.add_request(req)
        if req.image_digests and self.t.encoder is not None:
            self.t.encoder.acquire(req.request_id, req.image_digests, self._encode)
            live.acquired = True
            self.c["acquires"] += 1
        return live

    def _encode(self, digests) -> Any:
        return self.torch.full((len(digests), 64), float(len(digests)), device=self.device)

    def match(self, live: _Live) -> None:
        """`match_prefix`, checking every hit block's scope and payload."""
        self._check_hits(live, list(self.kv.match_prefix(live.req.request_id)))

    def allocate(self, live: _Live) -> None:
        """`allocate` the prompt's missing blocks and write their scope code."""
        first = len(live.blocks)
        self._write(live, list(self.kv.allocate(live.req.request_id)), first, prompt=True)

    def step(self, live: _Live, token: int) -> None:
        """One decode step: `append_tokens([token])`, writing any new block."""
        new = list(self.kv.append_tokens(live.req.request_id, [token]))
        self._write(live, new, len(live.blocks), prompt=False)

    def _end(self, live: _Live, how: str) -> None:
        rid = live.req.request_id
        getattr(self.kv, how)(rid)
        if live.acquired:
            self.t.encoder.release(rid, live.req.image_digests)
            self.c["releases"] += 1
        for b in live.blocks:
            s = self.held.get(b)
            if s is not None:
                s.discard(rid)
        del self.live[rid]

    # ------------------------------------------------------------------ rounds
    def run_round(self, r: int) -> None:
        """Round `r`: the request grid in waves (admit, match, allocate, decode,
        finish), an abort after each wave, the probes, the remaining aborts,
        then the end-of-round pool and registry readings."""
        w = self.w
        grid = [w.request(f"r{r}-{t}-{lab or 'base'}-{k}", t, self.salts[t], lab, toks, imgs)
                for t, lab, k, toks, imgs in w.grid]
        aborts = iter(range(len(ABORT_KINDS)))
        for wave_no in range(0, len(grid), WAVE):
            wave = [self.admit(q) for q in grid[wave_no:wave_no + WAVE]]
            for live in wave:
                self.match(live)
                self.allocate(live)
            for s in range(DECODE_TOKENS):
                for i, live in enumerate(wave):
                    self.step(live, w.decode[i][s])
            if r == 0:
                self._record_pairs(wave)
            for live in wave:
                self._end(live, "finish")
            self.abort_job(r, next(aborts))
        self.probes(r)
        for i in aborts:
            self.abort_job(r, i)
        self.end_of_round(r)

    def _record_pairs(self, wave: list[_Live]) -> None:
        by = {}
        for live in wave:
            q = live.req
            if q.adapter_id and not q.image_digests:
                by.setdefault((q.tenant_id, q.adapter_id), []).append(live.prompt_idents)
        for key, sets in by.items():
            if len(sets) == 2:
                self.pair_shared[key] = len(sets[0] & sets[1])

    def _serve(self, req: Request) -> None:
        live = self.admit(req)
        self.match(live)
        self.allocate(live)
        for s in range(4):
            self.step(live, self.w.decode[0][s])
        self._end(live, "finish")

    def probes(self, r: int) -> None:
        """Serve the isolation probes: the same prompt under another salt and
        another adapter, and an adapter reloaded with new weights (new digest)."""
        w = self.w
        self._serve(w.request(f"r{r}-probe-salt-X", "tX", "X", None, w.probe_tokens))
        self._serve(w.request(f"r{r}-probe-adapter-X", "tY", None, "X", w.probe_tokens, digest=None))
        self._serve(w.request(f"r{r}-reload-A-v1", "t0", self.salts["t0"], "A", w.reload_tokens))
        self._serve(w.request(f"r{r}-reload-A-v2", "t0", self.salts["t0"], "A", w.reload_tokens,
                              digest=w.reload_digest))

    def abort_job(self, r: int, i: int) -> None:
        """Abort request number `i` of round `r` at the point `ABORT_KINDS[i]`
        names (before match, after match, mid-decode, or a cancelled async submit)."""
        kind = ABORT_KINDS[i]
        tenant, salt = TENANTS[1 + i % 3]
        label = ADAPTER_LABELS[i % 4]
        req = self.w.request(f"r{r}-abort{i}-{kind}", tenant, salt, label, self.w.abort_tokens[i])
        if kind == "async-cancel":
            asyncio.run(self._cancel_pending_submit(req))
            return
        live = self.admit(req)
        if kind in ("matched", "mid-decode"):
            self.match(live)
        if kind == "mid-decode":
            self.allocate(live)
            for s in range(20):
                self.step(live, self.w.decode[1][s])
        self._end(live, "abort")

    async def _cancel_pending_submit(self, req: Request) -> None:
        scheduled = asyncio.Event()  # never set: the scheduler never gets to this request

        async def submit() -> None:
            live = self.admit(req)
            try:
                self.match(live)
                await scheduled.wait()
                self.allocate(live)
            except asyncio.CancelledError:
                self._end(live, "abort")
                raise

        task = asyncio.create_task(submit())
        for _ in range(3):
            await asyncio.sleep(0)
        task.cancel()
        done = await asyncio.gather(task, return_exceptions=True)
        if isinstance(done[0], asyncio.CancelledError):
            self.c["async_cancelled"] += 1

    def end_of_round(self, r: int) -> None:
        """Record the free pool, the declared registries' sizes and any undeclared
        container still holding this round's request ids."""
        free = list(self.kv.free_block_ids())
        declared = self.kv.request_registries()
        regs = {name: len(reg) for name, reg in declared.items()}
        hidden = self._undeclared_entries(self.round_ids, {id(v) for v in declared.values()})
        self.round_ids = set()
        self.rounds.append({"round": r, "free": len(free), "distinct_free": len(set(free)),
                            "registries": regs, "undeclared": hidden})

    def _undeclared_entries(self, ids: set, declared: set) -> dict[str, int]:
        """Containers reachable from the manager (attributes, two levels deep) that the
        manager did not declare in `request_registries()` but that still hold one of this
        round's request ids as a key or member: a registry it forgot to report."""
        torch, found, seen = self.torch, {}, set(declared)

        def visit(obj, path: str, depth: int) -> None:
            if id(obj) in seen or depth > 3 or torch.is_tensor(obj):
                return
            seen.add(id(obj))
            if isinstance(obj, (dict, set, frozenset)):
                n = sum(1 for k in obj if isinstance(k, str) and k in ids)
                if n:
                    found[path] = n
                return
            if inspect.ismethod(obj):
                visit(obj.__self__, path, depth)
                return
            if isinstance(obj, torch.nn.Module) or isinstance(obj, type):
                return
            attrs = getattr(obj, "__dict__", None)
            if isinstance(attrs, dict):
                for k, v in list(attrs.items()):
                    visit(v, f"{path}.{k}", depth + 1)

        visit(self.kv, "kv", 0)
        return found


# ---------------------------------------------------------------------- checks
def _memory_reading(torch, device: str) -> int:
    gc.collect()
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        return int(torch.cuda.memory_allocated())
    return tracemalloc.get_traced_memory()[0]


def check_kv(d: Driver) -> list[CheckResult]:
    """Run the warm-up and measured rounds; return checks A, B, C, D."""
    torch = d.torch
    d.run_round(0)
    if d.device != "cuda":
        tracemalloc.start()
    base = _memory_reading(torch, d.device)
    readings = []
    for r in range(1, MEASURED_ROUNDS + 1):
        d.run_round(r)
        readings.append(_memory_reading(torch, d.device))
    if d.device != "cuda":
        tracemalloc.stop()
    pool = d.kv.num_blocks
    last = d.rounds[-1]
    bad_rounds = [x["round"] for x in d.rounds if x["free"] != pool or x["distinct_free"] != x["free"]]
    a = CheckResult("A", "free-list", not bad_rounds and d.c["double_allocations"] == 0, {
        "free_blocks": last["free"], "pool_blocks": pool,
        "duplicates_in_free_list": last["free"] - last["distinct_free"],
        "double_allocations": d.c["double_allocations"],
        "rounds_not_back_to_pool": len(bad_rounds), "rounds": len(d.rounds)})
    final_regs = last["registries"]
    b_ok = all(n == 0 for x in d.rounds for n in x["registries"].values()) \
        and not any(x["undeclared"] for x in d.rounds)
    b = CheckResult("B", "request-registries", b_ok, {
        "entries_left": sum(final_regs.values()), "registries": final_regs,
        "undeclared_containers_with_ids": last["undeclared"],
        "rounds_with_entries": sum(1 for x in d.rounds if any(x["registries"].values()))})
    pairs = d.pair_shared
    exact = sum(1 for n in pairs.values() if n == PREFIX_BLOCKS)
    c_ok = (d.c["cross_scope_hits"] == 0 and d.c["wrong_content_blocks"] == 0 and d.c["hits_beyond_prompt"] == 0
            and len(pairs) == 12 and exact == 12)
    c = CheckResult("C", "isolation", c_ok, {
        "prefix_hits": d.c["hits"], "cross_scope_hits": d.c["cross_scope_hits"],
        "cross_scope_by_difference": dict(sorted(d.cross_kinds.items())),
        "wrong_content_blocks": d.c["wrong_content_blocks"],
        "hits_beyond_prompt": d.c["hits_beyond_prompt"],
        "pairs_sharing_exactly_3_prefix_blocks": f"{exact}/12",
        "shared_blocks_per_pair": sorted(set(pairs.values()))})
    growth = readings[-1] - base
    if d.device == "cuda":
        ok = growth == 0
        unit = {"cuda_allocated_delta_bytes": growth, "baseline_bytes": base}
    else:
        ok = growth < CPU_GROWTH_LIMIT
        unit = {"tracemalloc_growth_bytes": growth, "limit_bytes": CPU_GROWTH_LIMIT}
    dd = CheckResult("D", "memory-steady", ok, {**unit, "per_round_bytes": [r - base for r in readings],
                                               "measured_rounds": MEASURED_ROUNDS})
    return [a, b, c, dd]


def _hook_count(model) -> int:
    n = 0
    for m in model.modules():
        for attr in ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks", "_backward_pre_hooks"):
            n += len(getattr(m, attr, {}) or {})
    return n


def check_adapters(d: Driver) -> CheckResult:
    """E: load, use and delete N_ADAPTERS adapters; RAISING_ADAPTERS of them raise in the body."""
    host = d.t.adapters
    if host is None:
        return CheckResult("E", "adapter-release", None, detail="target has no adapters part")
    torch = d.torch
    model = host.base_model
    baseline = _hook_count(model)
    param = next(model.parameters())
    x = torch.randn(4, param.shape[-1], generator=torch.Generator().manual_seed(0)).to(param.device)
    with torch.no_grad():
        plain = model(x)
    refs, changed, raised = [], 0, 0
    for i in range(N_ADAPTERS):
        name = f"lora-{i}"
        obj = host.load_adapter(name, _digest(name, "weights"))
        refs.append(weakref.ref(obj))
        del obj

        def body(m, i=i):
            with torch.no_grad():
                out = m(x)
            if i in RAISING_ADAPTERS:
                raise SyntheticFailure(f"synthetic failure in the body of adapter {i}")
            return out

        try:
            out = host.run_with_adapter(name, body)
            changed += int(not torch.allclose(out, plain))
        except SyntheticFailure:
            raised += 1
        host.delete_adapter(name)
    gc.collect()
    alive = sum(1 for r in refs if r() is not None)
    hooks = _hook_count(model)
    ok = alive == 0 and hooks == baseline and raised == len(RAISING_ADAPTERS) \
        and changed == N_ADAPTERS - len(RAISING_ADAPTERS)
    return CheckResult("E", "adapter-release", ok, {
        "adapters": N_ADAPTERS, "raised_in_body": raised, "outputs_changed": changed,
        "weakrefs_alive_after_gc": alive, "hooks_baseline": baseline, "hooks_after": hooks})


def check_encoder(d: Driver) -> CheckResult:
    """F: after every request ended, the encoder embedding cache holds nothing."""
    enc = d.t.encoder
    if enc is None:
        return CheckResult("F", "encoder-cache-drains", None, detail="target has no encoder part")
    left = int(enc.num_entries())
    return CheckResult("F", "encoder-cache-drains", left == 0 and d.c["acquires"] > 0, {
        "entries_left": left, "acquires": d.c["acquires"], "releases": d.c["releases"]})


def _graph_nodes(value) -> int:
    fn = getattr(value, "grad_fn", None)
    seen, stack = set(), [fn] if fn is not None else []
    while stack:
        f = stack.pop()
        if f is None or id(f) in seen:
            continue
        seen.add(id(f))
        stack.extend(n for n, _ in getattr(f, "next_functions", ()))
    return len(seen)


class _PlainSGD:
    """`zero_grad()` / `step()` of plain SGD. torch.optim would import torch._dynamo
    (seconds of start-up per sandbox run) for what is two lines here."""

    def __init__(self, torch, params, lr: float):
        self.torch, self.params, self.lr = torch, list(params), lr

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    def step(self) -> None:
        with self.torch.no_grad():
            for p in self.params:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-self.lr)


def check_training(d: Driver) -> CheckResult:
    """G: `train_epoch` over 8 batches returns a mean loss without autograd history."""
    fn = d.t.train_epoch
    if fn is None:
        return CheckResult("G", "no-grad-history", None, detail="target has no train_epoch part")
    torch = d.torch
    g = torch.Generator().manual_seed(1)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1)).to(d.device)
    loader = [(torch.randn(8, 16, generator=g).to(d.device), torch.randn(8, 1, generator=g).to(d.device))
              for _ in range(8)]
    before = [p.detach().clone() for p in model.parameters()]
    opt = _PlainSGD(torch, model.parameters(), lr=0.05)
    result = fn(model, loader, opt)
    nodes = _graph_nodes(result)
    trained = any(not torch.equal(a, b.detach()) for a, b in zip(before, model.parameters()))
    req_grad = bool(getattr(result, "requires_grad", False))
    return CheckResult("G", "no-grad-history", nodes == 0 and not req_grad and trained, {
        "autograd_nodes_reachable": nodes, "requires_grad": req_grad,
        "result_type": type(result).__name__, "weights_updated": trained})


def check_pool(target: Target) -> None:
    """Is the manager's pool the size the workload is written for?

    Raises:
        ValueError: not `POOL_BLOCKS` blocks of `BLOCK_SIZE` tokens (a set-up
            error of the target, not an invariant failure).
    """
    kv = target.kv
    if (kv.num_blocks, kv.block_size) != (POOL_BLOCKS, BLOCK_SIZE):
        raise ValueError(f"the workload needs a pool of {POOL_BLOCKS} blocks of {BLOCK_SIZE} tokens; "
                         f"the factory built {kv.num_blocks} blocks of {kv.block_size}")


def run_all(target: Target, device: str, seed: int) -> list[CheckResult]:
    """Drive `target` through the whole scenario; returns checks A-G in order.

    Raises:
        ValueError: the manager's pool is not `POOL_BLOCKS` blocks of `BLOCK_SIZE` tokens
            (the workload and the exact counts are sized for it).
        Whatever the target raises (the runner turns it into a failed report).
    """
    check_pool(target)
    d = Driver(target, device, seed)
    # Everything alive now (torch's module graph, the target) is start-up state: keep the
    # collector off it, so each gc.collect() before a memory reading takes milliseconds.
    gc.collect()
    gc.freeze()
    out = check_kv(d)
    out.append(check_adapters(d))
    out.append(check_encoder(d))
    out.append(check_training(d))
    return out
