import { resolve } from 'node:path';
import { type HookRuntime, mergeTraceFields, type TraceFields, type TraceValue } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import type { Verdict } from '../verdict.ts';
import { parseArgs } from './args.ts';
import { idleHere } from './idle-here.ts';
import { fail, say } from './output.ts';

const explainBudgetMs = 3000;

/** What `explain` found: the verdict, or why the hook would fail open. */
type Explanation =
  | { verdict: 'deny' | 'refuse'; rule: string | null; reason: string }
  | { verdict: 'none' }
  | { verdict: 'cannotJudge'; cause: string }
  | { verdict: 'fails-open'; cause: string };

// explain's own keys: a named field never replaces one of them.
const explainKeys: ReadonlySet<string> = new Set([
  'guard',
  'input',
  'cwd',
  'verdict',
  'rule',
  'reason',
  'cause',
  'idle',
]);

/** `explain '<command or path>' [--cwd DIR] [--json]`: runs evaluate on a synthetic payload and says what it decided. */
export async function explainCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseArgs(argv, { flags: ['--json'], options: ['--cwd'] });
  if (!parsedArgs.ok) return fail(io, `explain: ${parsedArgs.message}; run \`${guard.name} --help\``);
  const parsed = parsedArgs.value;
  if (parsed.positionals.length !== 1) {
    return fail(
      io,
      `explain: give one quoted command or file path, e.g. ${guard.name} explain '<command or path>'`,
    );
  }
  const cwd = resolve(io.cwd, parsed.options.get('--cwd') ?? '.');
  const arg = parsed.positionals[0] as string;
  const { explanation, fields } = await explain(guard, arg, cwd, io);
  const idle = idleHere(guard, cwd, io.env);

  if (parsed.flags.has('--json')) {
    const idleField = idle === null ? {} : { idle };
    say(io, JSON.stringify({ guard: guard.name, input: arg, cwd, ...explanation, ...idleField, ...fields }));
    return 0;
  }
  switch (explanation.verdict) {
    case 'deny':
    case 'refuse':
      say(
        io,
        `verdict: ${explanation.verdict}`,
        `rule:    ${explanation.rule ?? '(none given)'}`,
        `reason:  ${explanation.reason}`,
      );
      break;
    case 'none':
      say(io, 'verdict: none (no opinion: the call goes through the normal permission flow)');
      break;
    case 'cannotJudge':
      say(
        io,
        'verdict: cannotJudge (the hook fails open: the call goes through)',
        `cause:   ${explanation.cause}`,
      );
      break;
    case 'fails-open':
      say(
        io,
        'verdict: none (the hook would fail open: the call goes through)',
        `cause:   ${explanation.cause}`,
      );
      break;
  }
  if (idle !== null) say(io, `idle:    ${idle}`);
  if (Object.keys(fields).length > 0) say(io, `fields:  ${JSON.stringify(fields)}`);
  return 0;
}

/** The explanation, and the named fields the guard noted and its verdict carries (as the trace line has them). */
async function explain(
  guard: GuardDefinition,
  arg: string,
  cwd: string,
  io: CliIO,
): Promise<{ explanation: Explanation; fields: Record<string, TraceValue> }> {
  const notes: TraceFields[] = [];
  let verdict: Verdict;
  try {
    const payload = guard.payloadFor(arg, cwd);
    const runtime: HookRuntime = {
      env: io.env,
      raw: JSON.stringify(payload),
      guard: guard.name,
      deadline: Date.now() + explainBudgetMs,
      note: (fields) => {
        notes.push(fields);
      },
    };
    verdict = await guard.evaluate(payload, runtime);
  } catch (error) {
    return {
      explanation: {
        verdict: 'fails-open',
        cause: `evaluate threw: ${error instanceof Error ? error.message : String(error)}`,
      },
      fields: mergeTraceFields(notes, explainKeys),
    };
  }
  const fields = mergeTraceFields([...notes, verdict?.fields], explainKeys);
  return { explanation: explanationOf(verdict), fields };
}

function explanationOf(verdict: Verdict): Explanation {
  switch (verdict?.kind) {
    case 'deny':
    case 'refuse':
      return { verdict: verdict.kind, rule: verdict.rule ?? null, reason: verdict.reason };
    case 'none':
      return { verdict: 'none' };
    case 'cannotJudge':
      return { verdict: 'cannotJudge', cause: verdict.cause };
    default:
      return {
        verdict: 'fails-open',
        cause: 'evaluate returned something that is not a verdict (encode-failed)',
      };
  }
}
