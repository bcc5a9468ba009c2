# Sourced by kit.sh and test.sh: puts the pinned pnpm on PATH and installs the workspace.
# Nothing is assumed on the machine but Node 20+ and npm; pnpm lands in .tools/ (gitignored).
# KIT_INSTALL_FILTERS (pnpm --filter arguments, space-separated) installs only those projects:
# kit.sh sets it to the published packages and the root's build tools, so the demo does not wait
# for the four agent CLIs the end-to-end suites need; test.sh installs everything.
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
# pnpm links each workspace package's bin before the build has made the file it names, and says
# "WARN Failed to create bin" for each: expected on a fresh clone, so those lines are left out and
# counted in one line instead. Every other line of pnpm's output is shown as it comes.
read -r -a filters <<<"${KIT_INSTALL_FILTERS:-}"
set +o pipefail
pnpm install --frozen-lockfile --reporter=append-only "${filters[@]/#/--filter=}" 2>&1 \
  | node "$root/scripts/quiet-bins.mjs" >&2
install_status=${PIPESTATUS[0]}
set -o pipefail
[ "$install_status" -eq 0 ] || exit "$install_status"
