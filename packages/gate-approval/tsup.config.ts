import type { Options } from 'tsup';
import { judgeBundle, library } from '../../tsup.base.ts';

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
// dist/judge-plugin.cjs is the kit-judge plugin's server (.mcp.json): self-contained, as a plugin runs it.
const config: Options[] = [library(['src/index.ts']), judgeBundle({ 'judge-plugin': 'src/judge-plugin.ts' })];
export default config;
