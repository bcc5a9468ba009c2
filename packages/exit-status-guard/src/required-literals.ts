/**
 * What a text must contain for a registry pattern to match anywhere in it: a conjunction of
 * clauses, each a set of literals of which at least one occurs. Read from the JavaScript source a
 * pattern compiles to (`translatePattern`), so it is known without executing the regex, and used
 * twice: to skip a regex a head cannot match (the prefilter), and to decide without the parser
 * that no gate can stand at any head of a command (the pre-check).
 *
 * Soundness is the whole point: for every string the regex matches, every clause holds. So a
 * literal never holds a character the pre-check's normalization deletes or that can stand between
 * two words (blanks, quotes, backslashes, `$`, backticks), and anything this reader does not
 * understand gives `null` ("no literal known": always test, always parse), never a guess.
 */

/**
 * Every clause must have one of its literals in the text; no clauses: no requirement. A literal
 * may start and/or end with `wordEdge`: there it must stand at a word's edge in the text (see
 * `occursIn`), as the pattern put it after `^` or a space, or before `$` or a space.
 */
export interface RequiredLiterals {
  clauses: string[][];
  ignoreCase: boolean; // literals are lower case; compare with the text lower-cased
}

/** Marks a literal's end that must stand at a word's edge. */
export const wordEdge = '\u0001';

// Characters a literal never holds: they can separate words, or the pre-check deletes them. A
// space is not one: it becomes a word edge between two literals.
const breakCharacters = new Set(['\t', '\n', '\r', '\v', '\f', "'", '"', '\\', '$', '`', wordEdge]);
// A cross product larger than this is flushed as a clause of its own and restarted.
const maxExact = 64;

/** What a part of a pattern matches: exactly one of `exact` (finite), or strings meeting `clauses`. */
interface Info {
  exact: string[] | null;
  clauses: string[][];
}

const unknown: Info = { exact: null, clauses: [] };
const empty: Info = { exact: [''], clauses: [] };
const edge: Info = { exact: [wordEdge], clauses: [] };

class Unreadable extends Error {}

/**
 * The literals a pattern requires, from its JavaScript source and flags; null when the source holds
 * syntax this reader does not know (then the pattern is always tested, and always means "parse").
 */
export function requiredLiterals(source: string, flags: string): RequiredLiterals | null {
  if (/[^imsdgy]/.test(flags)) return null;
  const ignoreCase = flags.includes('i');
  try {
    const reader = new PatternReader(withLeadingPathAsEdge(source), ignoreCase);
    const info = reader.readAlternation();
    if (!reader.atEnd()) return null;
    return { clauses: minimize(info.exact ? clausesOfSet(info.exact) : info.clauses), ignoreCase };
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
}

// `^(\S*/)?make` and `^(\.{1,2}/)*scripts/`: what follows the optional path starts the head or
// follows a `/`, a word's edge either way; the registry's most common opening reads as `^`.
function withLeadingPathAsEdge(source: string): string {
  for (const opening of ['^(\\S*/)?', '^(\\.{1,2}/)*']) {
    if (source.startsWith(opening)) return `^${source.slice(opening.length)}`;
  }
  return source;
}

/**
 * True when `text` can hold a match: every clause has a literal in it. `lowerText` is the text
 * lower-cased, for case-insensitive patterns (computed once by the caller). null: always true.
 */
export function mayMatch(
  literals: RequiredLiterals | null,
  text: string,
  lowerText: () => string = () => text.toLowerCase(),
): boolean {
  if (literals === null) return true;
  const haystack = literals.ignoreCase ? lowerText() : text;
  for (const clause of literals.clauses) {
    if (!clause.some((literal) => occursIn(literal, haystack))) return false;
  }
  return true;
}

// A character that continues a word on its left or right side in the pre-check's text. Nothing the
// guard does to a head puts `-` beside a word's edge, nor `.` before its start (a tool's basename
// follows a `/`); a `.` or `@` may follow its end (`pnpm.exe`, `prettier@3`), so there they are edges.
function continuesWord(code: number, before: boolean): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 || // _
    code === 45 || // -
    (before && code === 46) // .
  );
}

/**
 * True when the literal stands in the text, at a word's edge where it is marked so: a marked start
 * follows no letter, digit, `_`, `-` or `.`; a marked end is followed by no letter, digit, `_` or `-`.
 */
export function occursIn(literal: string, text: string): boolean {
  const atStart = literal.startsWith(wordEdge);
  const atEnd = literal.length > 1 && literal.endsWith(wordEdge);
  if (!atStart && !atEnd) return text.includes(literal);
  const core = literal.slice(atStart ? 1 : 0, atEnd ? -1 : undefined);
  for (let at = text.indexOf(core); at >= 0; at = text.indexOf(core, at + 1)) {
    if (atStart && at > 0 && continuesWord(text.charCodeAt(at - 1), true)) continue;
    const after = at + core.length;
    if (atEnd && after < text.length && continuesWord(text.charCodeAt(after), false)) continue;
    return true;
  }
  return false;
}

/** A literal without its edge marks. */
export function coreOf(literal: string): string {
  return literal.replaceAll(wordEdge, '');
}

// The pieces a matched string requires: the runs between its edges (a space or an anchor in the
// pattern), each marked at the edges it touches. Words apart in a head may stand apart in the text
// (`cargo 2>&1 test`), so no literal spans an edge.
function piecesOf(string: string): string[] {
  const parts = string.split(wordEdge);
  const pieces: string[] = [];
  parts.forEach((part, i) => {
    if (part === '') return;
    pieces.push(`${i > 0 ? wordEdge : ''}${part}${i < parts.length - 1 ? wordEdge : ''}`);
  });
  return pieces;
}

function scoreOf(literal: string): number {
  const core = coreOf(literal);
  return core.length + (literal.length - core.length) * 1.5;
}

// The piece to keep when a string can keep one: its first (in a head, the tool's name, which a
// text holds far less often than a subcommand such as `build` or `package`), unless that is a
// single character.
function bestPiece(string: string): string | null {
  const pieces = piecesOf(string);
  const first = pieces[0];
  if (first !== undefined && coreOf(first).length > 1) return first;
  let best: string | null = null;
  for (const piece of pieces) if (best === null || scoreOf(piece) > scoreOf(best)) best = piece;
  return best;
}

/**
 * A set of strings (one of which a match contains) as clauses: clause i holds each string's i-th
 * piece, for every i all of them have (counted from the front, and from the back when their counts
 * differ); a string with no piece gives none.
 */
function clausesOfSet(strings: string[]): string[][] {
  const pieces = strings.map(piecesOf);
  const fewest = Math.min(...pieces.map((each) => each.length));
  const clauses: string[][] = [];
  for (let i = 0; i < fewest; i++) clauses.push(pieces.map((each) => each[i] as string));
  if (pieces.some((each) => each.length !== fewest)) {
    for (let i = 1; i <= fewest; i++) clauses.push(pieces.map((each) => each[each.length - i] as string));
  }
  return clauses;
}

/** One clause for a set, as an alternation needs it (each string's best piece); null when a string has none. */
function singleClauseOf(strings: string[]): string[] | null {
  const clause: string[] = [];
  for (const string of strings) {
    const piece = bestPiece(string);
    if (piece === null) return null;
    clause.push(piece);
  }
  return clause;
}

// Drops clauses an empty literal satisfies, literals that contain a weaker one of the same clause
// (a shorter one, or the same without an edge mark: found wherever the stronger is), and repeats.
function minimize(clauses: string[][]): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const clause of clauses) {
    if (clause.length === 0 || clause.some((literal) => coreOf(literal) === '')) continue;
    const unique = [...new Set(clause)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    const kept = unique.filter(
      (literal, i) =>
        !unique.slice(0, i).some((weaker) => literal.includes(coreOf(weaker)) && covers(weaker, literal)),
    );
    const key = JSON.stringify(kept);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(kept);
  }
  return out;
}

// True when every text holding `stronger` also holds `weaker` (its core inside the other's, and no
// edge mark the other lacks at the same place).
function covers(weaker: string, stronger: string): boolean {
  const core = coreOf(weaker);
  const strongCore = coreOf(stronger);
  if (!strongCore.includes(core)) return false;
  const startMarked = weaker.startsWith(wordEdge);
  const endMarked = weaker.length > 1 && weaker.endsWith(wordEdge);
  // Marked at both edges, the weaker is a whole word: only the same whole word holds it.
  if (startMarked && endMarked) return stronger === weaker;
  if (startMarked && !(stronger.startsWith(wordEdge) && strongCore.startsWith(core))) return false;
  if (endMarked && !(stronger.length > 1 && stronger.endsWith(wordEdge) && strongCore.endsWith(core)))
    return false;
  return true;
}

function cross(left: string[], right: string[]): string[] | null {
  if (left.length * right.length > maxExact) return null;
  const out: string[] = [];
  for (const a of left) for (const b of right) out.push(collapseEdges(a + b));
  return [...new Set(out)];
}

function collapseEdges(string: string): string {
  let out = string;
  while (out.includes(wordEdge + wordEdge)) out = out.replaceAll(wordEdge + wordEdge, wordEdge);
  return out;
}

// A string of only edges matches the empty string as far as literals go.
function isVoid(string: string): boolean {
  return coreOf(string) === '';
}

// The clause a part contributes when only one can be kept (an alternation takes one per branch):
// its exact set; else its first clause (in a head, the tool's name), unless a literal of it is a
// single character; else the clause least likely to be met by chance: long literals, few of them.
function bestClause(info: Info): string[] | null {
  if (info.exact) return info.exact.some(isVoid) ? null : singleClauseOf(info.exact);
  const [first] = minimize(info.clauses);
  if (first?.every((literal) => coreOf(literal).length > 1)) return first;
  let best: string[] | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const clause of minimize(info.clauses)) {
    const score = Math.min(...clause.map(scoreOf)) - Math.log2(clause.length);
    if (score > bestScore) {
      best = clause;
      bestScore = score;
    }
  }
  return best;
}

function concatenate(parts: Info[]): Info {
  const clauses: string[][] = [];
  let current: string[] = [''];
  let allExact = true;
  const flush = () => {
    if (!current.some(isVoid)) clauses.push(...clausesOfSet(current));
    current = [''];
  };
  for (const part of parts) {
    if (part.exact) {
      const product = cross(current, part.exact);
      if (product === null) {
        allExact = false;
        flush();
        current = part.exact;
      } else current = product;
      continue;
    }
    allExact = false;
    flush();
    clauses.push(...part.clauses);
  }
  if (allExact) return { exact: current, clauses: [] };
  flush();
  return { exact: null, clauses };
}

function alternate(branches: Info[]): Info {
  if (branches.length === 1) return branches[0] as Info;
  if (branches.every((branch) => branch.exact)) {
    const union = [...new Set(branches.flatMap((branch) => branch.exact as string[]))];
    if (union.length <= maxExact) return { exact: union, clauses: [] };
    const clause = union.some(isVoid) ? null : singleClauseOf(union);
    return clause === null ? unknown : { exact: null, clauses: [clause] };
  }
  const union: string[] = [];
  for (const branch of branches) {
    const clause = bestClause(branch);
    if (clause === null) return unknown;
    union.push(...clause);
  }
  return { exact: null, clauses: [union] };
}

function repeat(part: Info, min: number, max: number): Info {
  if (min === 0) {
    if (max === 1 && part.exact && part.exact.length < maxExact) {
      return { exact: [...new Set(['', ...part.exact])], clauses: [] };
    }
    return unknown;
  }
  if (part.exact && min === max) {
    let product: string[] | null = [''];
    for (let i = 0; i < min && product !== null; i++) product = cross(product, part.exact);
    if (product !== null) return { exact: product, clauses: [] };
  }
  // One copy at least: whatever one copy requires, the repetition requires.
  if (part.exact) return { exact: null, clauses: part.exact.some(isVoid) ? [] : clausesOfSet(part.exact) };
  return { exact: null, clauses: part.clauses };
}

/** A recursive-descent reader of the regex subset registries use (JavaScript syntax, no `u` flag). */
class PatternReader {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly ignoreCase: boolean,
  ) {}

  atEnd(): boolean {
    return this.at >= this.source.length;
  }

  readAlternation(): Info {
    const branches = [this.readSequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      branches.push(this.readSequence());
    }
    return alternate(branches);
  }

  private readSequence(): Info {
    const parts: Info[] = [];
    while (!this.atEnd() && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.readAtom();
      parts.push(this.readQuantifier(atom));
    }
    return concatenate(parts);
  }

  private readQuantifier(atom: Info & { zeroWidth?: boolean }): Info {
    const ch = this.source[this.at];
    let range: [number, number] | null = null;
    if (ch === '*') range = [0, Number.POSITIVE_INFINITY];
    else if (ch === '+') range = [1, Number.POSITIVE_INFINITY];
    else if (ch === '?') range = [0, 1];
    else if (ch === '{') {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (braces) {
        const min = Number(braces[1]);
        const max =
          braces[2] === undefined ? min : braces[3] === '' ? Number.POSITIVE_INFINITY : Number(braces[3]);
        range = [min, max];
        this.at += braces[0].length - 1;
      }
    }
    if (range === null) return atom;
    this.at++;
    if (this.source[this.at] === '?') this.at++; // lazy: the same strings
    if (atom.zeroWidth) return empty;
    return repeat(atom, range[0], range[1]);
  }

  private readAtom(): Info & { zeroWidth?: boolean } {
    const ch = this.source[this.at] as string;
    switch (ch) {
      case '(':
        return this.readGroup();
      case '[':
        this.skipClass();
        return unknown;
      case '.':
        this.at++;
        return unknown;
      case '^':
      case '$':
        // The head's start or end: a word's edge wherever the head stands in a text.
        this.at++;
        return { ...edge, zeroWidth: true };
      case '\\':
        return this.readEscape();
      case '*':
      case '+':
      case '?':
        throw new Unreadable(`nothing to repeat at ${this.at}`);
      default:
        this.at++;
        return this.literal(ch);
    }
  }

  private literal(ch: string): Info {
    if (ch === ' ') return edge; // words are joined by one space: an edge on either side
    if (breakCharacters.has(ch)) return unknown;
    if (this.ignoreCase) {
      // Case folding outside ASCII differs between toLowerCase and the regex engine.
      if (ch.charCodeAt(0) > 0x7f) return unknown;
      return { exact: [ch.toLowerCase()], clauses: [] };
    }
    return { exact: [ch], clauses: [] };
  }

  private readGroup(): Info & { zeroWidth?: boolean } {
    const rest = this.source.slice(this.at);
    const lookaround = /^\(\?(=|!|<=|<!)/.exec(rest);
    const named = /^\(\?<[A-Za-z_$][\w$]*>/.exec(rest);
    let open: number;
    if (lookaround) open = lookaround[0].length;
    else if (named) open = named[0].length;
    else if (rest.startsWith('(?:')) open = 3;
    else if (rest.startsWith('(?')) throw new Unreadable(`group syntax at ${this.at}`);
    else open = 1;
    this.at += open;
    const inner = this.readAlternation();
    if (this.source[this.at] !== ')') throw new Unreadable(`unclosed group at ${this.at}`);
    this.at++;
    // A lookaround matches no characters: the text on either side stays adjacent.
    if (lookaround) return { ...empty, zeroWidth: true };
    return inner;
  }

  private skipClass(): void {
    this.at++;
    if (this.source[this.at] === '^') this.at++;
    // In JavaScript a `]` right after `[` closes an empty class: no special case.
    while (!this.atEnd() && this.source[this.at] !== ']') {
      if (this.source[this.at] === '\\') this.at++;
      this.at++;
    }
    if (this.atEnd()) throw new Unreadable('unclosed class');
    this.at++;
  }

  private readEscape(): Info & { zeroWidth?: boolean } {
    const next = this.source[this.at + 1];
    if (next === undefined) throw new Unreadable('trailing backslash');
    this.at += 2;
    if (next === 'b' || next === 'B') return { ...empty, zeroWidth: true };
    if (/[dDwWsStnrvf0-9]/.test(next)) return unknown; // classes, controls, backreferences
    if (/[A-Za-z]/.test(next)) {
      // \k<name>, \cX, \xHH, \uHHHH, \p…: read as "any character" after skipping what they hold.
      if (next === 'k' && this.source[this.at] === '<') {
        const close = this.source.indexOf('>', this.at);
        if (close < 0) throw new Unreadable('unclosed \\k<');
        this.at = close + 1;
        return unknown;
      }
      if (next === 'x') this.at += 2;
      else if (next === 'u') this.at += 4;
      else if (next === 'c') this.at += 1;
      return unknown;
    }
    return this.literal(next);
  }
}
