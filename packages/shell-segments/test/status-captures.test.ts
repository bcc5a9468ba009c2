import { expect, test } from 'vitest';
import { parse } from '../src/parse.ts';
import { findStatusCaptures } from '../src/status-captures.ts';

function capturesOf(command: string): [string, string, string[]][] {
  const outcome = parse(command);
  if (!outcome.ok) throw new Error(command);
  return findStatusCaptures(outcome.value).map(({ capture, name, readers }) => [
    capture.text,
    name,
    readers.map((r) => r.text),
  ]);
}

test('the capture-and-restore form', () => {
  expect(capturesOf('make; rc=$?; git reset --hard; exit $rc')).toEqual([['rc=$?', 'rc', ['exit $rc']]]);
});

test.for([
  ['make; rc="$?"; [ "$rc" -eq 0 ] && git push', [['rc="$?"', 'rc', ['[ "$rc" -eq 0 ]']]]],
  ['f() { make; local rc=$?; return $rc; }', [['local rc=$?', 'rc', ['return $rc']]]],
  [
    'make\nstatus=$?\nif (( status != 0 )); then echo "failed: $status"; fi',
    [['status=$?', 'status', ['(( status != 0 ))', 'echo "failed: $status"']]],
  ],
  ['make; rc=$?; echo $(printf %d $rc)', [['rc=$?', 'rc', ['printf %d $rc']]]],
  [
    'a; rc=$?; echo $rc; b; rc=$?; echo $rc',
    [
      ['rc=$?', 'rc', ['echo $rc']],
      ['rc=$?', 'rc', ['echo $rc']],
    ],
  ],
])('%s', ([command, want]) => {
  expect(capturesOf(command as string)).toEqual(want);
});

test.for([
  'echo $?',
  'rc=$? make',
  'rc=${?:-1}',
  'rc=$?x',
  'x=1 rc=$?',
  'rc=$? | cat',
  'rc[0]=$?',
  'rc=$(echo $?)',
])('not a capture: %s', (command) => {
  expect(capturesOf(command)).toEqual([]);
});
