import { copyFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { bin, library } from '../../tsup.base.ts';

// require-mvdan.cjs ships as its own file beside the bundles: its literal require('mvdan-sh') is
// what a guard's hook bundle follows to inline the parser (see src/require-mvdan.cjs).
const external = ['./require-mvdan.cjs'];
const copyLoader = (): Promise<void> => copyFile('src/require-mvdan.cjs', 'dist/require-mvdan.cjs');

const config: Options[] = [
  { ...library(['src/index.ts']), external, onSuccess: copyLoader },
  { ...bin(['src/cli.ts']), external },
];

export default config;
