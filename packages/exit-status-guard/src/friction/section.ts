import { join } from 'node:path';
import type { CliIO, ReportSection } from '@kit/gate-approval';
import { buildReport } from './report.ts';
import { findTranscripts, readTranscripts } from './transcripts.ts';

/**
 * The friction report folded into the shared `report`: what the transcripts under
 * ~/.claude/projects say of this guard's denials over the same period and repositories, and what
 * the model did next (the one-call override among it). `friction-report` has the whole of it.
 */
export async function frictionSection(
  filter: { since: number | null; repo: string | null },
  io: CliIO,
): Promise<ReportSection[]> {
  const root = join(io.home, '.claude', 'projects');
  const facts = await readTranscripts(await findTranscripts(root));
  const since = {
    label: filter.since === null ? 'all' : new Date(filter.since).toISOString(),
    from: filter.since,
  };
  const { denials: _denials, ...summary } = buildReport(facts, {
    since,
    repo: filter.repo,
    top: 5,
    plugin: 'all',
  });
  const after = summary.afterDenial;
  const lines = [
    `${summary.decisions} Bash call${summary.decisions === 1 ? '' : 's'} in ${summary.transcripts} transcript${summary.transcripts === 1 ? '' : 's'} under ${root}; ${summary.denied} denied by exit-status-guard`,
    `after a deny: ${after.rewritten} rewritten, ${after.overridden} overridden, ${after['denied-again']} denied again, ${after['moved-on']} moved on, ${after.abandoned} abandoned`,
    ...summary.byRule.map(([rule, count]) => `${String(count).padStart(4)}  ${rule}`),
    '`exit-status-guard friction-report` has the commands and gates',
  ];
  return [
    { title: 'exit-status-guard friction (from Claude Code transcripts)', lines, data: { root, ...summary } },
  ];
}
