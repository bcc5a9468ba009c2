import { bashInput, cannotJudge, deny, type HookInput, none, type Verdict } from '@kit/gate-approval';
import { hasStructure, parse } from '@kit/shell-segments';
import type { GuardContext } from './context.ts';
import { decide } from './decide.ts';
import { chooseLogPath, type LogPath, sessionIdPattern } from './log-path.ts';
import { buildReasonText, guardName } from './reasons.ts';
import { loadRegistry, type Registry } from './registry.ts';
import { type Rejudged, settleRewrite } from './rewrite/settle.ts';
import type { CallMode, LogPathProbe } from './rule.ts';
import { readShells } from './shell.ts';
import { listWrites } from './writes.ts';

/** How many command lines deep the rules look (bash -c "eval '…'" is two). */
const maxNesting = 4;

/**
 * True when a command needs the parser at all. Without | & ; ( ) ` or a line break it is one simple
 * command, and one simple command cannot lose a status (in the background too, it is its own last
 * statement); only a `$PIPESTATUS` read is left to find.
 */
export function needsParser(command: string): boolean {
  return hasStructure(command) || command.includes('PIPESTATUS');
}

/** The guard's verdict on a suggested command, with the same registry and call mode. */
function rejudge(text: string, registry: Registry, mode: CallMode, logPath: LogPathProbe): Rejudged {
  const outcome = parse(text, { maxNesting });
  if (!outcome.ok) return { kind: 'unreadable' };
  const decision = decide({ top: readShells(outcome.value, registry), mode });
  return decision.kind === 'deny'
    ? { kind: 'deny', rewrite: decision.denial.rewrite(logPath) }
    : { kind: 'silent' };
}

function registryFor(input: HookInput, context: GuardContext): Registry {
  return (
    context.registry ??
    loadRegistry({ env: context.env, cwd: input.cwd || context.cwd, readText: context.readText })
  );
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
    if (!needsParser(bash.command)) return none();
    const outcome = parse(bash.command, { maxNesting });
    if (!outcome.ok) return cannotJudge(outcome.reason);
    const registry = registryFor(input, context);
    const top = readShells(outcome.value, registry);
    const mode: CallMode = bash.run_in_background === true ? 'background-task' : 'foreground';
    const decision = decide({ top, mode });
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
    return deny(guardName, text, denial.rule);
  } catch (error) {
    return cannotJudge(`threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}
