import type { HeadWord } from './git-global-options.ts';
import type { HeadJudgement } from './write-kind.ts';

// gh's writes: `gh pr merge`, a PUT to a pull's merge endpoint through `gh api`, and `gh repo
// sync` (which moves a branch of the local checkout or of a fork to its source's tip).

/** Each command's flags that take the next word as their value, so that the value is not read as an operand. */
const valueFlags: Record<string, ReadonlySet<string>> = {
  pr: new Set([
    '-b',
    '--body',
    '-F',
    '--body-file',
    '-t',
    '--subject',
    '-A',
    '--author-email',
    '--match-head-commit',
  ]),
  repo: new Set(['-b', '--branch', '-s', '--source']),
  api: new Set([
    '-X',
    '--method',
    '-f',
    '--raw-field',
    '-F',
    '--field',
    '-H',
    '--header',
    '--input',
    '-q',
    '--jq',
    '-t',
    '--template',
    '--cache',
    '-p',
    '--preview',
    '--hostname',
  ]),
};

interface GhWords {
  positional: HeadWord[];
  retargeted: boolean; // -R / --repo / a /pull/N URL / GH_REPO=
  help: boolean;
  method: HeadWord | undefined; // gh api's -X / --method
}

/** Reads gh's words as its flag parser does, with the value flags of the command group `group`. */
function readGh(
  words: HeadWord[],
  group: string | null | undefined,
  assignNames: readonly string[],
): GhWords {
  const flags = (group && valueFlags[group]) || new Set<string>();
  const read: GhWords = {
    positional: [],
    retargeted: assignNames.includes('GH_REPO'),
    help: false,
    method: undefined,
  };
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? null;
    if (word === null) {
      read.positional.push(word);
      continue;
    }
    if (word.includes('/pull/')) read.retargeted = true;
    if (word === '-h' || word === '--help') read.help = true;
    if (word === '-R' || word === '--repo') {
      read.retargeted = true;
      index += 1;
    } else if (word.startsWith('-R') || word.startsWith('--repo=')) {
      read.retargeted = true;
    } else if (word === '-X' || word === '--method') {
      read.method = words[index + 1] ?? null;
      index += 1;
    } else if (word.startsWith('-X') || word.startsWith('--method=')) {
      read.method = word.startsWith('-X') ? word.slice(2) : word.slice('--method='.length);
    } else if (flags.has(word)) {
      index += 1;
    } else if (!word.startsWith('-')) {
      read.positional.push(word);
    }
  }
  return read;
}

const pass: HeadJudgement = { kind: 'pass' };
const mergeEndpoint = /(^|\/)pulls\/[^/]+\/merge\/?$/;

/**
 * `gh pr merge` (every form but `--disable-auto`), `gh api -X PUT …/pulls/N/merge` and
 * `gh repo sync`. Retargeted when `-R`/`--repo`, a `GH_REPO=` assignment, a `/pull/N` URL, an
 * api path naming its repository, or a fork named to `repo sync` points it at a repository the
 * probe cannot see.
 */
export function judgeGh(words: HeadWord[], assignNames: readonly string[]): HeadJudgement {
  const group = readGh(words, undefined, assignNames).positional[0];
  const read = readGh(words, group, assignNames);
  const [, action, target] = read.positional;
  if (read.help) return pass;
  if (group === null) return { kind: 'unknown', why: 'the gh command is an expansion', directories: [] };
  if (group === 'api') return judgeGhApi(action, read);
  if (group !== 'pr' && group !== 'repo') return pass;
  if (action === null)
    return { kind: 'unknown', why: `the gh ${group} action is an expansion`, directories: [] };
  if (group === 'repo')
    return action === 'sync'
      ? {
          kind: 'write',
          write: 'pr-merge',
          directories: [],
          retargeted: read.retargeted || target !== undefined,
        }
      : pass;
  if (action !== 'merge' || words.includes('--disable-auto')) return pass;
  return { kind: 'write', write: 'pr-merge', directories: [], retargeted: read.retargeted };
}

function judgeGhApi(endpoint: HeadWord | undefined, read: GhWords): HeadJudgement {
  if (endpoint === undefined) return pass;
  const method = read.method === undefined ? 'GET' : read.method;
  const merging = endpoint !== null && mergeEndpoint.test(endpoint);
  if (merging && method !== null && method.toUpperCase() === 'PUT') {
    const placeholders = endpoint.includes('{owner}') || endpoint.includes(':owner');
    return {
      kind: 'write',
      write: 'pr-merge',
      directories: [],
      retargeted: read.retargeted || !placeholders,
    };
  }
  if (
    (merging && method === null) ||
    (endpoint === null && method !== null && method.toUpperCase() === 'PUT')
  )
    return { kind: 'unknown', why: 'gh api: an expansion could make it a pull merge', directories: [] };
  return pass;
}
