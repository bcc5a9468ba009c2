import { frameDepth } from '../src/frame-depth.ts';
import { describe, expect, test } from 'vitest';
import { parse } from '../src/parse.ts';
import type { Segment } from '../src/types.ts';

function segmentsOf(command: string): Segment[] {
  const outcome = parse(command);
  if (!outcome.ok) throw new Error(`${command}: ${outcome.message}`);
  return outcome.value.segments;
}

describe('failures are values', () => {
  test("an unclosed quote is a syntax outcome with mvdan's message", () => {
    expect(parse("echo 'oops")).toEqual({
      ok: false,
      reason: 'syntax',
      message: "1:6: reached EOF without closing quote '",
    });
  });

  test.for(['echo (', 'if true; then', 'a |', '$(', 'case x in'])('%s is a syntax outcome', (command) => {
    expect(parse(command)).toMatchObject({ ok: false, reason: 'syntax' });
  });

  test('over the default limit of 65536 characters is too-long; at the limit parses', () => {
    expect(parse(`echo ${'a'.repeat(65531)}`)).toMatchObject({ ok: true });
    expect(parse(`echo ${'a'.repeat(65532)}`)).toEqual({
      ok: false,
      reason: 'too-long',
      message: '65537 characters, over the limit of 65536',
    });
  });

  test('the caller sets the limit', () => {
    expect(parse('make check', { maxLength: 5 })).toMatchObject({ ok: false, reason: 'too-long' });
    expect(parse('make', { maxLength: 5 })).toMatchObject({ ok: true });
  });

  test.for([null, undefined, 42, {}, ['ls']])('%o is not-text', (input) => {
    expect(parse(input as unknown as string)).toMatchObject({ ok: false, reason: 'not-text' });
  });

  test.for([0, -1, 1.5, Number.NaN, '100'])('maxLength %o is a TypeError at once', (maxLength) => {
    expect(() => parse('ls', { maxLength: maxLength as number })).toThrow(TypeError);
  });

  test('the TypeError names the option and the value', () => {
    expect(() => parse('ls', { maxLength: 0 })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: parse: \`maxLength\` must be a positive integer, got 0 (number)]`,
    );
  });

  test('deep nesting is an outcome, not a throw', () => {
    const deep = `${'$('.repeat(3000)}x${')'.repeat(3000)}`;
    expect(() => parse(deep)).not.toThrow();
  });

  test('the empty command has no segments', () => {
    expect(parse('')).toEqual({
      ok: true,
      value: { source: '', segments: [], statements: [], runner: null, nested: [] },
    });
  });
});

describe('words', () => {
  test('values are after quote removal; an expansion makes the value null', () => {
    const [segment] = segmentsOf(`g\\it "pu"sh 'a b' $'x\\ty' "$HOME/x" $(pwd) \`id\` $((1+2))`);
    expect(segment?.argv.map((word) => word.value)).toEqual([
      'git',
      'push',
      'a b',
      'x\ty',
      null,
      null,
      null,
      null,
    ]);
    expect(segment?.argv.map((word) => word.text)).toEqual([
      'g\\it',
      '"pu"sh',
      "'a b'",
      "$'x\\ty'",
      '"$HOME/x"',
      '$(pwd)',
      '`id`',
      '$((1+2))',
    ]);
  });

  test('an unquoted glob, brace or tilde is dynamic; quoted it is not', () => {
    const [segment] = segmentsOf(`ls *.c "*.c" {a,b} '{a,b}' ~/x "~/x" plain`);
    expect(segment?.argv.map((word) => [word.value, word.dynamic])).toEqual([
      ['ls', false],
      ['*.c', true],
      ['*.c', false],
      ['{a,b}', true],
      ['{a,b}', false],
      ['~/x', true],
      ['~/x', false],
      ['plain', false],
    ]);
  });

  test('params name what a word expands directly, not inside a substitution', () => {
    const [outer, inner] = segmentsOf(
      'echo "$?" ${PIPESTATUS[0]} ${rc:-$fallback} $(echo $hidden) $((n + 1))',
    );
    expect(outer?.argv.map((word) => word.params)).toEqual([
      [],
      ['?'],
      ['PIPESTATUS'],
      ['rc', 'fallback'],
      [],
      ['n'],
    ]);
    expect(outer?.params).toEqual(['?', 'PIPESTATUS', 'rc', 'fallback', 'n']);
    expect(inner?.params).toEqual(['hidden']);
  });

  test('offsets are UTF-16 indices, also after non-ASCII text', () => {
    const command = 'echo "café ☕" 😀 && git push';
    const segments = segmentsOf(command);
    expect(segments.map((segment) => segment.text)).toEqual(['echo "café ☕" 😀', 'git push']);
    for (const segment of segments) {
      expect(command.slice(segment.start, segment.end)).toBe(segment.text);
      for (const word of segment.argv) expect(command.slice(word.start, word.end)).toBe(word.text);
    }
    expect(segments[0]?.argv[2]?.value).toBe('😀');
  });

  test('a lone surrogate keeps the offsets right', () => {
    const command = 'echo \ud800 x; ls';
    const segments = segmentsOf(command);
    expect(segments.map((segment) => segment.text)).toEqual(['echo \ud800 x', 'ls']);
  });
});

describe('assignments and redirections', () => {
  test('leading assignments are not words', () => {
    const [segment] = segmentsOf('GIT_GATE=off A+=x git push');
    expect(
      segment?.assigns.map(({ name, value, indexed, append, text }) => ({
        name,
        value,
        indexed,
        append,
        text,
      })),
    ).toEqual([
      { name: 'GIT_GATE', value: 'off', indexed: false, append: false, text: 'GIT_GATE=off' },
      { name: 'A', value: 'x', indexed: false, append: true, text: 'A+=x' },
    ]);
    expect(segmentsOf('b[0]=1')[0]?.assigns).toMatchObject([
      { name: 'b', value: '1', indexed: true, text: 'b[0]=1' },
    ]);
    expect(segment?.argv.map((word) => word.value)).toEqual(['git', 'push']);
  });

  test('a quoted name or a quoted = is a word, not an assignment', () => {
    const [quotedName, quotedEquals] = segmentsOf('"GIT_GATE"=off git push; GIT_GATE"="off git push');
    expect(quotedName?.assigns).toEqual([]);
    expect(quotedEquals?.assigns).toEqual([]);
  });

  test('every redirection operator', () => {
    const [segment] = segmentsOf('cmd >a >>b <c <>d <&3 2>&1 >|e &>f &>>g <<<h');
    expect(segment?.redirects.map((r) => [r.fd, r.op, r.target.value])).toEqual([
      [null, '>', 'a'],
      [null, '>>', 'b'],
      [null, '<', 'c'],
      [null, '<>', 'd'],
      [null, '<&', '3'],
      ['2', '>&', '1'],
      [null, '>|', 'e'],
      [null, '&>', 'f'],
      [null, '&>>', 'g'],
      [null, '<<<', 'h'],
    ]);
  });

  test('a heredoc body is data, found with its quoting; the command after the terminator is found', () => {
    const command = 'cat <<EOF | sh\ngit push $(whoami)\nEOF\ngit status';
    const segments = segmentsOf(command);
    expect(segments.map((segment) => segment.text)).toEqual(['cat <<EOF', 'sh', 'whoami', 'git status']);
    const heredoc = segments[0]?.redirects[0]?.heredoc;
    expect(heredoc).toEqual({ body: 'git push $(whoami)\n', quoted: false, start: 15, end: 34 });
    expect(command.slice(heredoc?.start, heredoc?.end)).toBe(heredoc?.body);
    expect(segments[2]?.context.map((frame) => [frame.kind, frame.owner, frame.inHeredoc])).toEqual([
      ['main', undefined, undefined],
      ['command-substitution', 0, true],
    ]);
  });

  test.for([
    `cat <<'EOF'\n$(git push)\nEOF`,
    'cat <<"EOF"\n$(git push)\nEOF',
    'cat <<\\EOF\n$(git push)\nEOF',
  ])('a quoted heredoc runs nothing: %s', (command) => {
    const segments = segmentsOf(command);
    expect(segments.map((segment) => segment.text)).toEqual([command.split('\n')[0]]);
    expect(segments[0]?.redirects[0]?.heredoc).toMatchObject({ body: '$(git push)\n', quoted: true });
  });

  test('a heredoc body reads parameters for its command', () => {
    expect(segmentsOf('cat <<EOF\n${PIPESTATUS[0]} $rc\nEOF')[0]?.params).toEqual(['PIPESTATUS', 'rc']);
    expect(segmentsOf("cat <<'EOF'\n${PIPESTATUS[0]}\nEOF")[0]?.params).toEqual([]);
  });
});

describe('placement and context', () => {
  test('a piped subshell carries the pipe on its frame; its last command is marked', () => {
    const [cd, test1, tee] = segmentsOf('(cd api && go test ./...) | tee log');
    expect(cd?.context[1]).toMatchObject({
      kind: 'subshell',
      placement: { pipeline: { index: 0, size: 2, op: '|' }, then: null, background: false, negated: false },
    });
    expect([cd?.last, test1?.last, tee?.last]).toEqual([false, true, true]);
    expect(cd?.context[1]?.id).toBe(test1?.context[1]?.id);
    expect(tee?.pipeline).toMatchObject({ index: 1, size: 2, op: null });
    expect(cd?.context[1]?.placement?.pipeline?.id).toBe(tee?.pipeline?.id);
  });

  test('a backgrounded group carries background on its frame', () => {
    const [a] = segmentsOf('{ make; } &');
    expect(a?.context[1]?.placement).toMatchObject({ background: true, then: '&' });
    expect(a?.background).toBe(false);
  });

  test('frameDepth counts the frames under the main list', () => {
    const segments = segmentsOf('echo $( (cd x && echo `id`) )');
    expect(segments.map((segment) => [segment.text, frameDepth(segment)])).toEqual([
      ['echo $( (cd x && echo `id`) )', 0],
      ['cd x', 2],
      ['echo `id`', 2],
      ['id', 3],
    ]);
  });

  test('owners point at the segment whose words hold the substitution', () => {
    const segments = segmentsOf('git commit -m "$(date)" > $(mktemp)');
    expect(segments.map((segment) => [segment.text, segment.context.at(-1)?.owner])).toEqual([
      ['git commit -m "$(date)" > $(mktemp)', undefined],
      ['date', 0],
      ['mktemp', 0],
    ]);
  });

  test('a process substitution knows its direction', () => {
    const segments = segmentsOf('diff <(ls a) >(cat)');
    expect(segments.slice(1).map((segment) => segment.context[1]?.direction)).toEqual(['<', '>']);
  });

  test('arithmetic never makes segments or pipes; a substitution inside it gets an arithmetic frame', () => {
    expect(segmentsOf('echo $(( a << 2 | b ))').map((segment) => segment.pipeline)).toEqual([null]);
    const segments = segmentsOf('echo $(( $(wc -l < f) | 1 ))');
    expect(segments[1]?.context.map((frame) => frame.kind)).toEqual([
      'main',
      'arithmetic',
      'command-substitution',
    ]);
  });

  test('[[ ]], (( )), let and declarations are segments with their operators as words', () => {
    const [test1, arith, letClause, local] = segmentsOf(
      '[[ -f "$x" && $y == 1 ]]; (( rc != 0 )); let n=n+1; local rc=$?',
    );
    expect(test1?.argv.map((word) => word.text)).toEqual(['[[', '-f', '"$x"', '&&', '$y', '==', '1', ']]']);
    expect(test1?.params).toEqual(['x', 'y']);
    expect(arith?.argv.map((word) => word.text)).toEqual(['((', 'rc != 0', '))']);
    expect(arith?.params).toEqual(['rc']);
    expect(letClause?.argv.map((word) => word.text)).toEqual(['let', 'n=n+1']);
    expect(local?.argv.map((word) => [word.text, word.value])).toEqual([
      ['local', 'local'],
      ['rc=$?', null],
    ]);
    expect(local?.params).toEqual(['?']);
  });

  test('comments are never segments', () => {
    expect(segmentsOf('# git push\nls # | git push').map((segment) => segment.text)).toEqual(['ls']);
  });
});

describe('compound frames name their clause, a function body its name', () => {
  const framesOf = (command: string) => {
    const outcome = parse(command);
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.value.segments.map((segment) => segment.context.at(-1));
  };
  test('the parts of one if share a clause; the next if has its own', () => {
    const [cond, body, elifCond, elifBody, elseBody, next] = framesOf(
      'if a; then b; elif c; then d; else e; fi; if f; then g; fi',
    );
    const clauses = [cond, body, elifCond, elifBody, elseBody].map((frame) => frame?.clause);
    expect(new Set(clauses).size).toBe(1);
    expect(clauses[0]).toEqual(expect.any(Number));
    expect(next?.clause).not.toBe(clauses[0]);
  });
  test('a while condition and body, the items of one case, share a clause', () => {
    const [cond, body] = framesOf('while a; do b; done');
    expect(cond?.clause).toBe(body?.clause);
    const [x, y] = framesOf('case $v in x) a;; y) b;; esac');
    expect(x?.clause).toBe(y?.clause);
  });
  test('a function body frame carries the name', () => {
    expect(framesOf('deploy() { git push; }')[0]).toMatchObject({ kind: 'function-body', name: 'deploy' });
    expect(framesOf('function ship { git push; }')[0]).toMatchObject({ kind: 'function-body', name: 'ship' });
  });
});
