import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Options } from 'tsup';
import { buildLiteralsTable } from './src/literals-table.ts';
import { compilePattern } from './src/pattern.ts';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const registryFile = resolve(import.meta.dirname ?? '.', 'exit-status-guard.json');

/**
 * Replaces src/shipped-literals.ts with the table it would compute, so a built bundle carries the
 * shipped registry's required literals as data. The build fails on a shipped pattern that does not
 * compile: the hook trusts every shipped pattern and compiles it only on first use.
 */
export const inlineShippedLiterals: EsbuildPlugin = {
  name: 'kit-inline-shipped-literals',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]shipped-literals\.ts$/ }, async () => {
      const registry = JSON.parse(await readFile(registryFile, 'utf8')) as Record<string, unknown>;
      const table = buildLiteralsTable(registry);
      for (const pattern of Object.keys(table)) {
        const outcome = compilePattern(pattern);
        if (!outcome.ok)
          throw new Error(
            `exit-status-guard.json: ${JSON.stringify(pattern)} does not compile: ${outcome.message}`,
          );
      }
      // JSON.parse of one string literal: V8 reads it faster than the same object as code.
      const data = JSON.stringify(JSON.stringify(table));
      return {
        contents: `export const shippedLiterals = JSON.parse(${data});\n`,
        loader: 'js',
        watchFiles: [registryFile],
      };
    });
  },
};
