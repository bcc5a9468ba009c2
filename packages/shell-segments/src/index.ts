/** Parses a bash command line into a tree of command lines, each with its segments; never throws on the command. */
export { parse } from './parse.ts';
/** The walk over every segment at every depth; every line of the tree; the lines one segment runs. */
export { listLines, nestedRunBy, walkSegments } from './walk.ts';
/** One segment met by walkSegments: the segment, its line, the lines from the top down to it. */
export type { SegmentVisit } from './walk.ts';
/**
 * The statement tree (CommandLine.statements): what follows a statement, the list it stands in,
 * the statement that holds a list, every statement and every segment under one, and whether a
 * frame is a substitution.
 */
export {
  enclosingStatement,
  followingStatement,
  isCommandSubstitution,
  isSubstitution,
  leafOf,
  listOf,
  listOfFrame,
  ownedSubstitutions,
  pipelineById,
  segmentsUnder,
  substitutionOwner,
  thenOf,
  walkStatements,
} from './statement-tree.ts';
/** One statement met by walkStatements, with the list it stands in. */
export type { StatementVisit } from './statement-tree.ts';
/** The top command with one nested line's source replaced, put back into every runner above it. */
export { liftToTop } from './lift.ts';
/** A word the shell reads back as exactly the given text. */
export { shellQuote } from './shell-quote.ts';
/** How many frames stand between a segment and its line's main list. */
export { frameDepth } from './frame-depth.ts';
/** A cheap lexical pre-check that needs no parser: false means a single simple command. */
export { hasStructure } from './has-structure.ts';
/** What unwrapLaunchers returns. */
export type { Unwrapped } from './launchers.ts';
/** The command words after launchers (env, sudo, doas, command, exec, nohup, nice, timeout, xargs, setsid, flock…), each read with its own options. */
export { headText, unwrapLaunchers } from './launchers.ts';
/** One capture and its readers. */
export type { StatusCapture } from './status-captures.ts';
/** The frame whose shell a builtin in a segment changes (cd, set -o), or null when it runs apart. */
export { shellScopeOf } from './shell-scope.ts';
/** `$?` captures (rc=$?) in one command line, and the segments that read them later. */
export { findStatusCaptures } from './status-captures.ts';
/** The shapes parse returns. */
export type {
  Assign,
  CommandLine,
  CompoundKind,
  CompoundStatement,
  Context,
  ContextKind,
  ListOp,
  Nested,
  NestedKind,
  TextForm,
  ParseOptions,
  ParseOutcome,
  Placement,
  Redirect,
  Runner,
  PipelineStatement,
  Segment,
  SimpleStatement,
  Statement,
  StatementList,
  Word,
} from './types.ts';
/** git's global options that take their value as the next word: the runner table reads git's own command lines with it. */
export {
  type ConfigCommand,
  configCommandOf,
  gitCommandVariables,
  gitGlobalsWithValue,
  gitMayRun,
} from './git-commands.ts';
