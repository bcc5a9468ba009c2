import { defineConfig } from 'tsup';
import { bin, library } from '../../tsup.base.ts';

export default defineConfig([library(['src/index.ts']), bin(['src/cli.ts'])]);
