import { bashInput, cannotJudge, deny, type HookInput, none, type Verdict } from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import type { GuardContext } from './context.ts';
import { decide } from './decide.ts';
import { chooseLogPath, type LogPath, sessionIdPattern } from './log-path.ts';
import { precheckCall } from './precheck.ts';
import { buildReasonText, guardName } from './reasons.ts';
import type { Registry } from './registry.ts';
import { type Rejudged, settleRewrite } from './rewrite/settle.ts';
import type { CallMode, LogPathProbe } from './rule.ts';
import { readShells } from './shell.ts';
import { listWrites } from './writes.ts';

/** How many command lines deep the rules look (bash -c "eval '…'" is two). */
const maxNesting = 4;

/** The guard's verdict on a suggested command, with the same registry and call mode. */
function rejudge(text: string, registry: Registry, mode: CallMode, logPath: LogPathProbe): Rejudged {
  const outcome = parse(text, { maxNesting });
  if (!outcome.ok) return { kind: 'unreadable' };
  const decision = decide({ top: readShells(outcome.value, registry), mode });
  return decision.kind === 'deny'
    ? { kind: 'deny', rewrite: decision.denial.rewrite(logPath) }
    : { kind: 'silent' };
}

function scratchpadFor(input: HookInput, context: GuardContext): string | null {
  const sessionId = input.session_id;
  if (typeof sessionId !== 'string' || !sessionIdPattern.test(sessionId)) return null;
  const projectDir = context.env.CLAUDE_PROJECT_DIR || input.cwd || context.cwd;
  try {
    return context.findScratchpad(sessionId, projectDir);
  } catch {
    return null;
  }
}

/**
 * Judges one PreToolUse payload: a deny with its reason when a check's exit status would be
 * discarded, otherwise no opinion. Pure: everything from outside comes through `context`. Never
 * throws; a command it cannot parse is `cannotJudge` (no opinion).
 */
export function evaluate(input: HookInput, context: GuardContext): Verdict {
  try {
    const bash = bashInput(input);
    if (bash === null) return none();
    // ── the no-parser decision: one call, decided before parsing ──
    const precheck = precheckCall(bash.command, input, context);
    if (precheck.decided) return precheck.decided;
    const outcome = parse(bash.command, { maxNesting });
    if (!outcome.ok) return cannotJudge(outcome.reason);
    const registry = precheck.registry();
    const top = readShells(outcome.value, registry);
    const mode: CallMode = bash.run_in_background === true ? 'background-task' : 'foreground';
    const decision = decide({ top, mode });
    // The override used, with the rule it kept from denying: the trace and the audit trail record
    // it (guardHook in gate-approval). An override on a call no rule denies is not noted.
    if (decision.kind === 'silenced') context.note?.({ override: decision.overridden });
    if (decision.kind !== 'deny') return none();
    const { denial } = decision;
    let log: LogPath | undefined;
    const logPath = () => {
      log ??= chooseLogPath(scratchpadFor(input, context));
      return log;
    };
    const rewrite = settleRewrite(denial.rewrite(logPath), (text) => rejudge(text, registry, mode, logPath));
    const text = buildReasonText({
      gateHead: denial.gateHead,
      rule: denial.reason,
      rewrite: rewrite.ok ? rewrite.value : null,
      writes: listWrites(top),
    });
    return deny(guardName, text, denial.rule, rewrite.ok ? { rewrite: rewrite.value } : undefined);
  } catch (error) {
    return cannotJudge(`threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}
