// mvdan-sh reports BYTE offsets into the UTF-8 encoding of the source; the kit's API speaks UTF-16
// string indices, so that `text === input.slice(start, end)` holds for any input.

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The source with each lone surrogate replaced by U+FFFD. Same UTF-16 length, so offsets into it are
 * offsets into the input; GopherJS mis-encodes lone surrogates (it swallows the next character).
 */
export function toWellFormed(source: string): string {
  return source.replace(loneSurrogate, '\ufffd');
}

/** A converter from byte offsets (in the UTF-8 encoding of a well-formed `source`) to UTF-16 indices. */
export function byteToIndex(source: string): (byteOffset: number) => number {
  // ASCII is the common case: bytes and UTF-16 units line up one to one.
  if (/^\p{ASCII}*$/u.test(source)) return (byteOffset) => Math.min(byteOffset, source.length);
  const indexAtByte: number[] = [];
  let index = 0;
  while (index < source.length) {
    const codePoint = source.codePointAt(index) ?? 0;
    const units = codePoint > 0xffff ? 2 : 1;
    const bytes = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint <= 0xffff ? 3 : 4;
    for (let b = 0; b < bytes; b += 1) indexAtByte.push(index);
    index += units;
  }
  indexAtByte.push(source.length);
  return (byteOffset) =>
    indexAtByte[Math.min(Math.max(byteOffset, 0), indexAtByte.length - 1)] ?? source.length;
}
