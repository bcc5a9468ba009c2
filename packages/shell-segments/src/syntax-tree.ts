import type { ShFile } from './mvdan-nodes.ts';

// mvdan's syntax tree, read once into plain objects. mvdan-sh is Go compiled by GopherJS, and its JS
// API wraps every value it hands out: each field read or method call on a node builds a fresh wrapper
// object (a dozen defineProperty calls), a slice field a fresh array of them, Pos() a wrapper for the
// position, NodeType() a Sprintf("%T"). A long command paid milliseconds per statement for that. So
// the segmenter reads this copy instead, built from the Go values under the root wrapper: GopherJS
// keeps them as plain JS objects and describes each Go type with a runtime type object (its kind,
// name, fields), which is all the walk below needs. Only mvdan-sh's pinned GopherJS build is known
// to have these shapes; test/syntax-tree.test.ts compares this copy with the wrapped API on the corpus.

/** What every syntax node has: its span, as UTF-16 source indices. */
export interface NodeBase {
  pos: number;
  end: number;
}

/**
 * The node kinds the segmenter does not read fields of (mvdan.cc/sh/v3/syntax's other node types):
 * it meets them only to skip them, or to take their span.
 */
export type OtherKind = 'Comment' | 'ArrayExpr' | 'ArrayElem' | 'BraceExp' | 'ExtGlob' | 'TestDecl';

/** A node of no shape read here: its Go type's name and its span. */
export interface OtherNode extends NodeBase {
  kind: OtherKind;
}

/**
 * A syntax node: its Go type's name (NodeType's answer) in `kind`, which tells its shape, and its
 * span. A switch on `kind` narrows it: no cast reads a field.
 */
export type Node =
  | File
  | Stmt
  | Lit
  | Word
  | SglQuoted
  | DblQuoted
  | ParamExp
  | CmdSubst
  | ProcSubst
  | ArithmExp
  | ArithmOperation
  | Assign
  | Redirect
  | CallExpr
  | BinaryCmd
  | StmtList
  | IfClause
  | WhileClause
  | ForClause
  | WordIter
  | CStyleLoop
  | CaseClause
  | CaseItem
  | FuncDecl
  | TestClause
  | TestOperation
  | ParenTest
  | ArithmCmd
  | DeclClause
  | LetClause
  | TimeClause
  | CoprocClause
  | OtherNode;

/** A position field (Stmt.Semicolon, TestClause.Left, ...): a source index, or null when not valid. */
export type Pos = number | null;

// The fields the segmenter reads, named as in Go (mvdan.cc/sh/v3/syntax). Slices are arrays, nil is
// null. The objects hold every other exported field too.

export interface File extends NodeBase {
  kind: 'File';
  Stmts: Stmt[];
}

export interface Stmt extends NodeBase {
  kind: 'Stmt';
  Cmd: Node | null; // null for a statement of redirections only: > out.log
  Negated: boolean; // ! cmd
  Background: boolean; // cmd &
  Semicolon: Pos; // position of ; or & (null when a newline or nothing ends it)
  Redirs: Redirect[];
}

export interface Lit extends NodeBase {
  kind: 'Lit';
  Value: string; // raw: backslashes kept, line continuations removed
}

export interface Word extends NodeBase {
  kind: 'Word';
  Parts: Node[];
}

export interface SglQuoted extends NodeBase {
  kind: 'SglQuoted';
  Dollar: boolean; // $'..'
  Value: string;
}

export interface DblQuoted extends NodeBase {
  kind: 'DblQuoted';
  Parts: Node[];
}

export interface ParamExp extends NodeBase {
  kind: 'ParamExp';
  Param: Lit | null;
  Index: Node | null;
  Slice: { Offset: Node | null; Length: Node | null } | null;
  Repl: { Orig: Word | null; With: Word | null } | null;
  Exp: { Word: Word | null } | null;
}

export interface CmdSubst extends NodeBase {
  kind: 'CmdSubst';
  Stmts: Stmt[];
  Backquotes: boolean;
}

export interface ProcSubst extends NodeBase {
  kind: 'ProcSubst';
  Op: number;
  Stmts: Stmt[];
}

export interface ArithmExp extends NodeBase {
  kind: 'ArithmExp';
  X: Node | null;
}

export interface ArithmOperation extends NodeBase {
  kind: 'BinaryArithm' | 'UnaryArithm' | 'ParenArithm';
  X: Node | null;
  Y?: Node | null;
}

export interface Assign extends NodeBase {
  kind: 'Assign';
  Name: Lit | null;
  Index: Node | null;
  Value: Word | null;
  Array: { Elems: { Index: Node | null; Value: Word | null }[] } | null;
  Append: boolean;
  Naked: boolean;
}

export interface Redirect extends NodeBase {
  kind: 'Redirect';
  Op: number;
  N: Lit | null;
  Word: Word;
  Hdoc: Word | null;
}

export interface CallExpr extends NodeBase {
  kind: 'CallExpr';
  Assigns: Assign[];
  Args: Word[];
}

export interface BinaryCmd extends NodeBase {
  kind: 'BinaryCmd';
  Op: number;
  X: Stmt;
  Y: Stmt;
}

export interface StmtList extends NodeBase {
  kind: 'Subshell' | 'Block';
  Stmts: Stmt[]; // Subshell, Block
}

export interface IfClause extends NodeBase {
  kind: 'IfClause';
  Cond: Stmt[];
  Then: Stmt[];
  Else: IfClause | null; // elif (Cond set) or else (Cond empty)
}

export interface WhileClause extends NodeBase {
  kind: 'WhileClause';
  Until: boolean;
  Cond: Stmt[];
  Do: Stmt[];
}

export interface ForClause extends NodeBase {
  kind: 'ForClause';
  Loop: WordIter | CStyleLoop;
  Do: Stmt[];
}

export interface WordIter extends NodeBase {
  kind: 'WordIter';
  Items: Word[];
}

export interface CStyleLoop extends NodeBase {
  kind: 'CStyleLoop';
  Init: Node | null;
  Cond: Node | null;
  Post: Node | null;
}

export interface CaseClause extends NodeBase {
  kind: 'CaseClause';
  Word: Word;
  Items: CaseItem[];
}

export interface CaseItem extends NodeBase {
  kind: 'CaseItem';
  Patterns: Word[];
  Stmts: Stmt[];
}

export interface FuncDecl extends NodeBase {
  kind: 'FuncDecl';
  Name: Lit | null; // f in f() { …; } and function f { …; }
  Body: Stmt;
}

// [[ ]], (( )) and test operators: positions the parser always sets.

export interface TestClause extends NodeBase {
  kind: 'TestClause';
  Left: number;
  Right: number;
  X: Node;
}

export interface TestOperation extends NodeBase {
  kind: 'UnaryTest' | 'BinaryTest';
  Op: number;
  OpPos: number;
  X: Node;
  Y?: Node;
}

export interface ParenTest extends NodeBase {
  kind: 'ParenTest';
  Lparen: number;
  Rparen: number;
  X: Node;
}

export interface ArithmCmd extends NodeBase {
  kind: 'ArithmCmd';
  Left: number;
  Right: number;
  X: Node | null;
}

export interface DeclClause extends NodeBase {
  kind: 'DeclClause';
  Variant: Lit;
  Args: Assign[];
}

export interface LetClause extends NodeBase {
  kind: 'LetClause';
  Exprs: Node[];
}

export interface TimeClause extends NodeBase {
  kind: 'TimeClause';
  Stmt: Stmt | null;
}

export interface CoprocClause extends NodeBase {
  kind: 'CoprocClause';
  Stmt: Stmt;
}

// ---- reading GopherJS values ----

/** GopherJS's runtime description of a Go type (the constructor of every Go value it makes). */
interface GoType {
  kind: number;
  string: string; // "*syntax.Stmt", "syntax.Pos", "[]*syntax.Word"
  nil: unknown; // a pointer type's nil value
  elem: GoType; // pointers and slices
  fields: GoField[]; // structs
}

interface GoField {
  prop: string; // the field's JS name, which the wrapped API uses too
  exported: boolean;
  typ: GoType;
}

/** A Go value as GopherJS holds it: structs are objects with their fields, slices window an array. */
type GoValue = Record<string, unknown> & {
  constructor: GoType | undefined;
  $array: unknown[];
  $offset: number;
  $length: number;
  Pos(): GoValue;
  End(): GoValue;
  Offset(): number;
  IsValid(): boolean;
};

// GopherJS numbers its kinds as Go's reflect.Kind does.
const kindInterface = 20;
const kindPtr = 22;
const kindSlice = 23;
const kindString = 24;
const kindStruct = 25;

/** What the walk needs of one struct type, worked out on its first value. */
interface StructPlan {
  kind: string | null; // the node kind, or null for a struct that is no node (ParamExp's Slice)
  fields: GoField[]; // the exported ones
}

/** One value still to copy: where its copy goes, and the Go type it was declared with. */
interface Pending {
  into: Record<string | number, unknown>;
  key: string | number;
  value: GoValue;
  type: GoType;
}

const plans = new Map<GoType, StructPlan>();
const nonAscii = /[\u0080-\uffff]/;

/**
 * The tree mvdan parsed, as plain objects whose positions are indices into the source
 * (`toIndex` maps mvdan's byte offsets). Throws when the value under the wrapper is not a Go *File.
 */
export function readTree(file: ShFile, toIndex: (byteOffset: number) => number): File {
  const root = (file as unknown as { __internal_object__?: GoValue }).__internal_object__;
  const rootType = root?.constructor;
  if (root === undefined || rootType?.string !== '*syntax.File') {
    throw new Error('mvdan-sh returned no *syntax.File');
  }
  const holder: { file?: File } = {};
  // A work list, not recursion: a deep tree (a pipeline of thousands of stages) must not run out of
  // stack here where the parser and the segmenter do not.
  const work: Pending[] = [{ into: holder, key: 'file', value: root, type: rootType }];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    const { into, key, value } = next;
    let type = next.type;
    if (type.kind === kindInterface) {
      // A non-nil interface holds a Go value, whose constructor is its type; nil is a bare object.
      const dynamic = value.constructor;
      if (typeof dynamic?.kind !== 'number') {
        into[key] = null;
        continue;
      }
      type = dynamic;
    }
    if (type.kind === kindPtr) {
      if (value === type.nil) {
        into[key] = null;
        continue;
      }
      type = type.elem;
    }
    switch (type.kind) {
      case kindStruct: {
        if (type.string === 'syntax.Pos') {
          into[key] = value.IsValid() ? toIndex(value.Offset()) : null;
          break;
        }
        const plan = plans.get(type) ?? planOf(type, value);
        const copy: Record<string, unknown> = {};
        if (plan.kind !== null) {
          copy.kind = plan.kind;
          // Go's own Pos() and End(), called on the Go value: no wrapper in between.
          copy.pos = toIndex(value.Pos().Offset());
          copy.end = toIndex(value.End().Offset());
        }
        for (const field of plan.fields) {
          work.push({ into: copy, key: field.prop, value: value[field.prop] as GoValue, type: field.typ });
        }
        into[key] = copy;
        break;
      }
      case kindSlice: {
        const items: unknown[] = new Array(value.$length);
        for (let i = 0; i < value.$length; i += 1) {
          work.push({
            into: items as unknown as Pending['into'], // an array, written at numeric keys
            key: i,
            value: value.$array[value.$offset + i] as GoValue,
            type: type.elem,
          });
        }
        into[key] = items;
        break;
      }
      case kindString: {
        // Go strings are UTF-8 bytes, one per JS char: decode the rare non-ASCII one as GopherJS would.
        const bytes = value as unknown as string;
        into[key] = nonAscii.test(bytes) ? Buffer.from(bytes, 'latin1').toString('utf8') : bytes;
        break;
      }
      default:
        into[key] = value; // booleans and operator numbers are plain JS values already
    }
  }
  return holder.file as File;
}

function planOf(type: GoType, sample: GoValue): StructPlan {
  const isNode = typeof sample.Pos === 'function' && typeof sample.End === 'function';
  const plan: StructPlan = {
    // NodeType's rule: the type's name after the package ("syntax.CallExpr" → CallExpr).
    kind: isNode ? type.string.slice(type.string.lastIndexOf('.') + 1) : null,
    fields: type.fields.filter((field) => field.exported),
  };
  plans.set(type, plan);
  return plan;
}
