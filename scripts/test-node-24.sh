#!/usr/bin/env bash
# The hook-process and packaging tests once more, on Node 24 (users run 22, 24 and 26; this
# machine and the first pass run Node 20): vitest itself runs on it, so every hook, bin and packed
# install those files start is a Node 24 process, and KIT_TEST_NODE (test-kit's hookNode) and PATH
# make a handler's `node` that one too. Node 24 comes from scripts/node-24.sh. Needs a build.
# Each package's output lands in <package>/.turbo/turbo-test-node24.log for test-summary.mjs.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# A log left by an earlier pass must not be counted as this one's, nor one from a skipped pass.
rm -f packages/*/.turbo/turbo-test-node24.log examples/*/.turbo/turbo-test-node24.log
node24=$(bash scripts/node-24.sh)
case $? in
  0) ;;
  3) exit 0 ;; # not Linux x64: the reason is printed
  *) echo "kit: could not get Node 24" >&2; exit 1 ;;
esac
export KIT_TEST_NODE="$node24"
export PATH="$(dirname "$node24"):$PATH"
echo "kit: the hook-process and packaging tests on Node $("$node24" --version)"

# package folder, then its test files
runs=(
  "packages/test-kit test/temp-tree.test.ts"
  "packages/fail-open test/run-hook.process.test.ts test/verdict-server.process.test.ts test/bundle-loader.test.ts"
  "packages/shell-segments test/bundle.test.ts test/hook-bundle-cache.test.ts test/embedded-module.test.ts"
  "packages/gate-approval test/example-guard.test.ts test/install-in-use.test.ts test/plugins.test.ts test/install-hosts.test.ts"
  "packages/exit-status-guard test/hook-process.test.ts test/cli.test.ts test/packaging.test.ts"
  "packages/git-write-gate test/hook-process.test.ts test/package.test.ts"
  "packages/roseline-gate test/hook.test.ts test/package.test.ts test/escape.process.test.ts"
  "examples/pipe-to-shell-guard test/hook.test.ts"
)
status=0
for run in "${runs[@]}"; do
  read -r folder files <<<"$run"
  [ -d "$folder" ] || continue
  mkdir -p "$folder/.turbo"
  # shellcheck disable=SC2086 # the file list is words on purpose
  (cd "$folder" && "$node24" "$root/node_modules/vitest/vitest.mjs" run $files) 2>&1 \
    | tee "$folder/.turbo/turbo-test-node24.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
exit "$status"
