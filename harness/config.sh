#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make build/obj/.config: x86_64 tinyconfig + harness/configs/<name>.config
# fragments, then verify that olddefconfig kept every option we asked for.
# Usage: config.sh [extra fragment names...]   (e.g. "debug" later)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fragments=("$MA_TOP/harness/configs/memattr.config")
for extra in "$@"; do
	f=$MA_TOP/harness/configs/$extra.config
	[ -f "$f" ] || die "no config fragment $f"
	fragments+=("$f")
done

cfg=$MA_BUILD/cfg
mkdir -p "$cfg" "$MA_OBJ"
kmake() {
	make -s -C "$MA_SRC" O="$cfg" ARCH=x86_64 "$@" >"$cfg/make.log" 2>&1 ||
		{ cat "$cfg/make.log" >&2; die "kconfig step '$*' failed"; }
}
kmake tinyconfig
"$MA_SRC/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "${fragments[@]}" \
	>"$cfg/merge.log" 2>&1 || { cat "$cfg/merge.log" >&2; die "merge_config failed"; }
kmake olddefconfig

# Verify: every "CONFIG_X=y|m|value" the fragments ask for is in the result.
missing=()
while IFS= read -r want; do
	grep -qxF "$want" "$cfg/.config" || missing+=("$want")
done < <(cat "${fragments[@]}" | grep -E '^CONFIG_[A-Z0-9_]+=' )
if [ ${#missing[@]} -gt 0 ]; then
	printf '  %s\n' "${missing[@]}" >&2
	die "olddefconfig dropped the options above (unmet dependencies?)"
fi

if ! cmp -s "$cfg/.config" "$MA_OBJ/.config"; then
	cp "$cfg/.config" "$MA_OBJ/.config"
	note "config updated ($(grep -c '=y' "$MA_OBJ/.config") options set)"
fi
