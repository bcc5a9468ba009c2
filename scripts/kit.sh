#!/usr/bin/env bash
# The kit's main job on a fresh clone: install what the demo needs and build it, then install a
# guard into a scratch project from its packed tarball and watch it deny. Only the published
# packages and the root's build tools are installed (about 300 MB); `npm test` adds the end-to-end
# suites' agent CLIs (about 1.2 GB more) when it runs.
export KIT_INSTALL_FILTERS="./packages/* kit-monorepo"
source "$(dirname "$0")/bootstrap.sh"
pnpm turbo run build --filter='./packages/*' --output-logs=errors-only
node scripts/kit-demo.mjs
