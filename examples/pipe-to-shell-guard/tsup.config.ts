import { hookBundle } from '@kit/shell-segments/bundle';
import type { Options } from 'tsup';

// The hook bundle with the same preset, loader and code cache as the kit's own guards; the bin is
// a plain ES module that imports the kit from node_modules.
const config: Options[] = [
  hookBundle({ hook: 'src/hook.ts' }, { verdictServer: true }),
  { entry: ['src/cli.ts'], format: ['esm'], platform: 'node', target: 'node20', clean: false },
];
export default config;
