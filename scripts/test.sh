#!/usr/bin/env bash
# The kit's whole test: install, lint, build, typecheck, publint and attw on each packed tarball,
# then every package's tests (unit, process, packaging), the example guard built from the packed
# tarballs, the end-to-end suite on the real claude CLI, and a smoke run of the bench; then the
# hook-process and packaging tests once more on Node 24 (scripts/test-node-24.sh).
# The run has a TMPDIR of its own: every temp folder and verdict server folder its tests make is in
# it, so at the end it ends the servers it started, by that folder, and removes it. Nothing else on
# the machine (another user's or another project's servers) is touched.
run_temp=$(mktemp -d "${TMPDIR:-/tmp}/kt-XXXXXX")
# Open as /tmp is (sticky, world-writable): some tests run a step as another user.
chmod 1777 "$run_temp"
export TMPDIR="$run_temp"
root=$(cd "$(dirname "$0")/.." && pwd)
finish() {
  node "$root/scripts/end-run-servers.mjs" "$run_temp" || true
  rm -rf "$run_temp"
}
trap finish EXIT
source "$(dirname "$0")/bootstrap.sh"
pnpm lint
# Verdict servers the hook processes start (bundle-loader.ts) end soon after the suite stops calling them.
export KIT_HOOKS_SERVER_IDLE_SECONDS="${KIT_HOOKS_SERVER_IDLE_SECONDS:-20}"
status=0
# One task at a time, a line as each one ends: its duration and the duration expected.
node scripts/run-tasks.mjs build typecheck check:package test || status=$?
bash scripts/test-node-24.sh || status=1
node scripts/test-summary.mjs
exit "$status"
