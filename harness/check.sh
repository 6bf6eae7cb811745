#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every memattr test: host-side checks, KUnit at boot, the selftests on every
# topology, checkpatch. Ends with "N passed, N failed, N skipped".
# Usage: check.sh [TOPOLOGY...]   (default: every harness/topologies/*.topo)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

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

if ! grep -qx 'FAIL build' "$results"; then
	step "KUnit"
	suites=$(cd "$MA_TOP" && git ls-files --cached --others --exclude-standard -- \
		$MA_OVERLAY_DIRS | grep -E 'kunit.*\.[ch]$' |
		xargs -r grep -h -A3 'struct kunit_suite .* = {' |
		sed -n 's/.*\.name *= *"\([^"]*\)".*/\1/p')
	klog=$MA_LOGS/kunit.log
	"$MA_TOP/harness/vm" --kunit --topology default --timeout 120 --log "$klog" -- true >/dev/null
	rc=$?
	[ $rc -eq 0 ] || echo "FAIL kunit/boot (vm exit $rc, log $klog)" | record
	python3 "$MA_TOP/harness/results.py" kunit "$klog" $suites | sed '/^$/d' | record

	binaries=$(cd "$MA_BUILD/selftests" && find . -maxdepth 1 -type f -perm -u+x -printf '%f\n' | sort)
	topologies=("$@")
	[ ${#topologies[@]} -gt 0 ] ||
		mapfile -t topologies < <(cd "$MA_TOP/harness/topologies" && ls ./*.topo | sed 's|^\./||; s|\.topo$||')
	for topo in "${topologies[@]}"; do
		step "selftests on $topo"
		out=$MA_LOGS/selftests-$topo.out
		"$MA_TOP/harness/vm" --topology "$topo" --timeout 300 \
			--log "$MA_LOGS/selftests-$topo.log" -- run-selftests >"$out" 2>"$out.err"
		rc=$?
		case $rc in
		124 | 125) cat "$out.err" >&2; echo "FAIL $topo/boot (vm exit $rc)" | record ;;
		esac
		python3 "$MA_TOP/harness/results.py" tap "$topo" "$out" $binaries | sed '/^$/d' | record
	done

	# Topologies that configure nothing must look exactly as under 6.12.
	plain=()
	for topo in "${topologies[@]}"; do
		grep -qE '^(memattr|cmdline)' "$MA_TOP/harness/topologies/$topo.topo" || plain+=("$topo")
	done
	if [ ${#plain[@]} -gt 0 ] && [ -f "$MA_IMAGE-base" ]; then
		step "comparing with unpatched 6.12 on ${plain[*]}"
		"$MA_TOP/harness/compare-base.sh" "${plain[@]}" | record
	fi
fi

step "checkpatch"
"$MA_TOP/harness/checkpatch.sh" | record

pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
skip=$(grep -c '^SKIP' "$results")
echo "memattr: check took $(($(date +%s) - t0)) s; every result in $results" >&2
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
