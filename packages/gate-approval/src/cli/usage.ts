import { reportDetails } from './report.ts';
import { statusLineDetails } from './status-line.ts';
import type { GuardDefinition } from '../guard.ts';

/** A shared command's synopsis and its one-line summary, for --help and `<command> --help`. */
interface CommandUsage {
  synopsis: string;
  summary: string;
  details: string[]; // what `<command> --help` adds
}

const scopesLine =
  'Scopes: --user ~/.claude/settings.json (default), --project .claude/settings.json, --local .claude/settings.local.json; a project scope is the top of the git work tree holding the current folder.';

function hostsLine(guard: GuardDefinition): string {
  return `--host claude (default), codex, gemini or copilot: the agent CLI whose configuration install writes${guard.matcher === 'Read' ? ' (codex has no file-read tool)' : ''}.`;
}

function sharedCommands(guard: GuardDefinition): Record<string, CommandUsage> {
  const strict = guard.strictMode ? ' [--strict]' : '';
  return {
    install: {
      synopsis: `install [--host NAME] [--user|--project|--local]${strict} [--monitor] [--transport mcp|command] [--dry-run]`,
      summary: `copy the hook bundle and add the ${guard.matcher} handler (default --user)`,
      details: [
        scopesLine,
        hostsLine(guard),
        'A project handler names its bundle as ${CLAUDE_PROJECT_DIR}/.claude/hooks/…, so the committed entry runs in every clone.',
        '--dry-run prints the change as a diff and writes nothing.',
        'Claude Code, user or local scope: the mcp_tool path (one judge server per session, declared with `claude mcp add`, no process per call) when claude 2.1.332+ is on PATH, else the command hook; --transport chooses.',
        ...(guard.strictMode
          ? [
              '--strict is strict mode: the guard runs with TAGOUT_HOOKS_STRICT (--strict after the bundle), and "onFailure": "block" makes a hook the host kills or that crashes block the call.',
            ]
          : []),
      ],
    },
    uninstall: {
      synopsis: 'uninstall [--host NAME] [--user|--project|--local] [--dry-run]',
      summary: "remove exactly this guard's handler and bundle",
      details: [scopesLine, hostsLine(guard), '--dry-run prints the change as a diff and writes nothing.'],
    },
    explain: {
      synopsis: `explain '<${guard.matcher === 'Read' ? 'file path' : 'command'}>' [--cwd DIR] [--json]`,
      summary: 'what the guard decides, and why',
      details: [
        '--cwd DIR judges the call as made in DIR (default: the current folder).',
        '--json prints one object: { guard, input, cwd, verdict, rule?, reason?, cause? }.',
      ],
    },
    doctor: {
      synopsis: 'doctor [--host NAME] [--user|--project|--local]',
      summary: 'check the installation end to end',
      details: [
        scopesLine,
        hostsLine(guard),
        'Runs the positive control through the installed command; exit 1 with the FAIL lines when anything is off, a guard wired twice (settings and a plugin) included.',
      ],
    },
    report: {
      synopsis: 'report [--since 7d|12h|YYYY-MM-DD|all] [--guard NAME] [--repo SUBSTRING] [--json]',
      summary: 'what every guard denied, by which rule and where; what was overridden',
      details: reportDetails,
    },
    statusline: {
      synopsis: "statusline [--then '<command>']",
      summary: "a line for Claude Code's statusLine: each guard's state and this session's denies",
      details: statusLineDetails,
    },
    hook: {
      synopsis: 'hook [--host NAME]',
      summary: "run as the host's hook (payload on stdin)",
      details: [
        'Reads one PreToolUse payload on stdin and answers as the hook bundle does.',
        "--host NAME reads and answers in that host's dialect (default claude), as the installed command does.",
      ],
    },
  };
}

/** The --help text: commands, the guard's own commands, and every switch. */
export function renderUsage(guard: GuardDefinition): string {
  const name = guard.name;
  const lines = [`${name} ${guard.version}: ${guard.description}`, '', 'Usage:'];
  const commands = Object.values(sharedCommands(guard));
  const width = Math.max(...commands.map((c) => c.synopsis.length));
  for (const c of commands) lines.push(`  ${name} ${c.synopsis.padEnd(width)}   ${c.summary}`);
  for (const [command, entry] of Object.entries(guard.commands ?? {}))
    lines.push(`  ${name} ${command}   ${entry.summary}`);
  lines.push(`  ${name} <command> --help | --help | --version`, '');
  lines.push(scopesLine, hostsLine(guard));
  if (guard.strictMode)
    lines.push(
      '--strict is strict mode: the guard runs with TAGOUT_HOOKS_STRICT (--strict after the bundle), and "onFailure": "block" makes a hook the host kills or that crashes block the call.',
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

/**
 * The `<command> --help` text of a shared command or of the guard's own, or null for a command
 * the guard does not have. A guard command without its own `usage` gets its summary.
 */
export function renderCommandUsage(guard: GuardDefinition, command: string): string | null {
  const shared = Object.hasOwn(sharedCommands(guard), command) ? sharedCommands(guard)[command] : undefined;
  if (shared)
    return [`usage: ${guard.name} ${shared.synopsis}`, `  ${shared.summary}`, ...shared.details].join('\n');
  const own = Object.hasOwn(guard.commands ?? {}, command) ? guard.commands?.[command] : undefined;
  if (!own) return null;
  return own.usage ?? `usage: ${guard.name} ${command}\n  ${own.summary}`;
}
