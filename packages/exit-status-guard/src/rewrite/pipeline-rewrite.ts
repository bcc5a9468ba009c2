import type { PipelineStatement } from '@kit/shell-segments';
import type { LogPath } from '../log-path.ts';
import { stagesOf } from '../pipeline.ts';
import { mainOf, type Shell } from '../shell.ts';
import { type Statement, statementsIn } from '../statements.ts';

/** A pipeline read for a rewrite: its span, the stages up to the gate's, and the filter fed from the log. */
export interface PipelineParts {
  start: number;
  end: number;
  check: string; // the stages up to and including the gate's, without the gate's own 2>&1
  filter: string; // the stages after it, reading the log: `tail -3 < LOG`, `< LOG tee x | tail`, `cat LOG | { …; }`
}

/** The parts of the pipeline a gate stage is piped out of; null when it has no stage after the gate's. */
export function pipelineParts(
  shell: Shell,
  pipeline: PipelineStatement,
  stageIndex: number,
  log: LogPath,
): PipelineParts | null {
  const stages = stagesOf(pipeline);
  const first = stages[0];
  const lastStage = stages[stages.length - 1];
  const gateStage = stages[stageIndex];
  const next = stages[stageIndex + 1];
  if (!first || !lastStage || !gateStage || !next) return null;
  const right = shell.source.slice(next.start, lastStage.end);
  const single = next === lastStage && next.kind === 'segment';
  const filter = single
    ? `${right} < ${log.path}`
    : next.kind === 'segment'
      ? `< ${log.path} ${right}`
      : `cat ${log.path} | ${right}`;
  return {
    start: first.start,
    end: lastStage.end,
    check: withoutStderrMerge(shell.source, first.start, gateStage),
    filter,
  };
}

/** `check > LOG 2>&1; echo "EXIT=$?"; filter`: a statement of its own, which reports the status it does not keep. */
export function logAndEcho(parts: Pick<PipelineParts, 'check' | 'filter'>, log: LogPath): string {
  return `${log.mkdir}${parts.check} > ${log.path} 2>&1; echo "EXIT=$?"; ${parts.filter}`;
}

/** Whether a status-keeping rewrite also reports the status: where an if / while condition tests it, nothing else would. */
export type StatusReport = 'exit-only' | 'echo-to-stderr';

/**
 * `( check > LOG 2>&1; rc=$?; filter; exit $rc )`: the same output, and the check's status as its
 * own, so whatever consumed the pipeline's status (`&&`, `||`, `if`, a group) now gets the check's.
 * A subshell keeps `rc` to itself, and loses nothing: every stage of a pipeline runs in one anyway.
 */
export function keepingStatus(
  parts: Pick<PipelineParts, 'check' | 'filter'>,
  log: LogPath,
  report: StatusReport = 'exit-only',
): string {
  const echo = report === 'echo-to-stderr' ? ' echo "EXIT=$rc" >&2;' : '';
  return `(${log.mkdir}${parts.check} > ${log.path} 2>&1; rc=$?; ${parts.filter};${echo} exit $rc)`;
}

/** How a status-keeping rewrite at this segment reports: echoed where a condition consumes it. */
export function reportAt(segment: { context: readonly { kind: string }[] }): StatusReport {
  return segment.context.some((frame) => frame.kind.endsWith('-condition')) ? 'echo-to-stderr' : 'exit-only';
}

/** The text that replaces `[start, end)` of `source`, padded so that `$(` + `(` never reads as `$((`. */
export function padded(source: string, start: number, end: number, text: string): string {
  const before = source[start - 1] === '(' ? ' ' : '';
  const after = source[end] === ')' ? ' ' : '';
  return `${before}${text}${after}`;
}

/** The text up to the end of the gate's stage, minus its own `2>&1` (the rewrite adds one after the log). */
export function withoutStderrMerge(source: string, start: number, stage: Statement): string {
  let text = source.slice(start, stage.end);
  if (stage.kind !== 'segment') return text;
  const merges = stage.segment.redirects
    .filter((redirect) => redirect.op === '>&' && redirect.fd === '2' && redirect.target.value === '1')
    .map((redirect) => redirect.target.end - 4)
    .filter((at) => source.slice(at, at + 4) === '2>&1')
    .sort((a, b) => b - a);
  for (const at of merges) {
    const local = at - start;
    text = text.slice(0, local).trimEnd() + text.slice(local + 4);
  }
  return text;
}

/** The `echo "EXIT=$?"` right after a statement, which a rewrite that echoes the status itself makes redundant. */
export function redundantStatusEcho(shell: Shell, end: number): Statement | null {
  const main = mainOf(shell);
  if (!main) return null;
  const next = statementsIn(shell, main).find((statement) => statement.start >= end);
  if (next?.kind !== 'segment') return null;
  const { segment } = next;
  const isEcho = ['echo', 'printf'].includes(segment.argv[0]?.value ?? '');
  const onlyStatus = segment.params.length > 0 && segment.params.every((param) => param === '?');
  return isEcho && onlyStatus && segment.redirects.length === 0 && segment.pipeline === null ? next : null;
}

/**
 * True when a span ends a top-level and-or list of the top line whose status nothing uses: no
 * `&&` / `||` / `&` after it, no later state change in the line, and the next statement does not
 * read `$?` (a redundant `echo "EXIT=$?"` aside, which the rewrite replaces). It may follow an
 * `&&` (`cd api && make check | tail`): see isJoinedBefore.
 */
export function standsAlone(shell: Shell, start: number, end: number): boolean {
  if (shell.line.runner !== null) return false; // a nested line's status is its runner's
  const main = mainOf(shell);
  if (!main) return false;
  const statements = statementsIn(shell, main);
  const inside = statements.filter((statement) => statement.start >= start && statement.end <= end);
  if (inside.length === 0) return false;
  const before = statements.filter((statement) => statement.end <= start).at(-1);
  const lastInside = inside[inside.length - 1] as Statement;
  const joined = (op: string | null) => op === '&&' || op === '||' || op === '&';
  if (joined(lastInside.then) || before?.then === '&') return false;
  if (shell.segments.some((segment, i) => segment.start >= end && shell.roles[i]?.containsMutator))
    return false;
  const next = statements.find((statement) => statement.start >= end);
  if (next === undefined || redundantStatusEcho(shell, end) !== null) return true;
  return !shell.segments.some(
    (segment) => segment.start >= next.start && segment.end <= next.end && segment.params.includes('?'),
  );
}

/** True when the statement before a span joins it with `&&` or `||`: a rewrite with `;` in it goes in `{ …; }`. */
export function isJoinedBefore(shell: Shell, start: number): boolean {
  const main = mainOf(shell);
  if (!main) return false;
  const before = statementsIn(shell, main)
    .filter((statement) => statement.end <= start)
    .at(-1);
  return before?.then === '&&' || before?.then === '||';
}
