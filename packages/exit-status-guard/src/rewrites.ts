import type { Context } from '@kit/shell-segments';
import { findStatusCaptures, frameDepth, liftToTop } from '@kit/shell-segments';
import { frameItem, type Item, itemsOf, segmentItem } from './frames.ts';
import type { Hit } from './hit.ts';
import type { LogPath } from './log-path.ts';
import type { Unit } from './unit.ts';

// Every rewrite is built by splicing the parsed command: the spans come from @kit/shell-segments, so
// what is not rewritten stays byte for byte as the user wrote it, and the result runs as written.
// A rewrite of a nested line (bash -c '…') is lifted back into the top command with liftToTop.

function splice(source: string, start: number, end: number, replacement: string): string {
  return source.slice(0, start) + replacement + source.slice(end);
}

/** The stages of a pipeline (segments and piped compounds), in order. */
function stagesOf(unit: Unit, pipelineId: number): Item[] {
  const stages: Item[] = [];
  const seen = new Set<number>();
  for (const segment of unit.segments) {
    if (segment.pipeline?.id === pipelineId) {
      stages.push(segmentItem(segment));
    }
    for (const frame of segment.context) {
      if (frame.placement?.pipeline?.id === pipelineId && !seen.has(frame.id)) {
        seen.add(frame.id);
        stages.push(frameItem(frame, frame.placement));
      }
    }
  }
  // A stage that sits inside another stage of the same pipeline (an if's parts) is not a stage of its own.
  const outer = stages.filter(
    (stage) =>
      !stages.some(
        (other) =>
          other !== stage &&
          other.start <= stage.start &&
          other.end >= stage.end &&
          (other.start !== stage.start || other.end !== stage.end),
      ),
  );
  const unique = outer.filter(
    (stage, i) => outer.findIndex((other) => other.start === stage.start && other.end === stage.end) === i,
  );
  return unique.sort((a, b) => a.start - b.start);
}

/** `check > LOG 2>&1; echo "EXIT=$?"; filter < LOG` for the pipeline a gate stage is piped out of. */
function pipelineRewrite(
  unit: Unit,
  pipelineId: number,
  stageIndex: number,
  log: LogPath,
): { start: number; end: number; text: string } | null {
  const stages = stagesOf(unit, pipelineId);
  const first = stages[0];
  const lastStage = stages[stages.length - 1];
  const gateStage = stages[stageIndex];
  const next = stages[stageIndex + 1];
  if (!first || !lastStage || !gateStage || !next) return null;
  const left = withoutStderrMerge(unit.source, first.start, gateStage);
  const right = unit.source.slice(next.start, lastStage.end);
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
function withoutStderrMerge(source: string, start: number, stage: Item): string {
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
function redundantStatusEcho(unit: Unit, end: number): Item | null {
  const main = unit.segments[0]?.context[0];
  if (!main) return null;
  const next = itemsOf(unit, main).find((item) => item.start >= end);
  if (next?.kind !== 'segment') return null;
  const { segment } = next;
  const isEcho = ['echo', 'printf'].includes(segment.argv[0]?.value ?? '');
  const onlyStatus = segment.params.length > 0 && segment.params.every((param) => param === '?');
  return isEcho && onlyStatus && segment.redirects.length === 0 && segment.pipeline === null ? next : null;
}

/** True when a statement is a whole top-level statement of its own (no `&&`/`||`/`&` around it). */
function standsAlone(unit: Unit, start: number, end: number): boolean {
  const main = unit.segments[0]?.context[0];
  if (!main) return false;
  const items = itemsOf(unit, main);
  const inside = items.filter((item) => item.start >= start && item.end <= end);
  if (inside.length === 0) return false;
  const before = items.filter((item) => item.end <= start).at(-1);
  const lastInside = inside[inside.length - 1] as Item;
  const joined = (op: string | null) => op === '&&' || op === '||' || op === '&';
  return !joined(lastInside.then) && !joined(before?.then ?? null);
}

function pipedRewrite(unit: Unit, pipelineId: number, stage: Item, log: LogPath): string | null {
  const index = stage.placement.pipeline?.index ?? 0;
  const piece = pipelineRewrite(unit, pipelineId, index, log);
  if (piece === null) return null;
  if (!standsAlone(unit, piece.start, piece.end))
    return liftToTop(unit.line, splice(unit.source, piece.start, piece.end, `{ ${piece.text}; }`));
  const echo = redundantStatusEcho(unit, piece.end);
  return liftToTop(unit.line, splice(unit.source, piece.start, echo ? echo.end : piece.end, piece.text));
}

function pipestatusRewrite(hit: Extract<Hit, { rule: 'pipestatus' }>, logPath: () => LogPath): string | null {
  const { unit, gate } = hit;
  if (gate === null) return null;
  const log = logPath();
  if (gate.pipeline !== null && gate.pipeline.op !== null) {
    const piece = pipelineRewrite(unit, gate.pipeline.id, gate.pipeline.index, log);
    return piece ? liftToTop(unit.line, piece.text) : null;
  }
  return liftToTop(
    unit.line,
    `${log.mkdir}${unit.source.slice(gate.start, gate.end)} > ${log.path} 2>&1; echo "EXIT=$?"`,
  );
}

/** The offset of the list operator written right after a statement (`;` or `&`), or null. */
function operatorAfter(source: string, end: number, op: ';' | '&', limit: number): number | null {
  const gap = source.slice(end, limit);
  const line = gap.split('\n')[0] as string;
  const beforeComment = line.includes('#') ? line.slice(0, line.indexOf('#')) : line;
  const at = beforeComment.indexOf(op);
  return at < 0 ? null : end + at;
}

const simpleStatementKinds = new Set(['segment', 'subshell', 'group']);

function itemKind(item: Item): string {
  return item.kind === 'segment' ? 'segment' : item.frame.kind;
}

function restoreRewrite(hit: Extract<Hit, { rule: 'sequenced-mutator' }>): string {
  const { unit, statement, mutator } = hit;
  const capture = findStatusCaptures(unit.line).find(
    (each) =>
      frameDepth(each.capture) === 0 &&
      each.capture.start >= statement.end &&
      each.capture.end <= mutator.start,
  );
  const base = capture ? unit.source : captureAfter(unit.source, statement);
  return liftToTop(unit.line, `${base.trimEnd()}\nexit $${capture ? capture.name : 'rc'}`);
}

function sequencedRewrite(hit: Extract<Hit, { rule: 'sequenced-mutator' }>): string | null {
  const { unit, statement, mutator } = hit;
  if (hit.mutatorIsRestore) return restoreRewrite(hit);
  const parent = parentFrameOf(unit, statement);
  if (!parent) return null;
  const items = itemsOf(unit, parent);
  const from = items.findIndex((item) => item.start === statement.start && item.end === statement.end);
  const to = items.findIndex((item) => item.start <= mutator.start && mutator.end <= item.end);
  if (from < 0 || to <= from) return null;
  const edits: { at: number; remove: number; text: string }[] = [];
  for (let k = from; k < to; k++) {
    const item = items[k] as Item;
    if (item.then !== ';' && item.then !== 'newline') continue;
    if (item.placement.pipeline !== null && item.placement.pipeline.op !== null) continue;
    if (!simpleStatementKinds.has(itemKind(item))) return null;
    const limit = (items[k + 1] as Item).start;
    if (item.then === ';') {
      const at = operatorAfter(unit.source, item.end, ';', limit);
      if (at === null) return null;
      edits.push({ at, remove: 1, text: ' &&' });
    } else {
      // A newline: `&&` goes at the end of the line, also when a heredoc body follows it.
      edits.push({ at: item.end, remove: 0, text: ' &&' });
    }
  }
  let text = unit.source;
  for (const edit of edits.reverse())
    text = text.slice(0, edit.at) + edit.text + text.slice(edit.at + edit.remove);
  return liftToTop(unit.line, text.replace(/ {2,}&&/g, ' &&'));
}

function parentFrameOf(unit: Unit, statement: Item): Context | null {
  const chain =
    statement.kind === 'segment' ? statement.segment.context : contextsAround(unit, statement.frame);
  if (statement.kind === 'segment') return chain[chain.length - 1] ?? null;
  const at = chain.findIndex((frame) => frame.id === statement.frame.id);
  return at > 0 ? (chain[at - 1] as Context) : null;
}

function contextsAround(unit: Unit, frame: Context): Context[] {
  for (const segment of unit.segments)
    if (segment.context.some((each) => each.id === frame.id)) return segment.context;
  return [];
}

/** The source with `rc=$?` right after a statement; inside an `&&`/`||` list the statement is grouped with it. */
function captureAfter(source: string, statement: Item): string {
  if (statement.then === '&&' || statement.then === '||') {
    return `${source.slice(0, statement.start)}{ ${source.slice(statement.start, statement.end)}; rc=$?; }${source.slice(statement.end)}`;
  }
  return `${source.slice(0, statement.end)}; rc=$?${source.slice(statement.end).replace(/^[ \t]*;/, ';')}`;
}

function backgroundRewrite(hit: Extract<Hit, { rule: 'lost-background' }>): string | null {
  const { unit } = hit;
  if (hit.how === 'ampersand') {
    const statement = hit.statement;
    const after = unit.segments
      .filter((segment) => segment.start >= statement.end)
      .map((segment) => segment.start);
    const limit = after.length > 0 ? Math.min(...after) : unit.source.length;
    const at = operatorAfter(unit.source, statement.end, '&', limit);
    if (at === null) return null;
    const rest = unit.source.slice(at + 1);
    const body = `${unit.source.slice(0, at).trimEnd()}; rc=$?; echo "EXIT=$rc"`;
    const text = rest.trim() === '' ? `${body}; exit $rc` : `${body};${rest}\nexit $rc`;
    return liftToTop(unit.line, text);
  }
  return liftToTop(unit.line, `${captureAfter(unit.source, hit.gateStatement).trimEnd()}\nexit $rc`);
}

function processSubstitutionRewrite(
  hit: Extract<Hit, { rule: 'process-substitution' }>,
  log: LogPath,
): string | null {
  const { unit, substitution } = hit;
  const body = unit.source.slice(substitution.start + 2, substitution.end - 1).trim();
  if (body === '') return null;
  // The check runs first (or last, for >( )) as a statement of its own; the substitution becomes the log file.
  const rest = splice(unit.source, substitution.start, substitution.end, log.path);
  const text =
    substitution.direction === '>'
      ? `${log.mkdir}${rest.trimEnd()}\n${body} < ${log.path}; echo "EXIT=$?"`
      : `${log.mkdir}${body} > ${log.path}; echo "EXIT=$?"; ${rest}`;
  return liftToTop(unit.line, text);
}

/**
 * The rewrite a reason hands over for a hit: a command that runs as written, or null when there is
 * none to give. `log` is asked only by the rewrites that send output to a log file: finding the
 * scratchpad reads the disk, and the other rules need not pay for it.
 */
export function rewriteFor(hit: Hit, log: () => LogPath): string | null {
  try {
    switch (hit.rule) {
      case 'piped-gate':
        return pipedRewrite(hit.unit, hit.pipelineId, hit.stage, log());
      case 'pipestatus':
        return pipestatusRewrite(hit, log);
      case 'lost-background':
        return backgroundRewrite(hit);
      case 'sequenced-mutator':
        return sequencedRewrite(hit);
      case 'process-substitution':
        return processSubstitutionRewrite(hit, log());
    }
  } catch {
    return null;
  }
}
