import { copyFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { freshBuild, library } from '../../tsup.base.ts';

// os-temp-dir.cjs ships as its own file beside the bundles, so its require('node:os') stays a real
// CommonJS require that runs on first use, in the ES module build too (see src/os-temp-dir.cjs).
const external = ['./os-temp-dir.cjs'];
const copyLazyOs = (): Promise<void> => copyFile('src/os-temp-dir.cjs', 'dist/os-temp-dir.cjs');

// The bundle's front (src/front/), bundled and minified once here: hookBundle puts it at the head of
// every hook bundle, after one line that names `kitBundle`. Every import inlined, so the front shares
// the runtime's stdin reader, fd writer, temp folder and folder check, and loads no module file.
const front: Options = {
  entry: { 'front-plain': 'src/front/plain-entry.ts', 'front-served': 'src/front/server-entry.ts' },
  format: ['cjs'],
  target: 'node20',
  platform: 'node',
  splitting: false,
  sourcemap: false,
  dts: false,
  clean: false,
  minify: true,
  noExternal: [/.*/],
  outExtension: () => ({ js: '.cjs' }),
};

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
// The hook-bundle format (./bundle): tsup and esbuild stay the author's own, never inlined.
const config: Options[] = freshBuild([
  { ...library(['src/index.ts']), external, onSuccess: copyLazyOs },
  { ...library(['src/hook-bundle.ts']), clean: false, shims: true, external: ['tsup', 'esbuild'] },
  front,
]);
export default config;
