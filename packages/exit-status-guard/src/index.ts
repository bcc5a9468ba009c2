/** Judges one PreToolUse payload: deny when a check's exit status would be discarded, else no opinion. Pure. */
export { evaluate } from './evaluate.ts';
/** What evaluate needs from outside the payload (env, cwd, file reads, the scratchpad probe). */
export type { GuardContext } from './context.ts';
/** The real file-system probes behind evaluate, for a runtime's env. */
export { realContext } from './context.ts';
/** Resolves and compiles the registry (shipped / EXIT_STATUS_GUARD_REGISTRY, then the project file). */
export { compileRegistry, loadRegistry } from './registry.ts';
/** The registry's shapes: the file as written, the compiled registry, a dropped pattern. */
export type {
  Registry,
  RegistryEnvironment,
  RegistryFile,
  RegistryList,
  RegistryProblem,
  RegistrySources,
} from './registry.ts';
/** One registry pattern as a JavaScript RegExp (POSIX classes, Python spellings); never throws. */
export { compilePattern } from './pattern.ts';
/** What compilePattern returns. */
export type { PatternOutcome } from './pattern.ts';
/** What the registry makes of a head, and the structural probe / read screens. */
export { roleOfHead, screenOf } from './head-role.ts';
/** A head's role and the screens. */
export type { HeadRole, Screen } from './head-role.ts';
/** The rule ids, in the order they are tried, and the stable phrase of each denying rule (the friction report keys on them). */
export { ruleIds, rulePhrases } from './rules/index.ts';
/** A rule id, and the rules that deny. */
export type { DenyRule, RuleId } from './rules/index.ts';
/** The reason opener: every reason starts with `exit-status-guard: `. */
export { guardName } from './reasons.ts';
/** The override's variable names, current first. */
export { overrideVariables } from './rules/override.ts';
