'use strict';
// The hook of the strict variant (git-write-gate-strict in the kit's marketplace). A plugin's hook
// handler has no field for environment variables, so this sets the strict switch and runs the
// same bundle as the default plugin. It wins over a TAGOUT_HOOKS_STRICT the session already has:
// this plugin is the strict one. GIT_GATE=off still silences the gate, strict mode included.
process.env.TAGOUT_HOOKS_STRICT = '1';
require('../dist/hook.cjs');
