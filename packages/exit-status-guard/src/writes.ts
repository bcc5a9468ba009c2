import type { Segment, Word } from '@kit/shell-segments';
import { unwrapLaunchers } from '@kit/shell-segments';
import { allShells, type Shell } from './shell.ts';

const writeOps = new Set(['>', '>>', '&>', '&>>', '>|', '>&']);
const devices = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
const interpreters = /^(python[0-9.]*|node|bash|sh|zsh|dash|ruby|perl|php|deno|bun|tsx|psql|mysql|sqlite3)$/;

function shown(word: Word): string {
  return word.value ?? word.text;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function operands(words: Word[]): Word[] {
  return words.filter((word) => !(word.value ?? '').startsWith('-'));
}

function writesOf(segment: Segment): string[] {
  const found: string[] = [];
  for (const redirect of segment.redirects) {
    if (!writeOps.has(redirect.op)) continue;
    const target = shown(redirect.target);
    if (redirect.op === '>&' && /^(\d+|-)$/.test(target)) continue;
    if (devices.has(target)) continue;
    found.push(`${redirect.op === '>&' ? '>' : redirect.op} ${target}`);
  }
  const head = unwrapLaunchers(segment.argv).head;
  const name = basename(head[0]?.value ?? '');
  const rest = head.slice(1);
  if (name === 'tee') {
    for (const file of operands(rest)) if (!devices.has(shown(file))) found.push(`tee ${shown(file)}`);
  } else if (
    name === 'sed' &&
    rest.some((word) => /^(-i|--in-place)/.test(word.value ?? '') || /^-[a-zA-Z]*i/.test(word.value ?? ''))
  ) {
    const files = operands(rest);
    const scripted = rest.some(
      (word) => word.value === '-e' || word.value === '-f' || word.value === '--expression',
    );
    for (const file of scripted ? files : files.slice(1)) found.push(`sed -i ${shown(file)}`);
  } else if (name === 'cp' || name === 'mv') {
    const target = operands(rest).at(-1);
    if (target && operands(rest).length >= 2) found.push(`${name} … ${shown(target)}`);
  }
  // The heredoc first: most segments have none, and then the name is not matched at all.
  if (
    segment.redirects.some(
      (redirect) => redirect.heredoc !== null && redirect.op.startsWith('<<') && redirect.op !== '<<<',
    ) &&
    interpreters.test(name)
  ) {
    found.push(`the heredoc script fed to ${name}`);
  }
  return found;
}

/** The writes a refused call would have made (`> file`, `tee file`, `sed -i`, `cp`/`mv` targets, heredoc scripts): at most `limit`. */
export function listWrites(top: Shell, limit = 5): string[] {
  const all: string[] = [];
  for (const each of allShells(top)) {
    const ordered = [...each.segments].sort((a, b) => a.start - b.start);
    for (const segment of ordered)
      for (const write of writesOf(segment)) if (!all.includes(write)) all.push(write);
  }
  return all.slice(0, limit);
}
