import type { DenyRule, Hit } from './hit.ts';

/** The guard's name: every reason opens with `exit-status-guard: ` (the only attribution a deny carries). */
export const guardName = 'exit-status-guard';

/**
 * One stable phrase per rule. The friction report counts denials by rule with these: change one
 * and older transcripts stop counting under it. Documented in the README.
 */
export const rulePhrases: Readonly<Record<DenyRule, string>> = {
  pipestatus: 'reads $PIPESTATUS',
  'piped-gate': 'exit status is lost in a pipe',
  'lost-background': 'exit status is lost in the background',
  'sequenced-mutator': 'exit status is lost before a state change',
  'process-substitution': 'exit status is lost in a process substitution',
};

/** How many characters of a gate's head the reason shows. */
export const gateNameLength = 70;

// The kit's issue tracker: package.json's `bugs.url` (reasons.test.ts holds the two equal), as a
// literal so that the hook bundle carries no package.json.
const issueTrackerUrl = 'https://github.com/kit-hooks/kit/issues';

const falsePositiveLine = `A false positive? Report it at ${issueTrackerUrl} (label ${guardName}) with the command.`;

/** The gate as the reason names it: the first 70 characters of its head, one line. */
export function gateName(head: string): string {
  return head.replace(/\s+/g, ' ').trim().slice(0, gateNameLength);
}

function code(text: string): string {
  return `\`${text.replaceAll('`', "'")}\``;
}

function why(hit: Hit): string {
  switch (hit.rule) {
    case 'pipestatus':
      return `the command ${rulePhrases.pipestatus}, a bash-only array: under a shell without it the test reads success.`;
    case 'piped-gate':
      return `its ${rulePhrases['piped-gate']}: a pipeline reports its last stage's status, so a failed check reads as success.`;
    case 'lost-background':
      return hit.how === 'ampersand'
        ? `its ${rulePhrases['lost-background']}: \`&\` returns at once with status 0 and nothing collects the check's status.`
        : `its ${rulePhrases['lost-background']}: run_in_background reports the status of the last statement, which is not the check's.`;
    case 'sequenced-mutator':
      return (
        `its ${rulePhrases['sequenced-mutator']}: \`;\` runs ${code(hit.mutatorHead.slice(0, 70))} whether or not the check passed.` +
        (hit.errexit
          ? ' `set -e` does not stop it: the host runs the command inside an eval in an && list, where errexit is ignored.'
          : '')
      );
    case 'process-substitution':
      return `its ${rulePhrases['process-substitution']}: nothing waits for ${hit.substitution.direction === '>' ? '`>( )`' : '`<( )`'}, so the outer command succeeds whatever the check did.`;
  }
}

function instead(hit: Hit): string {
  switch (hit.rule) {
    case 'pipestatus':
    case 'piped-gate':
    case 'process-substitution':
      return 'Send the output to a log and echo the status instead:';
    case 'lost-background':
      return hit.how === 'ampersand'
        ? 'Capture the status and re-raise it (to keep it in the background, make the call with run_in_background: true):'
        : 'Capture the status and re-raise it at the end:';
    case 'sequenced-mutator':
      return hit.mutatorIsRestore
        ? 'Capture the status, run the restore, and re-raise the status after it:'
        : 'Join them with && so the change runs only when the check passed:';
  }
}

function fallback(hit: Hit): string {
  switch (hit.rule) {
    case 'pipestatus':
      return 'Test `$?` right after the command whose status you need, in its own statement: `cmd > log 2>&1; echo "EXIT=$?"`.';
    case 'piped-gate':
      return 'Redirect the check to a log, `echo "EXIT=$?"`, then filter the log.';
    case 'lost-background':
      return 'Run it in the foreground, or end the call with the check (or `exit $rc` after `rc=$?`).';
    case 'sequenced-mutator':
      return 'Put `&&` between the check and the state change.';
    case 'process-substitution':
      return 'Run the check first with its output in a file and `echo "EXIT=$?"`, then use the file.';
  }
}

function exemptPattern(head: string): string {
  const all = head.split(' ');
  const words = [all[0] as string];
  for (const word of all.slice(1, 3)) {
    if (/^-|[/=.$]/.test(word)) break;
    words.push(word);
  }
  // One replace over the joined words (a space needs no escape), not one per word.
  const escaped = words.join(' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return JSON.stringify({ exempt: [`^${escaped}( |$)`] });
}

/** What a reason is built from besides the hit. */
export interface ReasonParts {
  rewrite: string | null;
  writes: string[]; // writes in the refused call that did not happen
}

/**
 * The text after the opener: the gate in backticks, one sentence of why, a rewrite that runs as
 * written, the one-call override, the durable exempt fix, where to report a false positive, and the
 * writes that did not happen because the whole call was refused.
 */
export function buildReasonText(hit: Hit, parts: ReasonParts): string {
  const name = gateName(hit.gateHead);
  const lines = [`${code(name)}: ${why(hit)}`];
  lines.push(parts.rewrite ? `${instead(hit)}\n  ${parts.rewrite.replaceAll('\n', '\n  ')}` : fallback(hit));
  lines.push(
    'If the status truly does not matter this once, prefix the command with EXIT_STATUS_GUARD_OVERRIDE=<why> (one call).',
    hit.rule === 'pipestatus'
      ? 'No exempt pattern silences this rule: the read itself is the problem, whatever ran before it.'
      : `If ${code(name)} is never a check here, add an exempt pattern to .claude/exit-status-guard.json: ${exemptPattern(name)}.`,
    falsePositiveLine,
  );
  if (parts.writes.length > 0) {
    lines.push(
      `The whole call was refused, so these writes did not happen either: ${parts.writes.map(code).join(', ')}.`,
    );
  }
  return lines.join('\n');
}
