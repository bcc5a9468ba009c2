/** Claude Code's protocol for fail-open's runHook: reads the payload, names the tool, encodes a verdict. */
export { claudeCode } from './hosts/claude-code.ts';
/** Claude Code's PreToolUse payload, the Bash / Read tool inputs, and the payload builders' options. */
export type {
  BashPayloadOptions,
  BashToolInput,
  HookInput,
  PayloadOptions,
  ReadPayloadOptions,
  ReadToolInput,
} from './hosts/claude-code.ts';
/** The Bash / Read tool input of a payload, or null when the call is another tool (checked exactly) or malformed. */
export { bashInput, readInput } from './hosts/claude-code.ts';
/** A Bash / Read call as Claude Code sends it: for tests, `explain` and positive controls. */
export { bashPayload, readPayload } from './hosts/claude-code.ts';
/** Codex CLI's, Gemini CLI's and Copilot CLI's protocols for runHook: each host's payload read as the kit's HookInput. */
export { codex } from './hosts/codex.ts';
export { copilotCli } from './hosts/copilot-cli.ts';
export { geminiCli } from './hosts/gemini-cli.ts';
/** The protocol a hook bundle speaks, from its own `--host NAME` argument (Claude Code's without one). */
export { protocolFromArgs } from './hosts/host-argument.ts';
export { isMonitored, monitorFlag, monitorProtocol, type WouldDeny, withoutMonitorFlag } from './monitor.ts';
/** Every host by name: its protocol, its payload shape (a kit call as the host sends it) and its deny. */
export { hostAdapters, hostNames } from './hosts/host-adapter.ts';
/** A host's name as `--host` takes it, and its adapter. */
export type { HostAdapter, HostName } from './hosts/host-adapter.ts';
/** A guard's definition for the shared CLI: the version and the bundle path derived from its package. */
export { defineGuard } from './guard.ts';
/** What a guard states, what the shared CLI gets, and the CLI's I/O. */
export type {
  CliIO,
  DoctorLine,
  GuardCommand,
  GuardDefinition,
  GuardSpec,
  GuardSwitch,
  PositiveControl,
  ReportSection,
} from './guard.ts';
/** The shared CLI every guard's bin is built from (hook, install, uninstall, explain, doctor). */
export { runCli } from './cli/run-cli.ts';
/** What a switch says: off, on or auto. */
export type { SwitchState } from './switches.ts';
/** Reads NAME=off|on from an env object (the current name beats a legacy one), and TAGOUT_HOOKS_STRICT. */
export { type AuditReport, buildAuditReport, type ReportRow } from './cli/report.ts';
export { readAuditEvents } from './audit-read.ts';
export { type AuditEvent, type AuditEventKind, auditFile } from './audit-log.ts';
export { type GuardHook, guardHook } from './audited-hook.ts';
export { redactSecrets } from './redact.ts';
export { isStrictArg, strictFlag, strictRuntime, withoutStrictFlag } from './strict-arg.ts';
export { isStrict, readSwitch } from './switches.ts';
/** A guard's decision: none, deny, refuse (strict only) or cannotJudge. */
export type { Verdict } from './verdict.ts';
/** Verdict builders; deny and refuse put the guard's name in front of the reason. */
export { cannotJudge, deny, none, refuse } from './verdict.ts';

/** A guard's judge for the MCP transport: the runHook call of its command hook, payload and env handed in. */
export { defineJudge } from './mcp/guard-judge.ts';
/** A guard's judge (defineJudge's value) and what a guard says to make one. */
export type { GuardJudge, JudgeSpec } from './mcp/guard-judge.ts';
/** The MCP judge's process entry: `runJudgeProcess(process.argv.slice(2))` in a guard's dist/mcp.cjs. */
export { runJudgeProcess } from './mcp/judge-process.ts';
/** An `mcp_tool` handler's `input` for a guard: its name and the PreToolUse payload as a template. */
export { type JudgeAsking, judgeInput } from './mcp/payload-template.ts';
