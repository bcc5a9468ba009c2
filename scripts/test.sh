#!/usr/bin/env bash
# The kit's whole test: install, build, typecheck, unit and process tests of every package.
source "$(dirname "$0")/bootstrap.sh"
pnpm turbo run build typecheck test --output-logs=errors-only --log-order=grouped
