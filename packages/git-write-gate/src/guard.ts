import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bashPayload, defineGuard, type GuardDefinition, readSwitch } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { initCommand } from './init.ts';
import { onFailOpen } from './strict-policy.ts';
import { probeRepository, profileRelativePath, skillRelativePath } from './probe.ts';
import { guardName } from './reasons.ts';

/** What this gate hands the shared CLI (`git-write-gate install | explain | doctor | hook`). */
export const guardDefinition: GuardDefinition = defineGuard({
  packageUrl: import.meta.url,
  name: guardName,
  description:
    'Denies the git writes that corrupt shared checkouts in repositories the kit manages, and names the replacement.',
  matcher: 'Bash',
  strictMode: true,
  switches: [
    {
      name: 'GIT_GATE',
      values: 'off | on',
      doc: 'off (0 false no disabled) silences the gate, strict mode included; on (1 true yes enabled) skips the repository probe.',
    },
    {
      name: 'TAGOUT_HOOKS_STRICT',
      values: '1 | on | true | yes',
      doc: 'strict mode: what the gate cannot judge in a managed repository is refused (exit 2) instead of let through.',
    },
  ],
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
  // A managed repository as the probe sees one: a `.git` folder and the profile at the top.
  positiveControl: async (repository) => {
    // A git directory git would accept (HEAD, objects/, refs/): an empty `.git` folder is skipped.
    await mkdir(join(repository, '.git', 'objects'), { recursive: true });
    await mkdir(join(repository, '.git', 'refs'));
    await writeFile(join(repository, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await mkdir(join(repository, '.claude', 'skills'), { recursive: true });
    await writeFile(join(repository, profileRelativePath), '---\nname: repo-profile\n---\n');
    return { payload: bashPayload('git push origin main', { cwd: repository, sessionId: 'doctor' }) };
  },
  commands: { init: initCommand },
  onFailOpen,
  idleHere,
});

// The words doctor and explain print when the gate judges nothing here: the same switch and
// evidence probe evaluate uses, said with the reason.
function idleHere(cwd: string, env: Record<string, string | undefined>): string | null {
  const gate = readSwitch(env, 'GIT_GATE');
  if (gate === 'off') return 'GIT_GATE is off: the gate judges nothing, strict mode included';
  if (gate === 'on') return null; // the probe is skipped: the gate applies everywhere
  const context = realContext({ env, raw: '' });
  const top = context.findWorkTreeTop(cwd);
  if (top === null)
    return `${cwd} is in no git work tree: the gate judges git writes only in a repository it manages`;
  if (probeRepository(cwd, context) !== null) return null;
  // Both layouts the probe reads: the skill Claude Code loads, and the flat file.
  const skill = join(top, skillRelativePath);
  return `this repository is not managed: no repo-profile skill at its work tree's top (${skill}, or the flat ${join(top, profileRelativePath)}), so every git write here goes through unjudged; \`git-write-gate init\` makes it managed`;
}
