// The hook-bundle format, written: what `hookBundle` makes of a guard's entry (one minified CommonJS
// file, the front or the plain loader at its head, then the body and its data in comment sections).
// Its reader and front are ./bundle-loader.ts, in this same package, so a bundle's front and the
// runtime that writes it are one version. Published as `@kit/fail-open/bundle` (tsup and esbuild stay
// the author's own); the workspace's tsup.base.ts and `@kit/shell-segments/bundle` re-export it.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import type { Options } from 'tsup';
import { runtimeVariables } from './call-environment.ts';

const common = { target: 'node20', platform: 'node', splitting: false } as const;

const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** An esbuild plugin, as tsup's options take it. */
export type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];
type TsupPlugin = NonNullable<Options['plugins']>[number];

// A hook bundle's data rides after its code, one comment per section: `/*kit-hook-section:<name>:<base64>*/`.
// V8 skips a comment at a fraction of what it costs to scan a string literal or to compile code.
const sectionMarker = (name: string): string => `/*kit-hook-section:${name}:`;

/** The data a hook bundle carries after its code, by section name; filled while the bundle builds. */
type Sections = Map<string, string>;

// Reads one section back from the bundle's own file (the body runs under the bundle's name, see
// packages/fail-open/src/bundle-loader.ts). Built from two halves so that the marker never appears
// whole in the code itself.
const readSectionCode = (name: string): string =>
  `function () {
    const text = require('node:fs').readFileSync(__filename, 'latin1');
    const marker = '/*kit-hook-' + 'section:${name}:';
    const start = text.lastIndexOf(marker);
    if (start < 0) throw new Error('kit hook bundle: no ${name} section in ' + __filename);
    return text.slice(start + marker.length, text.indexOf('*/', start));
  }`;

/**
 * Puts mvdan-sh into a hook bundle as data: @kit/shell-segments' require-mvdan.cjs becomes a module
 * that returns the parser's hash and a function that reads its source (brotli, base64) from the
 * bundle's `mvdan-sh` section, which load-parser.ts unpacks and compiles on the first parse through
 * V8's code cache (src/embedded-module.ts) when the cache does not carry it. As code, the 1.5 MB
 * parser is pre-parsed by V8 on every start, also by the hooks that never parse; as a string
 * literal, even packed (260 KB), it is scanned whenever the function holding it is compiled, which
 * happens on every start; in a comment after the code it costs a tenth of that.
 */
const embedMvdanAsData = (sections?: Sections): EsbuildPlugin => ({
  name: sections === undefined ? 'kit-embed-mvdan-as-text' : 'kit-embed-mvdan-as-data',
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
      // Standalone (embedMvdanAsText), the packed text stays a string literal in the code.
      const base64 = packed.toString('base64');
      sections?.set('mvdan-sh', base64);
      const readPacked =
        sections === undefined ? `() => ${JSON.stringify(base64)}` : readSectionCode('mvdan-sh');
      const described = {
        embedded: 'commonjs',
        name: 'mvdan-sh',
        sourceHash: createHash('sha256').update(source).digest('hex'),
        // Lets the code cache carry the source unpacked (src/embedded-module.ts); absent without zlib.crc32.
        ...(crc32 === undefined ? {} : { sourceCrc32: crc32(Buffer.from(source, 'utf8')) }),
      };
      const fields = JSON.stringify(described).slice(1, -1);
      return {
        contents: `module.exports = function requireMvdan() { return { ${fields}, readPacked: ${readPacked} }; };\n`,
        loader: 'js',
        resolveDir: dirname(args.path),
        watchFiles: [sourcePath],
      };
    });
  },
});

/**
 * The esbuild plugin inside hookBundle, for a build of your own: require-mvdan.cjs becomes mvdan-sh's
 * packed source, here as a string literal (hookBundle keeps it in a section after the code instead).
 */
export const embedMvdanAsText: EsbuildPlugin = embedMvdanAsData();

/**
 * Turns the built bundle into its shipped form: @kit/fail-open's bundle loader, then the bundle's
 * code (the body) as base64 in the `body` section, then the other sections (mvdan-sh's packed
 * source). The loader compiles the body under the bundle's name with Node's compile cache on, so
 * that the cache can keep it compiled (packages/fail-open/src/bundle-loader.ts). With a verdict
 * server, the loader is its front, and the socket it asks is named by a hash of the front, the body
 * and the sections: a changed bundle never talks to a server of another.
 */
const wrapInLoader = (sections: Sections, options: HookBundleOptions): TsupPlugin => ({
  name: 'kit-wrap-in-loader',
  renderChunk(code, chunk) {
    if (!chunk.path.endsWith('.cjs')) return undefined;
    const data: [string, string][] = [['body', Buffer.from(code, 'utf8').toString('base64')], ...sections];
    const text = data.map(([name, encoded]) => `${sectionMarker(name)}${encoded}*/\n`).join('');
    // The front's own text counts too: a front that speaks to its server otherwise never meets an older one.
    const contentHash = createHash('sha256')
      .update(bundleLoaderSource('0'.repeat(16), options.environment))
      .update(text)
      .digest('hex')
      .slice(0, 16);
    const front = options.verdictServer === true ? contentHash : undefined;
    return { code: `${bundleLoaderSource(front, options.environment)}${text}` };
  },
});

// The front, as fail-open's own build bundled it from src/front/ (dist/front-*.cjs): beside this
// module once published, in ../dist from the workspace's source.
function builtFront(name: 'front-plain.cjs' | 'front-served.cjs'): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const file of [join(here, name), join(here, '..', 'dist', name)]) {
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  throw new Error(`@kit/fail-open: ${name} is not built (pnpm turbo run build --filter=@kit/fail-open)`);
}

/**
 * The head of a bundle: one line naming `kitBundle` (the bundle's module and file, and with a
 * `contentHash`, of the bundle's body and sections, the server's key and the variables a served call
 * carries), then the front the bundler built: the verdict-server front, or without a hash the plain
 * loader. `environment` names the variables the guard reads, beyond the runtime's own.
 */
export function bundleLoaderSource(contentHash?: string, environment: readonly string[] = []): string {
  const names = [...new Set([...runtimeVariables, ...environment])];
  const served =
    contentHash === undefined
      ? ''
      : `,hash:${JSON.stringify(contentHash)},environment:${JSON.stringify(names)}`;
  const front = builtFront(contentHash === undefined ? 'front-plain.cjs' : 'front-served.cjs');
  return `'use strict';\n// The kit's hook bundle loader: packages/fail-open/src/front/, built by the bundler. The body rides below in a comment.\nconst kitBundle={self:module,file:__filename${served}};\n${front.trim()}\n`;
}

/** How hookBundle builds. */
export interface HookBundleOptions {
  /**
   * The bundle's front asks a per-user verdict server, which is this bundle started once and kept
   * warm, before it answers in process (@kit/fail-open's runHook, bundle-loader.ts). Only for an
   * entry that calls runHook: the front reads stdin and hands it to runHook. Default false.
   */
  verdictServer?: boolean;
  /**
   * The environment variables the guard reads, beyond @kit/fail-open's own (`runtimeVariables`): a
   * call its verdict server answers carries these alone, never the whole environment.
   */
  environment?: readonly string[];
}

/**
 * A guard's hook bundle: one self-contained, minified CommonJS file with every dependency inlined,
 * so the host resolves no module on the hot path and the file can be copied anywhere by `install`.
 * CommonJS rather than an ES module: node starts a .cjs file about 4 ms sooner (no ESM loader), on
 * every tool call. mvdan-sh rides along as data (see embedMvdanAsData), and the whole bundle behind
 * a loader that lets Node's compile cache keep it (see wrapInLoader).
 */
export const hookBundle = (entry: Record<string, string>, options: HookBundleOptions = {}): Options => {
  const sections: Sections = new Map();
  return {
    ...selfContained(entry),
    esbuildPlugins: [embedMvdanAsData(sections)],
    plugins: [wrapInLoader(sections, options)],
  };
};

/**
 * An MCP judge's files (`@kit/gate-approval`'s judge): a module exporting a guard's `judge` and the
 * server that loads such modules, each one self-contained, minified CommonJS like the hook bundle,
 * but loaded once per session rather than per call: mvdan-sh rides as a packed string, no loader,
 * no sections.
 */
export const judgeBundle = (entry: Record<string, string>): Options => ({
  ...selfContained(entry),
  esbuildPlugins: [embedMvdanAsText],
});

// One minified CommonJS file per entry with every dependency inlined: what both presets share.
function selfContained(entry: Record<string, string>): Options {
  return {
    ...common,
    entry,
    format: ['cjs'],
    dts: false,
    clean: false,
    sourcemap: false,
    minify: true,
    noExternal: [/.*/],
    outExtension: () => ({ js: '.cjs' }),
  };
}
