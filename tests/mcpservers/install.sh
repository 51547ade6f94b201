#!/usr/bin/env bash
# Installs the pinned MCP servers into a cache outside the repo and prints the bin directory.
# Re-runs are cheap: the install is skipped when package.json has not changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${AWF_CACHE:-$HOME/.cache/awf}/mcp-servers"
mkdir -p "$cache"
sum="$(sha256sum "$here/package.json" | cut -d' ' -f1)"
if [ ! -f "$cache/.installed" ] || [ "$(cat "$cache/.installed")" != "$sum" ]; then
  cp "$here/package.json" "$cache/package.json"
  (cd "$cache" && npm install --no-audit --no-fund --loglevel=error >&2)
  echo "$sum" > "$cache/.installed"
fi
echo "$cache/node_modules/.bin"
