// @kit/shell-segments/bundle: the hook-bundle preset the kit's own guards build with, kept here for
// hook authors who import it from the parser they bundle. Its home is @kit/fail-open/bundle (the
// format's writer beside the front and loader it writes, one version), a dependency of this package:
// mvdan-sh rides in the bundle as packed data, compiled through V8's code cache on the first parse
// (load-parser.ts, embedded-module.ts); the bundle's own code rides behind a loader that uses
// Node's compile cache.
/** A guard's hook bundle for tsup: one minified CommonJS file with every dependency inlined, mvdan-sh as packed data. */
export { hookBundle } from '@kit/fail-open/bundle';
/** hookBundle's options: `verdictServer` puts the verdict-server front before the body; `environment` names what a served call carries. */
export type { HookBundleOptions } from '@kit/fail-open/bundle';
/** The esbuild plugin inside hookBundle, for a build of your own: require-mvdan.cjs becomes mvdan-sh's packed source. */
export { embedMvdanAsText } from '@kit/fail-open/bundle';
