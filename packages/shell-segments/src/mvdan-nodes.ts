// mvdan/sh's syntax tree (mvdan.cc/sh/v3/syntax, as compiled by GopherJS) as its wrapped JS API
// hands it out: what parseTree returns and the tests read. Field names are Go's; slices arrive as JS
// arrays, nil as null. The segmenter reads a plain copy instead (syntax-tree.ts): every read here
// goes through GopherJS's wrappers.

/** A position in the source: a BYTE offset into its UTF-8 encoding. */
export interface ShPos {
  Offset(): number;
  IsValid(): boolean;
}

/** Every node has a start and an end position. */
export interface ShNode {
  Pos(): ShPos;
  End(): ShPos;
}

export interface ShFile extends ShNode {
  Stmts: ShStmt[];
}

export interface ShStmt extends ShNode {
  Cmd: ShNode | null; // null for a statement of redirections only: > out.log
  Negated: boolean; // ! cmd
  Background: boolean; // cmd &
  Semicolon: ShPos; // position of ; or & (invalid when a newline or nothing ends it)
  Redirs: ShRedirect[];
}

export interface ShLit extends ShNode {
  Value: string; // raw: backslashes kept, line continuations removed
}

export interface ShWord extends ShNode {
  Parts: ShNode[];
}

export interface ShSglQuoted extends ShNode {
  Dollar: boolean; // $'..'
  Value: string;
}

export interface ShDblQuoted extends ShNode {
  Dollar: boolean; // $".."
  Parts: ShNode[];
}

export interface ShParamExp extends ShNode {
  Param: ShLit | null;
  Index: ShNode | null;
  Slice: { Offset: ShNode | null; Length: ShNode | null } | null;
  Repl: { Orig: ShWord | null; With: ShWord | null } | null;
  Exp: { Word: ShWord | null } | null;
}

export interface ShCmdSubst extends ShNode {
  Stmts: ShStmt[];
  Backquotes: boolean;
}

export interface ShProcSubst extends ShNode {
  Op: number;
  Stmts: ShStmt[];
}

export interface ShArithmExp extends ShNode {
  X: ShNode | null;
}

export interface ShArithmOperation extends ShNode {
  X: ShNode | null;
  Y?: ShNode | null;
}

export interface ShAssign extends ShNode {
  Name: ShLit | null;
  Index: ShNode | null;
  Value: ShWord | null;
  Array: { Elems: { Index: ShNode | null; Value: ShWord | null }[] } | null;
  Append: boolean;
  Naked: boolean;
}

export interface ShRedirect extends ShNode {
  Op: number;
  N: ShLit | null;
  Word: ShWord;
  Hdoc: ShWord | null;
}

export interface ShCallExpr extends ShNode {
  Assigns: ShAssign[];
  Args: ShWord[];
}

export interface ShBinaryCmd extends ShNode {
  Op: number;
  X: ShStmt;
  Y: ShStmt;
}

export interface ShStmtList extends ShNode {
  Stmts: ShStmt[]; // Subshell, Block
}

export interface ShIfClause extends ShNode {
  Cond: ShStmt[];
  Then: ShStmt[];
  Else: ShIfClause | null; // elif (Cond set) or else (Cond empty)
}

export interface ShWhileClause extends ShNode {
  Until: boolean;
  Cond: ShStmt[];
  Do: ShStmt[];
}

export interface ShForClause extends ShNode {
  Loop: ShNode; // WordIter { Name, Items } or CStyleLoop { Init, Cond, Post }
  Do: ShStmt[];
}

export interface ShCaseClause extends ShNode {
  Word: ShWord;
  Items: { Patterns: ShWord[]; Stmts: ShStmt[]; Pos(): ShPos; End(): ShPos }[];
}

export interface ShFuncDecl extends ShNode {
  Body: ShStmt;
}

export interface ShTestClause extends ShNode {
  Left: ShPos;
  Right: ShPos;
  X: ShNode;
}

export interface ShTestOperation extends ShNode {
  Op: number;
  OpPos: ShPos;
  X: ShNode;
  Y?: ShNode;
}

export interface ShParenTest extends ShNode {
  Lparen: ShPos;
  Rparen: ShPos;
  X: ShNode;
}

export interface ShArithmCmd extends ShNode {
  Left: ShPos;
  Right: ShPos;
  X: ShNode | null;
}

export interface ShDeclClause extends ShNode {
  Variant: ShLit;
  Args: ShAssign[];
}

export interface ShLetClause extends ShNode {
  Exprs: ShNode[];
}

export interface ShTimeClause extends ShNode {
  Stmt: ShStmt | null;
}

export interface ShCoprocClause extends ShNode {
  Stmt: ShStmt;
}

/** mvdan-sh's `syntax` namespace. */
export interface MvdanSyntax {
  NewParser(): { Parse(src: string, name: string): ShFile };
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
}
