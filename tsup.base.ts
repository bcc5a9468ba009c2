import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import * as zlib from 'node:zlib';
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

const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** An esbuild plugin, as tsup's options take it. */
export type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Puts mvdan-sh into a hook bundle as data: @kit/shell-segments' require-mvdan.cjs becomes a module
 * that returns the parser's source (brotli, base64) and its hash, which load-parser.ts unpacks and
 * compiles on the first parse through V8's code cache (src/embedded-module.ts). As code, the 1.5 MB
 * parser is pre-parsed by V8 on every start, also by the hooks that never parse; as plain text it
 * is still a 1.5 MB literal to scan; packed, it is a 260 KB one.
 */
export const embedMvdanAsText: EsbuildPlugin = {
  name: 'kit-embed-mvdan-as-text',
  setup(build) {
    build.onResolve({ filter: /(^|[\\/])require-mvdan\.cjs$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path),
      namespace: 'kit-embedded-mvdan',
    }));
    build.onLoad({ filter: /.*/, namespace: 'kit-embedded-mvdan' }, async (args) => {
      // mvdan-sh as the package that holds require-mvdan.cjs resolves it: the version it pins.
      const sourcePath = createRequire(args.path).resolve('mvdan-sh');
      const source = await readFile(sourcePath, 'utf8');
      const packed = zlib.brotliCompressSync(Buffer.from(source, 'utf8'), {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      });
      const embedded = {
        embedded: 'commonjs',
        name: 'mvdan-sh',
        brotliBase64: packed.toString('base64'),
        sourceHash: createHash('sha256').update(source).digest('hex'),
        // Lets the code cache carry the source unpacked (src/embedded-module.ts); absent without zlib.crc32.
        ...(crc32 === undefined ? {} : { sourceCrc32: crc32(Buffer.from(source, 'utf8')) }),
      };
      return {
        contents: `module.exports = function requireMvdan() { return ${JSON.stringify(embedded)}; };\n`,
        loader: 'js',
        resolveDir: dirname(args.path),
        watchFiles: [sourcePath],
      };
    });
  },
};

/**
 * A guard's hook bundle: one self-contained, minified CommonJS file with every dependency inlined,
 * so the host resolves no module on the hot path and the file can be copied anywhere by `install`.
 * CommonJS rather than an ES module: node starts a .cjs file about 4 ms sooner (no ESM loader), on
 * every tool call. mvdan-sh rides along as text (see embedMvdanAsText).
 */
export const hookBundle = (entry: Record<string, string>): Options => ({
  ...common,
  entry,
  format: ['cjs'],
  dts: false,
  clean: false,
  sourcemap: false,
  minify: true,
  noExternal: [/.*/],
  esbuildPlugins: [embedMvdanAsText],
  outExtension: () => ({ js: '.cjs' }),
});
