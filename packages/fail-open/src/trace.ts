import { appendFileSync } from 'node:fs';

/** One line of the KIT_HOOKS_TRACE file. */
export interface TraceRecord {
  time: string; // ISO 8601, when the call started
  guard: string;
  tool: string | null;
  verdict: string;
  cause?: string;
  ms: number;
}

/** Appends one JSON line to `file`. A trace that cannot be written is ignored: it is never the hook's answer. */
export function appendTrace(file: string, record: TraceRecord): void {
  try {
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  } catch {
    // Unwritable trace: the hook's output must not depend on it.
  }
}
