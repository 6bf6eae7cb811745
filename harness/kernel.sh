#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the patched kernel incrementally and leave it at build/bzImage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_cmd gcc make flex bison bc
mkdir -p "$MA_BUILD"
exec 9>"$MA_LOCK"
flock 9

"$MA_TOP/harness/tree.sh"
"$MA_TOP/harness/config.sh" "$@"

cc=gcc
command -v ccache >/dev/null 2>&1 && cc="ccache gcc"
log=$MA_LOGS/kernel-build.log
mkdir -p "$MA_LOGS"
start=$(date +%s)
if ! make -C "$MA_SRC" O="$MA_OBJ" ARCH=x86_64 CC="$cc" -j"$(nproc)" \
	KBUILD_BUILD_TIMESTAMP=memattr bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 30 >&2
	die "kernel build failed; full log: $log"
fi
grep -E ' warning: ' "$log" | sort -u >&2 || true
cp "$MA_OBJ/arch/x86/boot/bzImage" "$MA_IMAGE.tmp"
mv "$MA_IMAGE.tmp" "$MA_IMAGE"
note "kernel: $MA_IMAGE ($(($(date +%s) - start)) s)"
