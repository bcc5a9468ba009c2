#!/usr/bin/env bash
# The kit's main job on a fresh clone: install what the demo needs and build it (prepare.sh), then
# install a guard into a scratch project from its packed tarball and watch it deny. Only the
# published packages and the root's build tools are installed (about 300 MB); `npm test` adds the
# end-to-end suites' agent CLIs (about 1.2 GB more) when it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prepare.sh
export PATH="$PWD/.tools/node_modules/.bin:$PWD/node_modules/.bin:$PATH"
node scripts/kit-demo.mjs
