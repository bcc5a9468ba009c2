/** One row of the gate's table: a fixture tree, the Reads made in it, and what the gate must say. */
export interface Case {
  name: string;
  tree: Record<string, string>; // relative path -> text; a key ending in '/' is an empty folder
  files: string[]; // the Read's file_path, relative to the tree root (several spellings per row)
  cwd?: string; // the payload cwd, relative to the root; default the root
  env?: Record<string, string>; // ROSELINE_GATE
  launcher?: boolean; // a stub dnx on PATH; default true
  want: 'deny' | 'silent';
  project?: string | null; // for a deny: the project hint (relative), or null for none
}

const csproj = '<Project Sdk="Microsoft.NET.Sdk" />\n';
const app = { 'src/App/App.csproj': csproj, 'src/App/Program.cs': 'class Program {}\n' };

export const cases: Case[] = [
  // The positive control: a .cs under its .csproj, dnx on PATH.
  {
    name: 'C# source under a .csproj, dnx on PATH',
    tree: app,
    files: ['src/App/Program.cs'],
    want: 'deny',
    project: 'src/App/App.csproj',
  },
  {
    name: 'the .cs extension in any case',
    tree: { ...app, 'src/App/Deep/er/Model.cS': '' },
    files: ['src/App/Program.CS', 'src/App/Other.Cs', 'src/App/Deep/er/Model.cS'],
    want: 'deny',
    project: 'src/App/App.csproj',
  },
  {
    name: 'not C# source',
    tree: app,
    want: 'silent',
    files: [
      'src/App/App.csproj',
      'src/App/Index.razor',
      'src/App/Index.cshtml',
      'src/App/script.csx',
      'src/App/README.md',
      'src/App/.cs',
      'src/App/Program.cs.bak',
      'src/App/Programcs',
    ],
  },
  {
    name: 'a folder named like C# source is not a C# file',
    tree: { ...app, 'src/App/Empty.cs/': '', 'src/App/Models.CS/User.cs': '' },
    files: ['src/App/Empty.cs', 'src/App/Models.CS'],
    want: 'silent',
  },
  {
    name: 'a file below a folder named like C# source, and one that does not exist yet (judged by name)',
    tree: { ...app, 'src/App/Models.CS/User.cs': '' },
    files: ['src/App/Models.CS/User.cs', 'src/App/NotYet.cs'],
    want: 'deny',
    project: 'src/App/App.csproj',
  },

  // The launcher probe and the switch.
  { name: 'no dnx on PATH', tree: app, files: ['src/App/Program.cs'], launcher: false, want: 'silent' },
  {
    name: 'ROSELINE_GATE on stands in for dnx',
    tree: app,
    files: ['src/App/Program.cs'],
    launcher: false,
    env: { ROSELINE_GATE: 'on' },
    want: 'deny',
    project: 'src/App/App.csproj',
  },
  {
    name: 'every on-value, any case',
    tree: app,
    files: ['src/App/Program.cs'],
    launcher: false,
    env: { ROSELINE_GATE: ' Enabled ' },
    want: 'deny',
    project: 'src/App/App.csproj',
  },
  {
    name: 'ROSELINE_GATE off beats dnx on PATH',
    tree: app,
    files: ['src/App/Program.cs'],
    env: { ROSELINE_GATE: 'off' },
    want: 'silent',
  },
  {
    name: 'an off-value in another spelling',
    tree: app,
    files: ['src/App/Program.cs'],
    env: { ROSELINE_GATE: 'DISABLED' },
    want: 'silent',
  },
  {
    name: 'ROSELINE_GATE on overrides only the launcher probe: unmarked stays silent',
    tree: { 'loose/Program.cs': '' },
    files: ['loose/Program.cs'],
    launcher: false,
    env: { ROSELINE_GATE: 'on' },
    want: 'silent',
  },
  {
    name: 'an unknown value falls through to the probe (dnx there)',
    tree: app,
    files: ['src/App/Program.cs'],
    env: { ROSELINE_GATE: 'maybe' },
    want: 'deny',
    project: 'src/App/App.csproj',
  },
  {
    name: 'an unknown value falls through to the probe (no dnx)',
    tree: app,
    files: ['src/App/Program.cs'],
    launcher: false,
    env: { ROSELINE_GATE: 'onn' },
    want: 'silent',
  },

  // The project markers.
  {
    name: 'a .slnx is no marker',
    tree: { 'All.slnx': '<Solution />\n', 'src/Lib/Thing.cs': '' },
    files: ['src/Lib/Thing.cs'],
    want: 'silent',
  },
  {
    name: 'a .csproj under a .slnx root',
    tree: { 'All.slnx': '<Solution />\n', 'src/Lib/Lib.csproj': csproj, 'src/Lib/Thing.cs': '' },
    files: ['src/Lib/Thing.cs'],
    want: 'deny',
    project: 'src/Lib/Lib.csproj',
  },
  {
    name: 'a .sln and no .csproj: denied without a project hint',
    tree: { 'All.sln': '\n', 'src/Lib/Thing.cs': '' },
    files: ['src/Lib/Thing.cs'],
    want: 'deny',
    project: null,
  },
  {
    name: 'the .csproj beats a .sln in the same folder',
    tree: { 'src/All.sln': '\n', 'src/Lib.csproj': csproj, 'src/Thing.cs': '' },
    files: ['src/Thing.cs'],
    want: 'deny',
    project: 'src/Lib.csproj',
  },
  {
    name: 'the nearest marker wins walking up',
    tree: { 'Root.csproj': csproj, 'src/Inner/Inner.csproj': csproj, 'src/Inner/x/Thing.cs': '' },
    files: ['src/Inner/x/Thing.cs'],
    want: 'deny',
    project: 'src/Inner/Inner.csproj',
  },
  {
    name: 'markers in any case',
    tree: { 'src/LIB.CSPROJ': csproj, 'src/Thing.cs': '' },
    files: ['src/Thing.cs'],
    want: 'deny',
    project: 'src/LIB.CSPROJ',
  },
  {
    name: 'a folder named like a marker is none',
    tree: { 'src/Fake.csproj/': '', 'src/Thing.cs': '' },
    files: ['src/Thing.cs'],
    want: 'silent',
  },
  {
    name: 'unmarked',
    tree: { 'src/Thing.cs': '', 'src/notes.txt': '' },
    files: ['src/Thing.cs'],
    want: 'silent',
  },
  {
    name: 'a marker in a sibling folder is not on the way up',
    tree: { 'a/A.csproj': csproj, 'b/Thing.cs': '' },
    files: ['b/Thing.cs'],
    cwd: 'b',
    want: 'silent',
  },

  // The cwd fallback: up to 3 levels below the payload cwd, never a project hint.
  {
    name: 'no marker up, a .csproj 3 levels below the cwd',
    tree: { 'repo/one/two/three/P.csproj': csproj, 'scratch/Thing.cs': '' },
    files: ['scratch/Thing.cs'],
    cwd: 'repo',
    want: 'deny',
    project: null,
  },
  {
    name: 'no marker up, a .sln in the cwd',
    tree: { 'repo/All.sln': '\n', 'scratch/Thing.cs': '' },
    files: ['scratch/Thing.cs'],
    cwd: 'repo',
    want: 'deny',
    project: null,
  },
  {
    name: 'no marker up, a .csproj 4 levels below the cwd',
    tree: { 'repo/one/two/three/four/P.csproj': csproj, 'scratch/Thing.cs': '' },
    files: ['scratch/Thing.cs'],
    cwd: 'repo',
    want: 'silent',
  },
  {
    name: 'no marker up, a .slnx in the cwd',
    tree: { 'repo/All.slnx': '<Solution />\n', 'scratch/Thing.cs': '' },
    files: ['scratch/Thing.cs'],
    cwd: 'repo',
    want: 'silent',
  },
  {
    name: 'no marker up, the marker only in a hidden folder below the cwd',
    tree: { 'repo/.hidden/P.csproj': csproj, 'repo/node_modules/x/P.csproj': csproj, 'scratch/Thing.cs': '' },
    files: ['scratch/Thing.cs'],
    cwd: 'repo',
    want: 'silent',
  },
];
