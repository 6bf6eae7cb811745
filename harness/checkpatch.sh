#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict on our kernel files and patches: one result line each.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cp=$MA_BASE/scripts/checkpatch.pl
[ -f "$cp" ] || die "no checkpatch.pl: run harness/base.sh first"
cd "$MA_TOP"
kernel_dirs=$(echo "$MA_OVERLAY_DIRS" | tr ' ' '\n' | grep -vx -e tools -e Documentation)
files=$(git ls-files --cached --others --exclude-standard -- $kernel_dirs | grep -E '\.[ch]$' || true)
opts=(--strict --no-tree --terse --show-types --no-summary)
check_file() { # one result line for one source file
	local out
	if out=$(perl "$cp" "${opts[@]}" -f "$1" 2>&1) && [ -z "$out" ]; then
		echo "PASS checkpatch/$1"
	else
		echo "$out" | head -n 10 >&2
		echo "FAIL checkpatch/$1"
	fi
}
export -f check_file
export cp
export opts_str="${opts[*]}"
# Two at a time: each perl run costs a second or two.
echo "$files" | sed '/^$/d' | xargs -r -P 2 -I{} bash -c 'opts=($opts_str); check_file "$1"' _ {}
for p in $(grep -v '^#' patches/series 2>/dev/null || true); do
	# Outside the repository: inside it, checkpatch treats a tracked path
	# as a file to check rather than as a patch.
	if out=$(cd / && perl "$cp" "${opts[@]}" --no-signoff "$MA_TOP/patches/$p" 2>&1) &&
		[ -z "$out" ]; then
		echo "PASS checkpatch/patches/$p"
	else
		echo "$out" | head -n 10 >&2
		echo "FAIL checkpatch/patches/$p"
	fi
done
