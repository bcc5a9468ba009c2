import { copyFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { bin, freshBuild, library } from '../../tsup.base.ts';

// Two CommonJS files ship as their own files beside the bundles. require-mvdan.cjs is the file a
// guard's hook bundle swaps for mvdan-sh's packed source (see hookBundle in tsup.base.ts);
// node-builtins.cjs keeps the parse path's builtins a require on first use in every build.
const external = ['./require-mvdan.cjs', './node-builtins.cjs'];
const copyCommonJsFiles = async (): Promise<void> => {
  await copyFile('src/require-mvdan.cjs', 'dist/require-mvdan.cjs');
  await copyFile('src/node-builtins.cjs', 'dist/node-builtins.cjs');
};

// The preset for hook authors (./bundle): tsup and esbuild stay the author's own, never inlined.
const config: Options[] = freshBuild([
  { ...library(['src/index.ts']), external, onSuccess: copyCommonJsFiles },
  { ...library(['src/bundle.ts']), clean: false, external: ['tsup', 'esbuild'] },
  { ...bin(['src/cli.ts']), external },
]);

export default config;
