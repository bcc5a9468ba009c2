import type { Options } from 'tsup';
import { bin, freshBuild, hookBundle, judgeBundle, library } from '../../tsup.base.ts';
import { readsEnvironment } from './src/environment.ts';
import { inlineShippedLiterals } from './literals-plugin.ts';

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
// The shipped registry is imported as JSON, so both the library and the hook bundle carry it inline;
// its required literals are computed here, at build time (literals-plugin.ts).
const withLiterals = (options: Options): Options => ({
  ...options,
  esbuildPlugins: [...(options.esbuildPlugins ?? []), inlineShippedLiterals],
});

const config: Options[] = freshBuild([
  withLiterals(library(['src/index.ts'])),
  withLiterals(bin(['src/cli.ts'])),
  withLiterals(hookBundle({ hook: 'src/hook.ts' }, { verdictServer: true, environment: readsEnvironment })),
  withLiterals(judgeBundle({ judge: 'src/judge.ts', mcp: 'src/mcp.ts' })),
]);
export default config;
