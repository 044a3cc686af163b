#!/usr/bin/env bash
# The first minutes (issue #28), two checkouts side by side on this machine:
#   git worktree add /tmp/base <commit>; bash benchmarks/bench_first_minutes.sh /tmp/base . [rounds]
# Each round, in both trees in turn: `derive-rules --no-write -q` on the shipped library into a new empty cache
# (native kernels checked where g++ is found, as a user's first run does), then the cached re-run, each a fresh
# subprocess (wall seconds), then the cached run in-process (the summary line's own seconds, best of 3).
set -u
base=$(cd "$1" && pwd); new=$(cd "$2" && pwd); rounds=${3:-1}
tmp=$(mktemp -d)
for round in $(seq "$rounds"); do
  for tree in "$base" "$new"; do
    cache="$tmp/cache-$round-$(basename "$tree")"
    for run in cold cached; do
      s=$(date +%s.%N)
      (cd "$tree" && TENSOR_RULES_CACHE="$cache" PYTHONPATH="$tree" python -m derive.cli --no-write -q > /dev/null 2>&1)
      e=$(date +%s.%N)
      printf "derive-rules %-6s round %d  %-30s %7.2f s wall\n" "$run" "$round" "$tree" "$(echo "$e - $s" | bc)"
    done
    (cd "$tree" && TENSOR_RULES_CACHE="$cache" PYTHONPATH="$tree" python - <<'PY'
import contextlib, io, re, sys
from derive import cli
best = []
for _ in range(3):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        cli.main(["--no-write", "-q"])
    best.append(float(re.search(r"\(([\d.]+) s\)", buf.getvalue()).group(1)))
print(f"derive-rules cached in-process  {min(best):.3f} s (best of 3)")
PY
    )
  done
done
rm -rf "$tmp"
