// A filter for pnpm install's output (bootstrap.sh): passes every line through but pnpm's
// "WARN Failed to create bin … dist/cli.js" for a workspace package not built yet, which it counts
// and sums up in one line at the end. Nothing run here uses those links: the demo and the suites
// run each guard from its packed tarball or its dist/ folder.
import { createInterface } from 'node:readline';

const unbuilt = /WARN\s+Failed to create bin at .*ENOENT.*\/dist\/[^/]+\.js'?$/;
let quieted = 0;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (unbuilt.test(line)) quieted += 1;
  else process.stdout.write(`${line}\n`);
});
lines.on('close', () => {
  if (quieted > 0)
    process.stdout.write(
      `kit: ${quieted} bins of workspace packages wait for their build (dist/ is made next); not an error\n`,
    );
});
