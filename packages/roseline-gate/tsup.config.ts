import type { Options } from 'tsup';
import { bin, hookBundle, library } from '../../tsup.base.ts';
import { readsEnvironment } from './src/environment.ts';

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
const config: Options[] = [
  library(['src/index.ts']),
  bin(['src/cli.ts']),
  hookBundle({ hook: 'src/hook.ts' }, { verdictServer: true, environment: readsEnvironment }),
];
export default config;
