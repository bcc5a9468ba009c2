import { isAbsolute } from 'node:path';
import { bashInput, deny, type HookInput, none, readSwitch, type Verdict } from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import type { GuardContext } from './context.ts';
import { isMainThread, switchName } from './escape.ts';
import { isGitLooking, mayMoveDirectory } from './git-looking.ts';
import { type Finding, findWrites, maxNesting } from './judge-line.ts';
import { everywhereProbe, managedProbe, type RepositoryProbe } from './probe.ts';
import { buildDenyText, guardName } from './reasons.ts';
import { policyFor, type StrictPolicy } from './strict-policy.ts';

/**
 * Decides one PreToolUse call, in the order the spec fixes: the GIT_GATE switch (off ends it,
 * strict mode included), strict mode, the payload, the cheap reject, the cwd, the evidence probe,
 * the parse, every segment, the write class, the per-command escape. Pure: everything it learns
 * comes through `context`. Never throws.
 */
export function evaluate(input: HookInput, context: GuardContext): Verdict {
  // 1. The switch: off wins over everything and is read first; on skips only the probe (step 6).
  const gate = readSwitch(context.env, switchName);
  if (gate === 'off') return none();
  // 2. Strict mode changes only what "cannot judge" becomes.
  const policy = policyFor(context.env);
  // 3. The payload.
  const bash = bashInput(input);
  if (bash === null)
    return policy.unreadablePayload(
      context.raw ?? safeStringify(input),
      'the payload is not a Bash call with a command',
    );
  const command = bash.command;
  // 4. The cheap reject: most commands never load the parser.
  if (!isGitLooking(command)) return none();
  const main = isMainThread(input);
  // 5. The cwd.
  const cwd = input.cwd;
  if (cwd === undefined || cwd === '')
    return policy.unusableCwd(command, 'the payload has no cwd', 'cwd-missing');
  if (!isAbsolute(cwd) || !context.isDirectory(cwd))
    return policy.unusableCwd(command, `the cwd ${cwd} is not a directory`, 'cwd-not-directory');
  // 6. Where it applies. The probe needs the directory each segment runs in, which only the
  // parse can give (a leading `cd`, `git -C`), so it is asked from steps 7 and 8 — unless nothing
  // in the text can move the directory: then the payload cwd decides at once, and a git command
  // in an unmanaged repository never loads the parser.
  const probe = gate === 'on' ? everywhereProbe(context) : managedProbe(context);
  if (!mayMoveDirectory(command) && !probe.applies(cwd)) return none();
  const judging: Judging = { policy, main, probe };
  try {
    return judgeCommand(command, cwd, judging);
  } catch (error) {
    // A bug of ours is "cannot judge" at the payload cwd, never a crash.
    const cause = error instanceof Error ? error.message : String(error);
    const unjudged = {
      subject: command,
      why: `the gate failed (${cause})`,
      escape: main ? 'command-start' : 'sub-agent',
      command,
    } as const;
    return policy.unjudged(unjudged, probe.applies(cwd), 'threw');
  }
}

interface Judging {
  policy: StrictPolicy;
  main: boolean;
  probe: RepositoryProbe;
}

function judgeCommand(command: string, cwd: string, judging: Judging): Verdict {
  const { policy, main, probe } = judging;
  // 7. Parse. Over 64 KiB or a parse error: cannot judge, at the payload cwd (no segments, no cd).
  const outcome = parse(command, { maxNesting });
  if (!outcome.ok) {
    const why =
      outcome.reason === 'too-long'
        ? 'the command is over 64 KiB'
        : `the command cannot be parsed (${outcome.message})`;
    const offer = main ? 'command-start' : 'sub-agent';
    return policy.unjudged(
      { subject: command, why, escape: offer, command },
      probe.applies(cwd),
      outcome.reason,
    );
  }
  // 8. Every segment at every depth: a judged write first, then what cannot be judged.
  const findings = findWrites(outcome.value, cwd);
  for (const finding of findings) {
    if (finding.kind !== 'write') continue;
    const verdict = judgeWrite(finding, judging);
    if (verdict !== null) return verdict;
  }
  for (const finding of findings) {
    if (finding.kind !== 'unknown' || !probe.applies(finding.directory)) continue;
    if (finding.escaped && main) continue;
    const offer = main ? 'segment' : 'sub-agent';
    return policy.unjudged(
      { subject: finding.segment, why: finding.why, escape: offer, command },
      true,
      finding.cause,
    );
  }
  return none();
}

/** A write the walk found: a deny where the gate applies and the profile denies its kind, unless escaped. */
function judgeWrite(finding: Finding & { kind: 'write' }, judging: Judging): Verdict | null {
  const { probe, main } = judging;
  // Only where the probe found a managed repository: everywhere else the gate is silent, a
  // retargeted `gh pr merge` included (from an unmanaged folder nothing proves the target is managed).
  if (!probe.applies(finding.directory)) return null;
  // 9. The write class, as the repository's profile narrows it.
  const repository = probe.repository(finding.directory);
  const profile = probe.profileOf(repository);
  if (!profile.deny.has(finding.write)) return null;
  // 10. The per-command escape, on the main thread only.
  if (finding.escaped && main) return null;
  return deny(
    guardName,
    buildDenyText({
      segment: finding.segment,
      write: finding.write,
      retargeted: finding.retargeted,
      replacement: probe.replacementFor(repository, profile, finding.write),
      escape: main ? 'segment' : 'sub-agent',
    }),
    finding.write,
  );
}

function safeStringify(input: HookInput): string {
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return '';
  }
}
