import shippedRegistry from '../exit-status-guard.json' with { type: 'json' };
import { buildLiteralsTable, type LiteralsTable } from './literals-table.ts';

// The build replaces this module with the table itself (literals-plugin.ts), so the hook bundle
// reads the shipped registry's literals as data and runs no pattern reader for them.

/** The required literals of every shipped pattern, keyed by the pattern's text. */
export const shippedLiterals: LiteralsTable = buildLiteralsTable(shippedRegistry);
