import { type FailCause, type HookOutput, type HookRuntime, runHook } from '@kit/fail-open';
import { Writable } from 'node:stream';
import { guardHook } from '../audited-hook.ts';
import type { HookInput } from '../hosts/claude-code.ts';
import { protocolFromArgs } from '../hosts/host-argument.ts';
import type { Verdict } from '../verdict.ts';

/**
 * One guard as the MCP judge serves it: the same runHook call its command hook makes, with the
 * payload text, the environment and the output streams handed in rather than the process's own.
 */
export interface GuardJudge {
  /** The guard's name ('git-write-gate'): what a handler's `guard` argument names. */
  guard: string;
  /**
   * The HookOutput the command hook would produce for this payload text in this environment, run
   * with these bundle arguments (`--strict`, `--monitor`: what the handler asks for). Never rejects.
   */
  judge: (
    payloadText: string,
    env: Record<string, string | undefined>,
    argv?: readonly string[],
  ) => Promise<HookOutput>;
  /** Loads what the first call would load (mvdan-sh for a Bash guard). A throw is ignored by the server. */
  warmUp: () => unknown;
}

/** What a guard's judge module says of itself: the same values its hook.ts passes to runHook. */
export interface JudgeSpec {
  guard: string;
  evaluate: (input: HookInput, runtime: HookRuntime) => Verdict | Promise<Verdict>;
  onFailOpen?: (cause: FailCause, runtime: HookRuntime) => Verdict | undefined;
  warmUp?: () => unknown;
}

/**
 * A guard's judge for the MCP transport: Claude Code's protocol (the only host that calls
 * `mcp_tool` hooks from a server it starts), runHook with the payload read already, and nothing
 * written anywhere: the caller sends the output back as the tool's text.
 */
export function defineJudge(spec: JudgeSpec): GuardJudge {
  return {
    guard: spec.guard,
    judge: (payloadText, env, argv = []) => {
      // The same wrapping as the command hook's bundle: strict and monitor from the arguments, and
      // every deny, refusal, escape and override in the user's audit trail.
      const hook = guardHook(spec.guard, argv, spec.evaluate, spec.onFailOpen);
      return runHook(hook.evaluate, {
        guard: spec.guard,
        protocol: protocolFromArgs(argv),
        ...(hook.onFailOpen ? { onFailOpen: hook.onFailOpen } : {}),
        stdinRead: { ok: true, value: payloadText },
        env,
        stdout: discard(),
        stderr: discard(),
        traceFields: { path: 'mcp' },
      });
    },
    warmUp: spec.warmUp ?? (() => undefined),
  };
}

function discard(): NodeJS.WritableStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
