#!/usr/bin/env bash
# Neovim smoke test for `ctxlint lsp`: start Neovim headless with the README's
# editor snippet for the installed Neovim version, verbatim (no compatibility shim:
# what a user pastes is what runs), open a Python file with a dropped asyncio task
# and a `.j2` template with a dunder access, and confirm that both diagnostics
# arrive (the template's only when the snippet gives `.j2` its filetype).
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
  marker="-- ctxlint: Neovim 0.7-0.10"
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
  cat "$work/snippet.lua"
  cat <<'LUA'
vim.api.nvim_create_autocmd("VimEnter", {
  nested = true,  -- so `:edit` below runs filetype detection (BufRead) and the FileType autocmd
  callback = function()
    local py = vim.api.nvim_get_current_buf()
    local ok = vim.wait(30000, function() return #vim.diagnostic.get(py) > 0 end, 50)
    -- a template: its filetype comes from the snippet's vim.filetype.add
    vim.cmd("edit prompt.j2")
    local j2 = vim.api.nvim_get_current_buf()
    local ok2 = vim.wait(30000, function() return #vim.diagnostic.get(j2) > 0 end, 50)
    local out = { "filetype prompt.j2: " .. vim.bo[j2].filetype }
    for _, buf in ipairs({ py, j2 }) do
      for _, d in ipairs(vim.diagnostic.get(buf)) do
        local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
        table.insert(out, string.format("%s %d:%d %s %s", vim.api.nvim_buf_get_name(buf):match("[^/]+$"),
          d.lnum + 1, d.col + 1, code, d.message))
      end
    end
    vim.fn.writefile(out, "diagnostics.txt")
    vim.cmd((ok and ok2) and "qa!" or "cquit 1")
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

cat >"$work/prompt.j2" <<'J2'
{{ message.__class__.__init__.__globals__ }}
J2

cd "$work"
status=0
timeout 60 nvim --headless --clean -u "$work/init.lua" handler.py </dev/null >nvim.log 2>&1 || status=$?
if [ -s diagnostics.txt ]; then cat diagnostics.txt; fi
if [ "$status" -ne 0 ] || ! grep -q "handler.py .*CTX107" diagnostics.txt 2>/dev/null \
    || ! grep -q "prompt.j2 .*CTX30" diagnostics.txt 2>/dev/null; then
  echo "nvim_smoke: missing the CTX107 (handler.py) or CTX30x (prompt.j2) diagnostic (nvim exit $status)" >&2
  cat nvim.log >&2 || true
  exit 1
fi
echo "nvim_smoke: ok (Neovim $major.$minor, snippet '$marker')"
