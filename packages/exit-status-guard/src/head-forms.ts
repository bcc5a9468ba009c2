/**
 * The forms of a head the registry is matched against, beside the head as written: the tool by its
 * name (`.venv/bin/pytest` is `pytest`, `/c/tools/pnpm.exe` is `pnpm`), and the tool a package
 * runner starts, judged as if run directly (`uvx ruff check` is `ruff check`, `pnpm exec tsc` is
 * `tsc`, `python -m pytest` is `pytest`). Every form is made of the head's own words, cut at a `/`,
 * an `.exe`/`.cmd` or a package's `@version`: the pre-check's literals rely on that.
 */

/** How one package runner reads its own words before the tool it runs. */
interface RunnerSpec {
  before?: readonly string[]; // options that take a value and may stand before the subcommand (pnpm --filter x exec)
  values?: readonly string[]; // options that take a value (npx -p pkg, uvx --from x)
  stops?: readonly string[]; // options after which what runs is a string or no tool (npx -c, python -c)
  module?: string; // the option naming the tool (python -m pytest)
  script?: boolean; // a first operand is a script it runs, not a tool (python manage.py test)
  separator?: boolean; // the tool follows a `--` (mise exec node@20 -- npm test)
  assignments?: boolean; // NAME=value words before the tool (cross-env)
}

const npmExec: RunnerSpec = {
  before: ['--prefix', '-w', '--workspace', '--userconfig'],
  values: ['-p', '--package', '-w', '--workspace', '--prefix', '--userconfig', '--cache', '--registry'],
  stops: ['-c', '--call'],
};
const pnpmBefore = ['--filter', '-F', '--dir', '-C', '--reporter', '--loglevel', '--workspace-concurrency'];
const pnpmRun: RunnerSpec = {
  before: pnpmBefore,
  values: ['-p', '--package', '--reporter', '--filter', '-F', '--dir', '-C'],
  stops: ['-c', '--shell-mode'],
};
const uvValues = [
  '--from',
  '--with',
  '--with-editable',
  '--with-requirements',
  '--python',
  '-p',
  '--package',
  '--extra',
  '--group',
  '--only-group',
  '--no-group',
  '--index',
  '--default-index',
  '--index-url',
  '--extra-index-url',
  '--find-links',
  '-f',
  '--env-file',
  '--directory',
  '--project',
  '--config-file',
  '--cache-dir',
  '--constraints',
  '--overrides',
];
const uvRun: RunnerSpec = {
  before: ['--directory', '--project', '--config-file', '--cache-dir'],
  values: uvValues,
  module: '-m',
};
const python: RunnerSpec = { values: ['-W', '-X'], stops: ['-c'], module: '-m', script: true };
const envRun: RunnerSpec = { before: ['-C', '--directory', '-P', '--project', '-e', '--env'] };
const condaRun: RunnerSpec = { values: ['-n', '--name', '-p', '--prefix', '--cwd'] };

/** Package runners: the tool's name, then the subcommand words that make it run a tool (none: the name alone). */
const runners: readonly { tool: string; words: readonly string[]; spec: RunnerSpec }[] = [
  { tool: 'npx', words: [], spec: npmExec },
  { tool: 'npm', words: ['exec'], spec: npmExec },
  { tool: 'npm', words: ['x'], spec: npmExec },
  { tool: 'pnpx', words: [], spec: pnpmRun },
  { tool: 'pnpm', words: ['exec'], spec: pnpmRun },
  { tool: 'pnpm', words: ['dlx'], spec: pnpmRun },
  { tool: 'yarn', words: ['dlx'], spec: { before: ['--cwd'], values: ['-p', '--package'] } },
  { tool: 'yarn', words: ['exec'], spec: { before: ['--cwd'] } },
  { tool: 'bunx', words: [], spec: { values: ['-p', '--package'] } },
  { tool: 'bun', words: ['x'], spec: { before: ['--cwd'], values: ['-p', '--package'] } },
  { tool: 'uvx', words: [], spec: { values: uvValues } },
  { tool: 'uv', words: ['tool', 'run'], spec: { before: uvRun.before ?? [], values: uvValues } },
  { tool: 'uv', words: ['run'], spec: uvRun },
  { tool: 'pipx', words: ['run'], spec: { values: ['--spec', '--python', '--index-url', '--pip-args'] } },
  { tool: 'poetry', words: ['run'], spec: envRun },
  { tool: 'pipenv', words: ['run'], spec: {} },
  { tool: 'pdm', words: ['run'], spec: envRun },
  { tool: 'hatch', words: ['run'], spec: envRun },
  { tool: 'rye', words: ['run'], spec: {} },
  { tool: 'conda', words: ['run'], spec: condaRun },
  { tool: 'mamba', words: ['run'], spec: condaRun },
  { tool: 'micromamba', words: ['run'], spec: condaRun },
  { tool: 'bundle', words: ['exec'], spec: {} },
  { tool: 'bundler', words: ['exec'], spec: {} },
  { tool: 'corepack', words: [], spec: {} },
  { tool: 'cross-env', words: [], spec: { assignments: true } },
  { tool: 'xcrun', words: [], spec: { values: ['--sdk', '-sdk', '--toolchain', '-toolchain'] } },
  { tool: 'mise', words: ['exec'], spec: { separator: true } },
  { tool: 'mise', words: ['x'], spec: { separator: true } },
  { tool: 'asdf', words: ['exec'], spec: {} },
];

const pythonName = /^(python[0-9.]*|py|pypy[0-9.]*)$/;
const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** A command word as the tool's name: its basename, with `.exe` or `.cmd` dropped (`/c/x/pnpm.exe` is `pnpm`). */
export function toolNameOf(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  const dropped = base.replace(/\.(exe|cmd)$/i, '');
  return dropped === '' ? word : dropped;
}

/** A runner's package argument as the tool it runs: `@biomejs/biome@1.9` is `biome`, `prettier@3` is `prettier`. */
function packageToolOf(word: string): string {
  const base = toolNameOf(word);
  const at = base.indexOf('@', 1);
  return at > 0 ? base.slice(0, at) : base;
}

/** Where the tool stands after a runner's words and options; null when none does (a string, a lookup, nothing). */
function toolIndex(words: readonly string[], from: number, spec: RunnerSpec): number | null {
  if (spec.separator) {
    const separator = words.indexOf('--', from);
    return separator >= 0 && separator + 1 < words.length ? separator + 1 : null;
  }
  for (let i = from; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--') return i + 1 < words.length ? i + 1 : null;
    if (spec.stops?.includes(word)) return null;
    if (spec.module !== undefined && word === spec.module) return i + 1 < words.length ? i + 1 : null;
    if (spec.assignments && assignment.test(word)) continue;
    if (word.startsWith('-')) {
      if (!word.includes('=') && spec.values?.includes(word)) i++;
      continue;
    }
    return spec.script ? null : i;
  }
  return null;
}

/** The words after the runner, from the tool on (its name as a package names it); null when the head runs no tool. */
function peelRunner(words: readonly string[]): string[] | null {
  const name = toolNameOf(words[0] ?? '');
  if (pythonName.test(name)) {
    const at = toolIndex(words, 1, python);
    return at === null ? null : [words[at] as string, ...words.slice(at + 1)];
  }
  for (const runner of runners) {
    if (runner.tool !== name) continue;
    let at = 1;
    // Options that may stand before the subcommand (pnpm --filter api exec tsc).
    while (at < words.length && (words[at] as string).startsWith('-') && runner.words.length > 0) {
      at += !(words[at] as string).includes('=') && runner.spec.before?.includes(words[at] as string) ? 2 : 1;
    }
    if (!runner.words.every((word, i) => words[at + i] === word)) continue;
    const tool = toolIndex(words, at + runner.words.length, runner.spec);
    if (tool === null) return null;
    return [packageToolOf(words[tool] as string), ...words.slice(tool + 1)];
  }
  return null;
}

/**
 * The forms of a head's words the registry is matched against, the head as written first, then by
 * its tool's name, then behind each package runner it stands behind (three at most). The last
 * form is the command as it runs: its structural screens are the call's.
 */
export function headForms(words: readonly string[]): string[][] {
  const forms: string[][] = [[...words]];
  const add = (form: string[]) => {
    if (!forms.some((each) => each.length === form.length && each.every((word, i) => word === form[i])))
      forms.push(form);
  };
  let current = [...words];
  for (let depth = 0; depth < 4 && current.length > 0; depth++) {
    const named = [toolNameOf(current[0] as string), ...current.slice(1)];
    add(named);
    const peeled = depth < 3 ? peelRunner(named) : null;
    if (peeled === null) break;
    add(peeled);
    current = peeled;
  }
  return forms;
}
