/** The guard's name: the opener of every reason and the name of its files. */
export const guardName = 'roseline-gate';

// A tool call written as the model would send it: JSON.stringify escapes a Windows path's
// backslashes, so the arguments can be pasted as they stand.
function call(tool: string, args: Record<string, unknown>): string {
  return `${tool} ${JSON.stringify(args)}`;
}

/**
 * The text of a denial (without the `roseline-gate: ` opener): the file, the roseline tool for each
 * need with `project` set to the nearest `.csproj` (omitted when the project is known only by a
 * `.sln` or a marker below the cwd), both tool-name forms, ToolSearch, and when to take the escape.
 */
export function buildDenyText(filePath: string, project: string | null): string {
  const scope = project === null ? {} : { project };
  const where = project === null ? '' : ` (project ${project})`;
  return [
    `${filePath} is C# that roseline answers without reading the whole file${where}. Instead of Read, use:`,
    `- the file's shape, or to find a member in it: ${call('search_symbols', { file: filePath, ...scope })} (no query: an outline of the file)`,
    `- one member's body: get_symbol_info with the member's name and ${JSON.stringify({ includeSource: true, ...scope })}`,
    '- usages and calls: find_references, find_implementations, get_call_graph',
    `- a file:line you already have: get_symbol_at_position with ${JSON.stringify({ file: filePath })} and the line`,
    '- edits: edit_member (one member), rename_symbol (a name everywhere)',
    'The tools are mcp__roseline__<tool>, or mcp__plugin_<plugin>_roseline__<tool> when a plugin ships the server; if they are deferred, load them with ToolSearch first (query "roseline").',
    'Read the file only when you need its exact full text, when an Edit needs a prior Read, or for a change outside member bodies (using directives, namespaces, attributes above a type, top-level statements): then repeat this identical Read in a later turn, within 2 minutes, and it passes, once (identical Reads sent together are all denied).',
  ].join('\n');
}
