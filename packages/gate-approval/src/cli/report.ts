import type { AuditEvent } from '../audit-log.ts';
import { auditFileOf, readAuditEvents, repositoryOf } from '../audit-read.ts';
import type { CliIO, GuardDefinition, ReportSection } from '../guard.ts';
import { parseArgs } from './args.ts';
import { fail, say } from './output.ts';

/** What `report --help` prints beyond the synopsis. */
export const reportDetails: string[] = [
  "Reads the user's audit trail ($XDG_STATE_HOME/kit-hooks/audit.jsonl, ~/.local/state/kit-hooks/ when unset) of every guard: what was denied, by which rule, in which repository; what monitor mode would have denied; which escapes and overrides were used.",
  '--since 7d|12h|30m|YYYY-MM-DD|all (default all); --guard NAME keeps one guard; --repo SUBSTRING keeps the repositories whose path holds it.',
  '--json prints one object: { file, since, events, denied, monitored, overridden, recent, sections }.',
];

/** One row of a count: the events of one guard, kind, rule and repository. */
export interface ReportRow {
  count: number;
  guard: string;
  event: AuditEvent['event'];
  rule: string | null;
  repository: string | null;
}

/** The report's content, as `--json` prints it. */
export interface AuditReport {
  file: string | null;
  since: string;
  events: number;
  denied: ReportRow[];
  monitored: ReportRow[];
  overridden: ReportRow[];
  recent: (Omit<ReportRow, 'count'> & { time: string; command: string | null })[];
  sections: ReportSection[];
}

interface ReportFilter {
  since: { label: string; from: number | null };
  guard: string | null;
  repo: string | null;
}

const recentCount = 10;

/** `report [--since …] [--guard NAME] [--repo SUBSTRING] [--json]`. */
export async function reportCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(argv, { flags: ['--json'], options: ['--since', '--guard', '--repo'] });
  if (!parsed.ok) return fail(io, `report: ${parsed.message}; run \`${guard.name} report --help\``);
  const { flags, options, positionals } = parsed.value;
  if (positionals.length > 0) return fail(io, `report: unexpected argument ${positionals[0]}`);
  const since = sinceOf(options.get('--since') ?? 'all', Date.now());
  if (since === null) return fail(io, 'report: --since takes 7d, 12h, 30m, YYYY-MM-DD or all');
  const filter: ReportFilter = {
    since,
    guard: options.get('--guard') ?? null,
    repo: options.get('--repo') ?? null,
  };
  const file = auditFileOf(io.env, io.home);
  const events = file === null ? [] : readAuditEvents(file);
  const sections = guard.reportSections
    ? await guard.reportSections({ since: since.from, repo: filter.repo }, io)
    : [];
  const report = buildAuditReport(file, events, filter, sections);
  if (flags.has('--json')) say(io, JSON.stringify(report));
  else say(io, ...renderAuditReport(report, io.env));
  return 0;
}

/** `--since` as a point in time: 7d, 12h, 30m, a UTC date, or all; null when it cannot be read. */
export function sinceOf(value: string, now: number): ReportFilter['since'] | null {
  if (value === 'all') return { label: 'all', from: null };
  const units: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000 };
  const relative = /^(\d+)([dhm])$/.exec(value);
  if (relative) return { label: value, from: now - Number(relative[1]) * (units[relative[2] ?? 'd'] ?? 0) };
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  return Number.isNaN(day) ? null : { label: value, from: day };
}

/** Counts the events the filter keeps, by guard, kind, rule and repository; the latest escapes and overrides. */
export function buildAuditReport(
  file: string | null,
  events: AuditEvent[],
  filter: ReportFilter,
  sections: ReportSection[] = [],
): AuditReport {
  const repositories = new Map<string, string>();
  const kept = events
    .filter((event) => filter.since.from === null || Date.parse(event.time) >= filter.since.from)
    .filter((event) => filter.guard === null || event.guard === filter.guard)
    .map((event) => ({ event, repository: event.cwd ? repositoryOf(event.cwd, repositories) : null }))
    .filter(({ repository }) => filter.repo === null || (repository ?? '').includes(filter.repo));
  const rowsOf = (kinds: AuditEvent['event'][]): ReportRow[] => {
    const counts = new Map<string, ReportRow>();
    for (const { event, repository } of kept) {
      if (!kinds.includes(event.event)) continue;
      const row = { guard: event.guard, event: event.event, rule: event.rule ?? null, repository };
      const key = JSON.stringify(row);
      const counted = counts.get(key) ?? { count: 0, ...row };
      counted.count += 1;
      counts.set(key, counted);
    }
    return [...counts.values()].sort((a, b) => b.count - a.count || a.guard.localeCompare(b.guard));
  };
  const recent = kept
    .filter(({ event }) => event.event === 'escape' || event.event === 'override')
    .slice(-recentCount)
    .reverse()
    .map(({ event, repository }) => ({
      time: event.time,
      guard: event.guard,
      event: event.event,
      rule: event.rule ?? null,
      repository,
      command: event.command ?? null,
    }));
  return {
    file,
    since: filter.since.label,
    events: kept.length,
    denied: rowsOf(['deny', 'refuse']),
    monitored: rowsOf(['would-deny', 'would-refuse']),
    overridden: rowsOf(['escape', 'override']),
    recent,
    sections,
  };
}

/** The report as text: one block per question, then each guard's own sections. */
export function renderAuditReport(report: AuditReport, env: Record<string, string | undefined>): string[] {
  const where =
    report.file === null
      ? 'the audit trail is off (KIT_HOOKS_AUDIT) or has no home folder'
      : `the audit trail ${report.file}: ${report.events} event${report.events === 1 ? '' : 's'} since ${report.since}`;
  const lines = [`report: ${where}`];
  if (report.file !== null && env.KIT_HOOKS_AUDIT === undefined && report.events === 0)
    lines.push(
      '  nothing recorded yet: a deny, refusal, escape, override or monitored would-deny adds a line',
    );
  const block = (title: string, rows: ReportRow[]) => {
    lines.push(`${title}:`);
    if (rows.length === 0) lines.push('  none');
    for (const row of rows)
      lines.push(
        `  ${String(row.count).padStart(4)}  ${row.guard}  ${row.event}${row.rule ? ` ${row.rule}` : ''}  in ${row.repository ?? '(no folder)'}`,
      );
  };
  block('denied (by guard, rule and repository)', report.denied);
  block('monitored: would have denied', report.monitored);
  block('overridden: escapes and overrides used', report.overridden);
  if (report.recent.length > 0) {
    lines.push('latest escapes and overrides:');
    for (const row of report.recent)
      lines.push(
        `  ${row.time}  ${row.guard} ${row.event}  ${row.command ?? ''}  in ${row.repository ?? '(no folder)'}`,
      );
  }
  for (const section of report.sections)
    lines.push(`${section.title}:`, ...section.lines.map((line) => `  ${line}`));
  return lines;
}
