import type { RuleReason } from './rule.ts';

/** The guard's name: every reason opens with `exit-status-guard: ` (the only attribution a deny carries). */
export const guardName = 'exit-status-guard';

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

/** What a reason is built from: the gate, the rule's sentences, the rewrite (or none), the writes that did not happen. */
export interface ReasonParts {
  gateHead: string;
  rule: RuleReason;
  rewrite: string | null; // null: the rule's fallback sentence stands in its place
  writes: string[]; // writes in the refused call that did not happen
}

/**
 * The text after the opener: the gate in backticks, one sentence of why, a rewrite that runs as
 * written, the one-call override, the durable exempt fix, where to report a false positive, and the
 * writes that did not happen because the whole call was refused.
 */
export function buildReasonText(parts: ReasonParts): string {
  const name = gateName(parts.gateHead);
  const { rule } = parts;
  const lines = [`${code(name)}: ${rule.why}`];
  lines.push(parts.rewrite ? `${rule.instead}\n  ${parts.rewrite.replaceAll('\n', '\n  ')}` : rule.fallback);
  lines.push(
    'If the status truly does not matter this once, prefix the command with EXIT_STATUS_GUARD_OVERRIDE=<why> (one call).',
    rule.durableFix ??
      `If ${code(name)} is never a check here, add an exempt pattern to .claude/exit-status-guard.json: ${exemptPattern(name)}.`,
    falsePositiveLine,
  );
  if (parts.writes.length > 0) {
    lines.push(
      `The whole call was refused, so these writes did not happen either: ${parts.writes.map(code).join(', ')}.`,
    );
  }
  return lines.join('\n');
}
