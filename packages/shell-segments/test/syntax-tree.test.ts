import { expect, test } from 'vitest';
import { loadSyntax, parseTree } from '../src/load-parser.ts';
import { byteToIndex } from '../src/offsets.ts';
import { handledNodeKinds } from '../src/segmenter.ts';
import { type Node, readTree } from '../src/syntax-tree.ts';
import { corpus } from './corpus.ts';

// readTree reads GopherJS's own values under mvdan-sh's wrappers; these tests hold its copy to what
// the wrapped API (field getters, Pos()/End(), NodeType) says about the same tree.

type Wrapped = Record<string, unknown>;
type Pos = { Offset(): number; IsValid(): boolean };

const extraCommands = [
  "echo é 😀 \"ünï $x\" 'ß' $'\\u00e9' # çomment",
  'x=é y[1]=ü; declare -a z=(ä "$b") && let "n = 1" m+=2',
  'cat <<EOF\nbödy $(whoami) ${v:-ñ}\nEOF\n[[ é == ü* ]] && (( i += 1 ))',
  'for ((i = 0; i < 3; i++)); do echo "$i"; done; select x in a b; do :; done',
  'f() { local r=$?; }; coproc { sleep 1; }; time -p true; ! false; echo ${a/é/ü} ${#x} ${x:1:2}',
];

function fieldsOf(wrapped: Wrapped): string[] {
  return Object.getOwnPropertyNames(wrapped).filter(
    (name) => Object.getOwnPropertyDescriptor(wrapped, name)?.get,
  );
}

function compare(plain: unknown, wrapped: unknown, toIndex: (offset: number) => number, path: string): void {
  if (wrapped === null || typeof wrapped !== 'object') {
    expect(plain, path).toBe(wrapped);
    return;
  }
  if (Array.isArray(wrapped)) {
    expect(Array.isArray(plain), path).toBe(true);
    expect((plain as unknown[]).length, path).toBe(wrapped.length);
    for (const [i, item] of wrapped.entries())
      compare((plain as unknown[])[i], item, toIndex, `${path}[${i}]`);
    return;
  }
  const object = wrapped as Wrapped;
  if (typeof object.Offset === 'function') {
    const pos = object as unknown as Pos;
    expect(plain, path).toBe(pos.IsValid() ? toIndex(pos.Offset()) : null);
    return;
  }
  const copy = plain as Record<string, unknown>;
  const fields = fieldsOf(object);
  if (typeof object.Pos === 'function') {
    const node = object as unknown as { Pos(): Pos; End(): Pos };
    expect(copy.kind, path).toBe(loadSyntax().NodeType(object as never));
    expect(copy.pos, `${path}.pos`).toBe(toIndex(node.Pos().Offset()));
    expect(copy.end, `${path}.end`).toBe(toIndex(node.End().Offset()));
    expect(Object.keys(copy).sort(), path).toEqual(['kind', 'pos', 'end', ...fields].sort());
  } else {
    expect(Object.keys(copy).sort(), path).toEqual([...fields].sort());
  }
  for (const name of fields) compare(copy[name], object[name], toIndex, `${path}.${name}`);
}

test.for([...corpus.map((c) => c.command), ...extraCommands])('the plain tree of %s', (command) => {
  const toIndex = byteToIndex(command);
  const wrapped = parseTree(command);
  compare(readTree(wrapped, toIndex), wrapped, toIndex, 'File');
});

test('a value that is no mvdan File is refused', () => {
  expect(() => readTree({} as never, (offset) => offset)).toThrow(/no \*syntax\.File/);
});

// The kinds `Node` names: those the segmenter reads, and those it only skips (typed: a name that is
// no kind of Node does not compile). A kind met in the corpus that is missing here is one the
// segmenter's switches would meet untyped.
const skippedKinds: readonly Node['kind'][] = ['Comment', 'BraceExp', 'TestDecl'];
const declaredKinds: ReadonlySet<string> = new Set([...handledNodeKinds, ...skippedKinds]);

function kindsIn(value: unknown, into: Set<string>): Set<string> {
  if (value === null || typeof value !== 'object') return into;
  if (Array.isArray(value)) {
    for (const item of value) kindsIn(item, into);
    return into;
  }
  const object = value as Record<string, unknown>;
  if (typeof object.kind === 'string') into.add(object.kind);
  for (const field of Object.values(object)) kindsIn(field, into);
  return into;
}

test('every node kind of the corpus is one the Node type declares', () => {
  const met = new Set<string>();
  for (const command of [...corpus.map((c) => c.command), ...extraCommands, 'echo @(a|b) {x,y}; a=(1 [2]=3)'])
    kindsIn(readTree(parseTree(command), byteToIndex(command)), met);
  expect([...met].filter((kind) => !declaredKinds.has(kind))).toEqual([]);
  expect(met.size).toBeGreaterThan(30);
});
