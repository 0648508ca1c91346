#!/usr/bin/env bash
# One `auto` solve at --limit 10s from a cold numba cache (a fresh tree: no __pycache__), then the same
# solve after `python -m patience.solvers.warm`: wall time, status, stage stats, warning lines.
#
#   bash benchmarks/cold_cache_guard.sh DIR [REV [TARGET [GENERATOR]]]
#
# DIR absent or empty; REV defaults to HEAD, TARGET to freecell:1 and GENERATOR to ms.
#
# Writes `git archive REV` into DIR (as snapshot.sh does, for any revision), links the peers, and leaves
# each run's JSON and stderr in DIR/{cold,warm}.{json,err}. numba's cache stays inside DIR (NUMBA_CACHE_DIR
# unset), so a second run needs a new DIR.
set -euo pipefail

dir=${1:?usage: bash benchmarks/cold_cache_guard.sh DIR [REV]}
rev=${2:-HEAD}
target=${3:-freecell:1}
generator=${4:-ms}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "cold_cache_guard.sh: $dir is not empty (remove it first)" >&2
    exit 2
fi
mkdir -p "$dir"
git -C "$repo" archive "$rev" | tar -x -C "$dir"
git -C "$repo" rev-parse "$rev" >"$dir/COMMIT"
ln -s "$repo/.peers" "$dir/.peers"
py=$repo/.venv/bin/python
echo "commit $(cat "$dir/COMMIT")  $(date -u +%FT%TZ)  $target -g $generator"

run() {
    local label=$1 t0 t1
    echo "$label: before: $(uptime)"
    t0=$(date +%s.%N)
    env -u NUMBA_CACHE_DIR PYTHONPATH="$dir/src" nice -n 5 "$py" -m patience solve "$target" -g "$generator" \
        --limit 10s --backend auto --json >"$dir/$label.json" 2>"$dir/$label.err" || true
    t1=$(date +%s.%N)
    echo "$label: after: $(uptime)"
    "$py" - "$dir/$label.json" "$dir/$label.err" "$t0" "$t1" "$label" <<'EOF'
import json, sys
out, err, t0, t1, label = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
text = open(out).read()
d = json.loads(text) if text.strip() else {"status": "no result", "backend": "-"}
s = d.get("stats", {})
keep = {k: round(v, 2) for k, v in s.items() if k.endswith(("_compiled", "_jit_s", "_seconds")) or k == "seconds"}
print(f"{label}: wall {t1 - t0:.1f} s, status {d['status']}, backend {d['backend']}, {keep}")
for line in open(err):
    print(f"{label}: stderr: {line.rstrip()}")
EOF
}

run cold
env -u NUMBA_CACHE_DIR PYTHONPATH="$dir/src" nice -n 5 "$py" -m patience.solvers.warm
run warm
