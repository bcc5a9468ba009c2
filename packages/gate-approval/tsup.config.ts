import type { Options } from 'tsup';
import { freshBuild, judgeBundle, library } from '../../tsup.base.ts';

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
// The kit-judge plugin's two files, self-contained as a plugin runs them: dist/judge-plugin.cjs, its
// server (.mcp.json), and dist/judge-watch.cjs, its UserPromptSubmit hook (hooks/hooks.json).
const config: Options[] = freshBuild([
  library(['src/index.ts']),
  judgeBundle({ 'judge-plugin': 'src/judge-plugin.ts', 'judge-watch': 'src/judge-watch.ts' }),
]);
export default config;
