import type { DenyRule } from '../rules/index.ts';
import { rulePhrases } from '../rules/index.ts';
import type { BashCall, TranscriptFacts } from './transcripts.ts';

/** Which guard's denials to count: the current opener, the 1.x one, or both. */
export type PluginFilter = 'exit-status-guard' | 'pipe-guard' | 'all';

/** The report's filters, as parsed from the command line. */
export interface ReportOptions {
  since: { label: string; from: number | null }; // from: ms since the epoch; null for all
  repo: string | null;
  top: number;
  plugin: PluginFilter;
}

/** One denial of ours, paired with the Bash call it refused. */
export interface Denial {
  call: BashCall;
  reason: string;
  label: 'exit-status-guard' | 'pipe-guard' | 'unlabelled';
  rule: DenyRule | 'unknown';
  gate: string | null;
  next: 'rewritten' | 'overridden' | 'denied-again' | 'moved-on' | 'abandoned';
}

/** What the report prints (or emits as JSON). */
export interface Report {
  transcripts: number;
  decisions: number; // Bash calls analyzed (after --since and --repo)
  denied: number;
  notDenied: number;
  deniedByOthers: number; // denied by another hook
  afterDenial: Record<Denial['next'], number>;
  byRule: [string, number][];
  topGates: [string, number][];
  topCommands: [string, number][];
  denials: Denial[];
  emptiedBy: string | null; // the filter that left nothing, when nothing is left
}

// The gate is the backticked text after the opener; the opener is optional because transcripts
// hold denials from before it shipped. Keep this in step with reasons.ts.
const gatePattern = /^(?:(?:exit-status-guard|pipe-guard): )?`([^`]+)`/;
const openers: [RegExp, Denial['label']][] = [
  [/^exit-status-guard: /, 'exit-status-guard'],
  [/^pipe-guard: /, 'pipe-guard'],
];
const overrideWords = /\b(EXIT_STATUS_GUARD_OVERRIDE|PIPE_GUARD_OVERRIDE)=/;

function labelOf(reason: string): Denial['label'] | null {
  for (const [pattern, label] of openers) if (pattern.test(reason)) return label;
  // Without an opener a denial is ours only when it carries one of our stable phrases.
  if (/^[a-z][a-z0-9-]*: /.test(reason) && !gatePattern.test(reason)) return null;
  return ruleOf(reason) === 'unknown' ? null : 'unlabelled';
}

function ruleOf(reason: string): Denial['rule'] {
  for (const [rule, phrase] of Object.entries(rulePhrases) as [DenyRule, string][])
    if (reason.includes(phrase)) return rule;
  return 'unknown';
}

/** A command with what varies between runs normalised: uuids, shas and long numbers. */
export function normaliseCommand(command: string): string {
  return command
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
    .replace(/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b/gi, '<sha>')
    .replace(/\b\d{5,}\b/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

function topOf(values: string[], top: number): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, top);
}

function pluginMatches(label: Denial['label'], plugin: PluginFilter): boolean {
  return plugin === 'all' || label === 'unlabelled' || label === plugin;
}

/**
 * The calls the --since and --repo filters keep, in that order, and the first filter (or fact)
 * that left no call of ours: no transcripts, no denials, or the filter that dropped the last one.
 */
function applyFilters(
  facts: TranscriptFacts[],
  allCalls: BashCall[],
  options: ReportOptions,
  isOurs: (call: BashCall) => boolean,
): { calls: BashCall[]; emptiedBy: string | null } {
  const stages: [string, (call: BashCall) => boolean][] = [
    [
      `--since ${options.since.label}`,
      (call) => options.since.from === null || (call.time !== null && call.time >= options.since.from),
    ],
    [`--repo ${options.repo ?? ''}`, (call) => options.repo === null || call.cwd.includes(options.repo)],
  ];
  let calls = allCalls;
  let emptiedBy: string | null = null;
  if (facts.length === 0) emptiedBy = 'no transcripts';
  else if (!allCalls.some(isOurs)) emptiedBy = 'no denials';
  for (const [name, keep] of stages) {
    const kept = calls.filter(keep);
    if (emptiedBy === null && !kept.some(isOurs) && calls.some(isOurs)) emptiedBy = name;
    calls = kept;
  }
  return { calls, emptiedBy };
}

/**
 * What the session did after a denial: nothing (abandoned), a call denied again, an override, a
 * rewrite (a rewrite still runs the gate), or other work (a next call that does not name it).
 */
function whatFollowed(
  after: BashCall | undefined,
  gate: string | null,
  isOurs: (call: BashCall) => boolean,
): Denial['next'] {
  if (after === undefined) return 'abandoned';
  if (isOurs(after)) return 'denied-again';
  if (overrideWords.test(after.command)) return 'overridden';
  return gate === null || after.command.includes(gate) ? 'rewritten' : 'moved-on';
}

/** Pairs denials with their calls, applies the filters in order, and counts. */
export function buildReport(facts: TranscriptFacts[], options: ReportOptions): Report {
  const denialById = new Map<string, string>();
  for (const transcript of facts)
    for (const denial of transcript.denials) denialById.set(denial.toolUseId, denial.reason);
  const allCalls = facts.flatMap((transcript) => transcript.calls);
  const ours = (call: BashCall): Denial['label'] | null => {
    const reason = denialById.get(call.id);
    return reason === undefined ? null : labelOf(reason);
  };

  const filtered = applyFilters(facts, allCalls, options, (call) => ours(call) !== null);
  const calls = filtered.calls;
  let emptiedBy = filtered.emptiedBy;

  const denials: Denial[] = [];
  let deniedByOthers = 0;
  const byFile = new Map<string, BashCall[]>();
  for (const call of allCalls) byFile.set(call.file, [...(byFile.get(call.file) ?? []), call]);
  for (const call of calls) {
    const reason = denialById.get(call.id);
    if (reason === undefined) continue;
    const label = labelOf(reason);
    if (label === null) {
      deniedByOthers += 1;
      continue;
    }
    if (!pluginMatches(label, options.plugin)) continue;
    const sameSession = byFile.get(call.file) ?? [];
    const after = sameSession.find((other) => other.order > call.order);
    const gate = gatePattern.exec(reason)?.[1] ?? null;
    const next = whatFollowed(after, gate, (other) => ours(other) !== null);
    denials.push({ call, reason, label, rule: ruleOf(reason), gate, next });
  }
  if (emptiedBy === null && denials.length === 0) emptiedBy = `--plugin ${options.plugin}`;

  const afterDenial = { rewritten: 0, overridden: 0, 'denied-again': 0, 'moved-on': 0, abandoned: 0 };
  for (const denial of denials) afterDenial[denial.next] += 1;
  return {
    transcripts: facts.length,
    decisions: calls.length,
    denied: denials.length,
    notDenied: calls.filter((call) => !denialById.has(call.id)).length,
    deniedByOthers,
    afterDenial,
    byRule: topOf(
      denials.map((denial) => denial.rule),
      Number.POSITIVE_INFINITY,
    ),
    topGates: topOf(
      denials.map((denial) => denial.gate ?? '(unnamed)'),
      options.top,
    ),
    topCommands: topOf(
      denials.map((denial) => normaliseCommand(denial.call.command)),
      options.top,
    ),
    denials,
    emptiedBy: denials.length === 0 ? emptiedBy : null,
  };
}

function table(rows: [string, number][]): string[] {
  if (rows.length === 0) return ['  (none)'];
  const width = Math.min(60, Math.max(...rows.map(([name]) => name.length)));
  return rows.map(([name, count]) =>
    `  ${String(count).padStart(5)}  ${name.length > 60 ? `${name.slice(0, 59)}…` : name.padEnd(width)}`.trimEnd(),
  );
}

/** The report as text: what was analyzed, outcomes, counts by rule, top gates and commands. */
export function renderReport(report: Report, where: string, options: ReportOptions): string {
  const lines = [
    `exit-status-guard friction report (${report.transcripts} transcript${report.transcripts === 1 ? '' : 's'} under ${where})`,
  ];
  if (report.emptiedBy !== null) {
    const why =
      report.emptiedBy === 'no transcripts'
        ? `nothing to report: no transcripts (*.jsonl) under ${where}`
        : report.emptiedBy === 'no denials'
          ? `nothing to report: ${report.decisions} Bash calls analyzed, none denied by exit-status-guard or pipe-guard`
          : `nothing to report: the filter ${report.emptiedBy} left no denials`;
    return [...lines, why].join('\n');
  }
  lines.push(
    `decisions analyzed: ${report.decisions} Bash calls (since ${options.since.label}${options.repo ? `, repo ~ ${options.repo}` : ''}, plugin ${options.plugin})`,
    `outcomes: ${report.denied} denied by this guard, ${report.deniedByOthers} denied by other hooks, ${report.notDenied} not denied`,
    `after a denial: ${report.afterDenial.rewritten} rewritten, ${report.afterDenial.overridden} overridden, ${report.afterDenial['denied-again']} denied again, ${report.afterDenial['moved-on']} moved on, ${report.afterDenial.abandoned} abandoned`,
    'by rule:',
    ...table(report.byRule),
    `top gates whose status was being lost (top ${options.top}):`,
    ...table(report.topGates),
    `top triggering commands (top ${options.top}):`,
    ...table(report.topCommands),
  );
  return lines.join('\n');
}

/** `--raw`'s list under the report: one line per denial, time, rule, folder and command. */
export function renderDenials(report: Report): string {
  const lines = ['denials:'];
  for (const denial of report.denials) {
    const when = denial.call.time === null ? '-' : new Date(denial.call.time).toISOString();
    lines.push(`  ${when}  ${denial.rule}  ${denial.call.cwd}  ${JSON.stringify(denial.call.command)}`);
  }
  return lines.join('\n');
}
