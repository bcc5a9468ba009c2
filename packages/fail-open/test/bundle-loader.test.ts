import { Script } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { bundleLoaderSource } from '../src/hook-bundle.ts';
import { freeNames } from './free-names.ts';

// The front is real modules (src/front/) that the bundler builds into dist/front-*.cjs, and
// bundleLoaderSource puts after one line naming `kitBundle`: a name the build left free would be
// undefined in every bundle.
describe('the bundle loader is self-contained', () => {
  const loaders: [string, string][] = [
    ['the verdict-server front', bundleLoaderSource('0123456789abcdef')],
    ['the plain loader', bundleLoaderSource()],
  ];
  // TypeScript's checker with Node's types takes a few seconds to start on a loaded machine.
  const checkerMs = 60_000;
  test('the control: a script that names a free identifier is caught', { timeout: checkerMs }, () => {
    expect(freeNames('leakedHelper(require, module, __filename);')).toEqual([
      "Cannot find name 'leakedHelper'.",
    ]);
    expect(freeNames('const own = 1; own + Buffer.byteLength(process.version);')).toEqual([]);
  });
  test.for(loaders)('%s compiles as a CommonJS module', ([, source]) => {
    expect(
      () => new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`),
    ).not.toThrow();
  });
  test.for(loaders)(
    '%s names nothing beyond its parameters and Node\u2019s globals',
    { timeout: checkerMs },
    ([, source]) => {
      expect(freeNames(source)).toEqual([]);
    },
  );
});
