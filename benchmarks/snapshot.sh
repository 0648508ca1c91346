#!/usr/bin/env bash
# A private copy of the committed tree for a long measurement, named by its commit.
#
#   bash benchmarks/snapshot.sh DIR
#   PYTHONPATH=DIR/src nice -n 5 .venv/bin/python DIR/benchmarks/bench_x.py ...
#
# Writes `git archive HEAD` into DIR (absent or empty: a snapshot is never refreshed in place, or files
# deleted since would linger) and the full hash of HEAD to DIR/COMMIT. A snapshot has no .git, so the
# benchmarks' commit() (benchmarks/_common.py) reads DIR/COMMIT to say which commit a run measured.
# Edits not committed are not in the snapshot: that is the point (other people's half-done work stays out).
set -euo pipefail

dir=${1:?usage: bash benchmarks/snapshot.sh DIR}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "snapshot.sh: $dir is not empty (remove it first)" >&2
    exit 2
fi
mkdir -p "$dir"
git -C "$repo" archive HEAD | tar -x -C "$dir"
git -C "$repo" rev-parse HEAD >"$dir/COMMIT"
echo "$dir: $(cat "$dir/COMMIT")"
