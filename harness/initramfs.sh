#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the base initramfs: busybox-static, the guest init, the memattr tool,
# the statically linked selftests and Debian's lstopo-no-graphics and numactl
# (dynamic, with their libraries: 3.5 MB) (build/initramfs.cpio.gz); and, for
# the tiering benchmark only, a second part with two Debian programs as
# they are packaged, dynamic, with the libraries ldd names at the same
# paths (build/initramfs-bench.cpio.gz: sysbench, numactl's migratepages;
# 9 MB that every other boot would unpack for nothing, 0.6 s each).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

busybox=$(command -v busybox || true)
[ -n "$busybox" ] && [[ "$(ldd "$busybox" 2>&1 || true)" == *"not a dynamic"* ]] ||
	die "a static busybox is needed: install busybox-static (harness/deps.sh)"

gen=$MA_BUILD/tools/gen_init_cpio
if [ ! -x "$gen" ] || [ "$MA_BASE/usr/gen_init_cpio.c" -nt "$gen" ]; then
	mkdir -p "$(dirname "$gen")"
	gcc -O2 -o "$gen" "$MA_BASE/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
fi

# gen_init_cpio lines for Debian's dynamic programs @2.. at /memattr/bin,
# with the libraries ldd names at their own paths; @1 names the variable
# holding the directories and files listed so far (" / " to start).
dynamic_programs() {
	local -n seen=$1
	local prog p lib d parts
	shift
	for prog in "$@"; do
		p=$(command -v "$prog") || die "$prog not found: run harness/deps.sh"
		echo "file /memattr/bin/$prog $p 0755 0 0"
		for lib in $(ldd "$p" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
			d=$(dirname "$lib") parts=""
			while [ "$d" != / ]; do
				parts="$d $parts"
				d=$(dirname "$d")
			done
			for d in $parts; do
				[[ "$seen" == *" $d "* ]] && continue
				seen+="$d "
				echo "dir $d 0755 0 0"
			done
			[[ "$seen" == *" $lib "* ]] && continue
			seen+="$lib "
			echo "file $lib $(readlink -f "$lib") 0755 0 0"
		done
	done
}

list=$MA_BUILD/initramfs.list
{
	for d in /bin /sbin /dev /proc /sys /tmp /memattr /memattr/bin /memattr/selftests; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $MA_TOP/harness/guest/init 0755 0 0"
	for f in run-selftests nodes tierbench-run tierbench-boot sysbench-run; do
		echo "file /memattr/bin/$f $MA_TOP/harness/guest/$f 0755 0 0"
	done
	for f in "$MA_BUILD"/guest-bin/*; do
		[ -f "$f" ] && echo "file /memattr/bin/${f##*/} $f 0755 0 0"
	done
	for f in "$MA_BUILD"/selftests/*; do
		[ -f "$f" ] && [ -x "$f" ] && echo "file /memattr/selftests/${f##*/} $f 0755 0 0"
	done
	# hwloc, whose view of the nodes the views selftest compares with ours,
	# and numactl, the client whose policies kmemattrd's selftest checks
	base_dirs=" / /bin /sbin /dev /proc /sys /tmp /memattr /memattr/bin /memattr/selftests "
	dynamic_programs base_dirs lstopo-no-graphics numactl
} >"$list.new"
out=$MA_BUILD/initramfs.cpio.gz
"$gen" "$list.new" | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
mv "$list.new" "$list"

# The benchmark's part: appended by harness/vm --bench-programs.
dirs=" / "
dynamic_programs dirs sysbench migratepages >"$list-bench.new"
out=$MA_BUILD/initramfs-bench.cpio.gz
"$gen" "$list-bench.new" | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
mv "$list-bench.new" "$list-bench"
