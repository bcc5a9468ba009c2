import type { DenyRule } from '../src/index.ts';

/**
 * One denied command whose suggested rewrite is run for real (rewrite-execution.test.ts), once with
 * a passing check and once with a failing one. Stubs on PATH: the checks (make, npm test, pytest,
 * cargo, go, ./scripts/check.sh) print numbered lines and exit with $CHECK_STATUS; git, npm publish,
 * kubectl and helm only record that they ran; `notify` records a failure branch.
 */
export interface RewriteCase {
  rule: DenyRule;
  command: string;
  background?: true; // the call sets run_in_background: true
  change?: 'iff-pass' | 'always'; // a state change in the command: it must run only when the check passed (or, a restore, always)
  failureBranch?: true; // `|| notify failed`: it must run exactly when the check failed
  fallback?: true; // no correct rewrite exists: the reason must say what to do instead of giving a command
}

/** The consumer shapes a status-losing snippet is put in: `%` is the snippet. */
export const consumerShapes: { shape: string; change?: 'iff-pass'; failureBranch?: true; fallback?: true }[] =
  [
    { shape: '%' },
    { shape: '%; git push', change: 'iff-pass' },
    { shape: '%\ngit push origin main', change: 'iff-pass' },
    { shape: '% && npm publish', change: 'iff-pass' },
    { shape: '% || notify failed', failureBranch: true },
    { shape: '{ %; } && git push', change: 'iff-pass' },
    { shape: '(%) && git push', change: 'iff-pass' },
    { shape: 'cd sub && % && git push', change: 'iff-pass' },
    { shape: 'cd sub && %; git push', change: 'iff-pass' },
    { shape: 'for i in 1 2; do %; done' },
    { shape: 'for i in 1 2; do %; done; git push', change: 'iff-pass', fallback: true },
    { shape: 'if %; then git push; fi', change: 'iff-pass' },
    { shape: 'if true; then %; fi; git push', change: 'iff-pass' },
    { shape: 'out=$(%) && git push', change: 'iff-pass' },
  ];

const pipedSnippets = [
  'make check | tail -3',
  'npm test 2>&1 | tail -4',
  'make check | tee build.log | tail -2',
  'cat notes.txt | make check | tail -2',
  '(cd sub && go test ./...) | tail -3',
];

const substitutionSnippets = ['cat <(make check)', 'cat <(cargo test) notes.txt'];

function inShapes(rule: DenyRule, snippets: string[]): RewriteCase[] {
  return snippets.flatMap((snippet) =>
    consumerShapes
      // A subshell snippet in a subshell or $( ) shape reads as arithmetic to bash: (( … )), $(( … )).
      .filter(({ shape }) => !(snippet.startsWith('(') && shape.includes('(%')))
      .map(({ shape, ...expect }) => ({ rule, command: shape.replace('%', snippet), ...expect })),
  );
}

/** Every rule in every consumer shape it can stand in, both check outcomes each. */
export const rewriteCases: RewriteCase[] = [
  // piped gate
  ...inShapes('piped-gate', pipedSnippets),
  { rule: 'piped-gate', command: "make check <<'EOF' | tail -2\nanswers\nEOF\ngit push", change: 'iff-pass' },
  { rule: 'piped-gate', command: 'make check 2>&1 | tail -30; echo "EXIT=$?"' },
  { rule: 'piped-gate', command: 'make check | tail -3; [ $? -eq 0 ] && git push', change: 'iff-pass' },
  { rule: 'piped-gate', command: 'make check | tail -3; npm test | tail -2; git push', change: 'iff-pass' },
  { rule: 'piped-gate', command: "bash -c 'make check | tail -3' && git push", change: 'iff-pass' },
  { rule: 'piped-gate', command: 'make check | tail -3', background: true },
  { rule: 'piped-gate', command: 'while read -r l; do make check | tail -1; done < notes.txt' },

  { rule: 'piped-gate', command: "ssh host 'make check | tail -3'" },
  { rule: 'piped-gate', command: "ssh -p 2222 host 'make check | tail -3' && git push", change: 'iff-pass' },
  { rule: 'piped-gate', command: "ssh host 'make check' | tail -3" },
  { rule: 'sequenced-mutator', command: "ssh host 'make check'; git push", change: 'iff-pass' },
  { rule: 'lost-background', command: "ssh host 'make check &'" },
  // issue 24's registry additions: a gate script by its path, Expo, Node's syntax check, Nix, generators
  { rule: 'piped-gate', command: 'php path/to/artisan test | tail -3' },
  { rule: 'piped-gate', command: 'npx expo lint 2>&1 | tail -3 && git push', change: 'iff-pass' },
  { rule: 'piped-gate', command: 'node --check src/index.js | tail -2; git push', change: 'iff-pass' },
  { rule: 'piped-gate', command: 'nix flake check 2>&1 | tail -3' },
  { rule: 'sequenced-mutator', command: 'nix build; git push', change: 'iff-pass' },
  {
    rule: 'piped-gate',
    command: 'nix-instantiate --parse default.nix | tail -2 || notify failed',
    failureBranch: true,
  },
  { rule: 'lost-background', command: 'nix eval .#packages.x86_64-linux.default.name &' },
  { rule: 'piped-gate', command: 'pnpm prisma generate | tail -2 && git push', change: 'iff-pass' },
  { rule: 'lost-background', background: true, command: 'go generate ./...; echo done' },
  { rule: 'piped-gate', command: "ssh host 'nix flake check 2>&1 | tail -3'" },
  // a tool that exits with the status of the line it runs: the rewrite is spliced in as its word
  { rule: 'piped-gate', command: "npm exec -c 'make check | tail -3'" },
  { rule: 'piped-gate', command: "npx -c 'make check | tail -3' && git push", change: 'iff-pass' },

  // process substitution
  ...inShapes('process-substitution', substitutionSnippets),
  { rule: 'process-substitution', command: 'while read -r l; do echo "$l"; done < <(make check)' },

  // $PIPESTATUS
  { rule: 'pipestatus', command: 'make check | tee build.log; echo "${PIPESTATUS[0]}"' },
  { rule: 'pipestatus', command: 'make check | tail -3; exit ${PIPESTATUS[0]}' },
  {
    rule: 'pipestatus',
    command: 'make check | tail -3; [ "${PIPESTATUS[0]}" -eq 0 ] && git push',
    change: 'iff-pass',
  },
  {
    rule: 'pipestatus',
    command: 'make check | tail -3; rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] && git push',
    change: 'iff-pass',
  },
  // every element read, each stage its own capture; after a statement that is no pipeline, `$?`
  { rule: 'pipestatus', command: 'make check | tail -3; echo "${PIPESTATUS[@]}"' },
  { rule: 'pipestatus', command: 'make check | tee build.log | tail -2; echo ${PIPESTATUS[*]}' },
  { rule: 'pipestatus', command: 'make check | tail -3; printf "%s\\n" "${PIPESTATUS[@]}"' },
  { rule: 'pipestatus', command: 'make check > build.log 2>&1; echo "${PIPESTATUS[0]}"' },
  { rule: 'pipestatus', command: 'make check > build.log 2>&1\necho "EXIT=$PIPESTATUS"' },
  { rule: 'pipestatus', command: 'cat notes.txt | make check | tail -2; exit ${PIPESTATUS[1]}' },
  { rule: 'pipestatus', command: 'make check | tail -3; exit ${PIPESTATUS[-2]}' },
  { rule: 'pipestatus', command: 'cd sub && make check | tail -3 && exit "${PIPESTATUS[0]}"' },
  { rule: 'pipestatus', command: 'npm test 2>&1 | tail -4; rc=${PIPESTATUS[0]}; exit $rc' },
  { rule: 'pipestatus', command: 'make check 2>&1 | tail -3; cat <<EOF\nEXIT=${PIPESTATUS[0]}\nEOF' },
  {
    rule: 'pipestatus',
    command: "bash -c 'make check | tail -3; exit ${PIPESTATUS[0]}' && git push",
    change: 'iff-pass',
  },
  {
    rule: 'pipestatus',
    command: 'for i in 1 2; do make check | tail -1; [ "${PIPESTATUS[0]}" -eq 0 ] || notify failed; done',
    failureBranch: true,
  },
  {
    rule: 'pipestatus',
    command: 'make check | tail -3; x=$(echo "${PIPESTATUS[0]}"); echo "EXIT=$x"',
  },
  // what ran right before the read is not the pipeline: an if's condition, the loop's last round
  {
    rule: 'pipestatus',
    command: 'make check | tail -3; if true; then echo "${PIPESTATUS[0]}"; fi',
    fallback: true,
  },

  // lost background: a trailing &
  { rule: 'lost-background', command: 'make check &' },
  { rule: 'lost-background', command: 'make check > build.log 2>&1 &' },
  { rule: 'lost-background', command: 'make check & sleep 0; echo done' },
  { rule: 'lost-background', command: 'make check & git push', change: 'iff-pass' },
  { rule: 'lost-background', command: 'make check &\ngit push', change: 'iff-pass' },
  { rule: 'lost-background', command: '(make check) &' },
  { rule: 'lost-background', command: '{ make check; } & wait' },
  { rule: 'lost-background', command: 'cd sub && make check &' },
  { rule: 'lost-background', command: 'make check & wait; git push', change: 'iff-pass' },
  { rule: 'lost-background', command: "bash -c 'make check &' && git push", change: 'iff-pass' },
  // lost background: run_in_background, the last statement not the check's
  { rule: 'lost-background', background: true, command: 'make check; echo done' },
  { rule: 'lost-background', background: true, command: 'make check > build.log 2>&1; echo "EXIT=$?"' },
  { rule: 'lost-background', background: true, command: 'make check || echo failed' },
  { rule: 'lost-background', background: true, command: 'cargo test || true' },
  {
    rule: 'lost-background',
    background: true,
    command: 'make check; git push; echo pushed',
    change: 'iff-pass',
  },
  { rule: 'lost-background', background: true, command: 'cd sub && make check; echo done' },
  { rule: 'lost-background', background: true, command: '{ make check; echo done; }' },
  { rule: 'lost-background', background: true, command: 'make check\necho finished' },
  // `exit $?` relays the statement before it (an explicit `exit 0` is deliberate and is not denied)
  { rule: 'lost-background', background: true, command: 'make check; echo done; exit $?' },
  { rule: 'lost-background', background: true, command: 'make check > build.log 2>&1; echo "EXIT=$?"; exit' },
  // an if / case / loop or an assignment as the last statement that turns a failed check green (issue 24)
  ...[
    'if [ -d sub ]; then make check; echo done; fi',
    'make check; if [ -f notes.txt ]; then cat notes.txt; fi',
    'make check; if [ $? -eq 0 ]; then echo ok; fi',
    'case x in x) make check; echo done;; esac',
    'make check; case x in x) echo x;; esac',
    'if make check || true; then echo ok; fi',
    'make check; x=$(date)',
    'make check > log; out=$(cat log)',
    'x=$(make check) y=$(date)',
    'log=$(make check 2>&1) when=$(date) && echo "$log"',
    'if make check; then echo ok; else echo failed; fi',
    'if make check; then echo ok; fi',
    'until make check; do break; done',
  ].map((command) => ({ rule: 'lost-background' as const, background: true as const, command })),
  {
    rule: 'lost-background',
    background: true,
    command: 'if make check; then git push; fi',
    change: 'iff-pass',
  },
  {
    rule: 'lost-background',
    background: true,
    command: 'if make check; then echo ok; else echo "failed: $?"; fi',
  },

  // sequenced before a state change
  { rule: 'sequenced-mutator', command: 'make check; git push', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: 'make check\ngit push', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: 'make check; echo done; git push', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: '(cd sub && make check); git push', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: 'make check; (cd sub && git push)', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: '{ make check; }; npm publish', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: 'if true; then make check; fi; git push', change: 'iff-pass' },
  {
    rule: 'sequenced-mutator',
    command: 'for i in 1 2; do make check; done; git push',
    change: 'iff-pass',
    fallback: true,
  },
  { rule: 'sequenced-mutator', command: 'make check; rc=$?; git push; exit $rc', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: 'make check; echo "$(git push)"', change: 'iff-pass' },
  {
    rule: 'sequenced-mutator',
    command: './scripts/check.sh <<EOF\nanswers\nEOF\ngit push',
    change: 'iff-pass',
  },
  { rule: 'sequenced-mutator', command: 'cd sub && make check; git push', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: 'make check; git push || notify failed', change: 'iff-pass' },
  { rule: 'sequenced-mutator', command: 'make e2e; kubectl delete -f k8s/', change: 'always' },
  { rule: 'sequenced-mutator', command: 'make e2e; rc=$?; kubectl delete -f k8s/', change: 'always' },
  { rule: 'sequenced-mutator', command: 'make e2e; kubectl delete -f a; helm uninstall b', change: 'always' },
  {
    rule: 'sequenced-mutator',
    command: 'make e2e; rc=$?; kubectl delete -f a; helm uninstall b; rc=0; exit $rc',
    change: 'always',
  },
  { rule: 'sequenced-mutator', command: "bash -c 'cargo test; git push'", change: 'iff-pass' },
];
