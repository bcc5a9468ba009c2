import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIO, GuardDefinition } from '@kit/gate-approval';
import packageJson from '../package.json' with { type: 'json' };
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { frictionReportCommand } from './friction/command.ts';
import { guardName } from './reasons.ts';
import { describeRegistry, registryProblems } from './registry-report.ts';

/** The canonical false green: a check piped into a filter. doctor runs it through the installed hook. */
export const positiveControlCommand = 'make check 2>&1 | tail -30; echo "EXIT=$?"';

/** The GuardDefinition the shared CLI runs (`exit-status-guard hook|install|uninstall|explain|doctor|friction-report|registry`). */
export function guardDefinition(): GuardDefinition {
  return {
    name: guardName,
    version: packageJson.version,
    description:
      'Denies a Bash command whose exit status is the answer and gets discarded (piped, backgrounded, sequenced before a state change).',
    matcher: 'Bash',
    bundle: fileURLToPath(new URL('./hook.cjs', import.meta.url)),
    switches: [
      {
        name: 'EXIT_STATUS_GUARD_REGISTRY',
        legacyNames: ['PIPE_GUARD_REGISTRY'],
        values: '<path of a registry JSON>',
        kind: 'value',
        doc: 'replaces the shipped registry (the project file is still appended)',
      },
    ],
    evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
    payloadFor: (command, cwd) => ({
      session_id: 'explain',
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: 'explain',
    }),
    positiveControl: async () => {
      // An empty folder: a project registry with replace: true must not hide the guard's own control.
      const dir = await mkdtemp(join(tmpdir(), 'exit-status-guard-doctor-'));
      return {
        payload: {
          session_id: 'doctor',
          cwd: dir,
          hook_event_name: 'PreToolUse',
          tool_name: 'Bash',
          tool_input: { command: positiveControlCommand },
          tool_use_id: 'doctor',
        },
        env: { CLAUDE_PROJECT_DIR: dir },
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
    commands: {
      'friction-report': {
        summary: 'read Claude Code transcripts and report what this guard denied (read-only)',
        run: frictionReportCommand,
      },
      registry: {
        summary: 'print the registry a command in this folder is judged with, and every dropped pattern',
        run: async (argv: string[], io: CliIO) => {
          io.stdout(`${describeRegistry(io, argv.includes('--json'))}\n`);
          return 0;
        },
      },
    },
    doctorChecks: async (io: CliIO) => registryProblems(io),
  };
}
