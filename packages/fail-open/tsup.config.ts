import type { Options } from 'tsup';
import { library } from '../../tsup.base.ts';

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
const config: Options[] = [library(['src/index.ts'])];
export default config;
