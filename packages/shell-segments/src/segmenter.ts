import type * as sh from './syntax-tree.ts';
import { binaryCmdOps, procSubstOps, redirectOps, testOpLengths } from './operators.ts';
import { decodeAnsiC, isExpandingLiteral, unescapeDoubleQuoted, unescapeUnquoted } from './quote-removal.ts';
import {
  addStatement,
  type Container,
  newList,
  relinkLeaves,
  type SubstitutionHolder,
} from './statement-tree.ts';
import type {
  Assign,
  CompoundKind,
  CompoundStatement,
  Context,
  ContextKind,
  ListOp,
  PipelineStatement,
  Placement,
  Redirect,
  Segment,
  SimpleStatement,
  Statement,
  StatementList,
  Word,
} from './types.ts';

/** The node kinds the segmenter reads; a test checks that the corpus exercises every one. */
export const handledNodeKinds: readonly sh.Node['kind'][] = [
  'File',
  'Stmt',
  'CallExpr',
  'BinaryCmd',
  'Subshell',
  'Block',
  'IfClause',
  'WhileClause',
  'ForClause',
  'WordIter',
  'CStyleLoop',
  'CaseClause',
  'CaseItem',
  'FuncDecl',
  'ArithmCmd',
  'TestClause',
  'DeclClause',
  'LetClause',
  'TimeClause',
  'CoprocClause',
  'Word',
  'Lit',
  'SglQuoted',
  'DblQuoted',
  'ParamExp',
  'CmdSubst',
  'ProcSubst',
  'ArithmExp',
  'ExtGlob',
  'BinaryArithm',
  'UnaryArithm',
  'ParenArithm',
  'BinaryTest',
  'UnaryTest',
  'ParenTest',
  'Redirect',
  'Assign',
  'ArrayExpr',
  'ArrayElem',
];

const namePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Where a word sits: the frames around its statement, and the segment it belongs to (if any). */
interface Scope {
  chain: Context[];
  owner: Draft | null;
  inHeredoc: boolean;
  holder: SubstitutionHolder; // where a substitution met in these words hangs in the statement tree
}

/** What a walk over word parts accumulates. */
interface Accumulator {
  value: string | null;
  dynamic: boolean;
  params: string[];
}

/** A segment before it has its document index. */
type Draft = Omit<Segment, 'index' | 'text' | 'start' | 'end' | 'params'> & {
  spans: [number, number][];
  params: string[];
};

/** The compound statement each mvdan compound node kind makes (a while with `Until` is an until). */
const compoundKinds: Partial<Record<string, CompoundKind>> = {
  Subshell: 'subshell',
  Block: 'group',
  IfClause: 'if',
  WhileClause: 'while',
  ForClause: 'for',
  CaseClause: 'case',
  FuncDecl: 'function',
  CoprocClause: 'coproc',
};

const noPlacement = (): Placement => ({ pipeline: null, then: null, background: false, negated: false });

/** Turns mvdan's tree into segments: one per simple command, with the structure around it. */
export class Segmenter {
  private readonly drafts: Draft[] = [];
  private readonly owners = new Map<Context, Draft>();
  private readonly leaves = new Map<SimpleStatement, Draft>();
  private frameCount = 0;
  private pipelineCount = 0;
  private clauseCount = 0;

  constructor(private readonly source: string) {}

  /**
   * The segments of a parsed file (read by readTree, over the same source), in document order, and
   * its main list as a statement tree built in the same walk, with those segments as its leaves.
   */
  segmentsOf(file: sh.File): { segments: Segment[]; statements: Statement[] } {
    const main = this.frame('main', 0, this.source.length, null);
    const list = newList(main, null);
    this.list(file.Stmts, [main], list);
    const ordered = this.drafts
      .map((draft) => ({ draft, start: Math.min(...draft.spans.map(([s]) => s)) }))
      .sort((a, b) => a.start - b.start);
    const segments = ordered.map(({ draft, start }, index): Segment => {
      const end = Math.max(...draft.spans.map(([, e]) => e));
      const { spans: _spans, ...rest } = draft;
      return {
        index,
        text: this.source.slice(start, end),
        start,
        end,
        pipeline: rest.pipeline,
        then: rest.then,
        background: rest.background,
        negated: rest.negated,
        argv: rest.argv,
        assigns: rest.assigns,
        redirects: rest.redirects,
        context: rest.context,
        params: unique(rest.params),
        last: rest.last,
      };
    });
    const indexOf = new Map(ordered.map(({ draft }, index) => [draft, index]));
    for (const [frame, draft] of this.owners) frame.owner = indexOf.get(draft) as number;
    const byDraft = new Map(ordered.map(({ draft }, index) => [draft, segments[index] as Segment]));
    relinkLeaves(this.leaves, byDraft);
    return { segments, statements: list.statements };
  }

  private spanOf(node: sh.Node): [number, number] {
    return [node.pos, node.end];
  }

  private frame(kind: ContextKind, start: number, end: number, placement: Placement | null): Context {
    const context: Context = { kind, id: this.frameCount, start, end, placement };
    this.frameCount += 1;
    return context;
  }

  /** One part of a compound (a condition, a body): its frame, and its statements as a list of `compound`. */
  private part(
    kind: ContextKind,
    stmts: sh.Stmt[],
    fallback: sh.Node,
    compound: CompoundStatement,
    chain: Context[],
    clause: number,
  ): void {
    const first = stmts[0];
    const last = stmts[stmts.length - 1];
    const [start, end] = first && last ? [first.pos, last.end] : this.spanOf(fallback);
    const frame = this.frame(kind, start, end, { ...compound.placement });
    frame.clause = clause;
    this.list(stmts, [...chain, frame], this.partList(compound, frame));
  }

  private partList(compound: CompoundStatement, frame: Context): StatementList {
    const list = newList(frame, compound);
    compound.parts.push(list);
    return list;
  }

  private nextClause(): number {
    this.clauseCount += 1;
    return this.clauseCount - 1;
  }

  // ---- statements and lists ----

  private list(stmts: sh.Stmt[], chain: Context[], into: StatementList): void {
    stmts.forEach((stmt, i) => {
      const hasNext = i < stmts.length - 1;
      const then: ListOp | null = stmt.Background
        ? '&'
        : stmt.Semicolon !== null
          ? ';'
          : hasNext
            ? 'newline'
            : null;
      const placement: Placement = {
        pipeline: null,
        then,
        background: stmt.Background,
        negated: stmt.Negated,
      };
      this.statement(stmt, chain, placement, !hasNext, into);
    });
  }

  private statement(
    stmt: sh.Stmt,
    chain: Context[],
    placement: Placement,
    last: boolean,
    into: Container,
  ): void {
    const cmd = stmt.Cmd;
    let holder: SubstitutionHolder = into.kind === 'list' ? into : into.parent;
    switch (cmd?.kind) {
      case undefined:
      case 'CallExpr':
      case 'DeclClause':
      case 'TestClause':
      case 'ArithmCmd':
      case 'LetClause':
        this.simple(stmt, chain, placement, last, into);
        return;
      case 'BinaryCmd':
        this.binary(stmt, cmd, chain, placement, last, into);
        return;
      case 'TimeClause': {
        // `time` is a keyword: the timed statement stands in its place in the list.
        const timed = cmd.Stmt;
        if (timed)
          this.statement(
            timed,
            chain,
            { ...placement, negated: placement.negated || timed.Negated },
            last,
            into,
          );
        break;
      }
      default:
        if (cmd !== null) holder = this.compound(cmd, chain, placement, into) ?? holder;
    }
    const scope: Scope = { chain, owner: null, inHeredoc: false, holder };
    for (const redirect of stmt.Redirs) this.redirect(redirect, scope);
  }

  private binary(
    stmt: sh.Stmt,
    cmd: sh.BinaryCmd,
    chain: Context[],
    placement: Placement,
    last: boolean,
    into: Container,
  ): void {
    const op = binaryCmdOps[cmd.Op];
    if (op === '&&' || op === '||') {
      const { background } = placement;
      const left = { pipeline: null, then: op, background, negated: cmd.X.Negated };
      this.statement(cmd.X, chain, left, false, into);
      const right = { pipeline: null, then: placement.then, background, negated: cmd.Y.Negated };
      this.statement(cmd.Y, chain, right, last, into);
      return;
    }
    const stages: sh.Stmt[] = [];
    const pipes: ('|' | '|&')[] = [];
    this.flattenPipeline(stmt, stages, pipes);
    const id = this.pipelineCount;
    this.pipelineCount += 1;
    const parent = into.kind === 'list' ? into : into.parent;
    const piped: PipelineStatement = { kind: 'pipeline', stages: [], parent, start: stmt.pos, end: stmt.end };
    addStatement(into, piped);
    stages.forEach((stage, index) => {
      const pipeline = { id, index, size: stages.length, op: pipes[index] ?? null };
      const stagePlacement = { ...placement, pipeline, negated: placement.negated || stage.Negated };
      this.statement(stage, chain, stagePlacement, last && index === stages.length - 1, piped);
    });
  }

  private flattenPipeline(stmt: sh.Stmt, stages: sh.Stmt[], pipes: ('|' | '|&')[]): void {
    const cmd = stmt.Cmd;
    const op = cmd?.kind === 'BinaryCmd' ? binaryCmdOps[cmd.Op] : undefined;
    if (cmd?.kind === 'BinaryCmd' && (op === '|' || op === '|&') && stages.length === pipes.length) {
      this.flattenPipeline(cmd.X, stages, pipes);
      pipes.push(op);
      this.flattenPipeline(cmd.Y, stages, pipes);
      return;
    }
    stages.push(stmt);
  }

  /** A compound statement of `into`, or null for a kind this parser version does not know. */
  private compound(
    cmd: sh.Node,
    chain: Context[],
    placement: Placement,
    into: Container,
  ): CompoundStatement | null {
    const type = compoundKinds[cmd.kind];
    if (type === undefined) return null; // a newer parser: its words may still hide substitutions
    const compound: CompoundStatement = {
      kind: 'compound',
      type: cmd.kind === 'WhileClause' && cmd.Until ? 'until' : type,
      parts: [],
      placement: type === 'coproc' ? { ...placement, background: true } : placement,
      substitutions: [],
      parent: into,
      start: cmd.pos,
      end: cmd.end,
    };
    addStatement(into, compound);
    this.compoundParts(cmd, compound, chain);
    return compound;
  }

  private compoundParts(cmd: sh.Node, compound: CompoundStatement, chain: Context[]): void {
    const { placement } = compound;
    const scope: Scope = { chain, owner: null, inHeredoc: false, holder: compound };
    switch (cmd.kind) {
      case 'Subshell':
      case 'Block': {
        const [start, end] = this.spanOf(cmd);
        const frame = this.frame(cmd.kind === 'Block' ? 'group' : 'subshell', start, end, { ...placement });
        this.list(cmd.Stmts, [...chain, frame], this.partList(compound, frame));
        return;
      }
      case 'IfClause':
        this.ifClause(cmd, compound, chain, this.nextClause());
        return;
      case 'WhileClause': {
        const loop = cmd;
        const [cond, body]: [ContextKind, ContextKind] = loop.Until
          ? ['until-condition', 'until-body']
          : ['while-condition', 'while-body'];
        const clause = this.nextClause();
        this.part(cond, loop.Cond, cmd, compound, chain, clause);
        this.part(body, loop.Do, cmd, compound, chain, clause);
        return;
      }
      case 'ForClause': {
        const loop = cmd;
        this.loopHeader(loop.Loop, scope);
        this.part('for-body', loop.Do, cmd, compound, chain, this.nextClause());
        return;
      }
      case 'CaseClause': {
        const clause = cmd;
        this.word(clause.Word, scope);
        const id = this.nextClause();
        for (const item of clause.Items) {
          for (const pattern of item.Patterns) this.word(pattern, scope);
          this.part('case-body', item.Stmts, item, compound, chain, id);
        }
        return;
      }
      case 'FuncDecl': {
        const { Body: body, Name: name } = cmd;
        const [start, end] = this.spanOf(body);
        const frame = this.frame('function-body', start, end, { ...placement });
        if (name?.Value) frame.name = name.Value;
        const list = this.partList(compound, frame);
        // f() { ..; } is the usual body: its braces are the function's, not a group of their own.
        if (body.Cmd?.kind === 'Block') {
          this.list(body.Cmd.Stmts, [...chain, frame], list);
          for (const redirect of body.Redirs) this.redirect(redirect, scope);
        } else {
          this.statement(body, [...chain, frame], noPlacement(), true, list);
        }
        return;
      }
      case 'CoprocClause': {
        // A coprocess runs asynchronously in a subshell: a frame of its own, in the background.
        const inner = cmd.Stmt;
        const [start, end] = this.spanOf(inner);
        const frame = this.frame('subshell', start, end, { ...placement });
        this.statement(inner, [...chain, frame], noPlacement(), true, this.partList(compound, frame));
        return;
      }
    }
  }

  private ifClause(clause: sh.IfClause, compound: CompoundStatement, chain: Context[], id: number): void {
    this.part('if-condition', clause.Cond, clause, compound, chain, id);
    this.part('if-body', clause.Then, clause, compound, chain, id);
    const alternative = clause.Else;
    if (alternative === null) return;
    if (alternative.Cond.length > 0) this.ifClause(alternative, compound, chain, id);
    else this.part('else-body', alternative.Then, alternative, compound, chain, id);
  }

  private loopHeader(loop: sh.ForClause['Loop'], scope: Scope): void {
    if (loop.kind === 'WordIter') {
      for (const item of loop.Items) this.word(item, scope);
    } else if (loop.kind === 'CStyleLoop') {
      const { Init, Cond, Post } = loop;
      const inner = this.arithmeticScope(loop, scope);
      const acc = newAccumulator();
      for (const expr of [Init, Cond, Post]) if (expr) this.arithm(expr, inner, acc);
    }
  }

  // ---- simple commands ----

  private simple(
    stmt: sh.Stmt,
    chain: Context[],
    placement: Placement,
    last: boolean,
    into: Container,
  ): void {
    const draft: Draft = {
      ...placement,
      argv: [],
      assigns: [],
      redirects: [],
      context: chain,
      params: [],
      last,
      spans: [],
    };
    // Its segment is set once the drafts are segments (relinkLeaves); so are start and end.
    const statement: Omit<SimpleStatement, 'segment'> = {
      kind: 'simple',
      substitutions: [],
      parent: into,
      start: 0,
      end: 0,
    };
    const leaf = statement as SimpleStatement;
    addStatement(into, leaf);
    this.leaves.set(leaf, draft);
    const scope: Scope = { chain, owner: draft, inHeredoc: false, holder: leaf };
    const cmd = stmt.Cmd;
    if (cmd !== null) {
      this.commandWords(cmd, draft, scope);
      if (cmd.kind !== 'CallExpr') draft.spans.push(this.spanOf(cmd));
    }
    this.finishDraft(stmt, draft, scope);
  }

  /** The words of a simple command of each kind: a call's, a declaration's, [[ ]], (( )), let. */
  private commandWords(cmd: sh.Node, draft: Draft, scope: Scope): void {
    switch (cmd.kind) {
      case 'CallExpr': {
        const call = cmd;
        for (const assign of call.Assigns) draft.assigns.push(this.assign(assign, scope));
        for (const arg of call.Args) draft.argv.push(this.word(arg, scope));
        break;
      }
      case 'DeclClause':
        this.declClause(cmd, draft, scope);
        break;
      case 'TestClause':
        this.bracketedTest(cmd.Left, cmd.Right, 2, cmd.X, draft, scope);
        break;
      case 'ArithmCmd': {
        const arithm = cmd;
        draft.argv.push(this.syntheticWord(arithm.Left, 2));
        if (arithm.X) draft.argv.push(this.arithmWord(arithm.X, arithm, scope));
        draft.argv.push(this.syntheticWord(arithm.Right, 2));
        break;
      }
      case 'LetClause': {
        const clause = cmd;
        draft.argv.push(this.syntheticWord(clause.pos, 3));
        for (const expr of clause.Exprs) {
          draft.argv.push(
            expr.kind === 'Word' ? this.word(expr, scope) : this.arithmWord(expr, clause, scope),
          );
        }
        break;
      }
    }
  }

  /** A simple command's redirections, its spans and parameters; then it joins the drafts. */
  private finishDraft(stmt: sh.Stmt, draft: Draft, scope: Scope): void {
    for (const redirect of stmt.Redirs) {
      draft.redirects.push(this.redirect(redirect, scope));
      draft.spans.push([redirect.pos, redirect.Word.end]);
    }
    for (const word of draft.argv) {
      draft.spans.push([word.start, word.end]);
      draft.params.push(...word.params);
    }
    for (const assign of draft.assigns) draft.spans.push([assign.start, assign.end]);
    if (draft.spans.length === 0) draft.spans.push(this.spanOf(stmt));
    this.drafts.push(draft);
  }

  private declClause(clause: sh.DeclClause, draft: Draft, scope: Scope): void {
    draft.argv.push(this.literalWord(clause.Variant));
    for (const operand of clause.Args) {
      if (operand.Naked) {
        if (operand.Value) draft.argv.push(this.word(operand.Value, scope));
        else if (operand.Name) draft.argv.push(this.literalWord(operand.Name));
        continue;
      }
      // export A=1: one word of the command, whose value is the whole name=value.
      const assign = this.assign(operand, scope);
      const prefix = `${assign.name}${assign.append ? '+=' : '='}`;
      const value = assign.value === null || assign.indexed ? null : prefix + assign.value;
      const params = this.assignParams.get(assign) ?? [];
      draft.argv.push({
        text: assign.text,
        start: assign.start,
        end: assign.end,
        value,
        dynamic: value === null || this.assignDynamic.has(assign),
        params,
      });
    }
  }

  private testExpr(node: sh.Node, draft: Draft, scope: Scope): void {
    switch (node.kind) {
      case 'Word':
        draft.argv.push(this.word(node, scope));
        return;
      case 'UnaryTest': {
        const test = node;
        draft.argv.push(this.syntheticWord(test.OpPos, testOpLengths[test.Op] ?? 2));
        this.testExpr(test.X, draft, scope);
        return;
      }
      case 'BinaryTest': {
        const test = node;
        this.testExpr(test.X, draft, scope);
        draft.argv.push(this.syntheticWord(test.OpPos, testOpLengths[test.Op] ?? 2));
        if (test.Y) this.testExpr(test.Y, draft, scope);
        return;
      }
      case 'ParenTest':
        this.bracketedTest(node.Lparen, node.Rparen, 1, node.X, draft, scope);
        return;
    }
  }

  /** A test between brackets (`[[ … ]]`, `( … )`): each bracket a word of `width` around the test's own. */
  private bracketedTest(
    open: number,
    close: number,
    width: number,
    test: sh.Node,
    draft: Draft,
    scope: Scope,
  ): void {
    draft.argv.push(this.syntheticWord(open, width));
    this.testExpr(test, draft, scope);
    draft.argv.push(this.syntheticWord(close, width));
  }

  // ---- words ----

  /** A word made of a fixed token of the source: [[ ]] (( )) let, a [[ ]] operator. */
  private syntheticWord(start: number, length: number): Word {
    const text = this.source.slice(start, start + length);
    return { text, start, end: start + text.length, value: text, dynamic: false, params: [] };
  }

  private literalWord(lit: sh.Lit): Word {
    const [start, end] = this.spanOf(lit);
    return { text: this.source.slice(start, end), start, end, value: lit.Value, dynamic: false, params: [] };
  }

  /** An arithmetic expression as one word: its text, static when it is made of literals only. */
  private arithmWord(expr: sh.Node, holder: sh.Node, scope: Scope): Word {
    const acc = newAccumulator();
    acc.value = '';
    this.arithm(expr, this.arithmeticScope(holder, scope), acc);
    const [start, end] = this.spanOf(expr);
    const text = this.source.slice(start, end);
    const value = acc.value === null ? null : text;
    return { text, start, end, value, dynamic: value === null, params: unique(acc.params) };
  }

  private word(word: sh.Word, scope: Scope): Word {
    const acc = newAccumulator();
    acc.value = '';
    this.parts(word.Parts, false, scope, acc);
    const [start, end] = this.spanOf(word);
    return {
      text: this.source.slice(start, end),
      start,
      end,
      value: acc.value,
      dynamic: acc.dynamic || acc.value === null,
      params: unique(acc.params),
    };
  }

  private parts(parts: sh.Node[], quoted: boolean, scope: Scope, acc: Accumulator): void {
    parts.forEach((part, i) => {
      switch (part.kind) {
        case 'Lit': {
          const raw = part.Value;
          if (quoted) {
            append(acc, unescapeDoubleQuoted(raw));
          } else {
            append(acc, unescapeUnquoted(raw));
            if (isExpandingLiteral(raw, i === 0)) acc.dynamic = true;
          }
          return;
        }
        case 'SglQuoted': {
          const quote = part;
          append(acc, quote.Dollar ? decodeAnsiC(quote.Value) : quote.Value);
          return;
        }
        case 'DblQuoted':
          this.parts(part.Parts, true, scope, acc);
          return;
        case 'ParamExp':
          acc.value = null;
          this.paramExp(part, scope, acc);
          return;
        case 'CmdSubst': {
          acc.value = null;
          const subst = part;
          const kind = subst.Backquotes ? 'backticks' : 'command-substitution';
          const frame = this.substitutionFrame(kind, subst, scope);
          this.list(subst.Stmts, [...scope.chain, frame], this.substitutionList(frame, scope));
          return;
        }
        case 'ProcSubst': {
          acc.value = null;
          const subst = part;
          const frame = this.substitutionFrame('process-substitution', subst, scope);
          const direction = procSubstOps[subst.Op];
          if (direction) frame.direction = direction;
          this.list(subst.Stmts, [...scope.chain, frame], this.substitutionList(frame, scope));
          return;
        }
        case 'ArithmExp': {
          acc.value = null;
          const expr = part.X;
          const inner = this.arithmeticScope(part, scope);
          if (expr) this.arithm(expr, inner, acc);
          return;
        }
        case 'ExtGlob': {
          const [start, end] = this.spanOf(part);
          append(acc, this.source.slice(start, end));
          acc.dynamic = true;
          return;
        }
        default:
          acc.value = null;
      }
    });
  }

  /** The scope inside an arithmetic frame spanning `node`: a substitution list of the scope's holder. */
  private arithmeticScope(node: sh.Node, scope: Scope): Scope {
    const frame = this.frame('arithmetic', ...this.spanOf(node), null);
    return { ...scope, chain: [...scope.chain, frame], holder: this.substitutionList(frame, scope) };
  }

  /** A substitution's list of statements, hung on the statement (or list) whose words hold it. */
  private substitutionList(frame: Context, scope: Scope): StatementList {
    const list = newList(frame, scope.holder);
    scope.holder.substitutions.push(list);
    return list;
  }

  private substitutionFrame(kind: ContextKind, node: sh.Node, scope: Scope): Context {
    const frame = this.frame(kind, ...this.spanOf(node), null);
    if (scope.owner) this.owners.set(frame, scope.owner);
    if (scope.inHeredoc) frame.inHeredoc = true;
    return frame;
  }

  private paramExp(exp: sh.ParamExp, scope: Scope, acc: Accumulator): void {
    if (exp.Param) acc.params.push(exp.Param.Value);
    // The words inside ${..} expand as part of this word: ${x:-$y}, ${a[$i]}, ${s/$from/$to}.
    const inner = newAccumulator();
    if (exp.Index) this.arithm(exp.Index, scope, inner);
    if (exp.Slice?.Offset) this.arithm(exp.Slice.Offset, scope, inner);
    if (exp.Slice?.Length) this.arithm(exp.Slice.Length, scope, inner);
    for (const word of [exp.Repl?.Orig, exp.Repl?.With, exp.Exp?.Word]) {
      if (word) this.parts(word.Parts, false, scope, inner);
    }
    acc.params.push(...inner.params);
  }

  /** An arithmetic expression: bare names are parameter reads; words may hold substitutions. */
  private arithm(node: sh.Node, scope: Scope, acc: Accumulator): void {
    switch (node.kind) {
      case 'Word': {
        const word = node;
        const only = word.Parts.length === 1 ? word.Parts[0] : undefined;
        if (only?.kind === 'Lit' && namePattern.test(only.Value)) {
          acc.params.push(only.Value);
        }
        this.parts(word.Parts, false, scope, acc);
        return;
      }
      case 'BinaryArithm':
      case 'UnaryArithm':
      case 'ParenArithm': {
        const operation = node;
        if (operation.X) this.arithm(operation.X, scope, acc);
        if (operation.Y) this.arithm(operation.Y, scope, acc);
        return;
      }
    }
  }

  // ---- assignments and redirections ----

  private readonly assignParams = new Map<Assign, string[]>();
  private readonly assignDynamic = new Set<Assign>();

  private assign(node: sh.Assign, scope: Scope): Assign {
    const [start, end] = this.spanOf(node);
    const params: string[] = [];
    let value: string | null = '';
    let dynamic = false;
    if (node.Index) {
      const acc = newAccumulator();
      this.arithm(node.Index, scope, acc);
      params.push(...acc.params);
    }
    if (node.Array) {
      value = null;
      for (const element of node.Array.Elems) {
        const acc = newAccumulator();
        if (element.Index) this.arithm(element.Index, scope, acc);
        if (element.Value) this.parts(element.Value.Parts, false, scope, acc);
        params.push(...acc.params);
      }
    } else if (node.Value) {
      const word = this.word(node.Value, scope);
      value = word.value;
      dynamic = word.dynamic;
      params.push(...word.params);
    }
    const assign: Assign = {
      name: node.Name?.Value ?? '',
      text: this.source.slice(start, end),
      value,
      indexed: node.Index !== null,
      append: node.Append,
      start,
      end,
    };
    this.assignParams.set(assign, unique(params));
    if (dynamic) this.assignDynamic.add(assign);
    if (scope.owner) scope.owner.params.push(...params);
    return assign;
  }

  private redirect(node: sh.Redirect, scope: Scope): Redirect {
    const op = redirectOps[node.Op] ?? '?';
    const target = this.word(node.Word, scope);
    if (scope.owner) scope.owner.params.push(...target.params);
    const redirect: Redirect = { op, fd: node.N ? node.N.Value : null, target, heredoc: null };
    if (op === '<<' || op === '<<-') redirect.heredoc = this.heredoc(node, scope);
    return redirect;
  }

  private heredoc(node: sh.Redirect, scope: Scope): NonNullable<Redirect['heredoc']> {
    const quoted = node.Word.Parts.some(
      (part) =>
        part.kind === 'SglQuoted' ||
        part.kind === 'DblQuoted' ||
        (part.kind === 'Lit' && part.Value.includes('\\')),
    );
    const body = node.Hdoc;
    if (body === null) {
      const at = node.Word.end;
      return { body: '', quoted, start: at, end: at };
    }
    const [start, rawEnd] = this.spanOf(body);
    // mvdan's body node runs to the end of the terminator line; the body itself stops before it.
    const raw = this.source.slice(start, rawEnd);
    const lastNewline = raw.lastIndexOf('\n');
    const end = lastNewline >= 0 ? start + lastNewline + 1 : rawEnd;
    if (!quoted) {
      // Heredoc bodies are data; only their expansions run (and belong to the command with the heredoc).
      const acc = newAccumulator();
      this.parts(body.Parts, true, { ...scope, inHeredoc: true }, acc);
      if (scope.owner) scope.owner.params.push(...acc.params);
    }
    return { body: this.source.slice(start, end), quoted, start, end };
  }
}

function newAccumulator(): Accumulator {
  return { value: null, dynamic: false, params: [] };
}

function append(acc: Accumulator, text: string): void {
  if (acc.value !== null) acc.value += text;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
