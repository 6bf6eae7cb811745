#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark: is the allocator fast path as fast as 6.12's with a special node
# configured? Boots the patched and the unpatched base kernel alternately on
# one topology with the same command line and compares page-fault
# throughput; then times zonelist rebuilds on "wide".
# Usage: bench-alloc.sh [ROUNDS] [MiB]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-3} mib=${2:-1024}
topology=default special_words="memattr=3:special"
"$MA_TOP/harness/kernel.sh"
"$MA_TOP/harness/kernel.sh" --base
"$MA_TOP/harness/userspace.sh"
"$MA_TOP/harness/initramfs.sh"

out=$MA_LOGS/bench-alloc
mkdir -p "$out"
: >"$out/patched" && : >"$out/base"
for r in $(seq "$rounds"); do
	for k in base patched; do
		image=$MA_IMAGE
		[ $k = base ] && image=$MA_IMAGE-base
		"$MA_TOP/harness/vm" --kernel "$image" --topology $topology \
			--append "$special_words" --timeout 300 -- \
			fault_bench "$mib" 3 | sed -n 's/^fault_rate //p' >>"$out/$k"
	done
	note "round $r done"
done

median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
mb=$(median "$out/base")
mp=$(median "$out/patched")
echo "fault throughput on $topology ($special_words), ${mib} MiB x 3 per boot, $rounds boots each:"
echo "  base 6.12:  median $mb pages/s  (runs: $(tr '\n' ' ' <"$out/base"))"
echo "  memattr:    median $mp pages/s  (runs: $(tr '\n' ' ' <"$out/patched"))"
echo "  ratio memattr/base: $(echo "scale=3; $mp / $mb" | bc)"

echo "zonelist rebuild on wide (toggle node 15 special 40 times):"
"$MA_TOP/harness/vm" --topology wide --append loglevel=1 --timeout 120 -- sh -c '
	write_time /sys/devices/system/node/node15/memattr/special 1 0 20 |
		sed "s/^/  whole sysfs write (incl. demotion targets), us: /"
	dmesg | sed -n "s/.*zonelists rebuilt in \([0-9]*\) us.*/\1/p" | sort -n |
		awk "{ v[NR] = \$1 } END { print \"  zonelist rebuild alone, us: median \" v[int((NR + 1) / 2)] \" max \" v[NR] \" (\" NR \" rebuilds)\" }"'
