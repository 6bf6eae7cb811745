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
for f in $files; do
	if out=$(perl "$cp" "${opts[@]}" -f "$f" 2>&1) && [ -z "$out" ]; then
		echo "PASS checkpatch/$f"
	else
		echo "$out" | head -n 10 >&2
		echo "FAIL checkpatch/$f"
	fi
done
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
