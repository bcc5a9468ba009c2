import type { Options } from 'tsup';
import { embedMvdanAsText } from './packages/fail-open/src/hook-bundle.ts';

// One shared build. Each package's tsup.config.ts is a one-liner over these.
const common = { sourcemap: true, target: 'node20', platform: 'node', splitting: false } as const;

/** The public library: ESM + CJS, each with its own declarations. */
export const library = (entry: string[]): Options => ({
  ...common,
  entry,
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
});

/** A bin: ESM only; tsup keeps the shebang and marks the file executable. */
export const bin = (entry: string[]): Options => ({
  ...common,
  entry,
  format: ['esm'],
  dts: false,
  clean: false,
});

/**
 * The MCP judge's files in a guard's package: `judge` (dist/judge.cjs), a module exporting the
 * guard's `judge` with every dependency inlined, and `mcp` (dist/mcp.cjs), the server process
 * that loads judge modules. Self-contained minified CommonJS like the hook bundle, but loaded once
 * per session rather than per call: mvdan-sh rides as a packed string, no loader, no sections.
 */
export const judgeBundle = (entry: Record<string, string>): Options => ({
  ...common,
  entry,
  format: ['cjs'],
  dts: false,
  clean: false,
  sourcemap: false,
  minify: true,
  noExternal: [/.*/],
  outExtension: () => ({ js: '.cjs' }),
  esbuildPlugins: [embedMvdanAsText],
});

/**
 * The hook-bundle format lives in @kit/fail-open (src/hook-bundle.ts, published as
 * `@kit/fail-open/bundle`) beside the front and loader it writes; the kit's own builds take it here.
 */
export {
  type EsbuildPlugin,
  embedMvdanAsText,
  type HookBundleOptions,
  hookBundle,
} from './packages/fail-open/src/hook-bundle.ts';
