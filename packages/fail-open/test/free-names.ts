import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// "Cannot find name 'x'" and its variants (did you mean, a missing @types, a missing lib).
const unknownNameCodes = new Set([2304, 2552, 2580, 2581, 2582, 2583, 2584, 2591, 2592, 2593]);

/**
 * The names a CommonJS script uses but neither declares nor finds among Node's globals (ES2022
 * and @types/node: `require`, `module`, `Buffer`, `process`, …), by TypeScript's checker.
 */
export function freeNames(source: string): string[] {
  const fileName = join(packageDir, '__loader-under-test__.js');
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getCurrentDirectory = () => packageDir;
  host.fileExists = (
    (exists) => (name: string) =>
      name === fileName || exists(name)
  )(host.fileExists.bind(host));
  host.readFile = (
    (read) => (name: string) =>
      name === fileName ? source : read(name)
  )(host.readFile.bind(host));
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, source, language, true, ts.ScriptKind.JS)
      : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([fileName], options, host);
  const file = program.getSourceFile(fileName);
  return program
    .getSemanticDiagnostics(file)
    .filter((diagnostic) => unknownNameCodes.has(diagnostic.code))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/** The loader at the head of a built hook bundle: its text before the first section. */
export function loaderOf(bundleText: string): string {
  return bundleText.slice(0, bundleText.indexOf('/*kit-hook-section:'));
}
