import type { PipelineStatement, Segment, Word } from '@kit/shell-segments';
import { liftToTop } from '@kit/shell-segments';
import type { LogPath } from '../log-path.ts';
import { pipelineOf, stagesOf } from '../pipeline.ts';
import { noRewrite, type LogPathProbe, type Rewrite } from '../rule.ts';
import type { Shell } from '../shell.ts';
import { frameAround, ownerOf, type Statement, statementsIn } from '../statements.ts';
import { freeNames } from './names.ts';
import { withoutStderrMerge } from './pipeline-rewrite.ts';
import { applyEdits, type Edit } from './splice.ts';

// A read of $PIPESTATUS rewritten into the command itself: each element read becomes a status
// captured with `NAME=$?` right after the stage it belongs to, the pipeline split there through a
// log; after a statement that is not a pipeline of several stages, `${PIPESTATUS[0]}` is `$?`.

/** One read of the array in a word: `${PIPESTATUS[1]}`, `${PIPESTATUS[@]}`, `$PIPESTATUS`. */
const readPattern = /\$(?:\{PIPESTATUS\[(-?\d+|@|\*)\]\}|PIPESTATUS(?![A-Za-z0-9_]))/g;

/** A word that is one whole read: `${PIPESTATUS[1]}`, `"${PIPESTATUS[0]}"`, `$PIPESTATUS`. */
const wholeRead = /^("?)\$(?:\{PIPESTATUS\[(?:-?\d+|@|\*)\]\}|PIPESTATUS)\1$/;

/** Frames whose statements run more than once, or not where they are written: what ran before is unknown. */
const unknownBefore = new Set([
  'if-body', // the condition ran before it
  'else-body',
  'while-body',
  'until-body',
  'for-body',
  'while-condition',
  'until-condition',
  'function-body',
  'case-body',
]);

/** The statement that ran right before a segment (null: nothing did in this line), or 'unknown'. */
function statementBefore(shell: Shell, reader: Segment): Statement | null | 'unknown' {
  let anchor = reader.start;
  for (let i = reader.context.length - 1; i >= 0; i--) {
    const frame = reader.context[i];
    if (frame === undefined) break;
    const previous = statementsIn(shell, frame)
      .filter((each) => each.end <= anchor)
      .at(-1);
    if (previous) return previous;
    if (unknownBefore.has(frame.kind)) return 'unknown';
    anchor = frame.start;
  }
  return null;
}

/** The words and assignment values of a segment that read the array, as spans to rewrite. */
interface Span {
  start: number;
  text: string;
  heredoc?: true; // an unquoted heredoc body: its single quotes are text
}

function readSpans(reader: Segment): Span[] | null {
  const spans: Span[] = [];
  for (const word of reader.argv) {
    if (word.params.includes('PIPESTATUS')) spans.push({ start: word.start, text: word.text });
  }
  for (const assign of reader.assigns) {
    const value = assign.text.slice(assign.name.length + 1);
    if (value.includes('PIPESTATUS'))
      spans.push({ start: assign.start + assign.name.length + 1, text: value });
  }
  for (const redirect of reader.redirects) {
    const word: Word = redirect.target;
    if (word.params.includes('PIPESTATUS')) spans.push({ start: word.start, text: word.text });
    const body = redirect.heredoc;
    // An unquoted heredoc body expands like a double-quoted word; its single quotes are plain text.
    if (body && !body.quoted && body.body.includes('PIPESTATUS')) {
      if (body.body.includes('\\')) return null;
      spans.push({ start: body.start, text: body.body, heredoc: true });
    }
  }
  // Quoting the replacement needs the word's own quoting to be plain: no single quotes, no escapes.
  const plain = (span: Span) => !(span.heredoc ? /\\/ : /['\\]/).test(span.text);
  return spans.length > 0 && spans.every(plain) ? spans : null;
}

/** The stage indices a segment's reads name, for a pipeline of `size` stages (null: one it cannot name). */
function indicesRead(reader: Segment, size: number): number[] | null {
  const spans = readSpans(reader);
  if (spans === null) return null;
  const indices = new Set<number>();
  for (const span of spans) {
    for (const match of span.text.matchAll(readPattern)) {
      const index = match[1];
      if (index === '@' || index === '*') for (let k = 0; k < size; k++) indices.add(k);
      else {
        const k = Number(index ?? 0);
        indices.add(k < 0 ? size + k : k);
      }
    }
  }
  return [...indices].every((k) => k >= 0 && k < size) ? [...indices] : null;
}

/** The edits that replace every read in a segment: element k by `$names[k]`, all elements by all names. */
function readEdits(reader: Segment, names: (k: number) => string, size: number): Edit[] | null {
  const spans = readSpans(reader);
  if (spans === null) return null;
  const edits: Edit[] = [];
  for (const span of spans) {
    const text = span.text.replace(readPattern, (_read, index: string | undefined) => {
      if (index === '@' || index === '*')
        return Array.from({ length: size }, (_, k) => `$${names(k)}`).join(' ');
      const k = Number(index ?? 0);
      return `$${names(k < 0 ? size + k : k)}`;
    });
    if (text.includes('PIPESTATUS')) return null;
    edits.push({ at: span.start, remove: span.text.length, text });
  }
  return edits;
}

/** An echo / printf whose every argument is a whole read: the report of the status, which becomes `echo "EXIT=…"`. */
function isStatusReport(shell: Shell, reader: Segment): boolean {
  const [name, ...rest] = reader.argv;
  // Its output captured (`x=$(echo …)`) is a value, not a report: it keeps its form.
  if (reader.context.some((frame) => ownerOf(shell, frame) !== undefined)) return false;
  if (!['echo', 'printf'].includes(name?.value ?? '') || reader.redirects.length > 0) return false;
  const reads = rest.filter((word) => word.params.includes('PIPESTATUS'));
  const others = rest.filter((word) => !word.params.includes('PIPESTATUS'));
  const format = name?.value === 'printf' ? others.length <= 1 : others.length === 0;
  return reads.length > 0 && reads.every((word) => wholeRead.test(word.text)) && format;
}

/** `out.log` → `out.2.log`: a sibling of the log, in the folder the log path is known to exist in. */
function siblingLog(log: LogPath, n: number): string {
  return n === 0 ? log.path : log.path.replace(/out\.log(?='?$)/, `out.${n + 1}.log`);
}

/** Stages [from, to] of a pipeline; `input`: the log they read; `strip`: their output goes to a log (its `2>&1` is re-added there). */
interface Chunk {
  from: number;
  to: number;
  input: string | null;
  strip: boolean;
}

/** The text of a chunk of stages, reading the previous log when there is one. */
function chunkText(shell: Shell, stages: Statement[], chunk: Chunk): string {
  const { from, to, input } = chunk;
  const first = stages[from] as Statement;
  const last = stages[to] as Statement;
  const text = chunk.strip
    ? withoutStderrMerge(shell.source, first.start, last)
    : shell.source.slice(first.start, last.end);
  if (input === null) return text;
  if (from === to && first.kind === 'segment') return `${text} < ${input}`;
  return first.kind === 'segment' ? `< ${input} ${text}` : `cat ${input} | ${text}`;
}

/**
 * The pipeline split after each stage whose status is read: `a > LOG 2>&1; rc=$?; b < LOG`, each
 * captured stage's status in its own name. In `{ …; }` when the pipeline is joined by `&&` / `||`.
 */
function splitPipeline(shell: Shell, split: Split): string {
  const { stages, captured, names } = split;
  // Asked for only when a stage's output goes through it: a probe of the disk otherwise unneeded.
  let asked: LogPath | undefined;
  const log = (): LogPath => {
    asked ??= split.log();
    return asked;
  };
  const parts: string[] = [];
  let from = 0;
  let input: string | null = null;
  let n = 0;
  for (const k of [...captured].sort((a, b) => a - b)) {
    const last = k === stages.length - 1;
    const text = chunkText(shell, stages, { from, to: k, input, strip: !last });
    if (last) {
      parts.push(`${text}; ${names(k)}=$?`);
      input = null;
    } else {
      const output = siblingLog(log(), n);
      parts.push(`${text} > ${output} 2>&1; ${names(k)}=$?`);
      input = output;
      n += 1;
    }
    from = k + 1;
  }
  const to = stages.length - 1;
  if (from <= to) parts.push(chunkText(shell, stages, { from, to, input, strip: false }));
  // `$?` after it, and the status of a group, are the pipeline's own, as before.
  if (from > to && split.keep) parts.push(`(exit $${names(to)})`);
  const body = `${n > 0 ? log().mkdir : ''}${parts.join('; ')}`;
  return split.joined ? `{ ${body}; }` : body;
}

/** How a pipeline is split: its stages, the ones whose status is captured (in `names(k)`), the log, and the status kept. */
interface Split {
  stages: Statement[];
  captured: number[];
  names: (k: number) => string;
  log: LogPathProbe; // asked only when a stage's output goes through the log
  keep: boolean; // `$?` or a list reads the pipeline's status after it
  joined: boolean; // joined by && / || : the split goes in `{ …; }`
}

interface Plan {
  edits: Edit[];
  pipelines: Map<PipelineStatement, { stages: Statement[]; indices: Set<number>; readers: Segment[] }>;
}

/** Each read classified: after a pipeline of several stages (collected per pipeline), else `$?`. */
function planReads(shell: Shell): Plan | null {
  const plan: Plan = { edits: [], pipelines: new Map() };
  for (const reader of shell.segments.filter((segment) => segment.params.includes('PIPESTATUS'))) {
    const before = statementBefore(shell, reader);
    if (before === 'unknown') return null;
    const pipeline = before?.placement.pipeline;
    if (pipeline && pipeline.op !== null) return null; // a read inside a pipeline
    if (before?.kind === 'frame' && before.frame.kind !== 'subshell' && !pipeline) return null;
    if (!pipeline || pipeline.size < 2) {
      const edits = isStatusReport(shell, reader)
        ? [{ at: reader.start, remove: reader.end - reader.start, text: 'echo "EXIT=$?"' }]
        : readEdits(reader, () => '?', 1);
      if (edits === null) return null;
      plan.edits.push(...edits);
      continue;
    }
    const tree = pipelineOf(shell, before as Statement);
    if (tree === null) return null;
    const entry = plan.pipelines.get(tree) ?? {
      stages: stagesOf(tree),
      indices: new Set<number>(),
      readers: [],
    };
    const indices = indicesRead(reader, entry.stages.length);
    if (indices === null) return null;
    for (const k of indices) entry.indices.add(k);
    entry.readers.push(reader);
    plan.pipelines.set(tree, entry);
  }
  return plan;
}

/**
 * The command with every read of $PIPESTATUS rewritten to a status captured in the command itself,
 * or no rewrite when a read cannot be pinned to one element of one pipeline.
 */
export function pipestatusRewrite(shell: Shell, logPath: LogPathProbe): Rewrite {
  const plan = planReads(shell);
  if (plan === null) return noRewrite('a read of $PIPESTATUS it cannot pin to a stage');
  if (plan.pipelines.size > 1) return noRewrite('reads after more than one pipeline');
  const edits = [...plan.edits];
  for (const { stages, indices, readers } of plan.pipelines.values()) {
    const captured = [...indices].sort((a, b) => a - b);
    const taken = freeNames(shell, captured.length);
    const names = (k: number) => taken[captured.indexOf(k)] as string;
    for (const reader of readers) {
      const all = captured.map((k) => `$${names(k)}`).join(' ');
      const replaced = isStatusReport(shell, reader)
        ? [{ at: reader.start, remove: reader.end - reader.start, text: `echo "EXIT=${all}"` }]
        : readEdits(reader, names, stages.length);
      if (replaced === null) return noRewrite('a read inside a word it cannot rewrite');
      edits.push(...replaced);
    }
    const first = stages[0] as Statement;
    const last = stages[stages.length - 1] as Statement;
    if (last.then === '&' || last.placement.background)
      return noRewrite('the pipeline runs in the background');
    if (readers.some((reader) => reader.start < last.end)) return noRewrite('a read inside the pipeline');
    const readsStatus = readers.some((reader) => reader.params.includes('?'));
    const joined = isJoinedBefore(shell, first) || last.then === '&&' || last.then === '||';
    const keep = joined || readsStatus;
    const text = splitPipeline(shell, { stages, captured, names, log: logPath, keep, joined });
    edits.push({ at: first.start, remove: last.end - first.start, text });
  }
  return { ok: true, value: liftToTop(shell.line, applyEdits(shell.source, edits)) };
}

/** Whether the statement before a pipeline's first stage joins it with `&&` / `||`. */
function isJoinedBefore(shell: Shell, first: Statement): boolean {
  const frame = frameAround(shell, first);
  if (frame === undefined) return true; // not sure: a group costs nothing
  const previous = statementsIn(shell, frame)
    .filter((each) => each.end <= first.start)
    .at(-1);
  return previous?.then === '&&' || previous?.then === '||';
}
