import type { WriteKind } from './write-kind.ts';

/** The reason opener, and the name the CLI and the trace use. */
export const guardName = 'git-write-gate';

/** Whether a reason may offer the per-command escape. */
export type EscapeOffer =
  | 'segment' // a judged segment: prefix it with GIT_GATE=off
  | 'command-start' // an unparseable command: only a prefix at its very start counts
  | 'sub-agent' // withheld, and the reason says so
  | 'none'; // the command could not be read at all

const whatItDoes: Record<WriteKind, string> = {
  commit: 'commits onto a branch that concurrent agents share',
  push: 'pushes from a checkout that other agents write to',
  merge: 'merges into a shared branch in place',
  history: 'rewrites or adds commits on a shared branch in place',
  ref: 'moves or deletes a ref that concurrent agents share',
  'reset-hard': "throws away the index and the work tree, other agents' uncommitted work included",
  'clean-force': "deletes untracked files, other agents' new files included",
  discard: "discards uncommitted changes across the work tree, other agents' included",
  stash:
    "takes uncommitted changes out of a shared work tree, or puts them back into it, other agents' included",
  'pr-merge': 'merges a pull request outside the route this repository provides',
};

const maxQuoted = 240;

/** A command or segment as the reason quotes it: one line, cut at 240 characters. */
export function quoteCommand(text: string): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ').trim();
  return `\`${oneLine.length > maxQuoted ? `${oneLine.slice(0, maxQuoted)}…` : oneLine}\``;
}

/**
 * The replacement sentence: the command the profile declares for this kind of write (only when
 * the declared file exists), else the `repo-profile` skill, which the evidence probe proved exists.
 */
function replacementSentence(declared: string | null): string {
  if (declared !== null) return `Use the replacement this repository declares instead: \`${declared}\`.`;
  return 'Use the route the `repo-profile` skill (.claude/skills/repo-profile.md) gives for this write instead.';
}

// A retargeted `gh pr merge` with no declared replacement: the route is the target's, not this checkout's.
const retargetedSentence =
  'Merge it from a checkout of the target repository instead, through the route its `repo-profile` skill gives.';

const sessionSentence =
  'To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an `export` inside a Bash call never reaches the hook).';

function escapeSentence(offer: EscapeOffer, text: string): string {
  switch (offer) {
    case 'segment':
      return `To run this one command anyway, prefix it: \`GIT_GATE=off ${oneLine(text)}\`.`;
    case 'command-start':
      return 'To run it anyway, put GIT_GATE=off at the very start of the command (`GIT_GATE=off …`): the command cannot be split into segments, so no other place counts.';
    case 'sub-agent':
      return 'The per-command escape (a GIT_GATE=off prefix) is withheld from sub-agents: hand this step back to the main thread.';
    case 'none':
      return '';
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The deny text (after the opener) for a judged write. */
export function buildDenyText(options: {
  segment: string;
  write: WriteKind;
  retargeted: boolean;
  replacement: string | null;
  escape: EscapeOffer;
}): string {
  const why = options.retargeted
    ? `${whatItDoes[options.write]}, retargeted at a repository this gate cannot probe from here`
    : whatItDoes[options.write];
  return [
    `${quoteCommand(options.segment)} is a git write (${options.write}): it ${why}, which can corrupt a shared checkout.`,
    options.retargeted && options.replacement === null
      ? retargetedSentence
      : replacementSentence(options.replacement),
    escapeSentence(options.escape, options.segment),
    sessionSentence,
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}

/** The refusal text (after the opener) for what strict mode cannot judge. */
export function buildCannotJudgeText(options: {
  subject: string | null;
  why: string;
  escape: EscapeOffer;
}): string {
  const subject = options.subject === null ? 'this call' : quoteCommand(options.subject);
  return [
    `cannot judge ${subject}: ${options.why} (strict mode).`,
    escapeSentence(options.escape, options.subject ?? ''),
    sessionSentence,
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}
