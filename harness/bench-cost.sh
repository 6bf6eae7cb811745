#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What memattr costs outside the daemon, base and patched side by side
# (make bench-cost; make bench runs it too).
#
# Under plain TCG a fault rate is noise (4 boots each gave ratios 1.105 and
# 0.967). Here QEMU runs with -icount shift=0,sleep=off: guest time advances
# with executed instructions, so a rate is an instruction cost and repeats
# to a few parts in 10,000. It counts instructions, not cache misses, TLB
# or branch effects: a path that executes the same instructions but
# touches more cache lines looks free here.
#
#   1. page-fault throughput (harness/bench/fault_bench, 256 MiB x 3 per
#      boot) on "default" for three configurations: nothing configured;
#      node 3 special (memattr=3:special); node 3 special and the process
#      bound to nodes {0,3}, a nodemask naming a special node. Base and
#      patched boots in random order, ROUNDS boots of each; every patched
#      boot must show node 3 in /sys/devices/system/node/special exactly
#      when configured.
#   2. zonelist rebuild time at 4, 16 and 64 nodes (harness/scale.sh).
#   3. memattr show and show --json against exec of a static no-op
#      (selftests/memattr/memattr_tool, measure_show_time), under -icount.
#   BENCH_PREFIXES=1 adds 1. "plain" for each prefix of the patch series,
#   from the images make series-check keeps.
# Usage: bench-cost.sh [ROUNDS]     report in build/bench/cost.txt
set -uo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-3}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive number, got '$rounds'"
out=$MA_BUILD/bench/cost
rm -rf "$out"
mkdir -p "$out"
report=$MA_BUILD/bench/cost.txt

# config -> kernel command line, fault_bench's bind mask, node 3 special?
declare -A words=([plain]="" [special]="memattr=3:special" [bound]="memattr=3:special")
declare -A mask=([plain]="" [special]="" [bound]=9)
declare -A want=([plain]="" [special]=3 [bound]=3)

boots=()
for r in $(seq "$rounds"); do
	for c in plain special bound; do
		boots+=("$r base $c" "$r patched $c")
	done
done
bad=0
while read -r r k c; do
	image=$MA_IMAGE
	[ "$k" = base ] && image=$MA_IMAGE-base
	f=$out/$c-$k-$r
	# shellcheck disable=SC2016 # expanded in the guest
	"$MA_TOP/harness/vm" --icount --kernel "$image" --topology default \
		--append "${words[$c]}" --timeout 300 --log "$f.log" -- sh -c '
		echo "special=$(cat /sys/devices/system/node/special 2>/dev/null)"
		fault_bench 256 3 '"${mask[$c]}" >"$f.out" 2>&1
	if ! grep -q '^fault_rate ' "$f.out"; then
		note "no fault rate from $c on $k, round $r (see $f.out)"
		bad=1
	elif [ "$k" = patched ] && ! grep -qx "special=${want[$c]}" "$f.out"; then
		note "$c on the patched kernel: node 3 special should be '${want[$c]}' (see $f.out)"
		bad=1
	fi
done < <(printf '%s\n' "${boots[@]}" | shuf)

# median of one boot's runs, then median and range over the boots
per_boot() {
	# not "$1-$2-*.out": that also matches the console copies, *.log.out
	for ((r = 1; r <= rounds; r++)); do
		f=$out/$1-$2-$r.out
		[ -f "$f" ] || continue
		sed -n 's/^fault_rate //p' "$f" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	done | sort -n
}
# median of sorted numbers: the middle one, or the mean of the middle two
median() {
	printf '%s\n' "$@" | awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
}
{
	echo "# $(nproc) CPUs, $(qemu-system-x86_64 --version | head -n1); -icount shift=0,sleep=off"
	echo "# tree: $(cat "$MA_IMAGE.tree" 2>/dev/null || echo unknown), $(date +%F)"
	echo "# page faults per second of guest (instruction) time, 256 MiB x 3 per boot,"
	echo "# median of each boot; $rounds boots per kernel and configuration, in random order"
	printf '%-8s %-28s %-28s %s\n' config "base (median, range)" "patched (median, range)" patched/base
	for c in plain special bound; do
		mapfile -t b < <(per_boot "$c" base)
		mapfile -t p < <(per_boot "$c" patched)
		[ ${#b[@]} -gt 0 ] && [ ${#p[@]} -gt 0 ] || continue
		mb=$(median "${b[@]}") mp=$(median "${p[@]}")
		printf '%-8s %-28s %-28s %s\n' "$c" "$mb (${b[0]}-${b[-1]})" \
			"$mp (${p[0]}-${p[-1]})" "$(awk -v p="$mp" -v b="$mb" 'BEGIN { printf "%.4f", p / b }')"
	done
	# BENCH_PREFIXES=1: the same "plain" fault rate for each prefix of the
	# patch series (images kept by make series-check): which patch costs
	if [ "${BENCH_PREFIXES:-0}" = 1 ]; then
		echo
		echo "# plain, by series prefix (one boot each; build/series/bzImage-K)"
		for img in $(ls "$MA_BUILD"/series/bzImage-[0-9]* 2>/dev/null | sort -t- -k2 -n); do
			"$MA_TOP/harness/vm" --icount --kernel "$img" --topology default --timeout 300 \
				--log "$out/$(basename "$img").log" -- fault_bench 256 3 2>/dev/null |
				sed -n 's/^fault_rate //p' | sort -n |
				awk -v k="${img##*-}" 'NR == 2 { print "prefix " k ": " $1 }'
		done
	fi
	echo
	echo "# zonelist rebuild (a node's special flag toggled; the kernel's own timing, -icount)"
	SCALE_ICOUNT=1 "$MA_TOP/harness/scale.sh" 4 16 64 | sed -n 's/^MEASURE scale\//nodes /p'
	echo
	echo "# memattr show against exec of a static no-op, -icount, default topology"
	"$MA_TOP/harness/vm" --icount --topology default --timeout 300 --log "$out/show.log" -- \
		/memattr/selftests/memattr_tool -t measure_show_time 2>/dev/null |
		sed -n 's/^# \(.* took .*\)/\1/p'
} | tee "$report"
# make bench: the tiering report and this one together
[ -f "$MA_BUILD/bench/report.txt" ] && { echo; cat "$report"; } >>"$MA_BUILD/bench/report.txt"
[ $bad -eq 0 ] || die "some boots gave no result or the wrong special state (above)"
