/** A list operator: what separates two statements of one list. */
export type ListOp = '&&' | '||' | ';' | '&' | 'newline';

/** A word of a simple command. */
export interface Word {
  text: string; // the source slice, quotes included: "g\it"
  start: number; // UTF-16 offset into the parsed string (not mvdan's byte offset)
  end: number;
  value: string | null; // literal value after quote removal; null when it has an expansion ($x, $(..), `..`, $((..)))
  dynamic: boolean; // true when value is null, or an unquoted glob / brace / tilde makes it vary
  params: string[]; // parameter names expanded directly in this word: '?', 'PIPESTATUS', 'rc'
}

/** A variable assignment: GIT_GATE=off before a command, or an operand of export/local/declare. */
export interface Assign {
  name: string; // GIT_GATE
  text: string; // GIT_GATE=off
  value: string | null; // 'off'; null when dynamic or an array (a=(1 2))
  indexed: boolean; // a[0]=x
  append: boolean; // a+=x
  start: number;
  end: number;
}

/** A redirection: 2>&1, > out.log, <<EOF. */
export interface Redirect {
  op: string; // '>' '>>' '<' '<<' '<<-' '<<<' '>&' '<&' '&>' '&>>' '>|' '<>'
  fd: string | null; // 2 in 2>&1
  target: Word; // for heredocs, the delimiter word
  heredoc: { body: string; quoted: boolean; start: number; end: number } | null;
}

/** Where a statement (a simple command, or a compound one) stands in its list and pipeline. */
export interface Placement {
  // make check | tail -5: index 0 of 2, op = the pipe after this stage (null on the last stage)
  pipeline: {
    /**
     * Shared by the stages of one pipeline.
     * @deprecated Walk `CommandLine.statements`: a stage's pipeline is `leafOf(line, segment).parent`
     * (a compound stage: `enclosingStatement(listOfFrame(line, frame)).parent`), a `PipelineStatement` whose `stages` are in order.
     */
    id: number;
    index: number;
    size: number;
    op: '|' | '|&' | null;
  } | null;
  then: ListOp | null; // a && b: a.then = '&&'; the terminator as written; null when nothing follows it in its list
  background: boolean; // stmt &
  negated: boolean; // ! stmt
}

/** The kind of a context frame. */
export type ContextKind =
  | 'main'
  | 'subshell'
  | 'group'
  | 'if-condition'
  | 'if-body'
  | 'else-body'
  | 'while-condition'
  | 'while-body'
  | 'until-condition'
  | 'until-body'
  | 'for-body'
  | 'case-body'
  | 'function-body'
  | 'command-substitution'
  | 'backticks'
  | 'process-substitution'
  | 'arithmetic';

/** One frame of a segment's context chain. */
export interface Context {
  kind: ContextKind;
  id: number; // unique per frame in one outcome; segments sharing a frame share the id
  start: number;
  end: number;
  placement: Placement | null; // compound frames: the compound statement's own placement
  direction?: '<' | '>'; // process substitution
  /**
   * Substitutions: index, in the same line's segments, of the segment whose words/redirects hold it.
   * @deprecated Walk `CommandLine.statements`: the holder is `substitutionOwner(listOfFrame(line, frame))`
   * (its `.segment`); a segment's own substitutions are `ownedSubstitutions(leafOf(line, segment))`.
   */
  owner?: number;
  inHeredoc?: boolean; // substitution found inside an unquoted heredoc body
  /**
   * The parts of one if (elif, else), while/until (condition, body), for, case share it.
   * @deprecated Walk `CommandLine.statements`: the compound is `enclosingStatement(listOfFrame(line, frame))`, its parts are `.parts`.
   */
  clause?: number;
  name?: string; // function-body: the function's name (f in f() { …; })
}

/** One simple command with the structure around it. */
export interface Segment extends Placement {
  index: number; // document order, 0-based
  text: string; // text === input.slice(start, end)
  start: number;
  end: number;
  argv: Word[]; // git push origin main
  assigns: Assign[]; // GIT_GATE=off git push
  redirects: Redirect[];
  context: Context[]; // outermost first: [main, subshell, command-substitution, ...]; main is its own line's
  params: string[]; // every parameter read directly by this segment, not inside nested substitutions
  last: boolean; // last command of its innermost list (frame)
}

/** How a segment hands a command line to another shell. */
export type NestedKind =
  | 'shell-string' // bash -c 'str', sh -lc 'str' (bash|sh|zsh|dash|ksh, any flags); flock FILE -c 'str', script -c 'str'
  | 'eval' // eval 'a' 'b': the words joined by spaces
  | 'split-string' // env -S 'str' [operands]
  | 'find-exec' // find … -exec|-execdir|-ok|-okdir cmd … ; (or +): one per action
  | 'shell-input' // a new shell reading its script from its input: bash <<EOF, sh <<< 'str', echo 'str' | sh, bash -s, bash <(…)
  | 'sourced' // source / . reading its input or a process substitution, in the current shell: source <(…), . /dev/stdin
  | 'script-command' // BSD script file cmd …: the words run as they stand (util-linux script -c 'str' is a shell-string)
  | 'remote-command' // ssh [options] destination command …: the words joined by spaces, run by the remote shell (not this machine's)
  | 'tool-command'; // a shell escape of an editor or stream tool: vim -c '!cmd', ed's !cmd, sed's e cmd, npm exec -c 'cmd', watch cmd; ssh -o ProxyCommand=cmd / LocalCommand=cmd (run here)

/**
 * How a nested line's text stands in its runner's line, so that a changed text can be put back
 * (liftToTop): one shell word, words as written, a heredoc body, or an echo's / printf's operands.
 */
export type TextForm =
  | 'word' // bash -c 'str', env -S 'str' a, script -c 'str'; eval's words, which become one
  | 'here-string' // sh <<< 'str': one word (bash adds the newline the line's source ends with)
  | 'as-written' // a find action's words, BSD script's command words
  | 'heredoc' // an unquoted heredoc body: its $ ` \ are escaped when put back
  | 'quoted-heredoc' // a heredoc whose delimiter is quoted: the body as it is
  | 'echo-operands' // echo 'str' | sh: everything after the echo word
  | 'printf-operands'; // printf '%s\n' 'str' | sh: everything after the printf word

/**
 * A parsed command line: the top one, or one that a segment of another line runs. Its segments'
 * offsets are into its own `source`, and each segment's context starts at this line's own 'main'.
 */
export interface CommandLine {
  source: string; // the command; bash -c 'a | b' → a | b; find . -exec rm {} \; → rm {} (as written); bash <<EOF body → the body as bash reads it
  segments: Segment[]; // for a find action, its command only: substitutions in its words run in the line above
  statements: Statement[]; // its main list as a tree: the very segments above as leaves (see statements.ts)
  runner: Runner | null; // null for the top line
  nested: Nested[]; // the command lines its segments run, by segment, then by position
}

/** What runs a nested command line: the very segment object of the line above, and where the text stands. */
export interface Runner {
  line: CommandLine; // the line above
  segment: Segment; // one of line.segments: the one that runs the text (the shell, not an echo that feeds it)
  kind: NestedKind;
  form: TextForm;
  start: number; // offsets into line.source: the string word, eval's words, the action's words, a heredoc body, the operands of a feeding echo
  end: number;
}

/** A command line a segment runs: parsed, or why not (known only at run time, no parse, too long, too deep, too many). */
export type Nested =
  | { ok: true; line: CommandLine }
  | {
      ok: false;
      runner: Runner;
      reason: 'dynamic' | 'syntax' | 'too-long' | 'too-deep' | 'too-many';
      message: string;
    };

/** What parse returns: the top command line with every line nested in it, or why there is none. */
export type ParseOutcome =
  | { ok: true; value: CommandLine }
  | { ok: false; reason: 'syntax' | 'too-long' | 'not-text'; message: string };

/** Limits for parse. */
export interface ParseOptions {
  maxLength?: number; // default 65536 chars, for the command and for each nested line's text
  maxNesting?: number; // default 8: how many lines deep nesting is read (0: none); deeper is 'too-deep'
  maxTotalLength?: number; // default none: characters parsed over the whole tree, the command included; past it a nested line is 'too-long'
  maxLines?: number; // default none: command lines in the tree, the top one included; past it a nested line is 'too-many'
}

/**
 * A list of statements: a line's main list, one part of a compound (a body, a condition), or a
 * substitution ($( ), backticks, <( ), $(( ))). Its `frame` is the very Context object its
 * segments carry.
 */
export interface StatementList {
  kind: 'list';
  frame: Context;
  statements: Statement[]; // in source order; an arithmetic frame has none, only substitutions
  substitutions: StatementList[]; // held by no statement of the list: inside $(( )), in a `time` statement's redirections
  parent: SimpleStatement | CompoundStatement | StatementList | null; // null for a line's main list
}

/** A simple command: one segment, and the substitutions in its words, assignments and redirections. */
export interface SimpleStatement {
  kind: 'simple';
  segment: Segment; // one of its line's `segments`, the very object
  substitutions: StatementList[]; // $(..), `..`, <(..), $((..)) in its words, in source order
  parent: StatementList | PipelineStatement;
  start: number;
  end: number;
}

/** What a compound statement is. */
export type CompoundKind =
  | 'subshell'
  | 'group'
  | 'if'
  | 'while'
  | 'until'
  | 'for'
  | 'case'
  | 'function'
  | 'coproc';

/** A compound command: its parts, each a list of its own (an if: condition, body, elif…, else). */
export interface CompoundStatement {
  kind: 'compound';
  type: CompoundKind;
  parts: StatementList[]; // in source order; their frames carry this statement's placement
  placement: Placement; // where the compound stands in its list and pipeline
  substitutions: StatementList[]; // in its own words: a for's word list, a case's word and patterns, its redirections
  parent: StatementList | PipelineStatement;
  start: number;
  end: number;
}

/** A pipeline of two stages or more: `a | b |& c`. */
export interface PipelineStatement {
  kind: 'pipeline';
  stages: (SimpleStatement | CompoundStatement)[];
  parent: StatementList;
  start: number;
  end: number;
}

/** One statement of a list. */
export type Statement = SimpleStatement | CompoundStatement | PipelineStatement;
