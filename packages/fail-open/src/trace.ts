import { appendFileSync } from 'node:fs';

/** What a named trace field holds. */
export type TraceValue = string | number | boolean | null;

/**
 * Named fields a call adds to its trace line: `{ precheck: 'no-gate-word', parser: false }`. A
 * guard's verdict carries some (through the protocol's `HookOutput.fields`), the runtime or the
 * guard notes others while deciding (`HookRuntime.note`); `explain --json` shows the same ones.
 */
export type TraceFields = Readonly<Record<string, TraceValue>>;

/** One line of the KIT_HOOKS_TRACE file: the fixed fields, then the call's named fields. */
export interface TraceRecord {
  time: string; // ISO 8601, when the call started
  guard: string;
  tool: string | null;
  verdict: string;
  cause?: string;
  ms: number;
  [field: string]: TraceValue | undefined;
}

/** The names a trace line reserves: a named field never replaces one of them. */
export const reservedTraceNames: ReadonlySet<string> = new Set([
  'time',
  'guard',
  'tool',
  'verdict',
  'cause',
  'ms',
]);

function isTraceValue(value: unknown): value is TraceValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * The named fields of several sources in one object, later sources winning; a field that is not a
 * TraceValue, or whose name is reserved (or in `reserved`), is left out. Never throws.
 */
export function mergeTraceFields(
  sources: readonly (TraceFields | undefined)[],
  reserved: ReadonlySet<string> = reservedTraceNames,
): Record<string, TraceValue> {
  const out: Record<string, TraceValue> = {};
  for (const source of sources) {
    if (typeof source !== 'object' || source === null) continue;
    for (const [name, value] of Object.entries(source)) {
      if (!reservedTraceNames.has(name) && !reserved.has(name) && isTraceValue(value)) out[name] = value;
    }
  }
  return out;
}

/** Appends one JSON line to `file`. A trace that cannot be written is ignored: it is never the hook's answer. */
export function appendTrace(file: string, record: TraceRecord): void {
  try {
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  } catch {
    // Unwritable trace: the hook's output must not depend on it.
  }
}
