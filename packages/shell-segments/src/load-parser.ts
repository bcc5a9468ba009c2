import type { MvdanSyntax, ShFile } from './mvdan-nodes.ts';
import requireMvdan from './require-mvdan.cjs';

// The one place that knows how mvdan-sh is loaded. Swapping in a code-cache loader (vm.Script with
// cachedData) changes this module only.
let syntax: MvdanSyntax | undefined;
let parser: { Parse(src: string, name: string): ShFile } | undefined;

/** mvdan-sh's `syntax` namespace, required on the first call and cached for the process. */
export function loadSyntax(): MvdanSyntax {
  if (syntax === undefined) {
    syntax = (requireMvdan() as { syntax: MvdanSyntax }).syntax;
  }
  return syntax;
}

/** Parses bash source into mvdan's tree; throws mvdan's error object on a syntax error. */
export function parseTree(source: string): ShFile {
  if (parser === undefined) parser = loadSyntax().NewParser();
  return parser.Parse(source, '');
}

/** Drops the cached parser so the next parse starts from a fresh one (after an unexpected failure). */
export function resetParser(): void {
  parser = undefined;
}
