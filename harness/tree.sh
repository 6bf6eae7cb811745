#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Derive build/src from the pristine base: our overlay files plus patches/series.
# Only files whose content changes are rewritten, so incremental builds stay
# incremental; files we stopped touching are restored from the base.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$MA_TOP/harness/base.sh"
need_cmd patch cmp

manifest=$MA_SRC/.memattr-files
if [ ! -f "$manifest" ]; then
	note "copying the base tree to $MA_SRC"
	rm -rf "$MA_SRC"
	cp -a "$MA_BASE" "$MA_SRC"
	: >"$manifest"
fi

stage=$MA_BUILD/stage
rm -rf "$stage"
mkdir -p "$stage"

patched_files() {
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1"
}

# 1. Patches, applied in series order to copies of the files they touch.
series=$MA_TOP/patches/series
if [ -f "$series" ]; then
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		pf=$MA_TOP/patches/$p
		[ -f "$pf" ] || die "patches/series names '$p' but patches/$p does not exist"
		for f in $(patched_files "$pf"); do
			[ -e "$stage/$f" ] && continue
			mkdir -p "$stage/$(dirname "$f")"
			[ -e "$MA_BASE/$f" ] && cp -a "$MA_BASE/$f" "$stage/$f"
		done
		if ! out=$(patch -d "$stage" -p1 -s --no-backup-if-mismatch -N <"$pf" 2>&1); then
			echo "$out" >&2
			die "patch '$p' does not apply to the base (see the failing file above)"
		fi
	done <"$series"
fi

# 2. Our own files, at their kernel paths.
cd "$MA_TOP"
for f in $(git ls-files --cached --others --exclude-standard -- $MA_OVERLAY_DIRS); do
	[ -f "$f" ] || continue
	[ -e "$stage/$f" ] && die "$f is both an overlay file and patched by patches/: pick one"
	mkdir -p "$stage/$(dirname "$f")"
	cp -a "$f" "$stage/$f"
done

# 3. Sync the stage into the source tree, touching only what differs.
cd "$stage"
find . -type f | sed 's|^\./||' | sort >"$MA_BUILD/.new-files"
changed=0
while read -r f; do
	if ! cmp -s "$f" "$MA_SRC/$f"; then
		mkdir -p "$MA_SRC/$(dirname "$f")"
		cp "$f" "$MA_SRC/$f"
		changed=$((changed + 1))
	fi
done <"$MA_BUILD/.new-files"

# 4. Restore the files an earlier run touched and this one does not.
sort "$manifest" | comm -23 - "$MA_BUILD/.new-files" | while read -r f; do
	if [ -e "$MA_BASE/$f" ]; then
		cmp -s "$MA_BASE/$f" "$MA_SRC/$f" || cp "$MA_BASE/$f" "$MA_SRC/$f"
	else
		rm -f "$MA_SRC/$f"
	fi
done
mv "$MA_BUILD/.new-files" "$manifest"
note "tree: $(wc -l <"$manifest") overlay/patched files, $changed updated"
