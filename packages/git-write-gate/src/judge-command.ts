import { deny, none, type Verdict } from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import { type Finding, findWrites, maxNesting } from './judge-line.ts';
import type { RepositoryProbe } from './probe.ts';
import { buildDenyText, guardName } from './reasons.ts';
import type { StrictPolicy } from './strict-policy.ts';

/** What the steps after the cwd need: the strict policy, the thread, the evidence probe. */
export interface Judging {
  policy: StrictPolicy;
  main: boolean;
  probe: RepositoryProbe;
}

/**
 * Steps 7 to 10 for a git-looking command whose cwd is a directory: the parse, every segment at
 * every depth, the write class, the per-command escape. Never throws on the command; a bug of
 * ours may throw, which evaluate turns into "cannot judge".
 */
export function judgeCommand(command: string, cwd: string, judging: Judging): Verdict {
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
  const findings = findWrites(outcome.value, cwd, (directory) => probe.repository(directory)?.top ?? null);
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
