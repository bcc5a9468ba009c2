import { runJudgeProcess } from '@kit/gate-approval';

// The MCP judge's process (dist/mcp.cjs), started once per session by the host: the arguments are
// the judge modules to serve (`${CLAUDE_PLUGIN_ROOT}/dist/judge.cjs` in the plugin's .mcp.json).
void runJudgeProcess(process.argv.slice(2));
