#!/usr/bin/env bash
# Neovim smoke test for `ctxlint lsp`: start Neovim headless with the README's
# editor snippet for the installed Neovim version, open a Python file with a
# dropped asyncio task, and confirm that the CTX107 diagnostic arrives.
#
# Usage: scripts/nvim_smoke.sh            (ctxlint must be on PATH)
# Exit: 0 diagnostics arrived; 1 they did not; 77 nvim is not installed.
# Prints the diagnostics Neovim received, one per line: LINE:COL CODE MESSAGE.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
command -v nvim >/dev/null 2>&1 || { echo "nvim_smoke: nvim not installed" >&2; exit 77; }
command -v ctxlint >/dev/null 2>&1 || { echo "nvim_smoke: ctxlint not on PATH" >&2; exit 1; }

version="$(nvim --version | head -n1 | sed -E 's/^NVIM v([0-9]+)\.([0-9]+).*/\1 \2/')"
read -r major minor <<<"$version"
if [ "$major" -gt 0 ] || [ "$minor" -ge 11 ]; then
  marker="-- ctxlint: Neovim 0.11+"
else
  marker="-- ctxlint: Neovim 0.8-0.10"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The README's ```lua block that starts with the marker line, verbatim.
awk -v m="$marker" '
  /^```lua$/ { inblock = 1; buf = ""; next }
  /^```$/    { if (inblock && found) { printf "%s", buf; exit } inblock = 0; found = 0; next }
  inblock    { if ($0 == m) found = 1; buf = buf $0 "\n" }
' "$root/README.md" >"$work/snippet.lua"
[ -s "$work/snippet.lua" ] || { echo "nvim_smoke: no README snippet marked '$marker'" >&2; exit 1; }

{
  if [ "$major" -eq 0 ] && [ "$minor" -lt 8 ]; then
    # Neovim 0.7 predates vim.lsp.start (0.8): a minimal stand-in built from the
    # 0.7 API, so the 0.8-0.10 snippet runs unchanged.
    cat <<'LUA'
if vim.lsp.start == nil then
  local started = {}
  vim.lsp.start = function(config)
    local key = config.name .. "|" .. (config.root_dir or "")
    if not started[key] then started[key] = vim.lsp.start_client(config) end
    vim.lsp.buf_attach_client(0, started[key])
  end
end
LUA
  fi
  cat "$work/snippet.lua"
  cat <<'LUA'
vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(0)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
      table.insert(out, string.format("%d:%d %s %s", d.lnum + 1, d.col + 1, code, d.message))
    end
    vim.fn.writefile(out, "diagnostics.txt")
    vim.cmd(ok and "qa!" or "cquit 1")
  end,
})
LUA
} >"$work/init.lua"

cat >"$work/handler.py" <<'PY'
import asyncio


async def write_usage(tenant_id: str, tokens: int) -> None:
    await asyncio.sleep(0)


async def complete(tenant_id: str, prompt: str) -> str:
    asyncio.create_task(write_usage(tenant_id, len(prompt)))
    return prompt
PY

cd "$work"
status=0
timeout 60 nvim --headless --clean -u "$work/init.lua" handler.py </dev/null >nvim.log 2>&1 || status=$?
if [ -s diagnostics.txt ]; then cat diagnostics.txt; fi
if [ "$status" -ne 0 ] || ! grep -q "CTX107" diagnostics.txt 2>/dev/null; then
  echo "nvim_smoke: no CTX107 diagnostic (nvim exit $status)" >&2
  cat nvim.log >&2 || true
  exit 1
fi
echo "nvim_smoke: ok (Neovim $major.$minor, snippet '$marker')"
