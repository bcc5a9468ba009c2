// The commands of @kit/shell-segments' test corpus (test/corpus.ts), compiled on the fly with
// esbuild so the benchmark measures exactly what the tests check.
import { buildSync } from 'esbuild';
import { join } from 'node:path';

/** Every command of the shell-segments corpus, in order. */
export async function loadCorpus(root) {
  const built = buildSync({
    entryPoints: [join(root, 'packages/shell-segments/test/corpus.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const source = built.outputFiles[0].text;
  const module = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  return module.corpus.map((row) => row.command);
}
