import type { FailCause, HookRuntime, TraceFields } from '@kit/fail-open';
import {
  type AuditEvent,
  type AuditEventKind,
  appendAudit,
  auditCommandChars,
  auditFile,
} from './audit-log.ts';
import type { HookInput } from './hosts/claude-code.ts';
import { isMonitored } from './monitor.ts';
import { redactSecrets } from './redact.ts';
import { strictRuntime } from './strict-arg.ts';
import type { Verdict } from './verdict.ts';

type Evaluate = (input: HookInput, runtime: HookRuntime) => Verdict | Promise<Verdict>;
type OnFailOpen = (cause: FailCause, runtime: HookRuntime) => Verdict | undefined;

/** What a guard's bundle hands runHook: its evaluate and onFailOpen, audited and read with the bundle's arguments. */
export interface GuardHook {
  evaluate: Evaluate;
  onFailOpen?: OnFailOpen;
}

/**
 * A guard's evaluate (and onFailOpen) as its bundle runs them, given the bundle's own arguments:
 * `--strict` sets the strict switch (strict-arg.ts), and every deny and refusal (a would-deny under
 * `--monitor`), every escape and override the guard notes (`runtime.note({ escape })`,
 * `{ override }`) goes to the user's audit trail (audit-log.ts), in the call's own environment (a
 * served call's, not the server's). A record that cannot be written never changes the verdict.
 */
export function guardHook(
  guard: string,
  argv: readonly string[],
  evaluate: Evaluate,
  onFailOpen?: OnFailOpen,
): GuardHook {
  const monitored = isMonitored(argv);
  const audited: Evaluate = (input, runtime) => {
    const notes: TraceFields[] = [];
    const inner: HookRuntime = {
      ...strictRuntime(runtime, argv),
      note: (fields) => {
        notes.push(fields);
        runtime.note?.(fields);
      },
    };
    const record = (verdict: Verdict): Verdict => {
      recordCall({ guard, monitored, input, verdict, notes, env: runtime.env });
      return verdict;
    };
    const verdict = evaluate(input, inner);
    return verdict instanceof Promise ? verdict.then(record) : record(verdict);
  };
  if (onFailOpen === undefined) return { evaluate: audited };
  return {
    evaluate: audited,
    onFailOpen: (cause, runtime) => {
      const verdict = onFailOpen(cause, strictRuntime(runtime, argv));
      if (verdict !== undefined)
        recordCall({ guard, monitored, input: null, verdict, notes: [], env: runtime.env });
      return verdict;
    },
  };
}

interface CallRecord {
  guard: string;
  monitored: boolean;
  input: HookInput | null;
  verdict: Verdict;
  notes: TraceFields[];
  env: Record<string, string | undefined>;
}

/** The audit lines of one call: one per escape or override noted, and one for a deny or refusal. */
export function auditEventsOf(call: CallRecord, time: string = new Date().toISOString()): AuditEvent[] {
  const base = { time, guard: call.guard, ...callFields(call.input) };
  const events: AuditEvent[] = [];
  for (const note of call.notes)
    for (const kind of ['escape', 'override'] as const) {
      const rule = note[kind];
      if (rule !== undefined && rule !== null && rule !== false)
        events.push({ ...base, event: kind, ...(typeof rule === 'string' ? { rule } : {}) });
    }
  const { verdict } = call;
  if (verdict.kind === 'deny' || verdict.kind === 'refuse') {
    const kind: AuditEventKind = call.monitored ? `would-${verdict.kind}` : verdict.kind;
    events.push({ ...base, event: kind, ...(verdict.rule === undefined ? {} : { rule: verdict.rule }) });
  }
  return events;
}

function recordCall(call: CallRecord): void {
  try {
    const file = auditFile(call.env);
    if (file === null) return;
    for (const event of auditEventsOf(call)) appendAudit(file, event);
  } catch {
    // an audit line that cannot be written never reaches the host
  }
}

// What a line says of the call: its tool, its command (or the file it writes) redacted, where, which session.
function callFields(input: HookInput | null): Partial<AuditEvent> {
  if (input === null) return {};
  const toolInput = input.tool_input ?? {};
  const text = typeof toolInput.command === 'string' ? toolInput.command : toolInput.file_path;
  return {
    ...(typeof input.tool_name === 'string' ? { tool: input.tool_name } : {}),
    ...(typeof text === 'string' ? { command: redactSecrets(text).slice(0, auditCommandChars) } : {}),
    ...(typeof input.cwd === 'string' ? { cwd: input.cwd } : {}),
    ...(typeof input.session_id === 'string' ? { session: input.session_id } : {}),
  };
}
