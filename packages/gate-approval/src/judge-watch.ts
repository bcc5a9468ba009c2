import { runJudgeWatch } from './mcp/judge-watch.ts';

// The kit-judge plugin's UserPromptSubmit hook (dist/judge-watch.cjs, hooks/hooks.json): tells the
// user once per session when the judge is not running or could not load a guard.
const chunks: Buffer[] = [];
process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
process.stdin.on('end', () => {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  void runJudgeWatch(Buffer.concat(chunks).toString('utf8'), process.env, sleep).then(
    (out) => process.stdout.write(out),
    () => undefined,
  );
});
