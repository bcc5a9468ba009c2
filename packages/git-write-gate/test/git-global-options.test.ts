import { describe, expect, test } from 'vitest';
import { type HeadWord, parseGitGlobals } from '../src/git-global-options.ts';

const words = (line: string): HeadWord[] => line.split(' ').map((word) => (word === '$x' ? null : word));

/** The global-option table: the words after `git`, and what git makes of them. */
const table: { after: string; subcommand: string | null; directories?: HeadWord[]; configs?: HeadWord[] }[] =
  [
    { after: 'push', subcommand: 'push' },
    { after: '-C /a push', subcommand: 'push', directories: ['/a'] },
    { after: '-C /a -C b push', subcommand: 'push', directories: ['/a', 'b'] },
    { after: '-C $x push', subcommand: 'push', directories: [null] },
    { after: '-c k=v push', subcommand: 'push', configs: ['k=v'] },
    { after: '-c push status', subcommand: 'status', configs: ['push'] },
    { after: '--git-dir=/g push', subcommand: 'push', directories: ['/g/..'] },
    { after: '--git-dir /g push', subcommand: 'push', directories: ['/g/..'] },
    { after: '--work-tree=/w push', subcommand: 'push', directories: ['/w'] },
    { after: '--work-tree /w push', subcommand: 'push', directories: ['/w'] },
    { after: '-C /a --git-dir=.git --work-tree=w push', subcommand: 'push', directories: ['/a', '.git/..'] },
    { after: '--work-tree=/w --git-dir=/g push', subcommand: 'push', directories: ['/g/..'] },
    { after: '--git-dir $x push', subcommand: 'push', directories: [null] },
    { after: '--namespace=n push', subcommand: 'push' },
    { after: '--namespace n push', subcommand: 'push' },
    { after: '--config-env=k=ENV push', subcommand: 'push', configs: ['k=ENV'] },
    { after: '--config-env k=ENV push', subcommand: 'push', configs: ['k=ENV'] },
    { after: '--attr-source=HEAD push', subcommand: 'push' },
    { after: '--attr-source HEAD push', subcommand: 'push' },
    { after: '--shallow-file f push', subcommand: 'push' },
    { after: '--exec-path=/x push', subcommand: 'push' },
    { after: '--list-cmds=main push', subcommand: 'push' },
    { after: '-p push', subcommand: 'push' },
    { after: '--paginate push', subcommand: 'push' },
    { after: '-P push', subcommand: 'push' },
    { after: '--no-pager push', subcommand: 'push' },
    { after: '--bare push', subcommand: 'push' },
    { after: '--no-replace-objects push', subcommand: 'push' },
    { after: '--literal-pathspecs push', subcommand: 'push' },
    { after: '--glob-pathspecs push', subcommand: 'push' },
    { after: '--noglob-pathspecs push', subcommand: 'push' },
    { after: '--icase-pathspecs push', subcommand: 'push' },
    { after: '--no-optional-locks push', subcommand: 'push' },
    { after: '--no-lazy-fetch push', subcommand: 'push' },
    { after: '--no-advice push', subcommand: 'push' },
    { after: '$x push', subcommand: null },
  ];

describe('options before the subcommand', () => {
  test.for(table)('git $after', ({ after, subcommand, directories = [], configs = [] }) => {
    const parsed = parseGitGlobals(words(after));
    if (subcommand === null) {
      expect(parsed).toEqual({ kind: 'dynamic-option' });
      return;
    }
    expect(parsed).toMatchObject({ kind: 'subcommand', subcommand, directories, configs });
  });
});

describe("GIT_DIR and GIT_WORK_TREE in git's environment say what the options say; the options win", () => {
  test.for([
    { variables: {}, after: 'push', directories: [] },
    { variables: { GIT_DIR: '/g' }, after: 'push', directories: ['/g/..'] },
    { variables: { GIT_WORK_TREE: '/w', GIT_DIR: '/g' }, after: 'push', directories: ['/g/..'] },
    { variables: { GIT_DIR: '.git' }, after: '-C /a push', directories: ['/a', '.git/..'] },
    { variables: { GIT_DIR: null }, after: 'push', directories: [null] },
    { variables: { GIT_DIR: '/g' }, after: '--git-dir=/h push', directories: ['/h/..'] },
    { variables: { GIT_WORK_TREE: '/w' }, after: '--work-tree=/v push', directories: ['/v'] },
  ])('$variables git $after', ({ variables, after, directories }) => {
    expect(parseGitGlobals(words(after), variables)).toMatchObject({ kind: 'subcommand', directories });
  });
});

describe('options that end git before any subcommand', () => {
  test.for([
    '',
    '--exec-path push',
    '--html-path push',
    '--man-path push',
    '--info-path push',
    '--version push',
    '-v push',
    '--help push',
    '-h push',
    '-C',
    '--git-dir',
    '-pC . push',
    '--unknown push',
    '-- push',
  ])('git %s', (after) =>
    expect(parseGitGlobals(after === '' ? [] : words(after))).toEqual({ kind: 'no-subcommand' }),
  );
});

test('a value option swallows the word that would be the subcommand', () => {
  expect(parseGitGlobals(words('-C push status'))).toMatchObject({
    subcommand: 'status',
    directories: ['push'],
  });
  expect(parseGitGlobals(words('--namespace push status'))).toMatchObject({ subcommand: 'status' });
  expect(parseGitGlobals(words('--exec-path=push status'))).toMatchObject({ subcommand: 'status' });
});
