import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compilePattern, translatePosixClasses } from '../src/index.ts';

// compilePattern and translatePosixClasses skip work a pattern does not need (the usual case);
// they must give exactly what the full work gives. The references below are the full work.

const posixClasses: Record<string, string> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  blank: ' \\t',
  digit: '0-9',
  lower: 'a-z',
  space: '\\s',
  upper: 'A-Z',
  word: '\\w',
  xdigit: '0-9A-Fa-f',
};

function fullTranslate(pattern: string): string {
  let out = '';
  let inBracket = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (inBracket) {
      const posix = /^\[:([a-z]+):\]/.exec(pattern.slice(i));
      const range = posix ? posixClasses[posix[1] as string] : undefined;
      if (posix && range !== undefined) {
        out += range;
        i += posix[0].length - 1;
        continue;
      }
      if (ch === ']') inBracket = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inBracket = true;
      out += ch;
      const rest = pattern.slice(i + 1);
      const lead = rest.startsWith('^]') ? '^]' : rest.startsWith(']') ? ']' : '';
      out += lead === ']' ? '\\]' : lead === '^]' ? '^\\]' : '';
      i += lead.length;
      continue;
    }
    out += ch;
  }
  return out;
}

function fullCompile(pattern: string): { source: string; flags: string } | string {
  let source = fullTranslate(pattern);
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    const wanted = inline[1] as string;
    if (/[Lux]/.test(wanted)) return `inline flags (?${wanted}) have no JavaScript equivalent`;
    flags = [...new Set(wanted.replace('a', ''))].join('');
    source = source.slice(inline[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$');
  try {
    const regex = new RegExp(source, flags);
    return { source: regex.source, flags: regex.flags };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// Patterns from the characters the shortcuts look for, and a few words that make them.
const pattern = fc
  .array(
    fc.oneof(
      fc.constantFrom('[', ']', ':', '^', '(', ')', '?', 'P', '<', '>', '=', '\\', 'A', 'Z', 'a', 'i', ' '),
      fc.constantFrom(
        '[:alpha:]',
        '[[:space:]]',
        '[]',
        '[^]',
        '(?P<n>',
        '(?P=n)',
        '(?i)',
        '(?x)',
        '\\A',
        '\\Z',
      ),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

test('translatePosixClasses gives what the full walk gives', () => {
  fc.assert(
    fc.property(pattern, (text) => {
      expect(translatePosixClasses(text)).toBe(fullTranslate(text));
    }),
    { numRuns: 5000 },
  );
});

test('compilePattern gives what the full work gives', () => {
  fc.assert(
    fc.property(pattern, (text) => {
      const outcome = compilePattern(text);
      const full = fullCompile(text);
      if (typeof full === 'string') expect(outcome).toEqual({ ok: false, message: full });
      else if (!outcome.ok) throw new Error(`${text}: ${outcome.message}`);
      else expect({ source: outcome.regex.source, flags: outcome.regex.flags }).toEqual(full);
    }),
    { numRuns: 5000 },
  );
});
