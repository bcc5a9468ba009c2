import type { GuardDefinition } from '../guard.ts';

/** The --help text: commands, the guard's own commands, and every switch. */
export function renderUsage(guard: GuardDefinition): string {
  const name = guard.name;
  const commands: [string, string][] = [
    [
      `install [--host NAME] [--user|--project|--local]${guard.strictMode ? ' [--strict]' : ''} [--dry-run]`,
      `copy the hook bundle and add the ${guard.matcher} handler (default --user)`,
    ],
    [
      'uninstall [--host NAME] [--user|--project|--local] [--dry-run]',
      "remove exactly this guard's handler and bundle",
    ],
    [
      `explain '<${guard.matcher === 'Read' ? 'file path' : 'command'}>' [--cwd DIR] [--json]`,
      'what the guard decides, and why',
    ],
    ['doctor [--host NAME] [--user|--project|--local]', 'check the installation end to end'],
    ['hook [--host NAME]', "run as the host's hook (payload on stdin)"],
  ];
  const width = Math.max(...commands.map(([synopsis]) => synopsis.length));
  const lines = [
    `${name} ${guard.version}: ${guard.description}`,
    '',
    'Usage:',
    ...commands.map(([synopsis, summary]) => `  ${name} ${synopsis.padEnd(width)}   ${summary}`),
  ];
  for (const [command, entry] of Object.entries(guard.commands ?? {}))
    lines.push(`  ${name} ${command}   ${entry.summary}`);
  lines.push(`  ${name} --help | --version`, '');
  lines.push(
    'Scopes: --user ~/.claude/settings.json, --project .claude/settings.json, --local .claude/settings.local.json.',
    `--host claude (default), codex, gemini or copilot: the agent CLI whose configuration install writes${guard.matcher === 'Read' ? ' (codex has no file-read tool)' : ''}.`,
  );
  if (guard.strictMode)
    lines.push(
      '--strict adds "onFailure": "block": a hook the host kills or that crashes then blocks the call.',
    );
  if (guard.switches.length > 0) {
    lines.push('', 'Switches (in the environment Claude Code starts with):');
    for (const s of guard.switches) {
      const legacy = s.legacyNames?.length ? ` (legacy: ${s.legacyNames.join(', ')})` : '';
      lines.push(`  ${s.name}=${s.values}${legacy}   ${s.doc}`);
    }
  }
  lines.push('  KIT_HOOKS_TRACE=<file>   append one JSON line per hook call (verdict, fail-open cause, ms)');
  return lines.join('\n');
}
