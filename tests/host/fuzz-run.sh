#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz-run.sh NAME FUZZER SEEDS WORKDIR TIME RUNS [SEED]
#
# One libFuzzer run of FUZZER, started from a fresh copy of the committed
# seed corpus SEEDS in WORKDIR/corpus (so a run is reproducible from the
# tree), crashing inputs kept in WORKDIR/artifacts.  TIME: seconds (0: no
# limit), RUNS: executions (empty or 0: no limit); whichever comes first
# ends the run.  SEED: libFuzzer's -seed (0: random).
#
# Prints one line:
#   fuzz NAME: ok|FAILED: N execs, T s, E exec/s, cov C ft F, corpus K, crashes X
# and exits non-zero when the fuzzer found a crash (any input in
# WORKDIR/artifacts) or did not run.
set -u
name=$1 fuzzer=$2 seeds=$3 work=$4 time=${5:-0} runs=${6:-} seed=${7:-0}

rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/[!.]* "$work/corpus/"

args=(-print_final_stats=1 -seed="$seed" -timeout=25
      -artifact_prefix="$work/artifacts/")
[ "$time" != 0 ] && args+=(-max_total_time="$time")
[ -n "$runs" ] && [ "$runs" != 0 ] && args+=(-runs="$runs")

start=$(date +%s)
"$fuzzer" "${args[@]}" "$work/corpus" > "$work/fuzz.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))

stat() { sed -n "s/^stat::$1: *//p" "$work/fuzz.log" | tail -1; }
execs=$(stat number_of_executed_units)
eps=$(stat average_exec_per_sec)
# the last status line: "#N DONE cov: C ft: F corp: K/..."
last=$(grep -E '^#[0-9]+.*cov: ' "$work/fuzz.log" | tail -1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(ls "$work/corpus" | wc -l)
crashes=$(ls "$work/artifacts" | wc -l)

verdict=ok
if [ "$rc" != 0 ] || [ "$crashes" != 0 ] || [ -z "$execs" ]; then
	verdict=FAILED
fi
echo "fuzz $name: $verdict: ${execs:-0} execs, $secs s, ${eps:-0} exec/s," \
	"cov ${cov:-?} ft ${ft:-?}, corpus $corp, crashes $crashes"
if [ $verdict != ok ]; then
	grep -E 'ERROR|invariant|SUMMARY|Test unit written' "$work/fuzz.log" |
		head -20 | sed "s/^/fuzz $name: /"
	echo "fuzz $name: log $work/fuzz.log, inputs in $work/artifacts/" \
		"(replay: $fuzzer FILE)"
	exit 1
fi
exit 0
