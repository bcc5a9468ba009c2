import { isAbsolute, join } from 'node:path';
import {
  bashInput,
  cannotJudge,
  deny,
  type HookInput,
  isStrict,
  none,
  readSwitch,
  refuse,
  type Verdict,
} from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import { isMainThread, startsWithEscape, switchName } from './escape.ts';
import { isGitLooking, mayMoveDirectory } from './git-looking.ts';
import type { GuardContext } from './context.ts';
import { type Finding, findWrites, maxNesting } from './judge-line.ts';
import { type ManagedRepository, probeRepository } from './probe.ts';
import { defaultProfile, parseProfile, type RepoProfile } from './profile.ts';
import { buildCannotJudgeText, buildDenyText, type EscapeOffer, guardName } from './reasons.ts';
import type { WriteKind } from './write-class.ts';

/**
 * Decides one PreToolUse call, in the order the spec fixes: the GIT_GATE switch (off ends it,
 * strict mode included), strict mode, the payload, the cheap reject, the cwd, the evidence probe,
 * the parse, every segment. Pure: everything it learns comes through `context`. Never throws.
 */
export function evaluate(input: HookInput, context: GuardContext): Verdict {
  // 1. The switch: off wins over everything and is read first; on skips only the probe.
  const gate = readSwitch(context.env, switchName);
  if (gate === 'off') return none();
  // 2. Strict mode changes only what "cannot judge" becomes.
  const strict = isStrict(context.env);
  // 3. The payload.
  const bash = bashInput(input);
  if (bash === null)
    return judgeUnreadablePayload(
      context.raw ?? safeStringify(input),
      strict,
      'the payload is not a Bash call with a command',
    );
  const command = bash.command;
  // 4. The cheap reject: most commands never load the parser.
  if (!isGitLooking(command)) return none();
  const main = isMainThread(input);
  // 5. The cwd.
  const cwd = input.cwd;
  if (cwd === undefined || cwd === '' || !isAbsolute(cwd) || !context.isDirectory(cwd)) {
    const why =
      cwd === undefined || cwd === '' ? 'the payload has no cwd' : `the cwd ${cwd} is not a directory`;
    if (!strict) return cannotJudge(cwd === undefined || cwd === '' ? 'cwd-missing' : 'cwd-not-directory');
    return refuse(guardName, buildCannotJudgeText({ subject: command, why, escape: 'none' }));
  }
  // 6. Where it applies. The probe needs the effective directory, which only the parse can
  // give (a leading `cd`, `git -C`), so it is a memoised question asked from steps 7 and 8 —
  // unless nothing in the text can move the directory: then the payload cwd decides at once, and
  // a git command in an unmanaged repository never loads the parser.
  const probe = new RepositoryProbe(context, gate === 'on');
  if (gate !== 'on' && !mayMoveDirectory(command) && !probe.applies(cwd)) return none();
  try {
    return judgeCommand(command, cwd, { strict, main, probe });
  } catch (error) {
    // A bug of ours is "cannot judge" at the payload cwd, never a crash.
    const cause = error instanceof Error ? error.message : String(error);
    return answerCannotJudge(
      {
        subject: command,
        why: `the gate failed (${cause})`,
        directory: cwd,
        escape: main ? 'command-start' : 'sub-agent',
        command,
      },
      { strict, main, probe },
      'threw',
    );
  }
}

interface Judging {
  strict: boolean;
  main: boolean;
  probe: RepositoryProbe;
}

function judgeCommand(command: string, cwd: string, judging: Judging): Verdict {
  // 7. Parse. Over 64 KiB or a parse error: cannot judge, at the payload cwd (no segments, no cd).
  const outcome = parse(command, { maxNesting });
  if (!outcome.ok) {
    const why =
      outcome.reason === 'too-long'
        ? 'the command is over 64 KiB'
        : `the command cannot be parsed (${outcome.message})`;
    return answerCannotJudge(
      {
        subject: command,
        why,
        directory: cwd,
        escape: judging.main ? 'command-start' : 'sub-agent',
        command,
      },
      judging,
      outcome.reason,
    );
  }
  // 8. Every segment at every depth.
  const findings = findWrites(outcome.value, cwd);
  for (const finding of findings) {
    if (finding.kind !== 'write') continue;
    const verdict = judgeWrite(finding, judging);
    if (verdict !== null) return verdict;
  }
  for (const finding of findings) {
    if (finding.kind !== 'unknown' || !judging.probe.applies(finding.directory)) continue;
    if (finding.escaped && judging.main) continue;
    return answerCannotJudge(
      {
        subject: finding.segment,
        why: finding.why,
        directory: finding.directory,
        escape: judging.main ? 'segment' : 'sub-agent',
        command,
      },
      judging,
      finding.cause,
    );
  }
  return none();
}

/** A judged write: a deny where the gate applies and the profile denies that kind, unless escaped on the main thread. */
function judgeWrite(finding: Finding & { kind: 'write' }, judging: Judging): Verdict | null {
  // Only where the probe found a managed repository: everywhere else the gate is silent, a
  // retargeted `gh pr merge` included (from an unmanaged folder nothing proves the target is managed).
  if (!judging.probe.applies(finding.directory)) return null;
  const repository = judging.probe.repository(finding.directory);
  const profile = judging.probe.profileOf(repository);
  if (!profile.deny.has(finding.write)) return null;
  // 10. The per-command escape.
  if (finding.escaped && judging.main) return null;
  return deny(
    guardName,
    buildDenyText({
      segment: finding.segment,
      write: finding.write,
      retargeted: finding.retargeted,
      replacement: judging.probe.replacementFor(repository, profile, finding.write),
      escape: judging.main ? 'segment' : 'sub-agent',
    }),
    finding.write,
  );
}

interface Unjudged {
  subject: string;
  why: string;
  directory: string;
  escape: EscapeOffer;
  command: string;
}

/** Cannot judge: no opinion by default, and where the gate does not apply; strict and managed: refuse. */
function answerCannotJudge(unjudged: Unjudged, judging: Judging, cause: string): Verdict {
  if (!judging.strict || !judging.probe.applies(unjudged.directory)) return cannotJudge(cause);
  if (unjudged.escape === 'command-start' && startsWithEscape(unjudged.command)) return none();
  return refuse(guardName, buildCannotJudgeText(unjudged), cause);
}

/** Before the payload is read the gate cannot tell a managed repository from another: strict refuses any git-looking call. */
function judgeUnreadablePayload(raw: string, strict: boolean, why: string): Verdict {
  if (!strict || !isGitLooking(raw)) return cannotJudge('payload');
  return refuse(
    guardName,
    buildCannotJudgeText({ subject: null, why: `${why}, and its raw text looks like git`, escape: 'none' }),
    'payload',
  );
}

/**
 * Step 3's raw-text rule for a payload runHook could not read at all (not JSON, not an object,
 * stdin too large or cut) or a call that failed: the bundle's onFailOpen. GIT_GATE=off still wins.
 */
export function judgeFailedPayload(
  raw: string,
  env: Record<string, string | undefined>,
  cause: string,
): Verdict | undefined {
  if (readSwitch(env, switchName) === 'off') return undefined;
  const verdict = judgeUnreadablePayload(raw, isStrict(env), `the hook payload cannot be read (${cause})`);
  return verdict.kind === 'refuse' ? verdict : undefined;
}

function safeStringify(input: HookInput): string {
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return '';
  }
}

/** The evidence probe and the profile, asked once per directory and per repository in one call. */
class RepositoryProbe {
  private readonly repositories = new Map<string, ManagedRepository | null>();
  private readonly profiles = new Map<string, RepoProfile>();

  constructor(
    private readonly context: GuardContext,
    private readonly forced: boolean, // GIT_GATE=on: the probe is skipped, the gate applies everywhere
  ) {}

  /** True when the gate applies to a command running in `directory`. */
  applies(directory: string): boolean {
    return this.forced || this.repository(directory) !== null;
  }

  repository(directory: string): ManagedRepository | null {
    if (!this.repositories.has(directory))
      this.repositories.set(directory, probeRepository(directory, this.context));
    return this.repositories.get(directory) ?? null;
  }

  profileOf(repository: ManagedRepository | null): RepoProfile {
    if (repository === null) return defaultProfile;
    let profile = this.profiles.get(repository.profile);
    if (profile === undefined) {
      const text = this.context.readText(repository.profile);
      profile = text.ok ? parseProfile(text.value) : defaultProfile;
      this.profiles.set(repository.profile, profile);
    }
    return profile;
  }

  /** The declared replacement for a kind of write, only when the file it starts with exists. */
  replacementFor(
    repository: ManagedRepository | null,
    profile: RepoProfile,
    write: WriteKind,
  ): string | null {
    const declared = profile.replacements[write];
    if (declared === undefined || repository === null) return null;
    const program = declared.trim().split(/\s+/)[0] ?? '';
    if (program === '') return null;
    const path = isAbsolute(program) ? program : join(repository.top, program);
    return this.context.isFile(path) ? declared : null;
  }
}
