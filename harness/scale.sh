#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scale: boot generated topologies of 4, 16, 32 and 64 nodes
# (harness/scale.py); every memattr file of every node must read, and the
# zonelist rebuild time (the kernel's own "zonelists rebuilt in" lines, a
# node's special flag toggled ROUNDS times) and the time to read every
# memattr file once are reported, so that growth with the node count shows.
# Usage: scale.sh [NODES...]   Prints PASS/FAIL/MEASURE lines for check.sh.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

rounds=10
dir=$MA_LOGS/scale
# SCALE_ICOUNT=1: under -icount, so that times are instruction costs
vmargs=()
[ "${SCALE_ICOUNT:-0}" = 1 ] && vmargs=(--icount)
mkdir -p "$dir"
[ $# -gt 0 ] || set -- 4 16 32 64
for n in "$@"; do
	topo=$dir/scale$n.topo
	python3 "$MA_TOP/harness/scale.py" "$n" "$topo" || die "scale.py $n failed"
	last=$((n - 1))
	"$MA_TOP/harness/vm" "${vmargs[@]}" --topology "$topo" --timeout 300 --log "$dir/scale$n.log" -- sh -c '
		echo "NODES $(ls -d /sys/devices/system/node/node[0-9]* | wc -l)"
		echo "READ $(read_time 21)"
		dmesg -c >/dev/null
		write_time /sys/devices/system/node/node'$last'/memattr/special 1 0 '$rounds' >/dev/null
		dmesg | sed -n "s/.*zonelists rebuilt in \([0-9]*\) us.*/REBUILD \1/p"' \
		>"$dir/scale$n.out" 2>&1
	rc=$?
	nodes=$(sed -n 's/^NODES //p' "$dir/scale$n.out")
	read -r read_us files < <(sed -n 's/^READ //p' "$dir/scale$n.out")
	if [ $rc -ne 0 ] || [ "$nodes" != "$n" ] || [ -z "${files:-}" ]; then
		echo "FAIL scale/$n/boot-read (vm exit $rc, $nodes nodes, log $dir/scale$n.log)"
		continue
	fi
	echo "PASS scale/$n/boot-read ($files memattr files)"
	sed -n 's/^REBUILD //p' "$dir/scale$n.out" | sort -n >"$dir/scale$n.rebuild"
	echo "MEASURE scale/$n $(awk '{ v[NR] = $1 } END {
		printf "zonelist rebuild median %d us max %d us (%d rebuilds)", v[int((NR + 1) / 2)], v[NR], NR }' \
		"$dir/scale$n.rebuild"), reading all $files memattr files $read_us us"
	"$MA_TOP/harness/console-scan.sh" "scale/$n/console" "$dir/scale$n.log"
done
