#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series-check: the exported series (harness/series.sh) against a full
# git tree of the pristine base:
#   1. every patch applies in order with git am;
#   2. checkpatch.pl --strict is clean on every patch;
#   3. every prefix builds, with CONFIG_MEMATTR (our config) and without;
#   4. every prefix's kernel (CONFIG_MEMATTR on) boots the default topology
#      with a clean console, and the KUnit suites the prefix has pass: the
#      intermediate states series/stages/ makes are tested, not only built;
#   5. the whole series equals the tree make check tests, and its kernel
#      boots the default topology and passes the selftests there.
# Not part of make check (a cold run rebuilds the kernel about eight times);
# ends with "N passed, N failed" like make check.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

out=$MA_BUILD/series
full=$out/full
results=$out/check-results
t0=$(date +%s)
: >"$results" 2>/dev/null || { mkdir -p "$out"; : >"$results"; }
record() { tee -a "$results"; }
step() { echo "memattr: series-check: $* ($(($(date +%s) - t0)) s)" >&2; }

step "exporting"
"$MA_TOP/harness/series.sh" --quick | record
mapfile -t mail < <(ls "$out"/patches/*.patch | grep -v '/0000-')
[ ${#mail[@]} -gt 0 ] || { echo "FAIL series/export (no patches)" | record; exit 1; }

step "a git tree of the full base"
if [ ! -d "$full/.git" ] || [ "$(cat "$full/.memattr-base" 2>/dev/null)" != "$MA_BASE_TAR" ]; then
	rm -rf "$full"
	cp -a "$MA_BASE" "$full"
	git -C "$full" init -q -b base
	git -C "$full" add -A -f	# Debian's .gitignore ignores the whole top level
	GIT_AUTHOR_NAME=memattr GIT_AUTHOR_EMAIL=dev@memattr.invalid \
		GIT_COMMITTER_NAME=memattr GIT_COMMITTER_EMAIL=dev@memattr.invalid \
		git -C "$full" commit -q -m "linux-source-6.12 (pristine)"
	git -C "$full" tag -f pristine >/dev/null || { rm -rf "$full"; die "no commit of the base"; }
	echo "$MA_BASE_TAR" >"$full/.memattr-base"
fi
git -C "$full" checkout -q -f -B series pristine
git -C "$full" clean -q -fdx -e .memattr-base

step "git am"
if GIT_COMMITTER_NAME=memattr GIT_COMMITTER_EMAIL=dev@memattr.invalid \
	git -C "$full" am -q --whitespace=error "${mail[@]}" >"$out/am.log" 2>&1; then
	echo "PASS series-check/git-am (${#mail[@]} patches onto the full base)" | record
else
	head -n 5 "$out/am.log" >&2
	git -C "$full" am --abort >/dev/null 2>&1
	echo "FAIL series-check/git-am (log: $out/am.log)" | record
	exit 1
fi

step "checkpatch --strict on each patch"
# Rules that assume kernel headers or misread kselftest_harness.h idioms
# (FIXTURE_DATA(x) *self, braces that EXPECT_*() TH_LOG() needs, strtok
# delimiters, "no no" in expected tables), ignored
# only for patches that touch nothing but tools/ (userspace).
userspace_ignore=BIT_MACRO,PREFER_DEFINED_ATTRIBUTE_MACRO,VOLATILE,MACRO_WITH_FLOW_CONTROL,SPACING,BRACES,QUOTED_WHITESPACE_BEFORE_NEWLINE,EMBEDDED_FUNCTION_NAME,REPEATED_WORD
for p in "${mail[@]}"; do
	opts=(--strict --no-tree --terse --show-types --no-summary)
	if ! grep '^+++ b/' "$p" | grep -qv '^+++ b/tools/\|^+++ b/MAINTAINERS'; then
		opts+=(--ignore "$userspace_ignore")
	fi
	if o=$(cd / && perl "$MA_BASE/scripts/checkpatch.pl" "${opts[@]}" "$p" 2>&1) && [ -z "$o" ]; then
		echo "PASS series-check/checkpatch/$(basename "$p")"
	else
		echo "$o" | head -n 10 >&2
		echo "FAIL series-check/checkpatch/$(basename "$p")"
	fi
done | record

# build_prefix K on|off: the series' first K patches, with or without memattr.
build_prefix() {
	local k=$1 mode=$2 obj=$out/obj-$2 cfg=$out/obj-$2.cfg cc s
	mkdir -p "$obj" "$cfg"
	cc=$(kernel_cc)
	make -s -C "$full" O="$cfg" ARCH=x86_64 tinyconfig >"$cfg/make.log" 2>&1 || return 1
	local frags=("$MA_TOP/harness/configs/memattr.config")
	if [ "$mode" = off ]; then
		echo "# CONFIG_MEMATTR is not set" >"$cfg/no-memattr.config"
		frags+=("$cfg/no-memattr.config")
	fi
	"$full/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "${frags[@]}" \
		>"$cfg/merge.log" 2>&1 || return 1
	make -s -C "$full" O="$cfg" ARCH=x86_64 olddefconfig >>"$cfg/make.log" 2>&1 || return 1
	# Only a changed config touches the build tree: builds stay incremental.
	cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"
	s=$(grep -c '^CONFIG_MEMATTR=y' "$obj/.config")
	if [ "$mode" = on ] && [ "$k" -ge 2 ] && [ "$s" -ne 1 ]; then
		echo "CONFIG_MEMATTR not set after patch $k" >"$out/build-$k-$mode.log"
		return 1
	fi
	make -C "$full" O="$obj" ARCH=x86_64 CC="$cc" -j"$(nproc)" \
		KBUILD_BUILD_TIMESTAMP=memattr bzImage >"$out/build-$k-$mode.log" 2>&1
}

n=${#mail[@]}
rm -f "$out"/bzImage-*	# a prefix that fails to build must not boot an old image
exec 9>"$MA_LOCK"
flock 9
for k in $(seq 1 "$n"); do
	git -C "$full" checkout -q "series~$((n - k))"
	for mode in on off; do
		step "building patches 1-$k, CONFIG_MEMATTR $mode"
		start=$(date +%s)
		if build_prefix "$k" "$mode"; then
			# kept for make bench-cost, which times each prefix
			[ "$mode" = on ] && cp "$out/obj-on/arch/x86/boot/bzImage" "$out/bzImage-$k"
			warn=$(grep -c ' warning: ' "$out/build-$k-$mode.log")
			echo "PASS series-check/builds/$k-$mode ($(($(date +%s) - start)) s, $warn warnings)"
		else
			grep -E 'error|Error' "$out/build-$k-$mode.log" | head -n 10 >&2
			echo "FAIL series-check/builds/$k-$mode (log: $out/build-$k-$mode.log)"
		fi | record
	done
done
flock -u 9
git -C "$full" checkout -q series
cp "$out/obj-on/arch/x86/boot/bzImage" "$out/bzImage" 2>/dev/null

# The KUnit suites the first K patches define.
prefix_suites() {
	local rev=series~$(($n - $1)) files
	mapfile -t files < <(git -C "$full" diff --name-only pristine "$rev" | grep kunit)
	[ ${#files[@]} -gt 0 ] || return 0
	git -C "$full" grep -h -A3 'struct kunit_suite .* = {' "$rev" -- "${files[@]}" |
		sed -n 's/.*\.name *= *"\([^"]*\)".*/\1/p'
}

for k in $(seq 1 "$n"); do
	img=$out/bzImage-$k
	[ -f "$img" ] || continue	# its build failed, reported above
	step "booting patches 1-$k with KUnit"
	klog=$out/boot-$k-kunit.log
	if "$MA_TOP/harness/vm" --kernel "$img" --kunit --topology default --timeout 120 \
		--log "$klog" -- true >/dev/null 2>&1; then
		echo "PASS series-check/boots/$k"
	else
		echo "FAIL series-check/boots/$k (log: $klog)"
	fi | record
	python3 "$MA_TOP/harness/results.py" kunit "$klog" $(prefix_suites "$k") |
		sed '/^$/d; s|^\([A-Z]*\) kunit/|\1 series-check/prefix-'"$k"'/kunit/|' | record
	"$MA_TOP/harness/console-scan.sh" "series-check/prefix-$k/console" "$klog" | record
done

step "booting the whole series on default"
if [ -f "$out/bzImage" ] && [ -f "$MA_BUILD/initramfs.cpio.gz" -o -f "$MA_BUILD/initramfs.cpio" ]; then
	"$MA_TOP/harness/vm" --kernel "$out/bzImage" --topology default --timeout 300 \
		--log "$out/boot-default.log" -- run-selftests >"$out/boot-default.out" 2>&1
	python3 "$MA_TOP/harness/results.py" tap series-default "$out/boot-default.out" \
		$(cd "$MA_BUILD/selftests" && find . -maxdepth 1 -type f -perm -u+x -printf '%f\n' | sort) |
		sed '/^$/d' | record
else
	echo "FAIL series-check/boot (no image or initramfs: run make initramfs)" | record
fi

pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
echo "memattr: series-check took $(($(date +%s) - t0)) s; results in $results" >&2
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
