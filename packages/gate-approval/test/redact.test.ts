// The audit trail's redaction: each rule on a real-looking secret (the secret gone, what names it
// kept), and ordinary text that looks close, untouched. The tokens are made up, in each issuer's shape.
import { describe, expect, test } from 'vitest';
import { redactRules, redactSecrets } from '../src/redact.ts';

const secretRows: [rule: string, text: string, redacted: string, secret: string][] = [
  [
    'github-token',
    'GH=ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5 gh pr create',
    'GH=[redacted] gh pr create',
    'ghp_aB3d',
  ],
  [
    'github-token',
    'gh auth login --with-token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH',
    'gh auth login --with-token [redacted]',
    'github_pat_',
  ],
  [
    'anthropic-key',
    'curl -H "x-api-key: sk-ant-api03-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8" api',
    'curl -H "x-api-key: [redacted]" api',
    'sk-ant-',
  ],
  [
    'npm-token',
    'npm config set //r/:_authToken npm_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Y',
    'npm config set //r/:_authToken [redacted]',
    'npm_Ab1',
  ],
  [
    'slack-token',
    'curl -d token=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp x',
    'curl -d token=[redacted] x',
    'xoxb-',
  ],
  [
    'aws-access-key-id',
    'aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE',
    'aws configure set aws_access_key_id [redacted]',
    'AKIAIOSFODNN7',
  ],
  [
    'aws-secret-key',
    'aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'aws configure set aws_secret_access_key [redacted]',
    'wJalrXUtnFEMI',
  ],
  [
    'secret-assignment',
    'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 ls',
    'AWS_SECRET_ACCESS_KEY=[redacted] aws s3 ls',
    'wJalrXUtnFEMI',
  ],
  [
    'bearer',
    'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig" https://x',
    'curl -H "Authorization: Bearer [redacted]" https://x',
    'eyJhbGci',
  ],
  [
    'basic-auth',
    "curl -H 'Authorization: Basic dXNlcjpodW50ZXIy' x",
    "curl -H 'Authorization: Basic [redacted]' x",
    'dXNlcjpodW50ZXIy',
  ],
  [
    'url-credentials',
    'git push https://bob:hunter22@github.com/a/b main',
    'git push https://bob:[redacted]@github.com/a/b main',
    'hunter22',
  ],
  [
    'url-credentials',
    "psql 'postgres://app:p4ss@db:5432/x'",
    "psql 'postgres://app:[redacted]@db:5432/x'",
    'p4ss',
  ],
  ['secret-option', 'mysql --password=hunter22 -u root', 'mysql --password=[redacted] -u root', 'hunter22'],
  [
    'secret-option',
    'vault login --token s.Ab12Cd34 && git push',
    'vault login --token [redacted] && git push',
    's.Ab12',
  ],
  ['secret-option', 'tool --api-key="a b c" run', 'tool --api-key=[redacted] run', 'a b c'],
  ['secret-assignment', 'GITHUB_TOKEN=abc123 gh pr create', 'GITHUB_TOKEN=[redacted] gh pr create', 'abc123'],
  ['secret-assignment', "NPM_TOKEN='x y' npm publish", 'NPM_TOKEN=[redacted] npm publish', 'x y'],
  [
    'secret-assignment',
    'export DB_PASSWORD=hunter22; make',
    'export DB_PASSWORD=[redacted]; make',
    'hunter22',
  ],
];

const untouched: [why: string, text: string][] = [
  ['a commit id is 40 characters of lowercase hex', 'git show 3f786850e387550fdab836ed7e6dc881de23001b'],
  ['a reference to a variable is no secret', 'GITHUB_TOKEN=$GH_TOKEN gh pr create --token $T'],
  ['a command substitution is no secret', 'TOKEN=$(cat ~/.tok) make deploy'],
  ['the password comes from stdin', 'docker login --password-stdin < pass.txt'],
  ['an option that names a file', 'gh auth login --token-file t.txt'],
  ['words about tokens', 'git commit -m "fix the token refresh and the password prompt"'],
  ['bearer as a word', 'echo "the bearer of bad news"'],
  ['an scp-style remote', 'git clone git@github.com:org/repo.git && cd repo'],
  ['a url with a user and no password', 'git push https://bob@github.com/a/b'],
  ['a url with a port', 'curl http://localhost:8080/path'],
  ['a short prefix-looking word', 'npm_config_cache=/tmp npm ci; echo sk-ant'],
  ['an ordinary assignment', 'GIT_GATE=off git push origin HEAD; CI=true npm test'],
  ['a long lowercase word', 'echo abcdefghijklmnopqrstuvwxyzabcdefghijklmn'],
];

describe('a secret is redacted, what names it kept', () => {
  test.for(secretRows)('%s: %s', ([, text, redacted, secret]) => {
    expect(redactSecrets(text)).toBe(redacted);
    expect(redactSecrets(text)).not.toContain(secret);
  });
  test('every rule has a row', () => {
    const covered = new Set(secretRows.map(([rule]) => rule));
    expect(redactRules.map((rule) => rule.name).filter((name) => !covered.has(name))).toEqual([]);
  });
});

describe('ordinary text is untouched', () => {
  test.for(untouched)('%s', ([, text]) => expect(redactSecrets(text)).toBe(text));
});
