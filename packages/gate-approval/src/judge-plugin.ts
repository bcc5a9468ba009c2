import { runPluginJudge } from './mcp/judge-process.ts';

// The kit-judge plugin's server (dist/judge-plugin.cjs, named by the package's .mcp.json): one MCP
// judge per Claude Code session for every kit guard plugin installed, found through the host's record.
void runPluginJudge();
