import { expect, test } from 'vitest';
import { readsEnvironment } from '../src/environment.ts';
import { exportedVariables } from '../src/shell-state.ts';

// The verdict server is handed only the variables environment.ts names: each one the gate looks up
// in the CLI's environment must be there, or the server judges a line the command hook denies.
test.for([...exportedVariables])(
  '%s, looked up in the CLI’s environment, is handed to the verdict server',
  (name) => {
    expect(readsEnvironment).toContain(name);
  },
);
