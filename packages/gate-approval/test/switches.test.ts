import { describe, expect, test } from 'vitest';
import { isStrict, readSwitch } from '../src/index.ts';

const offValues = [
  'off',
  '0',
  'false',
  'no',
  'disabled',
  'OFF',
  'False',
  'No',
  'DISABLED',
  ' off ',
  '\tno\n',
];
const onValues = ['on', '1', 'true', 'yes', 'enabled', 'ON', 'True', 'YES', 'Enabled', ' 1 ', '\non'];
const autoValues = ['', ' ', 'auto', '2', 'offf', 'o n', 'enable', 'disable', 'y', 'n', '-1', 'nope'];

describe('readSwitch: one name', () => {
  test.for(offValues)('%j is off', (value) =>
    expect(readSwitch({ GIT_GATE: value }, 'GIT_GATE')).toBe('off'),
  );
  test.for(onValues)('%j is on', (value) => expect(readSwitch({ GIT_GATE: value }, 'GIT_GATE')).toBe('on'));
  test.for(autoValues)('%j is auto', (value) =>
    expect(readSwitch({ GIT_GATE: value }, 'GIT_GATE')).toBe('auto'),
  );
  test('unset is auto; another name is not read', () => {
    expect(readSwitch({}, 'GIT_GATE')).toBe('auto');
    expect(readSwitch({ OTHER: 'off', git_gate: 'off' }, 'GIT_GATE')).toBe('auto');
  });
});

describe('readSwitch: the current name wins over a legacy one; among legacy names off wins', () => {
  const rows: [Record<string, string>, string][] = [
    [{ NEW: 'on', OLD: 'off' }, 'on'],
    [{ NEW: 'off', OLD: 'on' }, 'off'],
    [{ NEW: 'off', OLD: 'off' }, 'off'],
    [{ NEW: 'on', OLD: 'on' }, 'on'],
    [{ OLD: 'off' }, 'off'],
    [{ OLD: 'yes' }, 'on'],
    [{ NEW: 'whatever', OLD: 'off' }, 'off'],
    [{ NEW: '', OLD: 'on' }, 'on'],
    [{ OLD: 'on', OLDER: 'off' }, 'off'],
    [{ OLD: 'off', OLDER: 'on' }, 'off'],
    [{ OLD: 'junk', OLDER: 'on' }, 'on'],
    [{ OLD: 'junk' }, 'auto'],
    [{}, 'auto'],
  ];
  test.for(rows)('%j -> %s', ([env, want]) => expect(readSwitch(env, 'NEW', ['OLD', 'OLDER'])).toBe(want));
});

describe('isStrict reads TAGOUT_HOOKS_STRICT', () => {
  test.for(['1', 'on', 'true', 'yes', 'ON', 'True', 'YES', ' 1 '])('%j is strict', (value) =>
    expect(isStrict({ TAGOUT_HOOKS_STRICT: value })).toBe(true),
  );
  test.for(['0', 'off', 'false', 'no', 'enabled', '', '2', 'strict', 'y'])('%j is the default', (value) =>
    expect(isStrict({ TAGOUT_HOOKS_STRICT: value })).toBe(false),
  );
  test('unset is the default', () => expect(isStrict({})).toBe(false));
});
