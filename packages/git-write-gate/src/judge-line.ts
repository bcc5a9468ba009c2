import {
  type CommandLine,
  configCommandOf,
  gitCommandVariables,
  gitMayRun,
  type Nested,
  nestedRunBy,
  parse,
  type Segment,
  unwrapLaunchers,
  walkSegments,
  type Word,
} from '@kit/shell-segments';
import { chdirWhere, type DirectoryWorld, launchedFrom, otherRoot } from './effective-directory.ts';
import type { AliasValue } from './git-aliases.ts';
import { hasEscapeAssignment } from './escape.ts';
import { type HeadWord, parseGitGlobals, type RepositoryVariables } from './git-global-options.ts';
import { type FlowLimits, ShellFlow } from './shell-flow.ts';
import {
  environmentConfigVariable,
  joinWhere,
  type Place,
  type ShellState,
  startState,
  type Where,
} from './shell-state.ts';
import { judgeHead } from './write-class.ts';
import type { HeadJudgement, WriteKind } from './write-kind.ts';

/** Why part of a line cannot be judged. */
export type UnknownCause =
  | 'nested' // a line a segment runs cannot be read (bash -c "$x", curl … | sh)
  | 'command-name' // the command name is an expansion, or an alias the line defined
  | 'expansion' // git or gh with an expansion where the verdict depends on it
  | 'directory'; // a write whose directory the line does not show

/** Something on the line the gate has to answer for. `where` is the directory git (or gh) runs in. */
export type Finding =
  | {
      kind: 'write';
      segment: string;
      write: WriteKind;
      where: Where;
      retargeted: boolean;
      escaped: boolean;
    }
  | {
      kind: 'unknown';
      cause: UnknownCause;
      segment: string;
      why: string;
      where: Where;
      escaped: boolean;
    };

/** What the walk found, and every directory the line may be in (the strict policy asks those). */
export interface LineFindings {
  findings: Finding[];
  known: readonly Place[];
}

/** How many command lines deep the gate reads (`eval "eval \"eval …\""`); deeper, the line is not judged. */
export const maxNesting = 8;

/** What the walk needs of the world: the directory probe and env, and the work-tree top of a directory. */
export interface WalkWorld extends DirectoryWorld {
  topOf: (directory: string) => string | null;
  limits: FlowLimits;
  aliasOf?: (name: string, directory: string) => AliasValue; // alias.<name> from the config files git reads in a directory
  aliasDepth?: number; // how many `!` aliases deep this line is
}

/** What the segments of one command line inherit from the segment that runs it. */
interface LineFrame {
  escaped: boolean; // the line is run by a segment carrying the escape
  assignNames: readonly string[]; // a find action's line: the names assigned in front of the find (GH_REPO=)
  subject: string | null; // a find action's line: the find, which a reason names (and a GIT_GATE=off prefix goes before)
  root: string | null; // run by chroot NEWROOT: the root it runs in, when not this machine's
}

/** What the walk carries from one segment to the next, across nested lines too. */
interface LineState {
  afterInit: boolean; // `git init` came earlier on the line
  configured: boolean; // GIT_CONFIG_PARAMETERS, GIT_CONFIG_GLOBAL… assigned earlier on the line
  configCommand: string | null; // why that config may run a command (core.pager in GIT_CONFIG_PARAMETERS)
  findings: Finding[];
  gitNames: ReadonlyMap<string, 'git' | 'gh'>; // names the line binds to git or gh (hash -p, a copy or link of the binary)
}

// Environment variables through which a line can hand git config the gate does not read (an alias
// among it); GIT_CONFIG_COUNT and its keys and values are read (environmentConfig).
const configVariables = /^(GIT_CONFIG_PARAMETERS|GIT_CONFIG|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM)$/;

/**
 * Every write and every "cannot judge" on a parsed command, at every depth: the segments of each
 * command line of the tree (subshells, groups, bodies, substitutions are segments of their line),
 * the lines given to `bash -c` / `eval` / `env -S`, every `find -exec` action and every script a
 * shell reads from its input included, in the order the shared walk meets them — each in the
 * directories the shell flow says it may run in. A segment no path reaches (after a `cd` that
 * fails, then `&&`) is not judged. Throws FlowLimitReached past the flow's limits.
 */
export function findWrites(top: CommandLine, cwd: Where, world: WalkWorld): LineFindings {
  world = withLineAliases(world, top);
  const flow = new ShellFlow(world, world.limits, cdOperandNames(top));
  flow.runLine(top, startState(cwd));
  const state: LineState = {
    afterInit: false,
    configured: false,
    configCommand: null,
    findings: [],
    gitNames: gitBoundNames(top),
  };
  const topFrame: LineFrame = { escaped: false, assignNames: [], subject: null, root: null };
  const frames = new Map<CommandLine, LineFrame>([[top, topFrame]]);
  for (const { segment, line } of walkSegments(top)) {
    const frame = frames.get(line) ?? topFrame;
    const unwrapped = unwrapLaunchers(segment.argv);
    // chroot NEWROOT: what runs there (git's binary, config and repository) is another root's.
    const root = otherRoot(unwrapped) ?? frame.root;
    const escaped =
      frame.escaped || hasEscapeAssignment(segment.assigns) || hasEscapeAssignment(unwrapped.assigns);
    const subject = frame.subject ?? segment.text;
    const assignNames = [
      ...frame.assignNames,
      ...segment.assigns.map((assign) => assign.name),
      ...unwrapped.assigns.map((assign) => assign.name),
    ];
    if (assignsConfig(segment, unwrapped.head)) state.configured = true;
    state.configCommand ??= configCommandWhy(segment, unwrapped);
    for (const nested of nestedRunBy(line, segment)) {
      if (!nested.ok) continue;
      const findAction = nested.line.runner?.kind === 'find-exec';
      frames.set(nested.line, {
        escaped,
        // A find's assignments stand in front of each action's command, as they stood in front of
        // find's own head (GH_REPO=x find … -exec gh pr merge); a string's line starts with none.
        assignNames: findAction ? assignNames : [],
        subject: findAction ? subject : null,
        root,
      });
    }
    const reached = flow.reach.get(segment);
    if (reached === undefined) continue; // no path of the line runs it
    const launchedIn = launchedFrom(reached.pwd, unwrapped, world);
    const unknown = (cause: UnknownCause, why: string, where: Where) => {
      state.findings.push({ kind: 'unknown', cause, segment: subject, why, where, escaped });
    };
    for (const nested of nestedRunBy(line, segment))
      if (!nested.ok && nested.runner.kind !== 'remote-command')
        unknown('nested', whyUnread(nested), launchedIn);
    const judging: Judged = { segment: subject, escaped, state, unknown, root };
    judgeWords(segment, line, unwrapped, reached, launchedIn, assignNames, judging, world);
  }
  return { findings: state.findings, known: flow.known };
}

// `$(which git)`, `$(command -v git)`, `` `type -P git` ``: the git binary's path, as a copy's source.
const gitPathSubstitution =
  /^"?(?:\$\(|`)\s*(?:which|command\s+-v|type\s+-P|whereis\s+-b)\s+(git|gh)\s*(?:\)|`)"?$/;

/**
 * The names the line binds to git or gh (spec step 8): `hash -p /usr/bin/git g`, and a `cp`,
 * `ln` or `install` of the binary (`cp /usr/bin/git ./g`, `ln -s "$(which git)" g`) — the last
 * operand's name runs git. Read for the whole line, wherever the binding stands.
 */
function gitBoundNames(top: CommandLine): Map<string, 'git' | 'gh'> {
  const names = new Map<string, 'git' | 'gh'>();
  for (const { segment } of walkSegments(top)) {
    const [head, ...args] = unwrapLaunchers(segment.argv).head;
    const command = head?.value === null || head?.value === undefined ? null : programName(head.value);
    if (command === 'hash') {
      const at = args.findIndex((word) => word.value === '-p');
      const program = at < 0 ? undefined : gitProgram(args[at + 1]);
      if (program !== undefined)
        for (const word of args.slice(at + 2)) if (word.value) names.set(word.value, program);
    } else if (command === 'cp' || command === 'ln' || command === 'install') {
      const operands = args.filter((word) => !(word.value ?? '').startsWith('-'));
      const target = operands.at(-1)?.value;
      const program = operands
        .slice(0, -1)
        .map(gitProgram)
        .find((each) => each !== undefined);
      if (program !== undefined && target) names.set(programName(target), program);
    }
  }
  return names;
}

function gitProgram(word: Word | undefined): 'git' | 'gh' | undefined {
  if (word === undefined) return undefined;
  const name = word.value === null ? gitPathSubstitution.exec(word.text)?.[1] : programName(word.value);
  return name === 'git' || name === 'gh' ? name : undefined;
}

function programName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Aliases the line writes into git's config (`git config alias.ci commit`, `git config set
 * alias.ci commit`, with `--global`, `--local`, `--file f`…) stand before the config files for
 * the git commands of the line, wherever the write stands.
 */
function withLineAliases(world: WalkWorld, top: CommandLine): WalkWorld {
  const aliases = new Map<string, AliasValue>();
  for (const { segment } of walkSegments(top)) {
    const words = unwrapLaunchers(segment.argv).head.map((word) => (word.dynamic ? null : word.value));
    if (words[0] === undefined || words[0] === null || programName(words[0]) !== 'git') continue;
    const globals = parseGitGlobals(words.slice(1));
    if (globals.kind !== 'subcommand' || globals.subcommand !== 'config') continue;
    const operands: HeadWord[] = [];
    for (let at = 0; at < globals.args.length; at += 1) {
      const word = globals.args[at] ?? null;
      if (word !== null && /^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(word)) at += 1;
      else if (word === null || !word.startsWith('-')) operands.push(word);
    }
    if (operands[0] === 'set') operands.shift();
    const [key, value] = operands;
    if (key === undefined || key === null || !key.toLowerCase().startsWith('alias.') || value === undefined)
      continue;
    aliases.set(key.slice(6).toLowerCase(), value);
  }
  if (aliases.size === 0) return world;
  const { aliasOf } = world;
  return {
    ...world,
    aliasOf: (name, directory) =>
      aliases.has(name.toLowerCase()) ? aliases.get(name.toLowerCase()) : aliasOf?.(name, directory),
  };
}

/** The names `cd NAME` spells anywhere on the line: under `shopt -s cdable_vars` it goes to `$NAME`. */
function cdOperandNames(top: CommandLine): Set<string> {
  const names = new Set<string>();
  for (const { segment } of walkSegments(top)) {
    const [head, ...args] = unwrapLaunchers(segment.argv).head;
    if (head?.value !== 'cd' && head?.value !== 'pushd') continue;
    for (const arg of args) if (arg.value !== null && /^[A-Za-z_]\w*$/.test(arg.value)) names.add(arg.value);
  }
  return names;
}

function whyUnread(nested: Nested & { ok: false }): string {
  if (nested.reason === 'too-deep') return `commands nested deeper than ${maxNesting} levels`;
  if (nested.reason === 'too-many' || nested.reason === 'too-long')
    return `${nested.message}, more than the gate reads`;
  const what = nested.runner.kind === 'shell-input' || nested.runner.kind === 'sourced' ? 'script' : 'string';
  return `the ${what} it runs cannot be read (${nested.reason}: ${nested.message})`;
}

/** True when the segment assigns or exports a variable that hands git config (GIT_CONFIG_COUNT=1, export GIT_CONFIG_PARAMETERS=…). */
function assignsConfig(segment: Segment, head: readonly Word[]): boolean {
  if (segment.assigns.some((assign) => configVariables.test(assign.name))) return true;
  const command = head[0]?.value;
  if (command !== 'export' && command !== 'declare' && command !== 'typeset' && command !== 'readonly')
    return false;
  return head
    .slice(1)
    .some((word) => configVariables.test(/^([A-Za-z_][A-Za-z0-9_]*)/.exec(word.text)?.[1] ?? ''));
}

// Config keys whose value git runs as a command, or that make it run programs of the caller's choosing.
const commandKey =
  /^(core\.(editor|pager|fsmonitor|sshcommand|hookspath|askpass)|sequence\.editor|diff\.external|credential\..*helper|gpg\.(\w+\.)?program|(diff|merge|filter)\..+\.(command|driver|textconv|clean|smudge|process)|pager\..+|interactive\.difffilter|uploadpack\.packobjectshook)$/i;

/**
 * Why config the segment hands git through GIT_CONFIG_PARAMETERS may run a command (core.pager…),
 * or why that cannot be told (an expansion); null when it runs none.
 */
function configCommandWhy(segment: Segment, unwrapped: ReturnType<typeof unwrapLaunchers>): string | null {
  const pairs: { name: string; value: string | null }[] = [
    ...segment.assigns.map((assign) => ({
      name: assign.name,
      value: assign.indexed || assign.append ? null : assign.value,
    })),
    ...unwrapped.assigns.map(({ name, value }) => ({ name, value: /[$`\\]/.test(value) ? null : value })),
  ];
  const command = unwrapped.head[0]?.value;
  if (command === 'export' || command === 'declare' || command === 'typeset' || command === 'readonly')
    for (const word of unwrapped.head.slice(1)) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word.value ?? word.text);
      if (match !== null)
        pairs.push({ name: match[1] as string, value: word.value?.slice(match[0].length) ?? null });
    }
  for (const { name, value } of pairs) {
    const keys =
      name !== 'GIT_CONFIG_PARAMETERS'
        ? []
        : value === null
          ? [null]
          : [...value.matchAll(/'([^'=]*)'?=?/g)].map((found) => found[1] as string);
    for (const key of keys) {
      if (key === null) return `${name} hands git config only known at run time, which may run a command`;
      if (commandKey.test(key)) return `${name} hands git ${key}, whose value git runs as a command`;
    }
  }
  return null;
}

interface Judged {
  segment: string;
  escaped: boolean;
  state: LineState;
  unknown: (cause: UnknownCause, why: string, where: Where) => void;
  root: string | null; // chroot NEWROOT the segment runs under, when not this machine's root
}

/**
 * The values judgeHead reads. Arguments supplied at run time are unknown: in a find action's line
 * `{}` is a found path, xargs appends its input lines and puts them where its -I string stands.
 */
function headValues(
  words: readonly Word[],
  unwrapped: ReturnType<typeof unwrapLaunchers>,
  segment: Segment,
  line: CommandLine,
): HeadWord[] {
  const found = line.runner?.kind === 'find-exec';
  const replaced = unwrapped.launchers.includes('xargs') ? xargsReplaceString(segment, words) : null;
  const values: HeadWord[] = words.map((word) => {
    if (found && word.value === '{}') return null;
    if (replaced !== null && word.value?.includes(replaced)) return null;
    // Only a glob may stand in an operand as its value; brace and tilde expansions are unknown.
    if (word.dynamic && (word.value === null || /[{}~]/.test(word.text))) return null;
    return word.value;
  });
  if (unwrapped.launchers.includes('xargs') && values.length > 0 && replaced === null) values.push(null);
  return splitValuedOptions(words, joinCarriageReturns(words, values, line.source));
}

// git's global options that take a value after `=` as well as in the next word.
const valuedGlobal = /^["']?(--(?:git-dir|work-tree|namespace|config-env|attr-source|super-prefix))=/;

/**
 * `git --git-dir=$HOME/.cfg status`: the option is known though its value is an expansion. Such a
 * word becomes the option and an unknown value, as git reads `--git-dir <value>`, so the
 * subcommand after it is still judged (step 3: strict refuses only what it cannot judge).
 */
function splitValuedOptions(words: readonly Word[], values: HeadWord[]): HeadWord[] {
  if (values.length !== words.length || !/^git(\.exe)?$/i.test(baseName(values[0] ?? ''))) return values;
  const split: HeadWord[] = [];
  values.forEach((value, index) => {
    const option = value === null ? valuedGlobal.exec(words[index]?.text ?? '')?.[1] : undefined;
    if (option === undefined) split.push(value);
    else split.push(option, null);
  });
  return split;
}

function baseName(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}

/**
 * The parser splits words at a carriage return; bash does not (`git\rcommit` is one word, a
 * command bash cannot find). Words the source separates by carriage returns alone are one value.
 */
function joinCarriageReturns(words: readonly Word[], values: HeadWord[], source: string): HeadWord[] {
  const joined: HeadWord[] = [];
  values.forEach((value, index) => {
    const previous = words[index - 1];
    const between = previous === undefined ? '' : source.slice(previous.end, words[index]?.start);
    if (joined.length === 0 || between === '' || /[^\r]/.test(between)) joined.push(value);
    else {
      const last = joined.pop() ?? null;
      joined.push(last === null || value === null ? null : `${last}${between}${value}`);
    }
  });
  return joined;
}

/** xargs -I STR / -ISTR / -i[STR] / --replace[=STR]: the string its input replaces; null when none. */
function xargsReplaceString(segment: Segment, head: readonly Word[]): string | null {
  const start = segment.argv.findIndex((word) => word.value?.split('/').pop() === 'xargs');
  const stop = head[0] === undefined ? segment.argv.length : segment.argv.indexOf(head[0]);
  const options = segment.argv.slice(start + 1, stop === -1 ? segment.argv.length : stop);
  let replace: string | null = null;
  options.forEach((word, at) => {
    const value = word.value ?? '';
    if (value === '-I') replace = options[at + 1]?.value ?? '{}';
    else if (value.startsWith('-I')) replace = value.slice(2);
    else if (value === '-i' || value === '--replace') replace = '{}';
    else if (value.startsWith('-i')) replace = value.slice(2);
    else if (value.startsWith('--replace=')) replace = value.slice('--replace='.length);
  });
  return replace;
}

function judgeWords(
  segment: Segment,
  line: CommandLine,
  unwrapped: ReturnType<typeof unwrapLaunchers>,
  reached: ShellState,
  launchedIn: Where,
  assignNames: string[],
  judging: Judged,
  world: WalkWorld,
): void {
  const words = unwrapped.head;
  const first = words[0];
  if (first === undefined) return;
  const { state, unknown } = judging;
  if (isUnknownProgram(first)) {
    unknown(
      'command-name',
      `the command name ${first.text} is an expansion, which may be git or gh`,
      launchedIn,
    );
    return;
  }
  if (unwrapped.launchers.length === 0 && first.value !== null && reached.aliases.has(first.value)) {
    unknown('command-name', `${first.value} is an alias defined on the line, which may run git`, launchedIn);
    return;
  }
  const values = headValues(words, unwrapped, segment, line);
  // A name the line binds to git (hash -p, a copy of the binary) runs git.
  const bound = values[0] ? state.gitNames.get(programName(values[0])) : undefined;
  if (bound !== undefined) values[0] = bound;
  const isGit = values[0] ? /^git(\.exe)?$/i.test(programName(values[0])) : false;
  const config = isGit ? environmentConfig(segment, unwrapped, reached) : null;
  // Config assigned or exported earlier on the line reaches this git too; GIT_CONFIG_COUNT's pairs
  // are git's `-c` options, read before the line's own (a later one wins).
  const names = assignNames.filter((name) => !environmentConfigVariable.test(name));
  if (state.configured || config === 'unknown') names.push('GIT_CONFIG_PARAMETERS');
  const pairs = config === null || config === 'unknown' ? [] : config;
  const configWords = pairs.flatMap(({ key, value }) => [
    '-c',
    key === null || value === null ? null : `${key}=${value}`,
  ]);
  const judged = judgeEverywhere(
    [values[0] ?? null, ...configWords, ...values.slice(1)],
    names,
    repositoryVariables(segment, unwrapped, reached),
    launchedIn,
    world,
  );
  const { root } = judging;
  if (root !== null && (judged.write !== null || judged.unknown !== null)) {
    const why = `git runs inside another root (chroot ${root}), which the gate does not follow`;
    unknown('directory', why, launchedIn);
    return;
  }
  if (judged.init) state.afterInit = true;
  for (const shell of judged.aliasShells) judgeAliasShell(shell, judging, world);
  if (isGit) {
    const subcommand = subcommandOf(values);
    const at = { judging, world, where: launchedIn };
    judgeExportedCommands(segment, unwrapped, reached, subcommand, at);
    judgeEnvironmentConfig(pairs, subcommand, at);
    if (state.configCommand !== null) unknown('nested', state.configCommand, launchedIn);
  }
  // After `git init` the later git segments work in a fresh repository; gh acts on a remote.
  if (judged.write !== null && (!state.afterInit || judged.write.write === 'pr-merge')) {
    state.findings.push({
      kind: 'write',
      segment: judging.segment,
      write: judged.write.write,
      where: judged.write.where,
      retargeted: judged.write.retargeted,
      escaped: judging.escaped,
    });
  }
  if (judged.unknown !== null && !state.afterInit)
    unknown('expansion', judged.unknown.why, judged.unknown.where);
}

/**
 * A config file's `!cmd` alias: a command line git hands to a shell, judged as a line of its own
 * in the repository it runs in (git runs it at the top of the work tree, the same repository).
 * An alias that runs an alias is followed `maxNesting` deep.
 */
function judgeAliasShell(
  shell: { text: string; where: Where; what?: string },
  judging: Judged,
  world: WalkWorld,
): void {
  const depth = world.aliasDepth ?? 0;
  const parsed = depth >= maxNesting ? null : parse(shell.text, { maxNesting, maxLength: 65_536 });
  if (parsed === null || !parsed.ok) {
    const why = parsed === null ? `aliases nested deeper than ${maxNesting}` : parsed.message;
    const what = shell.what ?? "the alias's command";
    judging.unknown('nested', `${what} \`${shell.text}\` cannot be read (${why})`, shell.where);
    return;
  }
  const inner = findWrites(parsed.value, shell.where, { ...world, aliasDepth: depth + 1 });
  for (const finding of inner.findings)
    judging.state.findings.push({
      ...finding,
      segment: judging.segment,
      escaped: judging.escaped || finding.escaped,
    });
}

/** Where a command line git runs is judged: the segment's judging, the world, the directory git starts in. */
interface Nesting {
  judging: Judged;
  world: WalkWorld;
  where: Where;
}

/** git's subcommand in a head's values (after its global options); null where it is not known. */
function subcommandOf(values: readonly HeadWord[]): string | null {
  const globals = parseGitGlobals(values.slice(1));
  return globals.kind === 'subcommand' ? globals.subcommand : null;
}

/** One GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n pair; null where it is an expansion. */
interface ConfigPair {
  key: string | null;
  value: string | null;
}

/**
 * The config GIT_CONFIG_COUNT hands git (assigned in front of it, or exported earlier on the
 * line): its pairs in order; 'unknown' when the count is not known or a pair
 * git needs is missing; null when no count is set.
 */
function environmentConfig(
  segment: Segment,
  unwrapped: ReturnType<typeof unwrapLaunchers>,
  reached: ShellState,
): ConfigPair[] | 'unknown' | null {
  const assigned = new Map<string, string | null>();
  for (const assign of segment.assigns)
    assigned.set(assign.name, assign.indexed || assign.append ? null : assign.value);
  for (const { name, value } of unwrapped.assigns) assigned.set(name, /[$`\\]/.test(value) ? null : value);
  const lineValue = (name: string): string | null | undefined =>
    assigned.has(name) ? assigned.get(name) : reached.vars.get(name);
  const count = lineValue('GIT_CONFIG_COUNT');
  if (count === undefined) return null;
  if (count === null || !/^\d+$/.test(count)) return 'unknown';
  const pairs: ConfigPair[] = [];
  // git stops at a missing key or value; the loop ends at the first one the line does not set.
  for (let at = 0; at < Number(count); at += 1) {
    const key = lineValue(`GIT_CONFIG_KEY_${at}`);
    const value = lineValue(`GIT_CONFIG_VALUE_${at}`);
    if (key === undefined || value === undefined) return 'unknown';
    pairs.push({ key, value });
  }
  return pairs;
}

/**
 * The command lines GIT_CONFIG_COUNT's pairs hand git, judged as `-c key=value` is: a literal
 * value as a nested line (core.editor, diff.external, an alias's `!` command), an expansion as
 * "cannot judge".
 */
function judgeEnvironmentConfig(pairs: readonly ConfigPair[], subcommand: string | null, at: Nesting): void {
  pairs.forEach(({ key, value }, index) => {
    const command =
      key === null
        ? { unknown: `GIT_CONFIG_KEY_${index} is only known at run time` }
        : configCommandOf(key, value, subcommand);
    if (command === null) return;
    if ('unknown' in command) {
      const what = key === null ? command.unknown : `${key} in GIT_CONFIG_KEY_${index} ${command.unknown}`;
      at.judging.unknown('nested', what, at.where);
    } else
      judgeAliasShell(
        { text: command.text, where: at.where, what: `the ${key} command of GIT_CONFIG_VALUE_${index}` },
        at.judging,
        at.world,
      );
  });
}

/**
 * The command lines git runs from variables exported earlier on the line (`export GIT_EDITOR=…`,
 * `declare -x`, `set -a` then an assignment): a literal value is judged as a nested line, in the
 * directory git starts in; a value only known at run time is "cannot judge". A variable assigned
 * in front of git stands instead (shell-segments reads that one as the segment's nested line).
 */
function judgeExportedCommands(
  segment: Segment,
  unwrapped: ReturnType<typeof unwrapLaunchers>,
  reached: ShellState,
  subcommand: string | null,
  at: Nesting,
): void {
  const prefixed = new Set([...segment.assigns, ...unwrapped.assigns].map((assign) => assign.name));
  for (const name of gitCommandVariables) {
    const value = reached.vars.get(name);
    // Only what this subcommand can run matters (`git status` never starts an editor).
    if (value === undefined || prefixed.has(name) || !gitMayRun(subcommand, name)) continue;
    if (value === null) {
      const why = `${name}, exported earlier on the line, is a command only known at run time`;
      at.judging.unknown('nested', why, at.where);
    } else
      judgeAliasShell({ text: value, where: at.where, what: `the ${name} command` }, at.judging, at.world);
  }
}

/**
 * True when the program a command name runs is not known from its text: an expansion (`$g`,
 * `"$@"`, `$(…)`), a glob that may match a file named git (`g?t`), a brace expansion. A leading
 * `~` only moves the folder: the program is still its last name (`~/bin/deploy`), and so does a
 * glob in the folders alone (`/usr/b?n/git` runs a git, or nothing when it matches no file).
 */
function isUnknownProgram(word: Word): boolean {
  if (word.value === null) return true;
  if (!word.dynamic) return false;
  const name = word.value.slice(word.value.lastIndexOf('/') + 1);
  if (/[{}]/.test(word.value)) return /\{.*[,.].*\}/.test(word.value);
  return /[*?]|\[.*\]/.test(name);
}

/**
 * GIT_DIR and GIT_WORK_TREE in the command's environment: exported earlier on the line, then
 * assigned in front of it (`GIT_DIR=/x/.git git commit`, `env GIT_WORK_TREE=/x git …`), the last of
 * each; null where its value is an expansion or appends.
 */
function repositoryVariables(
  segment: Segment,
  unwrapped: ReturnType<typeof unwrapLaunchers>,
  reached: ShellState,
): RepositoryVariables {
  const variables: RepositoryVariables = {};
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE'] as const) {
    const value = reached.vars.get(name);
    if (value !== undefined) variables[name] = value;
  }
  const assigns = [
    ...segment.assigns.map((assign) => ({
      name: assign.name,
      value: assign.indexed || assign.append ? null : assign.value,
    })),
    // A launcher's NAME=value is its word's text where it holds an expansion: not a value then.
    ...unwrapped.assigns.map(({ name, value }) => ({ name, value: /[$`\\~*?[]/.test(value) ? null : value })),
  ];
  for (const { name, value } of assigns)
    if (name === 'GIT_DIR' || name === 'GIT_WORK_TREE') variables[name] = value;
  return variables;
}

/** An alias as the config files of every place say it: one value where they agree, null where they do not or cannot tell. */
function aliasEverywhere(name: string, where: Where, world: WalkWorld): AliasValue {
  if (world.aliasOf === undefined) return undefined;
  const values = new Set<AliasValue>(where.places.map((place) => world.aliasOf?.(name, place.physical)));
  if (where.unknown !== null) values.add(world.aliasOf(name, '/'));
  return values.size === 1 ? [...values][0] : null;
}

/** A head judged from every place it may run in: where it writes, and where it cannot be judged. */
interface Everywhere {
  write: { write: WriteKind; where: Where; retargeted: boolean } | null;
  unknown: { why: string; where: Where } | null;
  init: boolean;
  aliasShells: { text: string; where: Where }[]; // a config file's `!cmd` alias, with where git runs it
}

/**
 * judgeHead from each place the command may start in (its pathspecs resolve there, and its `-C`
 * options move from there), and once by spelling alone for the places the line does not show.
 */
function judgeEverywhere(
  values: HeadWord[],
  assignNames: string[],
  variables: RepositoryVariables,
  from: Where,
  world: WalkWorld,
): Everywhere {
  const result: Everywhere = { write: null, unknown: null, init: false, aliasShells: [] };
  const starts: (Place | null)[] = [...from.places, ...(from.unknown === null ? [] : [null])];
  for (const start of starts) {
    let gitWhere: Where =
      start === null ? { places: [], unknown: from.unknown } : { places: [start], unknown: null };
    let moved = false;
    const move = (directories: readonly HeadWord[]) => {
      if (moved) return;
      moved = true;
      for (const directory of directories) gitWhere = chdirWhere(gitWhere, directory, world);
    };
    const judged: HeadJudgement = judgeHead(values, assignNames, {
      variables,
      pathspecBase: (directories) => {
        move(directories);
        const [only] = gitWhere.places;
        return only !== undefined && gitWhere.places.length === 1 && gitWhere.unknown === null
          ? { directory: only.physical, top: world.topOf(only.physical) }
          : null;
      },
      alias: (name, directories) => {
        move(directories);
        return aliasEverywhere(name, gitWhere, world);
      },
    });
    if (judged.kind !== 'pass' && judged.kind !== 'git-init') move(judged.directories);
    if (judged.kind === 'alias-shell') result.aliasShells.push({ text: judged.text, where: gitWhere });
    if (judged.kind === 'git-init') result.init = true;
    if (judged.kind === 'write') {
      const where = result.write === null ? gitWhere : joinWhere(result.write.where, gitWhere);
      result.write = {
        write: judged.write,
        where,
        retargeted: judged.retargeted || (result.write?.retargeted ?? false),
      };
    }
    if (judged.kind === 'unknown') {
      const where = result.unknown === null ? gitWhere : joinWhere(result.unknown.where, gitWhere);
      result.unknown = { why: judged.why, where };
    }
  }
  return result;
}
