import { type BashToolInput, bashInput, deny, type HookInput, none, type Verdict } from '@kit/gate-approval';
import {
  type CommandLine,
  hasStructure,
  leafOf,
  listOfFrame,
  parse,
  type Segment,
  substitutionOwner,
  unwrapLaunchers,
  walkSegments,
} from '@kit/shell-segments';
import { guardName, reasonFor } from './reasons.ts';

/** Programs that run a script read from their standard input when given no script operand. */
const interpreters = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'python',
  'python3',
  'perl',
  'ruby',
  'node',
]);

/** How a download reached a program that runs it. */
export type Route = 'pipe' | 'process-substitution' | 'command-substitution';

/** A download whose bytes are run unread: the download segment, and the one that runs them. */
export interface Hit {
  route: Route;
  download: Segment; // curl -fsSL https://example.com/install.sh
  runner: Segment; // sh
}

/**
 * Denies a Bash call that runs a script straight from the network, unread: a download (`curl`, or
 * `wget` writing to stdout) piped into a shell or interpreter reading its script from stdin
 * (`curl … | sh`, `wget -qO- … | sudo bash -s -- --yes`), or handed to one through a process
 * substitution (`bash <(curl …)`) or a command substitution (`sh -c "$(curl …)"`, `eval "$(curl …)"`).
 * Pure: it reads only the payload. Anything else, a command it cannot parse included, is no opinion.
 */
export function evaluate(input: HookInput): Verdict {
  const bash = bashInput(input);
  if (bash === null) return none();
  return judge(bash);
}

function judge(bash: BashToolInput): Verdict {
  // Every route needs a `|` or a `(`: without one, nothing to parse (and mvdan-sh never loads).
  if (!hasStructure(bash.command)) return none();
  const parsed = parse(bash.command);
  if (!parsed.ok) return none();
  const hit = findHit(parsed.value);
  return hit === null ? none() : deny(guardName, reasonFor(hit), hit.route);
}

/** The first download in the command (at any nesting) whose bytes a shell or interpreter runs. */
export function findHit(top: CommandLine): Hit | null {
  for (const { segment, line } of walkSegments(top)) {
    if (!isDownloadToStdout(segment)) continue;
    const frame = segment.context.at(-1);
    if (frame?.kind === 'process-substitution' || frame?.kind === 'command-substitution') {
      const list = listOfFrame(line, frame);
      const owner = list === undefined ? undefined : substitutionOwner(list)?.segment;
      if (owner === undefined) continue;
      if (frame.kind === 'process-substitution' && runsItsOperand(owner))
        return { route: 'process-substitution', download: segment, runner: owner };
      if (frame.kind === 'command-substitution' && runsAString(owner))
        return { route: 'command-substitution', download: segment, runner: owner };
      continue;
    }
    const stage = leafOf(line, segment);
    if (stage?.parent.kind !== 'pipeline') continue;
    const stages = stage.parent.stages;
    const runner = stages
      .slice(stages.indexOf(stage) + 1)
      .flatMap((later) => (later.kind === 'simple' ? [later.segment] : []))
      .find(readsStdinScript);
    if (runner !== undefined) return { route: 'pipe', download: segment, runner };
  }
  return null;
}

// The program's name and its words after launchers (sudo, env, …), static values only.
function headOf(segment: Segment): { name: string; args: (string | null)[] } | null {
  const [first, ...rest] = unwrapLaunchers(segment.argv).head;
  if (first?.value == null) return null;
  return { name: first.value.split('/').pop() ?? first.value, args: rest.map((word) => word.value) };
}

function isDownloadToStdout(segment: Segment): boolean {
  const head = headOf(segment);
  if (head?.name === 'curl') return curlWritesToStdout(head.args);
  if (head?.name === 'wget') return wgetWritesToStdout(head.args);
  return false;
}

// curl writes to stdout unless -o FILE, -O, --output FILE or --remote-name says otherwise (- is stdout).
function curlWritesToStdout(args: (string | null)[]): boolean {
  for (const [index, arg] of args.entries()) {
    if (arg === null) continue;
    if (arg === '--remote-name' || arg === '--remote-name-all') return false;
    if (arg === '--output' && args[index + 1] !== '-') return false;
    if (arg.startsWith('--output=') && arg !== '--output=-') return false;
    const cluster = /^-([a-zA-Z]+)(.*)$/.exec(arg);
    if (cluster === null || arg.startsWith('--')) continue;
    const letters = cluster[1] as string;
    if (letters.includes('O')) return false;
    const o = letters.indexOf('o');
    if (o === -1) continue;
    // After -o, the rest of the word is the file, or the next word is.
    const file = o < letters.length - 1 || cluster[2] !== '' ? arg.slice(o + 2) : args[index + 1];
    if (file !== '-') return false;
  }
  return true;
}

// wget writes to a file unless -O names stdout: -O- -O - -qO- --output-document=- -O /dev/stdout.
function wgetWritesToStdout(args: (string | null)[]): boolean {
  const isStdout = (file: string | null | undefined) => file === '-' || file === '/dev/stdout';
  return args.some((arg, index) => {
    if (arg === null) return false;
    if (arg === '--output-document') return isStdout(args[index + 1]);
    if (arg.startsWith('--output-document=')) return isStdout(arg.slice('--output-document='.length));
    const cluster = /^-[a-zA-Z]*O(.*)$/.exec(arg);
    if (cluster === null || arg.startsWith('--')) return false;
    return cluster[1] === '' ? isStdout(args[index + 1]) : isStdout(cluster[1]);
  });
}

/** The flags that make a program run a string or a module instead of a script read from stdin. */
const codeFlags: Record<string, string[]> = {
  python: ['-c', '-m'],
  python3: ['-c', '-m'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  node: ['-e', '--eval', '-p', '--print'],
};

// sh, bash -s -- --yes, python3 -: the program reads its script from stdin.
function readsStdinScript(segment: Segment): boolean {
  const head = headOf(segment);
  if (head === null || !interpreters.has(head.name)) return false;
  const code = codeFlags[head.name] ?? [];
  for (const [index, arg] of head.args.entries()) {
    if (arg === null) return false; // a dynamic word: cannot tell
    if (arg === '-') return true;
    if (arg === '--') return head.args[index + 1] === undefined;
    if (code.includes(arg)) return false;
    if (/^-[a-zA-Z]+$/.test(arg)) {
      if (code.length === 0 && arg.includes('c')) return false; // a shell's -c: it runs the string
      if (code.length === 0 && arg.includes('s')) return true; // -s: the script is stdin, the rest its arguments
      continue;
    }
    if (!arg.startsWith('-') && !arg.startsWith('+')) return false; // a script file: stdin is data
  }
  return true;
}

// bash <(curl …), source <(curl …), . <(curl …): the substitution is the script it runs.
function runsItsOperand(segment: Segment): boolean {
  const head = headOf(segment);
  return head !== null && (interpreters.has(head.name) || head.name === 'source' || head.name === '.');
}

// sh -c "$(curl …)", eval "$(curl …)": the substitution becomes the command it runs.
function runsAString(segment: Segment): boolean {
  const head = headOf(segment);
  if (head === null) return false;
  if (head.name === 'eval') return true;
  const code = codeFlags[head.name] ?? [];
  return (
    interpreters.has(head.name) &&
    head.args.some(
      (arg) => arg !== null && (code.length === 0 ? /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg) : code.includes(arg)),
    )
  );
}
