#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series: the repository (our files + patches/) as a git-am-able patch
# series on the pristine base, grouped by series/grouping, with the cover
# letter series/cover-letter. Mail in build/series/patches/, commits in
# build/series/git (branch "series" on a sparse root commit "base").
# Usage: series.sh           export
#        series.sh --quick   export, git am onto a fresh copy of the base
#                            files, compare with the harness's tree (make
#                            check's drift test; PASS/FAIL lines)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_cmd git patch python3
"$MA_TOP/harness/tree.sh" 2>/dev/null
out=$MA_BUILD/series
mkdir -p "$out"
python3 "$MA_TOP/harness/series.py" export "$MA_BASE" "$MA_BUILD/stage" "$out"
if [ "${1:-}" = --quick ]; then
	python3 "$MA_TOP/harness/series.py" am "$MA_BASE" "$MA_BUILD/stage" "$out" "$out/am-quick"
	rm -rf "$out/am-quick"
else
	ls -l "$out/patches" | awk 'NR > 1 { printf "  %8d  %s\n", $5, $9 }' >&2
fi
