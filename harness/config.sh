#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make build/obj/.config: x86_64 tinyconfig + harness/configs/<name>.config
# fragments, then verify that olddefconfig kept every option we asked for.
# Usage: config.sh [extra fragment names...]   (e.g. "debug" later)
# MA_KSRC/MA_KOBJ select another tree (the unpatched base, for comparisons).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ksrc=${MA_KSRC:-$MA_SRC}
kobj=${MA_KOBJ:-$MA_OBJ}

fragments=("$MA_TOP/harness/configs/memattr.config")
for extra in "$@"; do
	f=$MA_TOP/harness/configs/$extra.config
	[ -f "$f" ] || die "no config fragment $f"
	fragments+=("$f")
done

cfg=$kobj.cfg
mkdir -p "$cfg" "$kobj"
kmake() {
	make -s -C "$ksrc" O="$cfg" ARCH=x86_64 "$@" >"$cfg/make.log" 2>&1 ||
		{ cat "$cfg/make.log" >&2; die "kconfig step '$*' failed"; }
}
kmake tinyconfig
"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "${fragments[@]}" \
	>"$cfg/merge.log" 2>&1 || { cat "$cfg/merge.log" >&2; die "merge_config failed"; }
kmake olddefconfig

# Verify: every "CONFIG_X=y|m|value" the fragments ask for is in the result.
missing=()
while IFS= read -r want; do
	grep -qxF "$want" "$cfg/.config" || missing+=("$want")
done < <(cat "${fragments[@]}" | grep -E '^CONFIG_[A-Z0-9_]+=' |
	if [ "$ksrc" = "$MA_BASE" ]; then grep -v '^CONFIG_MEMATTR'; else cat; fi)
if [ ${#missing[@]} -gt 0 ]; then
	printf '  %s\n' "${missing[@]}" >&2
	die "olddefconfig dropped the options above (unmet dependencies?)"
fi

if ! cmp -s "$cfg/.config" "$kobj/.config"; then
	cp "$cfg/.config" "$kobj/.config"
	note "config updated ($(grep -c '=y' "$kobj/.config") options set)"
fi
