/**
 * What the audit trail writes of a command: the text with every secret it recognises replaced by
 * `[redacted]`. A rule keeps what tells the reader what was there (`--password=`, `GITHUB_TOKEN=`,
 * `Bearer `, `https://user:`) and replaces the value only. Ordinary text is untouched: each rule
 * needs a token's own shape, or a name that says "secret" and a value that is not a reference
 * (`$TOKEN`, `--password-stdin`, `< file`).
 */
export const redactedMark = '[redacted]';

export interface RedactRule {
  name: string;
  /** Global. Group 1, when the pattern has it, is kept; the rest of the match is the secret. */
  pattern: RegExp;
  /** A further test of the secret's text, where a shape alone would catch ordinary words. */
  accept?: (secret: string) => boolean;
}

const secretWords = String.raw`(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)`;
const optionWords = String.raw`(?:token|secret|password|passwd|api-?key|access-?key|private-?key|credentials?)`;
// A value as the shell would read it: quoted, or up to the next blank; never a reference.
const value = String.raw`(?![$<\-])("[^"]*"|'[^']*'|[^\s;&|)]+)`;

const hasDigitOrMark = (secret: string): boolean => /[0-9._~+/=-]/.test(secret);
const mixedCaseWithDigit = (secret: string): boolean =>
  /[A-Z]/.test(secret) && /[a-z]/.test(secret) && /[0-9]/.test(secret);

export const redactRules: readonly RedactRule[] = [
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { name: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36,}/g },
  { name: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { name: 'bearer', pattern: /(\b[Bb]earer\s+)([A-Za-z0-9._~+/=-]{16,})/g, accept: hasDigitOrMark },
  { name: 'basic-auth', pattern: /(\bAuthorization:\s*Basic\s+)[A-Za-z0-9+/=]{8,}/gi },
  { name: 'url-credentials', pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:)[^\s@'"/]+(?=@)/gi },
  {
    name: 'secret-option',
    pattern: new RegExp(String.raw`(--?(?:[a-z0-9]+-)*${optionWords}(?:=|\s+))${value}`, 'gi'),
  },
  {
    name: 'secret-assignment',
    pattern: new RegExp(String.raw`(\b[A-Za-z0-9_]*${secretWords}[A-Za-z0-9_]*=)${value}`, 'gi'),
  },
  // AWS's secret access key: 40 characters of base64 with both cases and a digit (a commit id has no capitals).
  {
    name: 'aws-secret-key',
    pattern: /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    accept: mixedCaseWithDigit,
  },
];

/** `text` with every secret the rules recognise replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const rule of redactRules)
    result = result.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      const kept = typeof rest[0] === 'string' ? rest[0] : '';
      const secret = match.slice(kept.length);
      if (secret.includes(redactedMark) || (rule.accept && !rule.accept(secret))) return match;
      return `${kept}${redactedMark}`;
    });
  return result;
}
