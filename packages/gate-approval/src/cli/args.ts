import type { Outcome } from '@kit/fail-open';

/** A command's arguments after parsing: boolean flags, valued options, and the rest. */
export interface ParsedArgs {
  flags: Set<string>; // '--dry-run'
  options: Map<string, string>; // '--cwd' -> 'DIR'
  positionals: string[];
}

/** Which flags and valued options a command accepts. */
export interface ArgsSpec {
  flags: string[];
  options: string[];
}

/**
 * Parses argv by hand against a spec: `--flag`, `--option VALUE`, `--option=VALUE`, and `--` to end
 * options. An unknown or repeated option or a missing value is a `usage` outcome, not a throw.
 */
export function parseArgs(argv: string[], spec: ArgsSpec): Outcome<ParsedArgs, 'usage'> {
  const parsed: ParsedArgs = { flags: new Set(), options: new Map(), positionals: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--') {
      parsed.positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (spec.options.includes(name)) {
      const value = equals === -1 ? argv[++index] : arg.slice(equals + 1);
      if (value === undefined || value === '') return usage(`option ${name} needs a value`);
      if (parsed.options.has(name)) return usage(`option ${name} given twice`);
      parsed.options.set(name, value);
    } else if (spec.flags.includes(name) && equals === -1) {
      parsed.flags.add(name);
    } else {
      return usage(`unknown option ${arg}`);
    }
  }
  return { ok: true, value: parsed };
}

/** A command line that does not fit the command, with the message that says why. */
export function usage(message: string): { ok: false; reason: 'usage'; message: string } {
  return { ok: false, reason: 'usage', message };
}
