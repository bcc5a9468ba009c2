/** os.tmpdir() (node:os is required inside). */
declare function osTempDir(): string;
export = osTempDir;
