import { rmSync } from 'node:fs';
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

/**
 * A package's configs, with its dist/ emptied once before any of them builds, and no config cleaning
 * on its own. tsup runs a package's configs at once, and a config's `clean` also removes every .d.ts
 * in dist/ when its declaration build starts, which can be after another config wrote its own (seen:
 * a fresh build of shell-segments without dist/bundle.d.ts).
 */
export function freshBuild(configs: Options[]): Options[] {
  rmSync('dist', { recursive: true, force: true });
  return configs.map((config) => ({ ...config, clean: false }));
}

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
