#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the patched kernel incrementally and leave it at build/bzImage.
# Usage: kernel.sh [--base|--debug|--nodes2] [extra config fragments...]
#   --base   build the unpatched base instead, at build/bzImage-base, for
#            side-by-side comparisons (same config, without memattr)
#   --debug  build the patched kernel with harness/configs/debug.config
#            (lockdep, KASAN, DEBUG_VM, ...) at build/bzImage-debug
#   --nodes2 build the patched kernel with NODES_SHIFT=1 (two node ids,
#            harness/configs/nodes2.config) at build/bzImage-nodes2, for
#            the KUnit suites on the smallest NUMA configuration
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base=0 variant=
case "${1:-}" in
--base) base=1; shift ;;
--debug) variant=debug; shift; set -- debug "$@" ;;
--nodes2) variant=nodes2; shift; set -- nodes2 "$@" ;;
esac

need_cmd gcc make flex bison bc
mkdir -p "$MA_BUILD"
exec 9>"$MA_LOCK"
flock 9

ksrc=$MA_SRC kobj=$MA_OBJ image=$MA_IMAGE log=$MA_LOGS/kernel-build.log
if [ $base -eq 1 ]; then
	"$MA_TOP/harness/base.sh"
	ksrc=$MA_BASE kobj=$MA_BUILD/obj-base image=$MA_IMAGE-base
	log=$MA_LOGS/kernel-base-build.log
else
	"$MA_TOP/harness/tree.sh"
	if [ -n "$variant" ]; then
		kobj=$MA_BUILD/obj-$variant image=$MA_IMAGE-$variant
		log=$MA_LOGS/kernel-$variant-build.log
	fi
fi
MA_KSRC=$ksrc MA_KOBJ=$kobj "$MA_TOP/harness/config.sh" "$@"

cc=$(kernel_cc)
mkdir -p "$MA_LOGS"
start=$(date +%s)
if ! make -C "$ksrc" O="$kobj" ARCH=x86_64 CC="$cc" -j"$(nproc)" \
	KBUILD_BUILD_TIMESTAMP=memattr bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 30 >&2
	die "kernel build failed; full log: $log"
fi
# ccache (depend mode) hashes what the compiler's dependency file lists;
# piggy.S takes the compressed kernel in with .incbin, which none lists, so
# a cached piggy.o of an earlier kernel whose compressed size was the same
# would be put in the bzImage (seen: a KUnit case missing from a boot).
# Assemble it again without the cache: a few seconds.
rm -f "$kobj/arch/x86/boot/compressed/piggy.o"
if ! CCACHE_DISABLE=1 make -C "$ksrc" O="$kobj" ARCH=x86_64 CC="$cc" -j"$(nproc)" \
	KBUILD_BUILD_TIMESTAMP=memattr bzImage >>"$log" 2>&1; then
	die "kernel build failed (bzImage without ccache); full log: $log"
fi
grep -E ' warning: ' "$log" | sort -u >&2 || true
cp "$kobj/arch/x86/boot/bzImage" "$image.tmp"
mv "$image.tmp" "$image"
# the commit the image was built from, for the benchmarks' reports
git -C "$MA_TOP" describe --always --dirty >"$image.tree" 2>/dev/null || echo unknown >"$image.tree"
note "kernel: $image ($(($(date +%s) - start)) s)"
