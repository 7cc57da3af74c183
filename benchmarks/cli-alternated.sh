#!/usr/bin/env bash
# Alternated whole-process timings of bin/floe (issue 15, goal 4) in two clones, each with a
# quickstart home of the same history (run `bin/floe quickstart` three times in each first):
#   benchmarks/cli-alternated.sh NEW_CLONE OLD_CLONE > timings.txt
# Prints "side command-index wall-seconds cpu-seconds" per run: snapshots, tags, report, sql, run;
# two warm runs per side and command, then 3 rounds of 3 runs each, alternating the sides.
set -u
if [ $# -ne 2 ]; then
  echo "usage: benchmarks/cli-alternated.sh NEW_CLONE OLD_CLONE" >&2
  exit 2
fi
declare -A dirs=([new]="$1" [old]="$2")
cmds=(
  "snapshots sales.fact_orders"
  "tags sales.fact_orders"
  "report sales.fact_orders --out /tmp/cli-alternated-report.html"
  "sql SELECT_COUNT"
  "run examples/jobs/fact_orders_daily.yaml --slice 2026-10-03"
)
run_one() { # side, command index
  local dir="${dirs[$1]}" c="${cmds[$2]}"
  cd "$dir"
  if [ "$c" = "sql SELECT_COUNT" ]; then
    /usr/bin/time -f "%e %U %S" -o "${TMPDIR:-/tmp}/cli-alternated.t" bin/floe sql "SELECT count(*) FROM sales.fact_orders" >/dev/null 2>&1
  else
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S" -o "${TMPDIR:-/tmp}/cli-alternated.t" bin/floe $c >/dev/null 2>&1
  fi
  read -r wall user sys < "${TMPDIR:-/tmp}/cli-alternated.t"
  echo "$1 $2 $wall $(echo "$user + $sys" | bc)"
}
# warm: each command twice per side (the first may write its class-data archive)
for side in new old; do for i in 0 1 2 3 4; do run_one $side $i >/dev/null; run_one $side $i >/dev/null; done; done
for round in 1 2 3; do
  for i in 0 1 2 3 4; do
    for side in new old; do run_one $side $i; run_one $side $i; run_one $side $i; done
  done
done
