import { expect, test } from 'vitest';
import * as published from '../src/index.ts';

// What a user of the gate needs (issue 22): decide a call, build the real context, and the names the
// gate answers with. The escape store, the marker search and the deny text's parts stay inside.
test('the package publishes what a user of the gate needs, and no internals', () => {
  expect(Object.keys(published).sort()).toEqual([
    'evaluate',
    'fileSystemContext',
    'guardName',
    'isCSharpSource',
    'launcherName',
    'ruleId',
    'switchName',
  ]);
});
