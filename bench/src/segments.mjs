// In-process cost of @kit/shell-segments: the cold start (load mvdan-sh and parse once, in a fresh
// process) and the warm rate over the package's test corpus.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCorpus } from './corpus.mjs';

const coldProbe = `
const started = process.hrtime.bigint();
const { parse } = await import(process.argv[1]);
const outcome = parse('make test 2>&1 | tail -5 && git push');
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(JSON.stringify({ ms, ok: outcome.ok }));
`;

/** Cold and warm parse costs, measured against the built package. */
export async function measureSegments(root, { coldRuns = 5, warmSeconds = 1 } = {}) {
  const entry = pathToFileURL(join(root, 'packages/shell-segments/dist/index.js')).href;
  const cold = [];
  for (let i = 0; i < coldRuns; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', coldProbe, entry], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`cold probe failed: ${r.stderr}`);
    cold.push(JSON.parse(r.stdout).ms);
  }
  cold.sort((a, b) => a - b);
  const corpus = await loadCorpus(root);
  return {
    coldMs: Math.round(cold[Math.floor(cold.length / 2)] * 100) / 100,
    ...measureWarm(root, corpus, warmSeconds),
  };
}

function measureWarm(root, corpus, seconds) {
  const probe = `
const { parse } = await import(process.argv[1]);
const corpus = JSON.parse(process.argv[2]);
for (const c of corpus) parse(c); // warm the JIT and the lazy load
let commands = 0, segments = 0;
const until = performance.now() + ${seconds * 1000};
while (performance.now() < until) {
  for (const c of corpus) { const o = parse(c); commands++; if (o.ok) segments += o.value.segments.length; }
}
process.stdout.write(JSON.stringify({ commands, segments }));
`;
  const entry = pathToFileURL(join(root, 'packages/shell-segments/dist/index.js')).href;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, entry, JSON.stringify(corpus)], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`warm probe failed: ${r.stderr}`);
  const { commands, segments } = JSON.parse(r.stdout);
  return {
    corpusSize: corpus.length,
    warmPerSecond: Math.round(commands / seconds),
    warmSegmentsPerSecond: Math.round(segments / seconds),
  };
}
