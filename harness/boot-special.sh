#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# memattr= may not make every node with memory special: booted on
# "special" (node 2 special from its topology) with memattr=0-1:special as
# well, the boot CPU's node 0 must stay ordinary, say so in the log
# ("memattr=0:special ignored") and have no cmdline value in its record,
# while node 1's mark applies. Prints PASS/FAIL lines for check.sh.
# Usage: boot-special.sh [KERNEL]   (default: build/bzImage)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:-$MA_IMAGE}
dir=$MA_LOGS/boot-special
mkdir -p "$dir"
out=$dir/out log=$dir/console.log
"$MA_TOP/harness/vm" --kernel "$kernel" --topology special --append "memattr=0-1:special" \
	--timeout 90 --log "$log" -- sh -c \
	'echo "SPECIAL $(cat /sys/devices/system/node/special)"
	awk "/^node/ { n = \$1 } n == \"node0\" && (\$1 == \"field\" || \$1 == \"special\")" \
		/sys/kernel/debug/memattr/records | sed "s/^/RECORD0 /"
	dmesg | grep "memattr" | sed "s/^/LOG /"' >"$out" 2>&1
rc=$?
name=bootparam/every-node-special
if [ $rc -ne 0 ]; then
	echo "FAIL $name (vm exit $rc, log $log)"
	exit 0
fi
problems=()
special=$(sed -n 's/^SPECIAL //p' "$out")
[ "$special" = "1-2" ] || problems+=("node/special is '$special', expected 1-2")
grep -q '^LOG .*memattr=0:special ignored' "$out" ||
	problems+=("no 'memattr=0:special ignored' line")
# debugfs: a "field value winner <source>..." header, then "special ..."
cmdline=$(awk '$1 == "RECORD0" && $2 == "field" { for (i = 2; i <= NF; i++) if ($i == "cmdline") c = i }
	$1 == "RECORD0" && $2 == "special" && c { print $c }' "$out")
[ "$cmdline" = "-" ] || problems+=("node 0's special has cmdline value '$cmdline'")
if [ ${#problems[@]} -eq 0 ]; then
	echo "PASS $name"
else
	echo "FAIL $name ($(printf '%s; ' "${problems[@]}")output $out)"
fi
"$MA_TOP/harness/console-scan.sh" "$name/console" "$log"
