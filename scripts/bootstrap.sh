# Sourced by kit.sh and test.sh: puts the pinned pnpm on PATH and installs the workspace.
# Nothing is assumed on the machine but Node 20+ and npm; pnpm lands in .tools/ (gitignored).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
pinned=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(.tools/node_modules/.bin/pnpm --version 2>/dev/null || true)" != "$pinned" ]; then
  echo "kit: installing pnpm $pinned into .tools/" >&2
  npm install --silent --no-audit --no-fund --prefix .tools "pnpm@$pinned" >&2
fi
export PATH="$root/.tools/node_modules/.bin:$root/node_modules/.bin:$PATH"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
pnpm install --frozen-lockfile --reporter=append-only >&2
