import { pathWith } from '@kit/e2e/src/environment.ts';
import { csharpFile, csharpFileMarker, csharpTree } from '@kit/e2e/src/guard-cases.ts';
import { stubExecutable } from '@kit/e2e/src/scenario.ts';
import { removeScratch } from '@kit/e2e/src/scratch.ts';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { describeRun, runHost } from '../src/host-cli.ts';
import { installForHost } from '../src/scenario.ts';

const source = inject('kitSource');
process.env.KIT_E2E_COPILOT_CACHE = inject('copilotCache');
afterAll(removeScratch);

// roseline-gate guards a file read: Gemini CLI's read_file and Copilot CLI's view (Codex has none).
describe.for(['gemini', 'copilot'] as const)('%s: roseline-gate, installed with install --host', (host) => {
  test('a .cs read in a marked project is denied, the identical retry a turn later returns the file, the next is denied', async () => {
    const installed = await installForHost(source, 'roseline-gate', host, csharpTree);
    const file = csharpFile(installed.project);
    // The stand-in answers at once; a real model's retry comes a turn later, and the gate passes
    // only a retry that finds its marker quiet for a second: the script waits that long in between.
    const run = await runHost(host, {
      cwd: installed.project,
      home: installed.home,
      script: [{ read: file }, { shell: 'sleep 1.5' }, { read: file }, { read: file }],
      // roseline's launcher on PATH is the gate's evidence that roseline can answer.
      env: { PATH: pathWith(await stubExecutable('dnx')) },
    });
    const [denied, , retry, third] = run.exchanges;
    expect(denied?.command, describeRun(run)).toBe(file);
    expect(denied?.output).toContain('roseline-gate: ');
    expect(denied?.output).not.toContain(csharpFileMarker);
    expect(retry?.output, describeRun(run)).toContain(csharpFileMarker);
    // One-shot: deny, pass, deny.
    expect(third?.output).toContain('roseline-gate: ');
  });
});
