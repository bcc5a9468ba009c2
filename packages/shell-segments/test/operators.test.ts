import { expect, test } from 'vitest';
import { parseTree } from '../src/load-parser.ts';
import { byteToIndex } from '../src/offsets.ts';
import { binaryCmdOps, procSubstOps, redirectOps, testOpLengths } from '../src/operators.ts';
import {
  type BinaryCmd,
  type CallExpr,
  type ProcSubst,
  readTree,
  type TestClause,
  type TestOperation,
} from '../src/syntax-tree.ts';

// The tables in src/operators.ts hold the numbers mvdan-sh gives; these tests ask the parser,
// through the same copy of its tree the segmenter reads.
const firstStmt = (source: string) => readTree(parseTree(source), byteToIndex(source)).Stmts[0];
const firstCmd = (source: string) => firstStmt(source)?.Cmd;

test.for(Object.entries(binaryCmdOps))('BinaryCmd op %s is %s', ([number, op]) => {
  expect((firstCmd(`a ${op} b`) as BinaryCmd).Op).toBe(Number(number));
});

test.for(Object.entries(redirectOps))('Redirect op %s is %s', ([number, op]) => {
  const source = op === '<<' || op === '<<-' ? `a ${op}E\nx\nE` : `a ${op} b`;
  expect(firstStmt(source)?.Redirs[0]?.Op).toBe(Number(number));
});

test.for(Object.entries(procSubstOps))('ProcSubst op %s is %s(', ([number, direction]) => {
  const word = (firstCmd(`a ${direction}(b)`) as CallExpr).Args[1];
  expect((word?.Parts[0] as ProcSubst | undefined)?.Op).toBe(Number(number));
});

const testOps = [
  '&&',
  '||',
  '==',
  '!=',
  '<',
  '>',
  '=',
  '=~',
  '-nt',
  '-ot',
  '-ef',
  '-eq',
  '-ne',
  '-le',
  '-ge',
  '-lt',
  '-gt',
];
test.for(testOps)('[[ a %s b ]]: the operator length is known', (op) => {
  const test1 = (firstCmd(`[[ a ${op} b ]]`) as TestClause).X as TestOperation;
  expect(testOpLengths[test1.Op]).toBe(op.length);
});

const unaryOps = [
  '-e',
  '-f',
  '-d',
  '-c',
  '-b',
  '-p',
  '-S',
  '-L',
  '-k',
  '-g',
  '-u',
  '-G',
  '-O',
  '-N',
  '-r',
  '-w',
  '-x',
  '-s',
  '-t',
  '-z',
  '-n',
  '-o',
  '-v',
  '-R',
  '-a',
  '-h',
  '!',
];
test.for(unaryOps)('[[ %s a ]]: the operator length is known', (op) => {
  const test1 = (firstCmd(`[[ ${op} a ]]`) as TestClause).X as TestOperation;
  expect(testOpLengths[test1.Op]).toBe(op.length);
});
