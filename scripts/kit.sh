#!/usr/bin/env bash
# The kit's main job on a fresh clone: install and build, then show what it does.
source "$(dirname "$0")/bootstrap.sh"
pnpm turbo run build --output-logs=errors-only
echo
echo '$ kit-segments --pretty "make test | tail -5"'
node packages/shell-segments/dist/cli.js --pretty 'make test | tail -5'
