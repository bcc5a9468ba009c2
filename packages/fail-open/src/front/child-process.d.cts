/** node:child_process, required on the first call. */
declare function childProcess(): typeof import('node:child_process');
export = childProcess;
