#!/usr/bin/env bash
# GPU smoke test for the runtime sandbox: on a machine with a CUDA GPU, run the
# gpu-marked tests and `ctxlint sandbox --device cuda` on two corpus/kvcache pairs
# (fixed must pass, buggy must fail) and write a summary. Budget: under 5 minutes.
#
# It runs ctxlint FROM THE SOURCE TREE (PYTHONPATH=repo root) with a python that
# already has torch, and never installs anything: the GPU machine has no network
# and none of the linter's parsing dependencies (libcst, tree-sitter, pygls,
# astroid). The sandbox and its tests need only the standard library, torch,
# pytest (and optionally numpy, jinja2, pathspec, rich); tests/test_integrations.py
# guards that in CI with those four packages made unimportable.
#
# Usage: scripts/gpu_smoke.sh
#        PYTHON=/path/to/python scripts/gpu_smoke.sh     (default: the first of python3,
#                                                          python, .venv/bin/python that imports torch)
#        SMOKE_REPORT=/path/summary.txt scripts/gpu_smoke.sh   (also write the summary there)
#        SMOKE_DEVICE=cpu scripts/gpu_smoke.sh           (dry run of the same flow without a GPU)
# Exit: 0 all as expected, 1 something unexpected, 2 no usable python/torch/GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
start=$(date +%s)
DEVICE=${SMOKE_DEVICE:-cuda}
REPORT=${SMOKE_REPORT:-}
fail=0
lines=()
say() { printf '\n== %s\n' "$*"; }
note() { lines+=("$*"); printf '%s\n' "$*"; }
finish() {
  note "total: $(( $(date +%s) - start )) s, exit $1"
  if [ -n "$REPORT" ]; then printf '%s\n' "${lines[@]}" > "$REPORT" || true; fi
  exit "$1"
}

PY=${PYTHON:-}
if [ -z "$PY" ]; then
  for cand in python3 python .venv/bin/python; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c "import torch" >/dev/null 2>&1; then PY=$cand; break; fi
  done
fi
if [ -z "$PY" ]; then
  note "gpu_smoke: no python with torch found (set PYTHON=...); nothing installed, nothing run"
  finish 2
fi

say "environment"
note "python: $("$PY" -c 'import sys; print(sys.executable, sys.version.split()[0])' 2>&1)"
command -v nvidia-smi >/dev/null 2>&1 && note "gpu: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | head -1)"
note "torch: $("$PY" -W ignore -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())' 2>&1 | tail -1)"
note "ctxlint: $("$PY" -c 'import ctxlint, os; print(ctxlint.__version__, os.path.dirname(ctxlint.__file__))' 2>&1 | tail -1)"
if ! "$PY" -c "import pytest" >/dev/null 2>&1; then
  note "gpu_smoke: pytest is missing for $PY: the pytest step is skipped"
  have_pytest=0
else
  have_pytest=1
fi
if [ "$DEVICE" = cuda ] && ! "$PY" -W ignore -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  note "gpu_smoke: torch.cuda.is_available() is False here: no GPU run possible (SMOKE_DEVICE=cpu for a dry run)"
  finish 2
fi

pytest_rc=skipped
if [ $have_pytest = 1 ]; then
  say "pytest -m gpu"
  # -p no:cacheprovider: the tree may be read-only; conftest needs nothing else.
  out=$(CTXLINT_TRY_CUDA=1 timeout 120 "$PY" -m pytest -q -p no:cacheprovider -m gpu -rs tests/test_sandbox.py 2>&1)
  pytest_rc=$?
  printf '%s\n' "$out" | tail -25
  note "pytest -m gpu: exit $pytest_rc; $(printf '%s\n' "$out" | grep -E '(passed|failed|skipped|error)' | tail -1)"
  [ $pytest_rc -eq 0 ] || fail=1
fi

SUMMARIZE=$(cat <<'PYEOF'
import json, sys
try:
    r = json.load(sys.stdin)
except ValueError:
    print("no report")
    sys.exit()
c = {x["id"]: x for x in r["checks"]}
failed = "".join(i for i, x in c.items() if x["passed"] is False) or "-"
a, cc, d = (c.get(k, {}).get("numbers", {}) for k in "ACD")
mem = d.get("cuda_allocated_delta_bytes", d.get("tracemalloc_growth_bytes"))
print(f"status {r['status']}, failed {failed}, memory delta {mem} B, "
      f"free {a.get('free_blocks')}/{a.get('pool_blocks')}, cross-scope hits {cc.get('cross_scope_hits')}, "
      f"{r['seconds']} s" + (f", error {r['error']}" if r.get("error") else ""))
PYEOF
)

say "ctxlint sandbox --device $DEVICE on two corpus pairs"
for pair in prefix_no_tenant abort_leak; do
  for variant in "${pair}_fixed" "$pair"; do
    out=$(timeout 40 "$PY" -m ctxlint sandbox "corpus/kvcache/${variant}.py:make_manager" --device "$DEVICE" --json --timeout 30)
    rc=$?
    line=$(printf '%s' "$out" | "$PY" -c "$SUMMARIZE")
    if [[ $variant == *_fixed ]]; then want=0; else want=1; fi
    verdict=ok; [ "$rc" -eq "$want" ] || { verdict=UNEXPECTED; fail=1; }
    note "$(printf '%-24s exit %s (want %s) %-10s %s' "$variant" "$rc" "$want" "$verdict" "$line")"
  done
done

say "summary"
finish $fail
