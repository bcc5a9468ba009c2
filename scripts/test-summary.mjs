// Adds up what each package's vitest run reported (from turbo's per-task logs) and prints it as
// one plain closing line, "N passed, N failed, N skipped", so a reader of CI's output sees the
// whole suite at a glance; above it, each failed test's name and the first lines of its error, since
// CI's record may keep only the tail of the output. It reports; turbo's exit code decides the run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
// Every workspace package that runs vitest: the published ones under packages/, and the private ones.
const folders = [
  'e2e',
  'e2e-hosts',
  'bench',
  'corpus',
  ...readdirSync(join(root, 'packages')).map((name) => join('packages', name)),
  ...(existsSync(join(root, 'examples')) ? readdirSync(join(root, 'examples')) : []).map((name) =>
    join('examples', name),
  ),
];
const totals = { passed: 0, failed: 0, skipped: 0 };
// A file can fail with every test in it passed (an error in its afterAll, an unhandled error): vitest
// counts it on its "Test Files" line and "Errors" line only, so those are added up too.
const outside = { files: 0, errors: 0 };
const failures = [];
// The first lines of each failure vitest reports under "Failed Tests": the FAIL line, then its error.
const linesPerFailure = 14;
function failuresIn(text) {
  const blocks = [];
  let block;
  for (const line of text.split('\n')) {
    if (/^\s*FAIL\s/.test(line)) {
      block = [line.trim()];
      blocks.push(block);
    } else if (block !== undefined && /^\u23af{3}/.test(line.trim())) block = undefined;
    else if (block !== undefined && block.length < linesPerFailure && line.trim() !== '') block.push(line);
  }
  return blocks;
}
// turbo's log of each package's test task, and the Node 24 pass's (scripts/test-node-24.sh).
const passes = [
  ['turbo-test.log', ''],
  ['turbo-test-node24.log', ' (node 24)'],
];
for (const folder of folders) {
  for (const [file, label] of passes) {
    const log = join(root, folder, '.turbo', file);
    if (!existsSync(log)) continue;
    const text = stripVTControlCharacters(readFileSync(log, 'utf8'));
    const lines = text.split('\n');
    // vitest's closing block: "Test Files  1 failed | 5 passed (6)", "Tests  …", "Errors  1 error".
    const lastLine = (title) => lines.findLast((l) => new RegExp(`^\\s*${title}\\s+\\d`).test(l));
    const line = lastLine('Tests');
    if (line === undefined) continue;
    for (const kind of Object.keys(totals)) {
      const match = line.match(new RegExp(`(\\d+) ${kind}`));
      if (match) totals[kind] += Number(match[1]);
    }
    outside.files += Number(lastLine('Test Files')?.match(/(\d+) failed/)?.[1] ?? 0);
    outside.errors += Number(lastLine('Errors')?.match(/(\d+) errors?/)?.[1] ?? 0);
    process.stdout.write(`${folder}${label}: ${line.trim()}\n`);
    for (const block of failuresIn(text)) failures.push([`${folder}${label}:`, ...block].join('\n'));
  }
}
if (failures.length > 0) process.stdout.write(`\nFailed:\n${failures.join('\n\n')}\n\n`);
const beyondTests = [
  outside.files > 0 ? `${outside.files} test file${outside.files === 1 ? '' : 's'} failed` : '',
  outside.errors > 0 ? `${outside.errors} error${outside.errors === 1 ? '' : 's'} outside tests` : '',
].filter((part) => part !== '');
process.stdout.write(
  `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${beyondTests.map((part) => `; ${part}`).join('')}\n`,
);
