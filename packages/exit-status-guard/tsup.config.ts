import type { Options } from 'tsup';
import { bin, hookBundle, library } from '../../tsup.base.ts';

// Annotated rather than `defineConfig(...)`: isolatedDeclarations cannot infer a default export's type.
// The shipped registry is imported as JSON, so both the library and the hook bundle carry it inline.
const config: Options[] = [
  library(['src/index.ts']),
  bin(['src/cli.ts']),
  hookBundle({ hook: 'src/hook.ts' }),
];
export default config;
