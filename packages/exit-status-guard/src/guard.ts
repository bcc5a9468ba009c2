import { bashPayload, type CliIO, defineGuard, type GuardDefinition } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { frictionReportCommand, frictionReportUsage } from './friction/command.ts';
import { frictionSection } from './friction/section.ts';
import { guardName } from './reasons.ts';
import { describeRegistry, describeRegistryJson, registryProblems } from './registry-report.ts';

/** The canonical false green: a check piped into a filter. doctor runs it through the installed hook. */
export const positiveControlCommand = 'make check 2>&1 | tail -30; echo "EXIT=$?"';

/** What the shared CLI runs (`exit-status-guard hook|install|uninstall|explain|doctor|friction-report|registry`). */
export const guardDefinition: GuardDefinition = defineGuard({
  packageUrl: import.meta.url,
  name: guardName,
  description:
    'Denies a Bash command whose exit status is the answer and gets discarded (piped, backgrounded, sequenced before a state change).',
  matcher: 'Bash',
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
  // In an empty folder: a project registry with replace: true must not hide the guard's own control.
  positiveControl: async (scratch) => ({
    payload: bashPayload(positiveControlCommand, { cwd: scratch, sessionId: 'doctor' }),
    env: { CLAUDE_PROJECT_DIR: scratch },
  }),
  commands: {
    'friction-report': {
      summary: 'read Claude Code transcripts and report what this guard denied (read-only)',
      usage: frictionReportUsage,
      run: frictionReportCommand,
    },
    registry: {
      summary: 'print the registry a command in this folder is judged with, and every dropped pattern',
      run: async (argv: string[], io: CliIO) => {
        io.stdout(`${argv.includes('--json') ? describeRegistryJson(io) : describeRegistry(io)}\n`);
        return 0;
      },
    },
  },
  doctorChecks: async (io: CliIO) => registryProblems(io),
  // `report` folds the friction report in: the transcripts' side of the same period.
  reportSections: frictionSection,
});
