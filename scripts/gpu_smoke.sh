#!/usr/bin/env bash
# GPU smoke test for the runtime sandbox (issue 8): on a machine with a CUDA GPU,
# install what is missing, run the gpu-marked tests and `ctxlint sandbox --device
# cuda` on two corpus/kvcache pairs (fixed must pass, buggy must fail), and print a
# summary. Budget: under 5 minutes. Block payloads live on the GPU; the sandbox calls
# torch.cuda.synchronize() and empty_cache() before every memory reading (check D:
# torch.cuda.memory_allocated() delta must be 0).
#
# Usage: scripts/gpu_smoke.sh            (uses .venv/bin/python if present, else python3)
#        PYTHON=/path/to/python scripts/gpu_smoke.sh
#        SMOKE_DEVICE=cpu scripts/gpu_smoke.sh   (dry run of the same flow without a GPU)
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
PY=${PYTHON:-}
DEVICE=${SMOKE_DEVICE:-cuda}
if [ -z "$PY" ]; then
  if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
say() { printf '\n== %s\n' "$*"; }
fail=0

say "environment"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
"$PY" --version

say "install what is missing"
"$PY" -c "import ctxlint, pytest" 2>/dev/null || "$PY" -m pip install -q -e '.[test]' || fail=1
# A plain `pip install torch==2.13.0` gets the CUDA build from PyPI on Linux x86_64.
if ! "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  "$PY" -m pip install -q torch==2.13.0 || echo "gpu_smoke: could not install torch==2.13.0"
fi
if [ "$DEVICE" = cuda ] && ! "$PY" -W ignore -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.get_device_name(0))" 2>/dev/null; then
  echo "gpu_smoke: torch.cuda.is_available() is False here: no GPU run possible (SMOKE_DEVICE=cpu for a dry run)"
  exit 2
fi

say "pytest -m gpu"
timeout 150 "$PY" -m pytest -q -p no:cacheprovider -m gpu -rs tests/test_sandbox.py
pytest_rc=$?
[ $pytest_rc -eq 0 ] || fail=1

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
summary=()
for pair in prefix_no_tenant abort_leak; do
  for variant in "${pair}_fixed" "$pair"; do
    out=$(timeout 120 "$PY" -m ctxlint sandbox "corpus/kvcache/${variant}.py:make_manager" --device "$DEVICE" --json)
    rc=$?
    line=$(printf '%s' "$out" | "$PY" -c "$SUMMARIZE")
    if [[ $variant == *_fixed ]]; then want=0; else want=1; fi
    verdict=ok; [ "$rc" -eq "$want" ] || { verdict=UNEXPECTED; fail=1; }
    summary+=("$(printf '%-24s exit %s (want %s) %-10s %s' "$variant" "$rc" "$want" "$verdict" "$line")")
  done
done

say "summary ($(( $(date +%s) - start )) s)"
echo "pytest -m gpu: exit $pytest_rc"
printf '%s\n' "${summary[@]}"
exit $fail
