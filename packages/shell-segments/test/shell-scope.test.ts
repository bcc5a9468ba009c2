import { describe, expect, test } from 'vitest';
import { headText, parse, type Segment, shellScopeOf } from '../src/index.ts';

/** The scope of the first segment whose head is `cd x`, as the kind of its frame ('none' for null). */
function scopeOfCd(command: string): string {
  const outcome = parse(command);
  if (!outcome.ok) throw new Error(outcome.message);
  const cd = outcome.value.segments.find((segment: Segment) => headText(segment) === 'cd x');
  if (cd === undefined) throw new Error(`no cd x in ${command}`);
  return shellScopeOf(cd)?.kind ?? 'none';
}

describe('shellScopeOf: the frame a cd changes', () => {
  test.for([
    ['cd x && git commit', 'main'],
    ['cd x; make', 'main'],
    ['{ cd x; make; }', 'main'],
    ['if true; then cd x; fi', 'main'],
    ['for f in a; do cd x; done', 'main'],
    ['(cd x && make)', 'subshell'],
    ['echo $(cd x && pwd)', 'command-substitution'],
    ['echo `cd x`', 'backticks'],
    ['diff <(cd x && ls) b', 'process-substitution'],
    ['f() { cd x; }', 'function-body'],
    ['{ cd x; make; } | tee log', 'group'],
    ['{ cd x; make; } &', 'group'],
    ['while true; do cd x; done | cat', 'while-body'],
  ] as const)('%s -> %s', ([command, want]) => expect(scopeOfCd(command)).toBe(want));

  test.for(['cd x | cat', 'cat f | cd x', 'cd x &', 'cd x |& cat'])('%s -> none (runs apart)', (command) =>
    expect(scopeOfCd(command)).toBe('none'),
  );
});
