import { bashInput, cannotJudge, deny, type HookInput, none, type Verdict } from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import type { GuardContext } from './context.ts';
import type { Hit } from './hit.ts';
import { chooseLogPath, sessionIdPattern } from './log-path.ts';
import { precheckCall } from './precheck.ts';
import { buildReasonText, guardName } from './reasons.ts';
import { rewriteFor } from './rewrites.ts';
import { findLostBackground } from './rules/lost-background.ts';
import { findOverride } from './rules/override.ts';
import { findPipedGate } from './rules/piped-gate.ts';
import { findPipestatus } from './rules/pipestatus.ts';
import { findProcessSubstitution } from './rules/process-substitution.ts';
import { findSequencedMutator } from './rules/sequenced-mutator.ts';
import { buildUnit, type Unit } from './unit.ts';
import { listWrites } from './writes.ts';

/** How many command lines deep the rules look (bash -c "eval '…'" is two). */
const maxNesting = 4;

/** The first rule that fires on a parsed command, in the spec's order; null when none does (or the override silences). */
export function findFirstHit(unit: Unit, runInBackground: boolean): Hit | null | 'override' {
  if (findOverride(unit)) return 'override';
  return (
    findPipestatus(unit) ??
    findPipedGate(unit) ??
    findLostBackground(unit, runInBackground) ??
    findSequencedMutator(unit) ??
    findProcessSubstitution(unit)
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
    const precheck = precheckCall(bash.command, input, context);
    if (precheck.decided) return precheck.decided;
    const outcome = parse(bash.command, { maxNesting });
    if (!outcome.ok) return cannotJudge(outcome.reason);
    const unit = buildUnit(outcome.value, precheck.registry());
    const hit = findFirstHit(unit, bash.run_in_background === true);
    if (hit === null || hit === 'override') return none();
    const rewrite = rewriteFor(hit, () => chooseLogPath(scratchpadFor(input, context)));
    const text = buildReasonText(hit, { rewrite, writes: listWrites(unit) });
    return deny(guardName, text, hit.rule, rewrite === null ? undefined : { rewrite });
  } catch (error) {
    return cannotJudge(`threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}
