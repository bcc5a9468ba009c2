/** The package version, as package.json has it (a test keeps the two equal). */
export const version = '0.1.0';
