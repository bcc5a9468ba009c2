import type { Options } from 'tsup';

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
 * The hook-bundle format lives in @kit/fail-open (src/hook-bundle.ts, published as
 * `@kit/fail-open/bundle`) beside the front and loader it writes; the kit's own builds take it here.
 */
export {
  type EsbuildPlugin,
  embedMvdanAsText,
  type HookBundleOptions,
  hookBundle,
  judgeBundle,
} from './packages/fail-open/src/hook-bundle.ts';
