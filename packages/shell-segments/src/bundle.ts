// @kit/shell-segments/bundle: the hook-bundle preset the kit's own guards build with, published for
// hook authors. It lives in the workspace's tsup.base.ts (one shared build for every package) and
// is packaged here, beside the loader it feeds (load-parser.ts, embedded-module.ts): mvdan-sh rides
// in the bundle as packed data and is compiled through V8's code cache on the first parse; the
// bundle's own code rides behind a loader that uses Node's compile cache.
/** A guard's hook bundle for tsup: one minified CommonJS file with every dependency inlined, mvdan-sh as packed data. */
export { hookBundle } from '../../../tsup.base.ts';
/** hookBundle's options: `verdictServer` puts the verdict-server front before the body. */
export type { HookBundleOptions } from '../../../tsup.base.ts';
/** The esbuild plugin inside hookBundle, for a build of your own: require-mvdan.cjs becomes mvdan-sh's packed source. */
export { embedMvdanAsText } from '../../../tsup.base.ts';
