#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tiering benchmark (make bench): each scenario's topology booted once per
# configuration and run, with the same workload (harness/bench/tierbench.c)
# and sampler, under no tiering, the oracle placement, NUMA balancing in
# tiering mode, DAMON migrate_hot/migrate_cold (two settings of its
# nr_accesses threshold, the grid reported), memattr's kmemattrd with its
# default knobs, and kmemattrd together with NUMA balancing. Results and the report go to
# build/bench/. BENCH_QUICK=1: small region, short runs, one repetition.
# BENCH_RUNS, BENCH_SIZE (MiB), BENCH_SECONDS, BENCH_CONFIGS, BENCH_SCENARIOS
# override the defaults.
# Usage: bench-tier.sh [--smoke]   (--smoke: one short run, for make check)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --smoke ]; then
	size=64 seconds=4 runs=1 configs=none scenarios=s1
elif [ "${BENCH_QUICK:-0}" = 1 ]; then
	size=256 seconds=20 runs=${BENCH_RUNS:-1}
else
	# 85 boots of about 30 s: within the 45 minutes make bench may take
	size=1024 seconds=20 runs=${BENCH_RUNS:-3}
fi
size=${BENCH_SIZE:-$size} seconds=${BENCH_SECONDS:-$seconds}
configs=${BENCH_CONFIGS:-${configs:-none oracle nb2 damon1 damon5 memattr memattr-nb2}}
scenarios=${BENCH_SCENARIOS:-${scenarios:-s1 s2 s3 s4 s5}}
out=$MA_BUILD/bench
[ "${1:-}" = --smoke ] && out=$MA_LOGS/bench-smoke
rm -rf "$out"
mkdir -p "$out"

# scenario -> topology, start node (slow), best node (fastest allowed), flags
#   s1 steady: scattered 10% hot set, room on the fast node
#   s2 CPU-less fastest node (HBM-like) above the CPUs' own
#   s3 shift under pressure: the fast node left with room for one hot set
#      and 16 MiB, the hot set moves to other pages halfway through
#   s4 page cache: a tmpfs file read with pread(2), never mapped to read
#   s5 many tasks: three processes share the region (MAP_SHARED)
declare -A topo=([s1]=s1 [s2]=s2 [s3]=s1 [s4]=s1 [s5]=s1)
declare -A start=([s1]=1 [s2]=2 [s3]=1 [s4]=1 [s5]=1)
declare -A best=([s1]=0 [s2]=1 [s3]=0 [s4]=0 [s5]=0)
# s3 leaves the fast node room for one hot set (a tenth of the region) and
# 16 MiB: the oracle's placement must fit, set B must displace set A
declare -A flags=([s1]="" [s2]="" [s3]="-L $((size / 10 + 16)) -x $((seconds / 2))" [s4]="-f"
	[s5]="-P 3")
{
	echo "# host: $(nproc) CPUs, $(uname -r); $(qemu-system-x86_64 --version | head -n1)"
	echo "# region ${size} MiB, ${seconds} s per run, $runs run(s); kernel $(basename "$MA_IMAGE")"
} >"$out/header"
for ((run = 1; run <= runs; run++)); do
	for scen in $scenarios; do
		for config in $(printf '%s\n' $configs | shuf); do
			# nothing moves pages during these two: one run is their median
			case $config in none | oracle) [ "$run" -gt 1 ] && continue ;; esac
			f=$out/$scen-$config-$run
			# shellcheck disable=SC2086 # flags are words
			"$MA_TOP/harness/vm" --topology "$MA_TOP/harness/bench/topologies/${topo[$scen]}.topo" \
				--timeout $((seconds + 240)) --log "$f.log" -- \
				tierbench-run "$config" "${start[$scen]}" "${best[$scen]}" \
				-s "$size" -t "$seconds" ${flags[$scen]} >"$f.out" 2>&1
			echo "bench: $scen $config run $run: exit $?" >&2
		done
	done
done
if [ "${1:-}" = --smoke ]; then
	# make check: the workload and the sampler must still work and agree
	f=$out/s1-none-1.out
	n=$(grep -c '^sample ' "$f")
	if [ "$n" -ge 3 ] && grep -q '^end ' "$f" && grep -q '^vmstat-after pgmigrate_success' "$f" &&
		python3 "$MA_TOP/harness/bench-report.py" "$out" "$MA_TOP/harness/bench/topologies" s1 \
		>"$out/report.txt" && [ -s "$out/s1.png" ]; then
		echo "PASS bench/smoke ($n samples, report and plot in $out)"
	else
		echo "FAIL bench/smoke (see $f)"
	fi
	"$MA_TOP/harness/console-scan.sh" bench/smoke/console "$out/s1-none-1.log"
	exit 0
fi
python3 "$MA_TOP/harness/bench-report.py" "$out" "$MA_TOP/harness/bench/topologies" $scenarios
