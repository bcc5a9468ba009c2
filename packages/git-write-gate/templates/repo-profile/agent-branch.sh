#!/usr/bin/env bash
# agent-branch.sh: commit and push on a branch of your own from a checkout that other agents share.
#   agent-branch.sh commit <branch> -m <message> -- <path>...
#       commits the named paths, as they are in the work tree, onto <branch> (made from HEAD the
#       first time) in a private index; the shared branch, index and work tree are not touched.
#   agent-branch.sh push <branch> [<remote>]
#       pushes <branch> to the branch of the same name on <remote> (default origin), never forced.
# A branch checked out in any worktree is refused: that one is shared. Written by git-write-gate init.
set -euo pipefail

usage() {
  sed -n '2,8p' "$0" >&2
  exit 2
}
die() {
  echo "agent-branch: $*" >&2
  exit 1
}

[ $# -ge 2 ] || usage
action=$1
branch=$2
shift 2
git check-ref-format --branch "$branch" >/dev/null 2>&1 || die "not a branch name: $branch"
cd "$(git rev-parse --show-toplevel)"
ref="refs/heads/$branch"
while read -r key value; do
  if [ "$key" = branch ] && [ "$value" = "$ref" ]; then
    die "$branch is checked out in a worktree, so it is shared: commit on a branch of your own"
  fi
done < <(git worktree list --porcelain)

commit() {
  local message=""
  while [ $# -gt 0 ]; do
    case $1 in
      -m) [ $# -ge 2 ] || usage; message=$2; shift 2 ;;
      --) shift; break ;;
      *) usage ;;
    esac
  done
  [ -n "$message" ] || die "a message is needed: -m <message>"
  [ $# -gt 0 ] || die "name the paths to commit after --"
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/agent-branch.XXXXXX") # global: the EXIT trap runs after return
  trap 'rm -rf "$scratch"' EXIT
  export GIT_INDEX_FILE="$scratch/index"
  local attempt old base tree made
  for attempt in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    old=$(git rev-parse -q --verify "$ref^{commit}" || true)
    base=${old:-$(git rev-parse --verify HEAD)}
    rm -f "$GIT_INDEX_FILE"
    git read-tree "$base"
    git add -A -- "$@"
    tree=$(git write-tree)
    [ "$tree" != "$(git rev-parse "$base^{tree}")" ] || die "nothing to commit: $* as on $branch already"
    made=$(git commit-tree "$tree" -p "$base" -m "$message")
    # Compare-and-swap: the branch moves only from the tip this commit was built on.
    if git update-ref -m "agent-branch: commit" "$ref" "$made" "$old" 2>/dev/null; then
      echo "agent-branch: committed $(git rev-parse --short "$made") on $branch: $*"
      echo "agent-branch: the shared branch, index and work tree are as they were"
      return 0
    fi
    sleep "0.$((RANDOM % 5))$attempt"
  done
  die "$branch kept moving under other commits; try again"
}

push() {
  local remote=${1:-origin}
  git rev-parse -q --verify "$ref^{commit}" >/dev/null || die "no branch $branch yet: commit on it first"
  git push "$remote" "$ref:$ref"
}

case $action in
  commit) commit "$@" ;;
  push) push "$@" ;;
  *) usage ;;
esac
