#!/usr/bin/env bash
# The kit's whole test: install, lint, build, typecheck, publint and attw on each packed tarball,
# then every package's tests (unit, process, packaging), the end-to-end suite on the real claude
# CLI, and a smoke run of the bench.
source "$(dirname "$0")/bootstrap.sh"
pnpm lint
status=0
pnpm turbo run build typecheck check:package test --output-logs=errors-only --log-order=grouped --concurrency=1 || status=$?
node scripts/test-summary.mjs
exit "$status"
