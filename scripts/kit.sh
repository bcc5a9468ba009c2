#!/usr/bin/env bash
# The kit's main job on a fresh clone: install and build, then install a guard into a scratch
# project from its packed tarball and watch it deny.
source "$(dirname "$0")/bootstrap.sh"
pnpm turbo run build --output-logs=errors-only
node scripts/kit-demo.mjs
