// The little of mvdan-sh's wrapped JS API the kit still touches: the parser, the root it returns
// (which readTree copies, see syntax-tree.ts, where the node shapes are written down) and Walk /
// NodeType for the tests. Every read through it goes through GopherJS's wrappers.

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

/** The root parseTree returns; its fields are read through the copy in syntax-tree.ts. */
export interface ShFile extends ShNode {
  Stmts: ShNode[];
}

/** mvdan-sh's `syntax` namespace. */
export interface MvdanSyntax {
  NewParser(): { Parse(src: string, name: string): ShFile };
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
}
