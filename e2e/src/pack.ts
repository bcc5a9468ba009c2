import { type PackedPackage, packPackages } from '@kit/test-kit';

/** The three guards, by package folder; each package's bin has the folder's name. */
export type GuardName = 'exit-status-guard' | 'git-write-gate' | 'roseline-gate';
export const GUARDS: readonly GuardName[] = ['exit-status-guard', 'git-write-gate', 'roseline-gate'];

/** Every published kit package, by folder under packages/. */
export const KIT_PACKAGES: readonly string[] = ['shell-segments', 'fail-open', 'gate-approval', ...GUARDS];

/**
 * Packs the six kit packages as a publish does (`workspace:^` becomes the real ranges) and every
 * runtime dependency they pull from outside the kit: the local registry has no uplink to fetch them from.
 */
export function packKit(outDir: string): Promise<PackedPackage[]> {
  return packPackages(KIT_PACKAGES, outDir);
}
