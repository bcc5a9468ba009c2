import packageJson from '../package.json' with { type: 'json' };

/** The package version, read from package.json at build time (so `changeset version` keeps it true). */
export const version: string = packageJson.version;
