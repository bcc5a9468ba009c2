/**
 * Registry patterns are written in the common subset of Python and JavaScript regex syntax, so a
 * registry made for the Python guard works unchanged. This module turns one such pattern into a
 * JavaScript RegExp: POSIX classes inside brackets, and the few Python spellings a registry is
 * likely to carry (`(?P<name>…)`, `(?P=name)`, a leading `(?i)`, `\A`, `\Z`).
 */
import { mayMatch, type RequiredLiterals, requiredLiterals } from './required-literals.ts';

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

/** `(?P<name>`, `(?P=name)`, `\A` and `\Z` in their JavaScript spelling; an escaped backslash stays one. */
function translatePythonSpellings(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === '\\') {
      const next = source[i + 1];
      out += next === 'A' ? '^' : next === 'Z' ? '$' : source.slice(i, i + 2);
      i++;
      continue;
    }
    const backreference = ch === '(' ? /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(source.slice(i)) : null;
    if (backreference) {
      out += `\\k<${backreference[1]}>`;
      i += backreference[0].length - 1;
    } else if (ch === '(' && source.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
    } else out += ch;
  }
  return out;
}

/** A registry pattern as JavaScript regex source and flags, or why it has none. */
export type TranslatedPattern = { ok: true; source: string; flags: string } | { ok: false; message: string };

/** The JavaScript source and flags of one registry pattern (POSIX classes, Python spellings), without compiling it. */
export function translatePattern(pattern: unknown): TranslatedPattern {
  if (typeof pattern !== 'string') return { ok: false, message: `not a string: ${JSON.stringify(pattern)}` };
  let source = pattern.includes('[') ? translatePosixClasses(pattern) : pattern;
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    const wanted = inline[1] as string;
    if (/[Lux]/.test(wanted))
      return { ok: false, message: `inline flags (?${wanted}) have no JavaScript equivalent` };
    flags = [...new Set(wanted.replace('a', ''))].join('');
    source = source.slice(inline[0].length);
  }
  if (source.includes('(?P') || source.includes('\\A') || source.includes('\\Z')) {
    source = translatePythonSpellings(source);
  }
  return { ok: true, source, flags };
}

/** Compiles one registry pattern; never throws. */
export function compilePattern(pattern: unknown): PatternOutcome {
  const translated = translatePattern(pattern);
  if (!translated.ok) return translated;
  try {
    return { ok: true, regex: new RegExp(translated.source, translated.flags) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * One registry pattern as heads are tested against it: first its required literals (a head that
 * lacks them cannot match, so the regex never runs), then the RegExp, compiled on first use.
 */
export interface Pattern {
  readonly source: string; // as written in the registry file
  readonly literals: RequiredLiterals | null; // what a matching head contains; null: not known
  /** Searches the head; `lowerHead` gives it lower-cased, for a case-insensitive prefilter. */
  test(head: string, lowerHead?: () => string): boolean;
}

class RegistryPattern implements Pattern {
  private regex: RegExp | null | undefined;

  constructor(
    readonly source: string,
    readonly literals: RequiredLiterals | null,
    regex?: RegExp,
  ) {
    this.regex = regex;
  }

  test(head: string, lowerHead?: () => string): boolean {
    if (!mayMatch(this.literals, head, lowerHead)) return false;
    if (this.regex === undefined) {
      const outcome = compilePattern(this.source);
      this.regex = outcome.ok ? outcome.regex : null;
    }
    if (this.regex === null) return false;
    this.regex.lastIndex = 0;
    return this.regex.test(head);
  }
}

/** The required literals of a pattern's text, or null (not a string, not translatable, or unreadable). */
export function literalsOfPattern(pattern: unknown): RequiredLiterals | null {
  const translated = translatePattern(pattern);
  return translated.ok ? requiredLiterals(translated.source, translated.flags) : null;
}

/**
 * A pattern known to compile (a shipped one: its test asserts it), with literals computed at build
 * time: nothing is compiled until a head passes the prefilter.
 */
export function trustedPattern(source: string, literals: RequiredLiterals | null): Pattern {
  return new RegistryPattern(source, literals);
}

/** A pattern from a file on disk: compiled now, so a bad one is reported, and prefiltered like the rest. */
export function checkedPattern(
  pattern: unknown,
): { ok: true; value: Pattern } | { ok: false; message: string } {
  const outcome = compilePattern(pattern);
  if (!outcome.ok) return outcome;
  return {
    ok: true,
    value: new RegistryPattern(pattern as string, literalsOfPattern(pattern), outcome.regex),
  };
}
