import { createRequire } from 'node:module';
import { parse } from './parse.ts';
import type { CommandLine, Nested, Runner } from './types.ts';

/** What the command line talks to; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: () => Promise<string>;
}

const usage = `Usage: kit-segments [--pretty] [--max-length N] [--] <command...>
       echo '<command>' | kit-segments [--pretty]

Prints a bash command line as JSON (the outcome of parse): its segments, and the command lines
they run (bash -c, eval, env -S, find -exec), each under "nested" with its own segments and its
runner as { "segment": <index in the line above>, "kind", "start", "end" }.

  --pretty          indent the JSON
  --max-length N    refuse commands longer than N characters (default 65536)
  --help            show this help
  --version         show the version

Exit status: 0 when the command parsed, 1 when it did not (the reason on stderr), 2 on a usage error.
`;

const processIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: readStdin,
};

/** Runs kit-segments with its arguments; resolves to the exit code and never calls process.exit. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  let pretty = false;
  let maxLength: number | undefined;
  const words: string[] = [];
  // Options come first; the first other word (or --) starts the command, which takes the rest.
  let i = 0;
  for (; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (arg === '--help' || arg === '-h') {
      io.stdout(usage);
      return 0;
    }
    if (arg === '--version') {
      io.stdout(`${readVersion()}\n`);
      return 0;
    }
    if (arg === '--pretty') {
      pretty = true;
    } else if (arg === '--max-length' || arg.startsWith('--max-length=')) {
      let raw = arg.slice(arg.indexOf('=') + 1);
      if (!arg.includes('=')) {
        i += 1;
        raw = argv[i] ?? 'nothing';
      }
      maxLength = Number(raw);
      if (!Number.isInteger(maxLength) || maxLength <= 0) {
        io.stderr(`kit-segments: --max-length needs a positive integer, got ${raw}\n`);
        return 2;
      }
    } else {
      io.stderr(`kit-segments: unknown option ${arg} (see --help)\n`);
      return 2;
    }
  }
  words.push(...argv.slice(i));
  const command = words.length > 0 ? words.join(' ') : await io.stdin();
  const outcome = parse(command, maxLength === undefined ? undefined : { maxLength });
  if (!outcome.ok) {
    io.stderr(`kit-segments: cannot parse (${outcome.reason}): ${outcome.message.replace(/\s+/g, ' ')}\n`);
    return 1;
  }
  const printed = { ok: true, value: lineAsJson(outcome.value) };
  io.stdout(`${JSON.stringify(printed, null, pretty ? 2 : undefined)}\n`);
  return 0;
}

/** A command line as plain JSON: a runner names its segment by index, so nothing points back up. */
function lineAsJson(line: CommandLine): object {
  return {
    source: line.source,
    segments: line.segments,
    runner: line.runner === null ? null : runnerAsJson(line.runner),
    nested: line.nested.map((nested: Nested) =>
      nested.ok
        ? { ok: true, line: lineAsJson(nested.line) }
        : { ok: false, runner: runnerAsJson(nested.runner), reason: nested.reason, message: nested.message },
    ),
  };
}

function runnerAsJson({ segment, kind, start, end }: Runner): object {
  return { segment: segment.index, kind, start, end };
}

function readVersion(): string {
  // ../package.json from both src/ and dist/: the published package always ships it.
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\n$/, '');
}
