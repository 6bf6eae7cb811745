#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Malformed memattr= boot parameters at volume: harness/bootfuzz.py makes
# BOOTS command lines of up to WORDS memattr= words each from the documented
# grammar (a fixed seed, so a failure can be repeated), each boot of
# "default" must apply exactly the valid items (debugfs records, cmdline
# column; node/special) and warn about exactly the malformed ones.
# Usage: bootfuzz.sh [BOOTS [WORDS]]   MA_BOOTFUZZ_SEED picks another seed.
# Prints PASS/FAIL lines for check.sh.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

boots=${1:-15} words=${2:-10} seed=${MA_BOOTFUZZ_SEED:-20261203}
# The issue asks for at least this many malformed memattr= words
min_malformed=${MA_BOOTFUZZ_MIN:-100}
dir=$MA_LOGS/bootfuzz
rm -rf "$dir"
mkdir -p "$dir"
nodes=$(grep -c '^node ' "$MA_TOP/harness/topologies/default.topo")
counts=$(python3 "$MA_TOP/harness/bootfuzz.py" gen "$seed" "$boots" "$words" "$nodes" "$dir") ||
	die "bootfuzz: generating the command lines failed"
read -r nwords nbad_words nbad_items <<<"$counts"
echo "MEASURE bootparam: $boots boots, $nwords memattr= words, $nbad_words malformed words, $nbad_items malformed items"
if [ "$nbad_words" -lt "$min_malformed" ]; then
	echo "FAIL bootparam/volume ($nbad_words malformed words, fewer than $min_malformed)"
fi
for ((b = 0; b < boots; b++)); do
	"$MA_TOP/harness/vm" --topology default --append "$(cat "$dir/boot$b.words")" \
		--timeout 60 --log "$dir/boot$b.log" -- sh -c \
		'cat /sys/kernel/debug/memattr/records
		echo "SPECIAL $(cat /sys/devices/system/node/special)"
		dmesg' >"$dir/boot$b.out" 2>/dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL bootparam/boot$b (vm exit $rc, log $dir/boot$b.log)"
		continue
	fi
	python3 "$MA_TOP/harness/bootfuzz.py" judge "$dir/boot$b.expect" "$dir/boot$b.out" \
		"bootparam/boot$b"
	"$MA_TOP/harness/console-scan.sh" "bootparam/boot$b/console" "$dir/boot$b.log"
done
