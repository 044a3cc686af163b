#!/usr/bin/env bash
# Two checkouts of tensor-rules side by side on this machine (a change against its base commit):
#   git worktree add /tmp/base <commit>; bash benchmarks/compare_trees.sh /tmp/base . [rounds]
# Derivation: each round runs, in both trees in turn, a cold derive of the shipped library into a new empty cache
# (TENSOR_RULES_NATIVE=0: the SymPy pipeline, not g++) and the cached re-run that follows, each a fresh
# subprocess, wall seconds. Then bench_numpy.py and bench_frameworks.py --only op in each tree.
set -u
base=$(cd "$1" && pwd); new=$(cd "$2" && pwd); rounds=${3:-3}
tmp=$(mktemp -d)
for round in $(seq "$rounds"); do
  for tree in "$base" "$new"; do
    cache="$tmp/cache-$round-$(basename "$tree")"
    for run in cold cached; do
      s=$(date +%s.%N)
      (cd "$tree" && TENSOR_RULES_NATIVE=0 TENSOR_RULES_CACHE="$cache" PYTHONPATH="$tree" \
        python -m derive.cli --no-write -q > /dev/null 2>&1)
      e=$(date +%s.%N)
      printf "derive %-6s round %d  %-40s %6.2f s\n" "$run" "$round" "$tree" "$(echo "$e - $s" | bc)"
    done
  done
done
for tree in "$base" "$new"; do
  echo "== $tree"
  (cd "$tree" && PYTHONPATH="$tree" python benchmarks/bench_numpy.py --repeats 7 --scale 0.5)
  (cd "$tree" && PYTHONPATH="$tree" OMP_NUM_THREADS=1 python benchmarks/bench_frameworks.py --only op --rounds 5)
done
rm -rf "$tmp"
