#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tiering benchmark (make bench). Each scenario's topology is booted once
# per repetition; the boot runs every configuration of the scenario once,
# in random order, each from a fresh process with the mechanism switched
# on before and off after it (harness/guest/tierbench-boot): every run of
# a cell comes from a different boot, and drift within a boot falls on all
# configurations alike. Configurations (harness/guest/tierbench-run): none,
# oracle, nb2 (numa_balancing=2), nb2-base (the same on unpatched 6.12,
# build/bzImage-base, booted separately), damon-plain, damon-tuned,
# memattr (kmemattrd), memattr-nb2. Results, report and the results table
# go to build/bench/.
#
# BENCH_GRID=1 (make bench-knobs): kmemattrd only, with its default knobs
# and with each of scan_interval_ms, hot_threshold and scan_budget set one
# step below and above its default ($grid), every scenario; one repetition
# unless BENCH_RUNS says otherwise; the report's knob table says how far
# the best point beats the defaults.
# BENCH_QUICK=1: 128 MiB, 10 s runs, one repetition. The full run: 256 MiB,
# 10 s runs (S3 and S5 20 s, SB 15 s), 5 repetitions. BENCH_RUNS, BENCH_SIZE (MiB),
# BENCH_SECONDS, BENCH_CONFIGS, BENCH_SCENARIOS, BENCH_TAX=0, BENCH_OUT (instead
# of build/bench), BENCH_SAMPLE_MS (tierbench's -i; not sb) override.
# Usage: bench-tier.sh [--smoke]   (--smoke: every configuration once,
#                                   briefly, for make check)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

smoke=0
if [ "${1:-}" = --smoke ]; then
	smoke=1 size=64 seconds=3 runs=1 scenarios="s1 sb" tax=0
elif [ "${BENCH_QUICK:-0}" = 1 ]; then
	size=128 seconds=10 runs=${BENCH_RUNS:-1} tax=${BENCH_TAX:-0}
else
	# 45 runs and 8 boots per repetition. At 512 MiB a repetition took
	# about 14 minutes (13 s a 10 s run: placing, sampling and freeing
	# the region), 69 for five: with the kernels' builds and bench-cost,
	# past make bench's 90 minutes. 256 MiB places and samples half as
	# much.
	size=256 seconds=10 runs=${BENCH_RUNS:-5} tax=${BENCH_TAX:-0}
fi
size=${BENCH_SIZE:-$size} seconds=${BENCH_SECONDS:-$seconds}
scenarios=${BENCH_SCENARIOS:-${scenarios:-s1 s2 s3 s4 s5 s1c s1z sb bind}}
out=${BENCH_OUT:-$MA_BUILD/bench}
[ $smoke = 1 ] && out=$MA_LOGS/bench-smoke
rm -rf "$out"
mkdir -p "$out"

# scenario -> topology, start node (slow), best node (fastest allowed),
# workload, configurations
#   s1 steady: scattered 10% hot set, room on the fast node
#   s2 CPU-less fastest node (HBM-like) above the CPUs' own
#   s3 shift under pressure: the fast node left with room for one hot set
#      and 16 MiB, the hot set moves to other pages two thirds in
#   s4 page cache: a tmpfs file read with pread(2); its shared mapping
#      (for move_pages(2)) is touched once per page, never to read
#   s5 many tasks: three processes share the region (MAP_SHARED)
#   s1c, s1z: s1 with a contiguous hot set (what region-based monitors
#      like DAMON can separate) and with a Zipf-like skew inside the hot
#      set; the configurations that move pages
#   sb: Debian's sysbench memory, Pareto-skewed random writes to a buffer
#      moved to the slow node after it is filled (harness/guest/sysbench-run)
#   bind: s1 with the task bound (MPOL_BIND) to the slow node: what each
#      mechanism does with pages that the task's policy keeps there
declare -A topo=([s1]=s1 [s2]=s2 [s3]=s1 [s4]=s1 [s5]=s1 [s1c]=s1 [s1z]=s1 [sb]=s1 [bind]=s1)
declare -A start=([s1]=1 [s2]=2 [s3]=1 [s4]=1 [s5]=1 [s1c]=1 [s1z]=1 [sb]=1 [bind]=1)
declare -A best=([s1]=0 [s2]=1 [s3]=0 [s4]=0 [s5]=0 [s1c]=0 [s1z]=0 [sb]=0 [bind]=0)
# s3 leaves the fast node room for one hot set (a tenth of the region) and
# 16 MiB: the oracle's placement must fit, set B must displace set A. It
# runs two and a half times as long, the shift at one run's length: after
# it one and a half runs (with the shift at 10 s of a 15 s run, every
# mechanism was n.r.; of a 20 s run, kmemattrd's steady state, from T90 + 2
# s, was too short to measure its CPU).
# s5 runs twice as long too: its movers take longest to get there (three
# processes' page tables), and a steady state from T90 + 2 s of a 10 s run
# was 3 s long, one pass of three page tables or none.
declare -A length=([s3]=$((seconds * 5 / 2)) [s5]=$((seconds * 2)) [sb]=$((seconds * 3 / 2)))
declare -A args=([s1]="" [s2]="" [s3]="-L $((size / 10 + 16)) -x $seconds" [s4]="-f"
	[s5]="-P 3" [s1c]="-c" [s1z]="-z" [bind]="-B")
# Each boot runs none, so that throughput is compared within a boot. The
# oracle runs where its placement is in doubt (S3's full node) and in S1
# as the reference; elsewhere it is the whole hot set on the best node,
# which the report's est./ideal divides by. memattr-nb2 is there for its
# ping-pong count (S1); nb2-base for any effect of our patches on NUMA
# balancing (S1-S3: S4's page cache it never sees, S5 is S1's machine).
# BIND needs no none: the task's policy alone keeps its pages there.
movers="nb2 damon-plain damon-tuned memattr"
declare -A cfgs=([s1]="none oracle nb2-base $movers memattr-nb2" [s2]="none nb2-base $movers"
	[s3]="none oracle nb2-base $movers" [s4]="none $movers" [s5]="none $movers"
	[s1c]=$movers [s1z]=$movers [sb]="none $movers" [bind]=$movers)
if [ $smoke = 1 ]; then
	cfgs[s1]="none oracle nb2 nb2-base damon-plain damon-tuned memattr memattr-nb2"
	cfgs[sb]=none
fi
# the knob grid: defaults 500 ms, 2 of the last 4 passes, 262144 entries
grid="memattr-i250 memattr-i1000 memattr-t1 memattr-t3 memattr-b65536 memattr-b1048576"
if [ "${BENCH_GRID:-0}" = 1 ]; then
	for s in "${!cfgs[@]}"; do
		cfgs[$s]="memattr $grid"
	done
	runs=${BENCH_RUNS:-1}
fi
only=${BENCH_CONFIGS:-}
# BENCH_SAMPLE_MS: tierbench's sample interval (1000 ms): a finer one
# resolves a mean over the run (avg/ideal) better than 1/11 of a 10 s run
sample_ms=${BENCH_SAMPLE_MS:-}

# Configurations of $1 that this run includes.
configs_of() {
	local c
	for c in ${cfgs[$1]}; do
		[ -z "$only" ] || [[ " $only " == *" $c "* ]] && echo "$c"
	done
}

# The guest command of scenario $1: tierbench-boot "configs" START BEST ...
workload() {
	local s=$1 len=${length[$1]:-$seconds}
	if [ "$s" = sb ]; then
		# sysbench's throughput counts whole events, each a pass of
		# buffer/8 random writes: 64 MiB takes about 3 s under TCG, so a
		# run sees several; at 512 MiB one took longer than the run
		echo "${start[$s]} ${best[$s]} sysbench-run $len 64"
	else
		echo "${start[$s]} ${best[$s]} tierbench -s $size -t $len${sample_ms:+ -i $sample_ms} ${args[$s]}"
	fi
}

# Run files <scenario>-<rep>[-base]-<config>.run become
# <scenario>-<config>-<rep>.out, the report's input, after each boot: a
# run cut short still leaves every finished boot to report on.
collect() {
	local f b c
	for f in "$out"/*.run; do
		[ -f "$f" ] || continue
		b=$(basename "$f" .run)
		if [[ $b =~ ^([a-z0-9]+)-([0-9]+)(-base)?-(.+)$ ]]; then
			c=${BASH_REMATCH[4]}
			[ -n "${BASH_REMATCH[3]}" ] && c=$c-base
			mv "$f" "$out/${BASH_REMATCH[1]}-$c-${BASH_REMATCH[2]}.out"
		fi
	done
}

# boot NAME SCENARIO KERNEL "CONFIGS" [VM OPTIONS...]: one boot, its runs
# split into NAME's run files ($out/<scenario>-<config>-<rep>.out).
failed=0
boot() {
	local name=$1 scen=$2 kernel=$3 list=$4 rc n len=${length[$2]:-$seconds} f c
	shift 4
	n=$(echo "$list" | wc -w)
	f=$out/boot-$name
	# shellcheck disable=SC2046 # the workload is words
	"$MA_TOP/harness/vm" --kernel "$kernel" --bench-programs "$@" \
		--topology "$MA_TOP/harness/bench/topologies/${topo[$scen]}.topo" \
		--timeout $((n * (len + 60) + 120)) --log "$f.log" -- \
		tierbench-boot "$list" $(workload "$scen") >"$f.out" 2>&1
	rc=$?
	echo "bench: $name ($list): exit $rc" >&2
	if [ $rc -eq 3 ] || grep -q '^setup-failed ' "$f.out"; then
		grep -h 'FATAL\|^setup-failed' "$f.out" >&2
		[ $smoke = 1 ] && echo "FAIL bench/smoke/$name/setup ($(grep -h FATAL "$f.out" | head -n 1))"
		die "a configuration's setup failed in boot $name (above; $f.out): nothing measured"
	fi
	[ $rc -eq 0 ] || failed=1
	# run files: the boot's tier lines, then the run's own lines
	awk -v dir="$out" -v name="$name" -v kern="$(basename "$kernel")" '
		/^boot-/ { hdr = hdr $0 "\n"; next }
		/^=== run / { file = dir "/" name "-" $3 ".run"
			printf "boot %s kernel=%s\n%s", name, kern, hdr > file; next }
		/^=== end / { close(file); file = ""; next }
		file != "" { print > file }' "$f.out"
	collect
	# a splat fails make check's smoke run, and is shown in a full run
	if [ $smoke = 1 ]; then
		"$MA_TOP/harness/console-scan.sh" "bench/smoke/$name/console" "$f.log"
	else
		"$MA_TOP/harness/console-scan.sh" "bench/$name/console" "$f.log" | grep -v '^PASS' >&2
	fi
}

{
	echo "# host: $(nproc) CPUs, $(uname -r); $(qemu-system-x86_64 --version | head -n1)"
	echo "# tree: $(cat "$MA_IMAGE.tree" 2>/dev/null || echo unknown)," \
		"$(date -u +%Y-%m-%d)"
	echo "# region ${size} MiB, ${seconds} s per run (s3: ${length[s3]} s, the shift at" \
		"${seconds} s; s5: ${length[s5]} s; sb: ${length[sb]} s)," \
		"$runs repetition(s): one boot per scenario and repetition, every configuration" \
		"once in it in random order (nb2-base: its own boot of unpatched 6.12)"
	[ -z "$sample_ms" ] || echo "# samples every $sample_ms ms (sb: every 1000 ms)"
} >"$out/header"

for ((rep = 1; rep <= runs; rep++)); do
	for scen in $(printf '%s\n' $scenarios | shuf); do
		mine=$(configs_of "$scen" | grep -vx nb2-base | shuf | tr '\n' ' ')
		[ -n "$mine" ] && boot "$scen-$rep" "$scen" "$MA_IMAGE" "$mine"
		if configs_of "$scen" | grep -qx nb2-base; then
			if [ ! -f "$MA_IMAGE-base" ]; then
				[ $smoke = 1 ] && echo "FAIL bench/smoke/nb2-base (no $MA_IMAGE-base)"
				die "no $MA_IMAGE-base: run harness/kernel.sh --base"
			fi
			boot "$scen-$rep-base" "$scen" "$MA_IMAGE-base" nb2
		fi
	done
done

# The throughput tax under -icount (BENCH_TAX=1, not by default): S1 at
# 256 MiB, every mechanism and none in one boot per repetition; guest time
# counts instructions, so the workload's operations per second drop only
# by the instructions that management took from it. A busy guest runs
# slowly there: the none run reached 4 s of guest time after 9.5 minutes
# (bench-cost's short fault loops do not notice), so 5 repetitions would
# take hours; the report shows the plain-TCG ratio to none of the same
# boot with its range instead.
if [ "$tax" = 1 ]; then
	list="none nb2 damon-plain damon-tuned memattr memattr-nb2"
	for ((rep = 1; rep <= runs; rep++)); do
		mine=$(printf '%s\n' $list | shuf | tr '\n' ' ')
		f=$out/tax-$rep
		"$MA_TOP/harness/vm" --icount --topology "$MA_TOP/harness/bench/topologies/s1.topo" \
			--timeout 900 --log "$f.log" -- \
			tierbench-boot "$mine" 1 0 tierbench -s 256 -t 4 >"$f.out" 2>&1
		rc=$?
		echo "bench: tax-$rep ($mine): exit $rc" >&2
		[ $rc -eq 3 ] && die "a configuration's setup failed under -icount ($f.out)"
		[ $rc -eq 0 ] || failed=1
		awk -v dir="$out" -v rep="$rep" '
			/^=== run / { file = dir "/tax-" $3 "-" rep ".out"; next }
			/^=== end / { close(file); file = ""; next }
			file != "" { print > file }' "$f.out"
	done
fi

report() {
	python3 "$MA_TOP/harness/bench-report.py" "$out" "$MA_TOP/harness/bench/topologies" "$@"
}
if [ $smoke = 1 ]; then
	# make check: every configuration set up, ran and sampled; the report
	# and the plot made from the runs
	bad=""
	for s in $scenarios; do
		for c in $(configs_of "$s"); do
			f=$out/$s-$c-1.out
			n=$(grep -c '^sample ' "$f" 2>/dev/null)
			if [ "${n:-0}" -ge 2 ] && grep -q '^end ' "$f" &&
				grep -q '^vmstat-after pgmigrate_success' "$f"; then
				echo "PASS bench/smoke/$s-$c ($n samples)"
			else
				echo "FAIL bench/smoke/$s-$c (see $f and $out/boot-*.out)"
				bad=1
			fi
		done
	done
	grep -q '^sysbench-total mibs=' "$out/sb-none-1.out" 2>/dev/null &&
		echo "PASS bench/smoke/sysbench-throughput" ||
		echo "FAIL bench/smoke/sysbench-throughput (see $out/sb-none-1.out)"
	if report $scenarios >"$out/report.txt" 2>"$out/report.err" && [ -s "$out/s1.png" ]; then
		echo "PASS bench/smoke/report (report and plot in $out)"
	else
		echo "FAIL bench/smoke/report (see $out/report.err)"
	fi
	exit 0
fi
report $scenarios
[ $failed = 0 ] || die "some boots failed or timed out (bench: lines above); the report counts what ran"
