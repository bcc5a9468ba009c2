// Quote removal on literal pieces the parser has already delimited. mvdan keeps a Lit's backslashes
// and a $'..' string's escapes as written, so the value a command receives is computed here.

/** An unquoted literal: a backslash quotes the next character. */
export function unescapeUnquoted(raw: string): string {
  return raw.replace(/\\([\s\S])/g, '$1');
}

/** A literal inside double quotes: a backslash quotes only $ ` " \ and a newline. */
export function unescapeDoubleQuoted(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === '\n' ? '' : char));
}

const simpleEscapes: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The value of an ANSI-C string $'..' (bash's escapes: \n \t \xHH \uHHHH \nnn \cX ...). */
export function decodeAnsiC(raw: string): string {
  return raw.replace(
    /\\(?:([abeEfnrtv\\'"?])|([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c([\s\S]))/g,
    (whole, simple?: string, octal?: string, hex?: string, u4?: string, u8?: string, control?: string) => {
      if (simple !== undefined) return simpleEscapes[simple] ?? whole;
      if (octal !== undefined) return String.fromCharCode(Number.parseInt(octal, 8) & 0xff);
      if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
      const codePoint = Number.parseInt((u4 ?? u8) as string, 16);
      if (u4 !== undefined || u8 !== undefined) {
        return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
      }
      return String.fromCharCode((control as string).charCodeAt(0) & 0x1f);
    },
  );
}

/**
 * Whether an unquoted literal can expand to something else: a glob (* ? [), a brace expansion
 * ({a,b} {1..3}) or a tilde. Over-inclusive on purpose: a false "dynamic" only costs precision.
 */
export function isExpandingLiteral(raw: string, atWordStart: boolean): boolean {
  const unescaped = raw.replace(/\\[\s\S]/g, '_');
  if (/[*?[]/.test(unescaped)) return true;
  if (/\{/.test(unescaped) && /\}/.test(unescaped) && /,|\.\./.test(unescaped)) return true;
  return (atWordStart && unescaped.startsWith('~')) || /[=:]~/.test(unescaped);
}
