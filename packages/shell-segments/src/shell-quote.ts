/** A word the shell reads back as exactly this text: bare when it is safe, single-quoted otherwise. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_./:=+@%-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
