/**
 * Registry patterns are written in the common subset of Python and JavaScript regex syntax, so a
 * registry made for the Python guard works unchanged. This module turns one such pattern into a
 * JavaScript RegExp: POSIX classes inside brackets, and the few Python spellings a registry is
 * likely to carry (`(?P<name>…)`, `(?P=name)`, a leading `(?i)`, `\A`, `\Z`).
 */

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

/** What compiling one pattern gave: the RegExp, or why it was dropped. */
export type PatternOutcome = { ok: true; regex: RegExp } | { ok: false; message: string };

/** Rewrites `[:name:]` inside a bracket expression as its JavaScript range; other text is kept. */
export function translatePosixClasses(pattern: string): string {
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
      // A `]` right after `[` or `[^` is a literal member, not the end of the class.
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

/** Compiles one registry pattern; never throws. */
export function compilePattern(pattern: unknown): PatternOutcome {
  if (typeof pattern !== 'string') return { ok: false, message: `not a string: ${JSON.stringify(pattern)}` };
  let source = translatePosixClasses(pattern);
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    const wanted = inline[1] as string;
    if (/[Lux]/.test(wanted))
      return { ok: false, message: `inline flags (?${wanted}) have no JavaScript equivalent` };
    flags = [...new Set(wanted.replace('a', ''))].join('');
    source = source.slice(inline[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$');
  try {
    return { ok: true, regex: new RegExp(source, flags) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
