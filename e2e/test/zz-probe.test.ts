import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { runClaude } from '../src/claude.ts';
import { hookSettings } from '../src/hooks.ts';
import { scratchDir, scratchRepo } from '../src/scratch.ts';

test('probe stdin', async () => {
  const home = await scratchDir('probe-home');
  const project = await scratchRepo('probe');
  const out = join(home, 'probe.txt');
  const hook = join(home, 'probe.cjs');
  writeFileSync(hook, `
const fs = require('fs');
const t0 = process.hrtime.bigint();
let info = { link: fs.readlinkSync('/proc/self/fd/0'), fdinfo: fs.readFileSync('/proc/self/fdinfo/0', 'utf8').replace(/\\n/g, ' ') };
try { const fd = fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK); const b = Buffer.alloc(1 << 20); const seq = []; for (let i = 0; i < 5; i++) { try { const n = fs.readSync(fd, b); seq.push(n); if (n === 0) break; } catch (e) { seq.push(e.code); break; } } info.reopen = seq; } catch (e) { info.reopenError = e.code; }
fs.appendFileSync(${JSON.stringify(out)}, JSON.stringify(info) + '\\n');
`);
  await runClaude({ cwd: project, home, script: [{ name: 'Bash', input: { command: 'true', description: 'x' } }], settings: hookSettings('Bash', hook) });
  console.log(readFileSync(out, 'utf8'));
});
