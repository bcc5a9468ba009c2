import type { Options } from 'tsup';
import { bin, freshBuild, hookBundle, judgeBundle, library } from '../../tsup.base.ts';
import { readsEnvironment } from './src/environment.ts';

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
const config: Options[] = freshBuild([
  library(['src/index.ts']),
  bin(['src/cli.ts']),
  hookBundle({ hook: 'src/hook.ts' }, { verdictServer: true, environment: readsEnvironment }),
  judgeBundle({ judge: 'src/judge.ts', mcp: 'src/mcp.ts' }),
]);
export default config;
