import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectSuccess, runCommand } from '@kit/test-kit';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { requireKit } from '../src/kit.ts';
import { removeScratch, scratchDir } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// A declaration file that names Node's types (the NodeJS namespace, a node: module) only compiles
// where @types/node is installed: a package that ships one must say so, as a dependency or a
// (here optional) peer dependency, or a TypeScript user without it gets errors in our files.
const namesNodeTypes =
  /\bNodeJS\.|from ['"](node:)?(fs|path|os|stream|child_process|url|events)['"]|from ['"]node:|<reference types="node"/;

async function declarationFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.d\.c?ts$/.test(entry.name)) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

describe('the published declarations', () => {
  const kit = requireKit(source).packages.filter((p) => p.kit);
  test.for(kit.map((p) => [p.name, p.tarball]))(
    '%s declares @types/node when its .d.ts files name Node types',
    async ([name, tarball]) => {
      const dir = await scratchDir('types');
      await mkdir(dir, { recursive: true });
      expectSuccess('tar', await runCommand('tar', ['-xzf', tarball as string, '-C', dir], { cwd: dir }));
      const root = join(dir, 'package');
      const files = await declarationFiles(join(root, 'dist'));
      expect(files.length, `${name} ships no declarations`).toBeGreaterThan(0);
      const naming = [];
      for (const file of files) if (namesNodeTypes.test(await readFile(file, 'utf8'))) naming.push(file);
      const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
      const declared = Boolean(
        manifest.dependencies?.['@types/node'] ?? manifest.peerDependencies?.['@types/node'],
      );
      if (naming.length > 0) expect(declared, `${name}: ${naming.join(', ')} name Node types`).toBe(true);
    },
  );
});
