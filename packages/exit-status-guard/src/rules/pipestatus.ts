import type { Segment } from '@kit/shell-segments';
import { liftToTop } from '@kit/shell-segments';
import { freeName } from '../rewrite/names.ts';
import { pipelineParts } from '../rewrite/pipeline-rewrite.ts';
import { applyEdits, type Edit } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, type LogPathProbe, noRewrite, type Rewrite } from '../rule.ts';
import { allShells, mainOf, type Shell } from '../shell.ts';
import { statementsIn } from '../statements.ts';

/** A read of $PIPESTATUS, and the gate before it whose status the read was after (if any). */
interface PipestatusFinding extends Finding {
  reader: Segment;
  gate: Segment | null;
}

const phrase = 'reads $PIPESTATUS';

/** A word that is one whole read of a PIPESTATUS element: `${PIPESTATUS[1]}`, `"${PIPESTATUS[0]}"`, `$PIPESTATUS`. */
const wholeRead = /^("?)\$(?:\{PIPESTATUS\[(\d+)\]\}|PIPESTATUS)\1$/;

/**
 * The pipeline becomes `check > LOG 2>&1; rc=$?; filter`, and each read of the gate stage's
 * element becomes `$rc`. Only when the pipeline is a statement of its own on the main list and
 * every read of the array in that shell, after it, is a whole word (or assignment value) naming
 * that one element: otherwise there is no rewrite that means the same.
 */
function captureRewrite(shell: Shell, gate: Segment, logPath: LogPathProbe): Rewrite {
  const pipeline = gate.pipeline;
  if (pipeline === null || pipeline.op === null) return noRewrite('the gate is not piped');
  // The spans first: the log path is asked for (a probe of the disk) only once a rewrite is sure.
  const parts = pipelineParts(shell, pipeline.id, pipeline.index, { path: '', mkdir: '' });
  if (parts === null) return noRewrite('no pipeline stages');
  const main = mainOf(shell);
  const own =
    main && statementsIn(shell, main).filter((each) => each.start >= parts.start && each.end <= parts.end);
  const last = own?.[own.length - 1];
  const joined = (op: string | null) => op === '&&' || op === '||' || op === '&';
  const before =
    main &&
    statementsIn(shell, main)
      .filter((each) => each.end <= parts.start)
      .at(-1);
  if (!last || joined(last.then) || joined(before?.then ?? null) || gate.context.length > 1)
    return noRewrite('the pipeline is not a statement of its own');
  const name = freeName(shell);
  const edits: Edit[] = [];
  for (const reader of shell.segments.filter((segment) => segment.params.includes('PIPESTATUS'))) {
    if (reader.start < parts.end) return noRewrite('a read before the pipeline');
    const echoed =
      ['echo', 'printf'].includes(reader.argv[0]?.value ?? '') &&
      reader.params.every((param) => param === 'PIPESTATUS');
    if (
      echoed &&
      reader.argv.slice(1).every((word) => !word.params.includes('PIPESTATUS') || wholeRead.test(word.text))
    ) {
      // `echo "${PIPESTATUS[0]}"` was the report: it becomes the usual one.
      if (
        reader.argv.some(
          (word) => Number(wholeRead.exec(word.text)?.[2] ?? pipeline.index) !== pipeline.index,
        )
      )
        return noRewrite('a read of another element');
      edits.push({ at: reader.start, remove: reader.end - reader.start, text: `echo "EXIT=$${name}"` });
      continue;
    }
    let found = 0;
    for (const word of reader.argv) {
      if (!word.params.includes('PIPESTATUS')) continue;
      const match = wholeRead.exec(word.text);
      if (match === null || Number(match[2] ?? 0) !== pipeline.index)
        return noRewrite('a read of another element');
      edits.push({ at: word.start, remove: word.end - word.start, text: `${match[1]}$${name}${match[1]}` });
      found += 1;
    }
    for (const assign of reader.assigns) {
      const value = assign.text.slice(assign.name.length + 1);
      const match = wholeRead.exec(value);
      if (match === null) continue;
      if (Number(match[2] ?? 0) !== pipeline.index) return noRewrite('a read of another element');
      const at = assign.start + assign.name.length + 1;
      edits.push({ at, remove: value.length, text: `${match[1]}$${name}${match[1]}` });
      found += 1;
    }
    if (found === 0) return noRewrite('a read inside a larger word');
  }
  const log = logPath();
  const logged = pipelineParts(shell, pipeline.id, pipeline.index, log) as typeof parts;
  edits.push({
    at: parts.start,
    remove: parts.end - parts.start,
    text: `${log.mkdir}${logged.check} > ${log.path} 2>&1; ${name}=$?; ${logged.filter}`,
  });
  return { ok: true, value: liftToTop(shell.line, applyEdits(shell.source, edits)) };
}

/**
 * Rule 1, `pipestatus`: a read of $PIPESTATUS anywhere (also in an unquoted heredoc body), whether
 * or not a gate runs: it is a bash-only array, and under a shell without it the test reads success.
 */
export const pipestatus: DenyingRule<'pipestatus', PipestatusFinding> = {
  effect: 'deny',
  id: 'pipestatus',
  phrase,
  find: ({ top }) => {
    for (const shell of allShells(top)) {
      const reader = shell.segments.find((segment) => segment.params.includes('PIPESTATUS'));
      if (!reader) continue;
      // The gate named is the one whose status the read was after: the last gate before it.
      let gate = null;
      for (const [i, segment] of shell.segments.entries()) {
        if (segment.start < reader.start && shell.roles[i]?.gate) gate = segment;
      }
      const gateHead = gate
        ? (shell.roles[shell.segments.indexOf(gate)]?.gateHead ?? '')
        : (shell.roles[shell.segments.indexOf(reader)]?.head ?? reader.text);
      return { shell, reader, gate, gateHead: gateHead || reader.text };
    }
    return null;
  },
  reason: () => ({
    why: `the command ${phrase}, a bash-only array: under a shell without it the test reads success.`,
    instead: 'Capture the status in a variable instead, with the output in a log:',
    fallback:
      'Test `$?` right after the command whose status you need, in its own statement: `cmd > log 2>&1; echo "EXIT=$?"`.',
    durableFix:
      'No exempt pattern silences this rule: the read itself is the problem, whatever ran before it.',
  }),
  rewrite: ({ shell, gate }, logPath) => {
    if (gate === null) return noRewrite('no gate before the read');
    return captureRewrite(shell, gate, logPath);
  },
};
