#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every memattr test: host-side checks, KUnit at boot, the selftests on every
# topology, checkpatch; with MA_DEBUG_TOPOLOGIES, the same under the debug
# kernel there. Every boot's console must be free of splats.
# Ends with "N passed, N failed, N skipped".
# Usage: check.sh [TOPOLOGY...]          (default: every harness/topologies/*.topo)
#        check.sh --debug [TOPOLOGY...]  only the debug kernel (default: every topology)
# MA_DEBUG_TOPOLOGIES: where a full check also boots the debug kernel
# (default: nowhere). On firmware and special, its cold build and boots
# took a cold make check from 37 to 54 minutes (2,205 s to 3,226 s), past
# the 45 CI allows; make check-debug runs it on every topology, and kernel
# changes pass it before they land.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

debug_only=0
if [ "${1:-}" = --debug ]; then
	debug_only=1
	shift
fi
debug_topologies=${MA_DEBUG_TOPOLOGIES-}

results=$MA_LOGS/check-results
mkdir -p "$MA_LOGS"
: >"$results"
t0=$(date +%s)

record() {
	tee -a "$results" | grep -v '^PASS' || true
}

step() {
	echo "memattr: check: $* ($(($(date +%s) - t0)) s)" >&2
}

all_topologies() {
	(cd "$MA_TOP/harness/topologies" && ls ./*.topo | sed 's|^\./||; s|\.topo$||')
}

# run_kunit IMAGE LABEL TIMEOUT [TOPOLOGY]: the built-in suites at boot,
# each must pass.
run_kunit() {
	local image=$1 label=$2 topo=${4:-default} suites klog rc
	suites=$(cd "$MA_TOP" && git ls-files --cached --others --exclude-standard -- \
		$MA_OVERLAY_DIRS | grep -E 'kunit.*\.[ch]$' |
		xargs -r grep -h -A3 'struct kunit_suite .* = {' |
		sed -n 's/.*\.name *= *"\([^"]*\)".*/\1/p')
	klog=$MA_LOGS/${label}kunit.log
	mkdir -p "$(dirname "$klog")"
	"$MA_TOP/harness/vm" --kernel "$image" --kunit --topology "$topo" --timeout "$3" \
		--log "$klog" -- true >/dev/null
	rc=$?
	[ $rc -eq 0 ] || echo "FAIL ${label}kunit/boot (vm exit $rc, log $klog)" | record
	python3 "$MA_TOP/harness/results.py" kunit "$klog" $suites |
		sed '/^$/d; s|^\([A-Z]*\) kunit/|\1 '"$label"'kunit/|' | record
	"$MA_TOP/harness/console-scan.sh" "${label}kunit/console" "$klog" | record
}

# run_selftests IMAGE LABEL TIMEOUT TOPOLOGY...: every selftest binary.
run_selftests() {
	local image=$1 label=$2 limit=$3 topo out log rc binaries
	shift 3
	binaries=$(cd "$MA_BUILD/selftests" && find . -maxdepth 1 -type f -perm -u+x -printf '%f\n' | sort)
	for topo in "$@"; do
		step "${label}selftests on $topo"
		out=$MA_LOGS/${label}selftests-$topo.out
		log=$MA_LOGS/${label}selftests-$topo.log
		"$MA_TOP/harness/vm" --kernel "$image" --topology "$topo" --timeout "$limit" \
			--log "$log" -- run-selftests >"$out" 2>"$out.err"
		rc=$?
		case $rc in
		124 | 125) cat "$out.err" >&2; echo "FAIL $label$topo/boot (vm exit $rc)" | record ;;
		esac
		python3 "$MA_TOP/harness/results.py" tap "$label$topo" "$out" $binaries | sed '/^$/d' | record
		"$MA_TOP/harness/console-scan.sh" "$label$topo/console" "$log" | record
	done
}

# The fuzzer at full volume, once: 10,000 writes to every writable file of
# "default" (the per-topology runs do a tenth).
run_fuzz_volume() {
	local out=$MA_LOGS/fuzz-volume.out log=$MA_LOGS/fuzz-volume.log
	step "fuzzing every writable file of default, 10,000 writes each"
	"$MA_TOP/harness/vm" --topology default --timeout 600 --log "$log" -- sh -c \
		'echo "MEMATTR-TEST-BEGIN: fuzz"
		MEMATTR_FUZZ_WRITES=10000 /memattr/selftests/fuzz -t every_file
		echo "MEMATTR-TEST-END: fuzz $?"' >"$out" 2>"$out.err"
	python3 "$MA_TOP/harness/results.py" tap default-volume "$out" fuzz | sed '/^$/d' | record
	"$MA_TOP/harness/console-scan.sh" default-volume/console "$log" | record
}

# The avoidance tests' control: on unpatched 6.12, booted on the same
# topology, the same workloads must put their pages on the special node
# (selftests/memattr/avoidance reads which kernel it runs on).
run_avoidance_control() {
	local topo=$1 out=$MA_LOGS/base-avoidance-$1.out log=$MA_LOGS/base-avoidance-$1.log
	step "avoidance control on unpatched 6.12 ($topo)"
	"$MA_TOP/harness/vm" --kernel "$MA_IMAGE-base" --topology "$topo" --timeout 300 \
		--log "$log" -- sh -c 'echo "MEMATTR-TEST-BEGIN: avoidance"
		/memattr/selftests/avoidance
		echo "MEMATTR-TEST-END: avoidance $?"' >"$out" 2>"$out.err"
	python3 "$MA_TOP/harness/results.py" tap "base-$topo" "$out" avoidance | sed '/^$/d' | record
	"$MA_TOP/harness/console-scan.sh" "base-$topo/console" "$log" | record
}

# The debug kernel: KUnit and the selftests, with lockdep, KASAN and
# DEBUG_VM watching. Boots take several times longer than without.
run_debug() {
	[ $# -gt 0 ] || return 0
	mkdir -p "$MA_LOGS/debug"
	step "building the debug kernel"
	if ! "$MA_TOP/harness/kernel.sh" --debug; then
		echo "FAIL debug/build" | record
		return 0
	fi
	step "debug KUnit"
	run_kunit "$MA_IMAGE-debug" debug/ 300
	run_selftests "$MA_IMAGE-debug" debug/ 900 "$@"
	step "KUnit with two node ids (NODES_SHIFT=1)"
	if "$MA_TOP/harness/kernel.sh" --nodes2; then
		run_kunit "$MA_IMAGE-nodes2" nodes2/ 120 nohmat
	else
		echo "FAIL nodes2/build" | record
	fi
}

finish() {
	local pass fail skip
	pass=$(grep -c '^PASS' "$results")
	fail=$(grep -c '^FAIL' "$results")
	skip=$(grep -c '^SKIP' "$results")
	# Measurements are reported, never counted as passes.
	echo "memattr: check took $(($(date +%s) - t0)) s; $(grep -c '^MEASURE' "$results")" \
		"measurements; every result in $results" >&2
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
}

if [ $debug_only -eq 1 ]; then
	topologies=("$@")
	[ ${#topologies[@]} -gt 0 ] || mapfile -t topologies < <(all_topologies)
	if ! "$MA_TOP/harness/userspace.sh" || ! "$MA_TOP/harness/initramfs.sh"; then
		echo "FAIL build" | record
		finish
	fi
	run_debug "${topologies[@]}"
	finish
fi

step "building"
if ! "$MA_TOP/harness/kernel.sh" || ! "$MA_TOP/harness/userspace.sh" ||
	! "$MA_TOP/harness/initramfs.sh"; then
	echo "FAIL build" | record
fi
step "building the unpatched base (for the 6.12 comparison)"
"$MA_TOP/harness/kernel.sh" --base || echo "FAIL build-base" | record

step "host-side checks"
for bad in "$MA_TOP"/harness/tests/bad-*.topo; do
	if msg=$(python3 "$MA_TOP/harness/topo.py" check "$bad" 2>&1); then
		echo "FAIL harness/rejects-$(basename "$bad" .topo) (accepted)"
	elif [[ "$msg" == *"bad topology"* ]]; then
		echo "PASS harness/rejects-$(basename "$bad" .topo)"
	else
		echo "FAIL harness/rejects-$(basename "$bad" .topo) (no clear message: $msg)"
	fi
done | record
for t in "$MA_TOP"/tools/*/test-*.sh; do
	[ -f "$t" ] || continue
	name=tools/$(basename "$(dirname "$t")")/$(basename "$t" .sh)
	# The tools' own tests run the binaries the harness built.
	if MEMATTR=$MA_BUILD/guest-bin/memattr bash "$t" >"$MA_LOGS/$(basename "$t").log" 2>&1; then
		echo "PASS $name"
	else
		tail -n 5 "$MA_LOGS/$(basename "$t").log" >&2
		echo "FAIL $name (log: $MA_LOGS/$(basename "$t").log)"
	fi
done | record

# The series cannot drift from the code: it exports, applies with git am
# and ends in exactly the tree tested here (make series-check does more).
step "the patch series applies and equals the tree (harness/series.sh --quick)"
"$MA_TOP/harness/series.sh" --quick 2>&1 | record
# The cover letter's benchmark numbers are the committed results table's.
python3 "$MA_TOP/harness/series.py" cover --check 2>&1 | record

if ! grep -qx 'FAIL build' "$results"; then
	step "KUnit"
	run_kunit "$MA_IMAGE" "" 120
	topologies=("$@")
	[ ${#topologies[@]} -gt 0 ] || mapfile -t topologies < <(all_topologies)
	run_selftests "$MA_IMAGE" "" 300 "${topologies[@]}"
	run_fuzz_volume
	step "malformed memattr= boot parameters (harness/bootfuzz.sh)"
	"$MA_TOP/harness/bootfuzz.sh" | record
	step "memattr= making every node with memory special (harness/boot-special.sh)"
	"$MA_TOP/harness/boot-special.sh" | record
	step "scale: 4, 16, 32 and 64 nodes (harness/scale.sh)"
	"$MA_TOP/harness/scale.sh" | record
	if [ -f "$MA_IMAGE-base" ]; then
		step "6.12's mm selftests migration and memory-hotplug, base and memattr"
		"$MA_TOP/harness/mm-selftests.sh" | record
	fi
	step "tiering benchmark: every configuration once, briefly (make bench runs them all)"
	"$MA_TOP/harness/bench-tier.sh" --smoke 2>/dev/null | record

	# Topologies that configure nothing must look exactly as under 6.12.
	plain=()
	for topo in "${topologies[@]}"; do
		grep -qE '^(memattr|cmdline)' "$MA_TOP/harness/topologies/$topo.topo" || plain+=("$topo")
	done
	if [ ${#plain[@]} -gt 0 ] && [ -f "$MA_IMAGE-base" ]; then
		step "comparing with unpatched 6.12 on ${plain[*]}"
		# a script that stops early must not leave its other topologies
		# silently unchecked
		{ "$MA_TOP/harness/compare-base.sh" "${plain[@]}" ||
			echo "FAIL compare-base (ended early, exit $?)"; } | record
	fi
	[ -f "$MA_IMAGE-base" ] && run_avoidance_control two-socket
	# With a node special from boot, totals over all memory must stay 6.12's.
	marked=()
	for topo in "${topologies[@]}"; do
		grep -qE '^memattr .*special' "$MA_TOP/harness/topologies/$topo.topo" && marked+=("$topo")
	done
	if [ ${#marked[@]} -gt 0 ] && [ -f "$MA_IMAGE-base" ]; then
		step "comparing totals with unpatched 6.12 on ${marked[*]}"
		# a script that stops early must not leave its other topologies
		# silently unchecked
		{ "$MA_TOP/harness/compare-totals.sh" "${marked[@]}" ||
			echo "FAIL compare-totals (ended early, exit $?)"; } | record
	fi
fi

step "checkpatch"
"$MA_TOP/harness/checkpatch.sh" | record

if ! grep -qx 'FAIL build' "$results"; then
	# shellcheck disable=SC2086 # a list of names
	run_debug $debug_topologies
	# A test skipped on every topology (a pass under the debug kernel
	# counts), or a topology without a single result, tests nothing;
	# judged only when every topology ran.
	if [ $# -eq 0 ]; then
		python3 "$MA_TOP/harness/results.py" coverage "$results" "${topologies[@]}" |
			sed '/^$/d' | record
	fi
fi
finish
