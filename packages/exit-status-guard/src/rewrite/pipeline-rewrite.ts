import type { LogPath } from '../log-path.ts';
import { stagesOf } from '../pipeline.ts';
import { mainOf, type Shell } from '../shell.ts';
import { type Statement, statementsIn } from '../statements.ts';

/** A piece of a rewrite: the span of the shell's source it replaces, and the text that replaces it. */
export interface RewritePiece {
  start: number;
  end: number;
  text: string;
}

/** `check > LOG 2>&1; echo "EXIT=$?"; filter < LOG` for the pipeline a gate stage is piped out of. */
export function pipelineRewrite(
  shell: Shell,
  pipelineId: number,
  stageIndex: number,
  log: LogPath,
): RewritePiece | null {
  const stages = stagesOf(shell, pipelineId);
  const first = stages[0];
  const lastStage = stages[stages.length - 1];
  const gateStage = stages[stageIndex];
  const next = stages[stageIndex + 1];
  if (!first || !lastStage || !gateStage || !next) return null;
  const left = withoutStderrMerge(shell.source, first.start, gateStage);
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
    text: `${log.mkdir}${left} > ${log.path} 2>&1; echo "EXIT=$?"; ${filter}`,
  };
}

/** The text up to the end of the gate's stage, minus its own `2>&1` (the rewrite adds one after the log). */
function withoutStderrMerge(source: string, start: number, stage: Statement): string {
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

/** True when a span is a whole top-level statement of its own (no `&&`/`||`/`&` around it). */
export function standsAlone(shell: Shell, start: number, end: number): boolean {
  const main = mainOf(shell);
  if (!main) return false;
  const statements = statementsIn(shell, main);
  const inside = statements.filter((statement) => statement.start >= start && statement.end <= end);
  if (inside.length === 0) return false;
  const before = statements.filter((statement) => statement.end <= start).at(-1);
  const lastInside = inside[inside.length - 1] as Statement;
  const joined = (op: string | null) => op === '&&' || op === '||' || op === '&';
  return !joined(lastInside.then) && !joined(before?.then ?? null);
}
