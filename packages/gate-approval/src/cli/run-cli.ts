import type { CliIO, GuardDefinition } from '../guard.ts';
import { doctorCommand } from './doctor.ts';
import { explainCommand } from './explain.ts';
import { hookCommand } from './hook-command.ts';
import { installCommand } from './install.ts';
import { fail, say } from './output.ts';
import { processIO } from './process-io.ts';
import { reportCommand } from './report.ts';
import { statusLineCommand } from './status-line.ts';
import { uninstallCommand } from './uninstall.ts';
import { renderCommandUsage, renderUsage } from './usage.ts';

/**
 * The shared CLI of every guard: hook | install | uninstall | explain | doctor | report | statusline | --help | --version,
 * plus the guard's own commands. Returns the exit code (0 ok, 1 any error or a failed doctor; `hook`
 * returns the hook's own 0 or 2) and never calls process.exit. `io` defaults to the real process.
 */
export async function runCli(guard: GuardDefinition, argv: string[], io?: CliIO): Promise<number> {
  const cli = io ?? processIO();
  const [command, ...rest] = argv;
  if (command !== undefined && isHelpAsked(rest)) {
    const text = renderCommandUsage(guard, command);
    if (text !== null) {
      say(cli, text);
      return 0;
    }
  }
  try {
    switch (command) {
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        say(cli, renderUsage(guard));
        return 0;
      case '--version':
      case '-v':
        say(cli, guard.version);
        return 0;
      case 'hook':
        return await hookCommand(guard, rest, io);
      case 'install':
        return await installCommand(guard, rest, cli);
      case 'uninstall':
        return await uninstallCommand(guard, rest, cli);
      case 'explain':
        return await explainCommand(guard, rest, cli);
      case 'doctor':
        return await doctorCommand(guard, rest, cli);
      case 'report':
        return await reportCommand(guard, rest, cli);
      case 'statusline':
        return await statusLineCommand(guard, rest, cli);
      default: {
        const own = Object.hasOwn(guard.commands ?? {}, command) ? guard.commands?.[command] : undefined;
        if (own) return await own.run(rest, cli);
        return fail(
          cli,
          `${guard.name}: unknown ${command.startsWith('-') ? 'option' : 'command'} ${command}; run \`${guard.name} --help\``,
        );
      }
    }
  } catch (error) {
    // A bug of ours or of a guard command: still one line and exit 1, never a stack on the user.
    return fail(cli, `${guard.name} ${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// `<command> --help` or `-h` before any `--` (after it, `explain -- --help` judges the text).
function isHelpAsked(rest: string[]): boolean {
  const end = rest.indexOf('--');
  return rest.slice(0, end === -1 ? undefined : end).some((arg) => arg === '--help' || arg === '-h');
}
