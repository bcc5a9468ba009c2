import { isAbsolute } from 'node:path';
import { bashInput, type HookInput, none, readSwitch, type Verdict } from '@kit/gate-approval';
import { directoryProbeOf, type GuardContext } from './context.ts';
import { isMainThread, switchName } from './escape.ts';
import { aliasReaderOf } from './git-aliases.ts';
import { isGitLooking, mayMoveDirectory } from './git-looking.ts';
import { type Judging, judgeCommand } from './judge-command.ts';
import { everywhereProbe, managedProbe } from './probe.ts';
import { policyFor } from './strict-policy.ts';

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
  // The trace says which calls load the parser (`parser`), and what spared the others (`trigger`).
  if (!isGitLooking(command)) return none({ parser: false, trigger: 'not-git-looking' });
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
  // in an unmanaged repository never loads the parser. Steps 7 to 10 are judgeCommand's.
  const probe = gate === 'on' ? everywhereProbe(context) : managedProbe(context);
  // The physical directory, as git sees it: a cwd reached through a symlink is where it leads.
  const resolveDirectory = directoryProbeOf(context);
  const resolved = resolveDirectory(cwd);
  const physical = resolved.ok ? resolved.value : cwd;
  // Through a symlink, bash's $PWD is the payload's name or the physical one, as the host set it.
  const start = {
    places: [{ logical: cwd, physical }, ...(physical === cwd ? [] : [{ logical: physical, physical }])],
    unknown: null,
  };
  if (!mayMoveDirectory(command) && !probe.applies(physical))
    return none({ parser: false, trigger: 'not-applicable' });
  context.note?.({ parser: true });
  const judging: Judging = {
    policy,
    main,
    probe,
    resolveDirectory,
    env: context.env,
    aliasOf: aliasReaderOf(context),
    ...(context.note ? { note: context.note } : {}),
  };
  try {
    return judgeCommand(command, start, judging);
  } catch (error) {
    // A bug of ours is "cannot judge" at the payload cwd, never a crash.
    const cause = error instanceof Error ? error.message : String(error);
    const unjudged = {
      subject: command,
      why: `the gate failed (${cause})`,
      escape: main ? 'command-start' : 'sub-agent',
      command,
    } as const;
    return policy.unjudged(unjudged, probe.applies(physical), 'threw', context.note);
  }
}

function safeStringify(input: HookInput): string {
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return '';
  }
}
