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

/**
 * The embedded mvdan-sh modules already run in this process, by the hash of their source. One
 * process can hold several self-contained bundles that each carry mvdan-sh (the MCP judge serves
 * every guard's judge module, each with its own copy): the first to parse runs it, and the others
 * take the same exports when their copy is the same source, byte for byte. mvdan-sh keeps no state
 * between parses but the parser each bundle makes for itself, so sharing it changes no result; it
 * saves a copy of its code and heap (tens of MB each). Another version is another hash: its own copy.
 */
const sharedKey = Symbol.for('@kit/shell-segments: mvdan-sh by source hash');

function sharedModules(): Map<string, unknown> {
  const holder = globalThis as { [sharedKey]?: Map<string, unknown> };
  holder[sharedKey] ??= new Map<string, unknown>();
  return holder[sharedKey];
}

/** mvdan-sh's `syntax` namespace, loaded on the first call and kept for the process. */
export function loadSyntax(): MvdanSyntax {
  if (syntax === undefined) {
    const loaded = requireMvdan();
    let mvdan = loaded;
    if (isEmbeddedModule(loaded)) {
      const shared = sharedModules();
      mvdan = shared.get(loaded.sourceHash);
      if (mvdan === undefined) {
        const embedded = loadEmbeddedModule(loaded);
        if (!embedded.usedCodeCache) uncachedModule = embedded;
        mvdan = embedded.exports;
        shared.set(loaded.sourceHash, mvdan);
      }
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
