import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Outcome } from '@kit/fail-open';
import type { CliIO } from '@kit/gate-approval';
import { buildReport, type PluginFilter, renderDenials, renderReport, type ReportOptions } from './report.ts';
import { findTranscripts, readTranscripts } from './transcripts.ts';

/** What `friction-report --help` prints. */
export const frictionReportUsage: string =
  'usage: exit-status-guard friction-report [--transcripts DIR] [--since 7d|12h|YYYY-MM-DD|all] [--repo SUBSTRING] [--top N] [--raw] [--json] [--plugin exit-status-guard|pipe-guard|all]';

/** `--since` as a point in time: 7d, 12h, 30m, YYYY-MM-DD or all; undefined when it cannot be read. */
export function parseSince(value: string, now: number): ReportOptions['since'] | undefined {
  if (value === 'all') return { label: 'all', from: null };
  const relative = /^(\d+)([dhm])$/.exec(value);
  if (relative) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2] as 'd' | 'h' | 'm'];
    return { label: value, from: now - Number(relative[1]) * unit };
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const from = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(from) ? undefined : { label: value, from };
  }
  return undefined;
}

/** The report's arguments as given. */
interface ReportArgs {
  options: ReportOptions;
  transcripts: string | null; // default ~/.claude/projects
  raw: boolean; // --raw: every denial too
  json: boolean; // --json
}

/** The report's arguments; every value option takes `--name value` or `--name=value`. */
export function parseReportArgs(argv: string[], now: number): Outcome<ReportArgs, 'usage'> {
  const options: ReportOptions = { since: { label: 'all', from: null }, repo: null, top: 10, plugin: 'all' };
  let transcripts: string | null = null;
  let raw = false;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case '--raw':
        raw = true;
        break;
      case '--json':
        json = true;
        break;
      case '--transcripts': {
        const dir = value();
        if (!dir) return { ok: false, reason: 'usage', message: '--transcripts needs a folder' };
        transcripts = dir;
        break;
      }
      case '--since': {
        const since = parseSince(value() ?? '', now);
        if (!since)
          return { ok: false, reason: 'usage', message: '--since takes 7d, 12h, 30m, YYYY-MM-DD or all' };
        options.since = since;
        break;
      }
      case '--repo': {
        const repo = value();
        if (!repo)
          return { ok: false, reason: 'usage', message: '--repo needs a substring of the project folder' };
        options.repo = repo;
        break;
      }
      case '--top': {
        const top = Number(value());
        if (!Number.isInteger(top) || top <= 0)
          return { ok: false, reason: 'usage', message: '--top takes a positive whole number' };
        options.top = top;
        break;
      }
      case '--plugin': {
        const plugin = value();
        if (plugin !== 'exit-status-guard' && plugin !== 'pipe-guard' && plugin !== 'all')
          return {
            ok: false,
            reason: 'usage',
            message: '--plugin takes exit-status-guard, pipe-guard or all',
          };
        options.plugin = plugin as PluginFilter;
        break;
      }
      default:
        return { ok: false, reason: 'usage', message: `unknown argument ${arg}` };
    }
  }
  return { ok: true, value: { options, transcripts, raw, json } };
}

/**
 * `friction-report`: reads Claude Code transcripts (read-only), pairs each hook denial with its Bash
 * call by tool-use id, and reports counts by rule, the gates whose status was being lost, and the
 * commands that triggered it.
 */
export async function frictionReportCommand(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${frictionReportUsage}\n`);
    return 0;
  }
  const parsedArgs = parseReportArgs(argv, Date.now());
  if (!parsedArgs.ok) {
    io.stderr(`friction-report: ${parsedArgs.message}\n${frictionReportUsage}\n`);
    return 1;
  }
  const parsed = parsedArgs.value;
  const root = parsed.transcripts
    ? resolve(io.cwd, parsed.transcripts)
    : join(io.home, '.claude', 'projects');
  // A folder named on purpose must be there; the default one is absent until a first session.
  if (parsed.transcripts) {
    const kind = await stat(root).then(
      (s) => (s.isDirectory() ? 'folder' : 'not a folder'),
      () => 'missing',
    );
    if (kind !== 'folder') {
      io.stderr(
        `friction-report: --transcripts ${root} ${kind === 'missing' ? 'does not exist' : 'is not a folder'}; give the folder of Claude Code transcripts (default ~/.claude/projects)\n`,
      );
      return 1;
    }
  }
  const facts = await readTranscripts(await findTranscripts(root));
  const report = buildReport(facts, parsed.options);
  if (parsed.json) {
    const { denials, ...summary } = report;
    const rows = parsed.raw
      ? {
          denials: denials.map(({ call, ...rest }) => ({
            ...rest,
            command: call.command,
            cwd: call.cwd,
            time: call.time,
            toolUseId: call.id,
          })),
        }
      : {};
    io.stdout(`${JSON.stringify({ root, ...summary, ...rows })}\n`);
  } else {
    const text = renderReport(report, root, parsed.options);
    io.stdout(`${parsed.raw && report.emptiedBy === null ? `${text}\n${renderDenials(report)}` : text}\n`);
  }
  return 0;
}
