import { type WriteKind, writeKinds } from './write-kind.ts';

/** What a repository's `.claude/skills/repo-profile.md` front matter says to the gate. */
export interface RepoProfile {
  deny: ReadonlySet<WriteKind>; // the write kinds denied here (default: all of them)
  replacements: Partial<Record<WriteKind, string>>; // commit: scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>
}

/** The profile of a repository that declares nothing: every kind denied, the skill as the replacement. */
export const defaultProfile: RepoProfile = { deny: new Set(writeKinds), replacements: {} };

const blockKey = 'git-write-gate';

/**
 * Reads the gate's block of a profile's YAML front matter: the subset the spec shows, nothing
 * more (`key: value` lines, a `deny: [a, b]` flow list or a `- item` block list). A file with no
 * front matter, an unclosed one, or a gate block with a line outside that subset gives the default
 * profile, never a throw. Unknown keys and unknown kinds in `deny` are ignored.
 */
export function parseProfile(text: string): RepoProfile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return defaultProfile;
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  if (close === -1) return defaultProfile;
  const block = gateBlock(lines.slice(1, close));
  if (block === null) return defaultProfile;
  return readGateBlock(block) ?? defaultProfile;
}

/** The lines under `git-write-gate:`, or null when it is absent or not a block. */
function gateBlock(frontMatter: string[]): string[] | null {
  const start = frontMatter.findIndex((line) => line.startsWith(`${blockKey}:`));
  if (start === -1) return null;
  if ((frontMatter[start] ?? '').slice(blockKey.length + 1).trim() !== '') return null;
  const block: string[] = [];
  for (const line of frontMatter.slice(start + 1)) {
    if (line.trim() !== '' && !/^[ \t]/.test(line)) break;
    block.push(line);
  }
  return block;
}

function readGateBlock(block: string[]): RepoProfile | null {
  const replacements: Partial<Record<WriteKind, string>> = {};
  let deny: Set<WriteKind> | null = null;
  let listOpen = false;
  for (const line of block) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const item = /^-\s+(.*)$/.exec(trimmed);
    if (item) {
      if (!listOpen || deny === null) return null;
      addKind(deny, unquote(item[1] ?? ''));
      continue;
    }
    const entry = /^([A-Za-z][\w-]*):(?:\s+(.*))?$/.exec(trimmed);
    if (!entry) return null;
    const key = entry[1] ?? '';
    const value = (entry[2] ?? '').trim();
    listOpen = false;
    if (key === 'deny') {
      deny = new Set();
      if (value === '') listOpen = true;
      else if (value.startsWith('[') && value.endsWith(']')) {
        for (const name of value.slice(1, -1).split(','))
          if (name.trim() !== '') addKind(deny, unquote(name.trim()));
      } else return null;
    } else if (isWriteKind(key) && value !== '') {
      replacements[key] = unquote(value);
    }
  }
  return { deny: deny ?? defaultProfile.deny, replacements };
}

function addKind(kinds: Set<WriteKind>, name: string): void {
  if (isWriteKind(name)) kinds.add(name);
}

function isWriteKind(name: string): name is WriteKind {
  return (writeKinds as readonly string[]).includes(name);
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? (quoted[2] ?? '') : value;
}
