/** A file with a mode of its own, and a tree of files to write. */
export type { Tree, TreeFile } from './temp-tree.ts';
/** Temp folders removed when the test (or the suite being collected) ends; trees written into them. */
export { executable, freshTempDir, tempDir, tempTree, writeTree } from './temp-tree.ts';
/** Removes a folder a process may still be writing in (a hook's verdict server): renamed away, then removed. */
export { removeTree } from './temp-tree.ts';
/** Real git with no user or system config, and a repository holding a tree in one commit (in a folder, or a temp one). */
export { git, gitIdentity, initRepo, tempRepo } from './temp-repo.ts';
/** A CLI I/O that records what a command prints, and its options. */
export type { RecordingIO, RecordingIOOptions } from './recording-io.ts';
/** The CLI I/O recorder. */
export { recordingIO } from './recording-io.ts';
/** What a hook process did, how it is started, and an exec-form handler. */
export type { ExecHandler, HookRun, HookRunOptions, InstalledHandler } from './hook-process.ts';
/** Hook processes as the host starts them, in an environment free of the runner's kit variables, with the node KIT_TEST_NODE names. */
export { hookEnv, hookNode, runHookCommand, runHookFile } from './hook-process.ts';
/** The handler install wrote under a matcher, read back from the settings file. */
export { installedHandler } from './hook-process.ts';
/** What a hook process loaded: mvdan-sh, the parse path's builtins. */
export type { ParserLoad } from './parser-probe.ts';
/** Runs a hook file with the parser probe preloaded. */
export { runWithParserProbe } from './parser-probe.ts';
/** What a finished subprocess left, and how runCommand runs it. */
export type { CommandResult, RunCommandOptions } from './command.ts';
/** Runs a command without a shell and collects its output; throws with the whole output unless it exited 0. */
export { collectOutput, expectSuccess, runCommand } from './command.ts';
/** A packed tarball, and packed tarballs installed into an app. */
export type { PackedInstall, PackedPackage } from './pack.ts';
/** Packs kit packages (and their outside dependencies) as a publish would, and installs them offline. */
export { installPacked, packPackages, repoRoot } from './pack.ts';
/** A running MCP judge, its answer to one call, and how it is started. */
export type { JudgeAnswer, JudgeClient, StartJudgeOptions } from './judge-client.ts';
/** Starts an MCP judge and speaks to it over stdio as Claude Code does; fills a handler's input template as the host does. */
export { fillTemplate, startJudge } from './judge-client.ts';
