#!/usr/bin/env bash
# The kit's whole test: install, lint, build, typecheck, publint and attw on each packed tarball,
# then every package's tests (unit, process, packaging), the example guard built from the packed
# tarballs, the end-to-end suite on the real claude CLI, and a smoke run of the bench; then the
# hook-process and packaging tests once more on Node 24 (scripts/test-node-24.sh).
source "$(dirname "$0")/bootstrap.sh"
pnpm lint
# Verdict servers the hook processes start (bundle-loader.ts) end soon after the suite stops calling them.
export KIT_HOOKS_SERVER_IDLE_SECONDS="${KIT_HOOKS_SERVER_IDLE_SECONDS:-20}"
status=0
pnpm turbo run build typecheck check:package test --output-logs=errors-only --log-order=grouped --concurrency=1 --continue || status=$?
bash scripts/test-node-24.sh || status=1
node scripts/test-summary.mjs
# Verdict servers the suite's hooks started and that are still in their quiet period: they are
# accelerators (a call that finds none answers in process and starts one), so ending them is safe.
pkill -f -- '--kit-serve-verdicts' 2>/dev/null || true
exit "$status"
