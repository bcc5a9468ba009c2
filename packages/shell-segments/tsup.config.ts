import { copyFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { bin, library } from '../../tsup.base.ts';

// require-mvdan.cjs ships as its own file beside the bundles: it is the file a guard's hook bundle
// swaps for mvdan-sh's packed source (see src/require-mvdan.cjs and hookBundle in tsup.base.ts).
const external = ['./require-mvdan.cjs'];
const copyLoader = (): Promise<void> => copyFile('src/require-mvdan.cjs', 'dist/require-mvdan.cjs');

const config: Options[] = [
  { ...library(['src/index.ts']), external, onSuccess: copyLoader },
  { ...bin(['src/cli.ts']), external },
];

export default config;
