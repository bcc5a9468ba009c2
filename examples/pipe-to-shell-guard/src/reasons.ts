import { unwrapLaunchers } from '@kit/shell-segments';
import type { Hit } from './evaluate.ts';

/** The guard's name: the reason's opener, the bundle's file name, the bin. */
export const guardName = 'pipe-to-shell-guard';

/** Where the rewrite keeps the script so that it can be read before it is run. */
export const savedScript = '/tmp/pipe-to-shell-guard-script.sh';

/**
 * The reason after the opener: what runs unread, and a rewrite that runs as written: the same
 * download saved to a file and printed, so the script is read before anything runs it.
 */
export function reasonFor(hit: Hit): string {
  const how = {
    pipe: 'pipes a download into',
    'process-substitution': 'hands a download, through <( ), to',
    'command-substitution': 'hands a download, through $( ), to',
  }[hit.route];
  return [
    `this command ${how} \`${programOf(hit)}\`, which runs it unread.`,
    'Save it and read it first:',
    `  ${hit.download.text} > ${savedScript} && cat ${savedScript}`,
    `Then run \`sh ${savedScript}\` once you know what it does.`,
  ].join('\n');
}

function programOf(hit: Hit): string {
  const program = unwrapLaunchers(hit.runner.argv).head[0]?.value ?? 'a shell';
  return program.split('/').pop() ?? program;
}
