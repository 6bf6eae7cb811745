#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tiering benchmark (make bench): each scenario's topology booted once per
# configuration and run, with the same workload (harness/bench/tierbench.c)
# and sampler, under no tiering, the oracle placement, NUMA balancing in
# tiering mode, DAMON migrate_hot/migrate_cold (two settings of its
# nr_accesses threshold, the grid reported: each setting runs once, later
# runs repeat the scenario's best of run 1), memattr's kmemattrd with its
# default knobs, and kmemattrd together with NUMA balancing (one run: it is
# there for the ping-pong count). Results and the report go to
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
	# 58 boots of 24-40 s, about 30 minutes: with the kernels' cold
	# builds and bench-cost.sh within the 45 minutes make bench may take
	size=1024 seconds=14 runs=${BENCH_RUNS:-2}
fi
size=${BENCH_SIZE:-$size} seconds=${BENCH_SECONDS:-$seconds}
configs=${BENCH_CONFIGS:-${configs:-none oracle nb2 damon1 damon5 memattr memattr-nb2}}
scenarios=${BENCH_SCENARIOS:-${scenarios:-s1 s2 s3 s4 s5 s1c s1z}}
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
#   s1c, s1z: s1 with a contiguous hot set (what region-based monitors
#      like DAMON can separate) and with a Zipf-like skew inside the hot
#      set; once each, only the configurations that move pages
declare -A topo=([s1]=s1 [s2]=s2 [s3]=s1 [s4]=s1 [s5]=s1 [s1c]=s1 [s1z]=s1)
declare -A start=([s1]=1 [s2]=2 [s3]=1 [s4]=1 [s5]=1 [s1c]=1 [s1z]=1)
declare -A best=([s1]=0 [s2]=1 [s3]=0 [s4]=0 [s5]=0 [s1c]=0 [s1z]=0)
declare -A variant=([s1c]=1 [s1z]=1)
# s3 leaves the fast node room for one hot set (a tenth of the region) and
# 16 MiB: the oracle's placement must fit, set B must displace set A. It
# runs half as long again, so that the shift gets as long as a whole run.
declare -A flags=([s1]="" [s2]="" [s3]="-L $((size / 10 + 16)) -x $((seconds * 3 / 4))" [s4]="-f"
	[s5]="-P 3" [s1c]="-c" [s1z]="-z")
declare -A length=([s1]=$seconds [s2]=$seconds [s3]=$((seconds * 3 / 2)) [s4]=$seconds
	[s5]=$seconds [s1c]=$seconds [s1z]=$seconds)

# The DAMON setting of run 1 that placed most of the hot set on the best
# node (then: moved fewest cold pages); later runs repeat only that one.
damon_best() {
	for f in "$out/$1"-damon*-1.out; do
		[ -f "$f" ] || continue
		grep '^sample ' "$f" | tail -n 1 |
			sed -E 's/.* hot=([0-9]+) hot_best=([0-9]+) .* cold_moved=([0-9]+) .*/\2 \1 \3/' |
			awk -v c="$(basename "$f" -1.out)" '{ printf "%s %.6f %d\n", c, $1 / ($2 ? $2 : 1), $3 }'
	done | sort -k2,2gr -k3,3n | head -n 1 | cut -d' ' -f1 | sed "s/^$1-//"
}
{
	echo "# host: $(nproc) CPUs, $(uname -r); $(qemu-system-x86_64 --version | head -n1)"
	echo "# region ${size} MiB, ${seconds} s per run (s3: ${length[s3]} s), $runs run(s) (none," \
		"oracle, memattr-nb2 and the DAMON setting not chosen: one; s1c and s1z: one," \
		"without none, oracle and memattr-nb2); kernel $(basename "$MA_IMAGE")"
} >"$out/header"
for ((run = 1; run <= runs; run++)); do
	for scen in $scenarios; do
		for config in $(printf '%s\n' $configs | shuf); do
			# nothing moves pages during the first two: one run is their
			# median; the last is there for its ping-pong count
			case $config in none | oracle | memattr-nb2) [ "$run" -gt 1 ] && continue ;; esac
			if [ -n "${variant[$scen]:-}" ]; then
				[ "$run" -gt 1 ] && continue
				case $config in none | oracle | memattr-nb2) continue ;; esac
			fi
			if [ "$run" -gt 1 ] && [[ $config == damon* ]] &&
				[ "$config" != "$(damon_best "$scen")" ]; then
				continue
			fi
			f=$out/$scen-$config-$run
			# shellcheck disable=SC2086 # flags are words
			"$MA_TOP/harness/vm" --topology "$MA_TOP/harness/bench/topologies/${topo[$scen]}.topo" \
				--timeout $((length[$scen] + 240)) --log "$f.log" -- \
				tierbench-run "$config" "${start[$scen]}" "${best[$scen]}" \
				-s "$size" -t "${length[$scen]}" ${flags[$scen]} >"$f.out" 2>&1
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
