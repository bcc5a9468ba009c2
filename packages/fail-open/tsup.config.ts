import { copyFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { library } from '../../tsup.base.ts';

// os-temp-dir.cjs ships as its own file beside the bundles, so its require('node:os') stays a real
// CommonJS require that runs on first use, in the ES module build too (see src/os-temp-dir.cjs).
const external = ['./os-temp-dir.cjs'];
const copyLazyOs = (): Promise<void> => copyFile('src/os-temp-dir.cjs', 'dist/os-temp-dir.cjs');

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
// The hook-bundle format (./bundle): tsup and esbuild stay the author's own, never inlined.
const config: Options[] = [
  { ...library(['src/index.ts']), external, onSuccess: copyLazyOs },
  { ...library(['src/hook-bundle.ts']), clean: false, external: ['tsup', 'esbuild'] },
];
export default config;
