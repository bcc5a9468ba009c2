import type { TraceFields } from '@kit/fail-open';
import { deny, none, type Verdict } from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import type { DirectoryOutcome } from './context.ts';
import type { AliasValue } from './git-aliases.ts';
import { type Finding, findWrites, type LineFindings } from './judge-line.ts';
import { limits, overStructureLimit } from './limits.ts';
import type { RepositoryProbe } from './probe.ts';
import { buildDenyText, guardName } from './reasons.ts';
import { FlowLimitReached } from './shell-flow.ts';
import type { Where } from './shell-state.ts';
import type { StrictPolicy } from './strict-policy.ts';

/** What the steps after the cwd need: the strict policy, the thread, the evidence probe, the file system. */
export interface Judging {
  policy: StrictPolicy;
  main: boolean;
  probe: RepositoryProbe;
  resolveDirectory: (path: string) => DirectoryOutcome;
  env: Record<string, string | undefined>;
  /** The call's trace and audit trail: an escape used is noted (`{ escape: <what it let through> }`). */
  note?: (fields: TraceFields) => void;
  aliasOf?: (name: string, directory: string) => AliasValue; // alias.<name> from the config files git reads
}

/**
 * Steps 7 to 10 for a git-looking command whose cwd is a directory (`cwd`: the payload's, with
 * its physical path; through a symlink, bash's `$PWD` may be either name): the parse, every segment at every depth in the directories it may run in,
 * the write class, the per-command escape. Never throws on the command; a bug of ours may throw,
 * which evaluate turns into "cannot judge".
 */
export function judgeCommand(command: string, cwd: Where, judging: Judging): Verdict {
  const { policy, main, probe } = judging;
  const atCwd = cwd.places.some((place) => probe.applies(place.physical));
  const whole = (why: string, cause: string) =>
    policy.unjudged(
      { subject: command, why, escape: main ? 'command-start' : 'sub-agent', command },
      atCwd,
      cause,
      judging.note,
    );
  // 7. Parse. Over 64 KiB, a parse error, or past a structural limit: cannot judge, at the payload cwd.
  const outcome = parse(command, {
    maxNesting: limits.maxNesting,
    maxLength: limits.maxLength,
    maxTotalLength: limits.maxTotalLength,
    maxLines: limits.maxLines,
  });
  if (!outcome.ok) {
    const why =
      outcome.reason === 'too-long'
        ? `the command is over ${limits.maxLength} characters`
        : `the command cannot be parsed (${outcome.message})`;
    return whole(why, outcome.reason);
  }
  const over = overStructureLimit(outcome.value);
  if (over !== null) return whole(`the command has ${over}, more than the gate reads`, 'too-large');
  // 8. Every segment at every depth, in every directory it may run in.
  let found: LineFindings;
  try {
    found = findWrites(outcome.value, cwd, {
      resolveDirectory: judging.resolveDirectory,
      env: judging.env,
      topOf: (directory) => probe.repository(directory)?.top ?? null,
      limits,
      ...(judging.aliasOf === undefined ? {} : { aliasOf: judging.aliasOf }),
    });
  } catch (error) {
    if (!(error instanceof FlowLimitReached)) throw error;
    return whole(`the command needs ${error.message}, more than the gate reads`, 'too-large');
  }
  const lineIsManaged = found.known.some((place) => probe.applies(place.physical));
  // A judged write first, then what cannot be judged.
  const unjudged: Finding[] = [];
  for (const finding of found.findings) {
    if (finding.kind !== 'write') continue;
    const verdict = judgeWrite(finding, judging);
    if (verdict === 'unknown directory')
      unjudged.push({ ...finding, kind: 'unknown', cause: 'directory', why: unknownWhy(finding.where) });
    else if (verdict !== null) return verdict;
  }
  for (const finding of [...found.findings.filter((each) => each.kind === 'unknown'), ...unjudged]) {
    if (finding.kind !== 'unknown' || !mayApply(finding.where, probe, lineIsManaged)) continue;
    const offer = main ? 'segment' : 'sub-agent';
    const verdict = policy.unjudged(
      { subject: finding.segment, why: finding.why, escape: offer, command, escaped: finding.escaped },
      true,
      finding.cause,
      judging.note,
    );
    // An escaped refusal goes on to the rest of the line; anything else is the verdict.
    if (verdict.kind !== 'none') return verdict;
  }
  return none();
}

function unknownWhy(where: Where): string {
  return `the directory it runs in is not known (${where.unknown ?? 'somewhere the line does not show'})`;
}

/**
 * Where something the gate cannot judge might be in a managed repository: one of its places is,
 * or it may be somewhere the line does not show while the line may be in one (the payload cwd, a
 * directory a literal cd entered).
 */
function mayApply(where: Where, probe: RepositoryProbe, lineIsManaged: boolean): boolean {
  if (where.places.some((place) => probe.applies(place.physical))) return true;
  return where.unknown !== null && (probe.appliesEverywhere || lineIsManaged);
}

/**
 * A write the walk found: a deny where it may run in a managed repository whose profile denies
 * its kind, unless escaped; 'unknown directory' when it may also run somewhere the line does not
 * show; null where the gate does not apply (a retargeted `gh pr merge` from an unmanaged folder
 * included: nothing proves its target is managed).
 */
function judgeWrite(
  finding: Finding & { kind: 'write' },
  judging: Judging,
): Verdict | 'unknown directory' | null {
  const { probe, main } = judging;
  // 9. The write class, as each repository's profile narrows it.
  const denying = finding.where.places
    .filter((place) => probe.applies(place.physical))
    .map((place) => probe.repository(place.physical))
    .find((repository) => probe.profileOf(repository).deny.has(finding.write));
  const anywhere = probe.appliesEverywhere && finding.where.unknown !== null;
  if (denying === undefined && !anywhere) return finding.where.unknown === null ? null : 'unknown directory';
  if (denying !== undefined && finding.where.unknown !== null && !probe.appliesEverywhere)
    return 'unknown directory';
  const repository = denying ?? null;
  const profile = probe.profileOf(repository);
  if (!profile.deny.has(finding.write)) return null;
  // 10. The per-command escape, on the main thread only.
  if (finding.escaped && main) {
    judging.note?.({ escape: finding.write });
    return null;
  }
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
