#!/usr/bin/env bash
# Runs Floe's benchmarks: builds the benchmarks module (and what it depends on) with the Maven
# wrapper, then starts a harness with `java -cp` on the module's runtime classpath (`mvn exec:java`
# cannot run a Flink MiniCluster, STACK.md). The first argument picks the harness; the rest go to it:
#   benchmarks/run.sh [write] --rows 1000000,10000000 --repeat 3 --parallelism 2 [--profile]
#   benchmarks/run.sh merge --target-rows 100k,1M,5M --repeat 3 [--profile]
#   benchmarks/run.sh backfill --slices 100 --rows-per-slice 10k --concurrency 1,2
#   benchmarks/run.sh commits --commits 1000 --partitions 365 --keep-last 20
#   benchmarks/run.sh checks [rows] [rounds]   (the writers' value checks against Iceberg's writer)
# (no harness named: the write-path benchmark). An unknown option prints the harness's usage.
# Results (Markdown) go to stdout, progress to stderr:
#   benchmarks/run.sh ... | tee bench-result.md
# Environment:
#   BENCH_HEAP         max heap (default 8g)
#   BENCH_JAVA_OPTS    extra JVM options
#   BENCH_MAVEN_ARGS   extra Maven options, e.g. -o to build offline
#   BENCH_SKIP_BUILD=1 reuse the last build
#   BENCH_LOG_LEVEL    WARN by default; INFO shows Flink and Iceberg (and slows them down)
set -euo pipefail

main=dev.floe.bench.WritePathBenchmark
case "${1:-}" in
  write) shift ;;
  merge) main=dev.floe.bench.MergeBenchmark; shift ;;
  backfill) main=dev.floe.bench.BackfillBenchmark; shift ;;
  commits) main=dev.floe.bench.CommitScalingBenchmark; shift ;;
  checks) main=dev.floe.bench.ValueCheckBenchmark; shift ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/benchmarks/target"

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  echo "run.sh: building (./mvnw package -pl benchmarks -am; tests skipped)..." >&2
  read -r -a maven_args <<< "${BENCH_MAVEN_ARGS:-}"
  (cd "$root" && ./mvnw -B -q "${maven_args[@]}" -DskipTests package -pl benchmarks -am) >&2
fi

# Written at package time by the module's dependency:build-classpath execution.
classpath="$target/classes:$(cat "$target/runtime-classpath.txt")"
# The parent POM's floe.jvm.flags (Flink's --add-opens list), filtered into the module's classes.
read -r -a jvm_flags < "$target/classes/dev/floe/bench/jvm-flags.txt"
read -r -a extra_opts <<< "${BENCH_JAVA_OPTS:-}"

exec java -Xmx"${BENCH_HEAP:-8g}" "${jvm_flags[@]}" "${extra_opts[@]}" \
  -Dlog4j.configurationFile="$root/benchmarks/log4j2-bench.properties" \
  -Dfloe.bench.root="$root" \
  -cp "$classpath" "$main" "$@"
