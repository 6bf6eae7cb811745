#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# With nothing configured, memattr must change nothing: boot the unpatched
# base and the patched kernel on a topology and compare what 6.12 itself
# decides (zonelist fallback orders, memory tiers). One result line each.
# Usage: compare-base.sh TOPOLOGY...
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$MA_IMAGE-base" ] || die "no base kernel: run 'harness/kernel.sh --base'"
probe='for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
	[ -d "$t" ] && echo "tier $(cat $t/nodelist)"; done; true'

facts() { # kernel topology -> fallback orders and tiers, one per line
	local log=$MA_LOGS/compare-$(basename "$2" .topo)-$(basename "$1").log
	"$MA_TOP/harness/vm" --kernel "$1" --topology "$2" --timeout 120 --log "$log" \
		-- sh -c "$probe" 2>/dev/null | sort
	grep -a 'Fallback order for Node' "$log" | sed 's/^\[[^]]*\] //' | sort -u
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for topo in "$@"; do
	# Both boots at once: they only print facts, nothing is timed.
	facts "$MA_IMAGE-base" "$topo" >"$tmp/base" &
	b=$!
	facts "$MA_IMAGE" "$topo" >"$tmp/ours" &
	o=$!
	if ! wait $b || [ ! -s "$tmp/base" ]; then
		wait $o || true
		echo "FAIL compare-base/$topo (base kernel did not boot)"
		continue
	fi
	if ! wait $o; then
		echo "FAIL compare-base/$topo (patched kernel did not boot)"
		continue
	fi
	base=$(cat "$tmp/base") ours=$(cat "$tmp/ours")
	if [ "$base" = "$ours" ]; then
		echo "PASS compare-base/$topo"
	else
		# diff's status must not end the loop under set -e
		diff <(echo "$base") <(echo "$ours") | sed 's/^/  /' >&2 || true
		echo "FAIL compare-base/$topo (fallback orders or tiers differ from 6.12)"
	fi
done
