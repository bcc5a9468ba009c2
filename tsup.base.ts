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
 * A guard's hook bundle: one self-contained ESM file with every dependency inlined, so the host
 * resolves no module on the hot path and the file can be copied anywhere by `install`.
 */
export const hookBundle = (entry: Record<string, string>): Options => ({
  ...common,
  entry,
  format: ['esm'],
  dts: false,
  clean: false,
  sourcemap: false,
  noExternal: [/.*/],
  outExtension: () => ({ js: '.mjs' }),
  // Inlined CommonJS (mvdan-sh) needs a real `require` in an ES module.
  banner: { js: "import { createRequire as __kitCreateRequire } from 'node:module'; const require = __kitCreateRequire(import.meta.url);" },
});
