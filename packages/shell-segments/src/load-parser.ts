import { isEmbeddedModule, type LoadedModule, loadEmbeddedModule } from './embedded-module.ts';
import type { MvdanSyntax, ShFile } from './mvdan-nodes.ts';
import requireMvdan from './require-mvdan.cjs';

// The one place that knows how mvdan-sh is loaded. The library requires it from node_modules; a
// guard's hook bundle replaces require-mvdan.cjs with mvdan-sh's packed source as data (hookBundle in
// tsup.base.ts), which is compiled here on the first parse, through V8's code cache.
let syntax: MvdanSyntax | undefined;
let parser: { Parse(src: string, name: string): ShFile } | undefined;
let uncachedModule: LoadedModule | undefined;

// Parsed once before a code cache is written, so the functions it reaches are compiled and cached
// too: heredoc, substitutions, bash -c's string, arithmetic, tests, a function, a case.
const warmUpCommand = [
  'set -euo pipefail; A=1 B="$(git rev-parse --show-toplevel)" make -C "${DIR:-.}" check 2>&1 | tail -5 || exit $?',
  "bash -c 'npm test && echo ok' & wait $!; diff <(sort a) <(sort b) >/dev/null; x=$((1 + 2)); [[ -n $x && $x != 0 ]]",
  'for f in $(ls src | grep -v test); do wc -l "src/$f"; done; f() { case $1 in a|b) echo `date`;; esac; }',
  'cat > notes.md <<EOF',
  'body $(whoami)',
  'EOF',
].join('\n');

/** mvdan-sh's `syntax` namespace, loaded on the first call and kept for the process. */
export function loadSyntax(): MvdanSyntax {
  if (syntax === undefined) {
    const loaded = requireMvdan();
    let mvdan = loaded;
    if (isEmbeddedModule(loaded)) {
      const embedded = loadEmbeddedModule(loaded);
      if (!embedded.usedCodeCache) uncachedModule = embedded;
      mvdan = embedded.exports;
    }
    syntax = (mvdan as { syntax: MvdanSyntax }).syntax;
  }
  return syntax;
}

/** Parses bash source into mvdan's tree; throws mvdan's error object on a syntax error. */
export function parseTree(source: string): ShFile {
  if (parser === undefined) parser = loadSyntax().NewParser();
  try {
    return parser.Parse(source, '');
  } finally {
    if (uncachedModule !== undefined) saveCodeCache(uncachedModule);
  }
}

/** Drops the cached parser so the next parse starts from a fresh one (after an unexpected failure). */
export function resetParser(): void {
  parser = undefined;
}

function saveCodeCache(loaded: LoadedModule): void {
  uncachedModule = undefined;
  try {
    loadSyntax().NewParser().Parse(warmUpCommand, '');
  } catch {
    // a warm-up that fails still leaves a useful cache
  }
  loaded.saveCodeCache();
}
