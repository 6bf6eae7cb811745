#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the static guest programs from the derived tree: the memattr
# selftests (build/selftests/) and the memattr tool (build/guest-bin/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_cmd gcc make
[ -f /usr/lib/x86_64-linux-gnu/libnuma.a ] ||
	die "static libnuma missing: install libnuma-dev (harness/deps.sh)"
"$MA_TOP/harness/tree.sh"

log=$MA_LOGS/userspace-build.log
mkdir -p "$MA_LOGS" "$MA_BUILD/selftests" "$MA_BUILD/guest-bin"
if ! make -C "$MA_SRC/tools/testing/selftests/memattr" OUTPUT="$MA_BUILD/selftests" \
	>"$log" 2>&1; then
	grep -E 'error' "$log" | head -n 20 >&2
	die "selftests build failed; full log: $log"
fi
if [ -f "$MA_SRC/tools/memattr/Makefile" ]; then
	if ! make -C "$MA_SRC/tools/memattr" LDFLAGS=-static >>"$log" 2>&1; then
		grep -E 'error' "$log" | head -n 20 >&2
		die "tools/memattr build failed; full log: $log"
	fi
	cp "$MA_SRC/tools/memattr/memattr" "$MA_BUILD/guest-bin/memattr"
fi
for src in "$MA_TOP"/harness/bench/*.c; do
	gcc -Wall -O2 -static -o "$MA_BUILD/guest-bin/$(basename "$src" .c)" "$src" -lnuma -lpthread \
		>>"$log" 2>&1 || die "building $src failed; full log: $log"
done
# 6.12's own mm selftests that harness/mm-selftests.sh runs, unchanged.
mm=$MA_SRC/tools/testing/selftests/mm
gcc -Wall -O2 -static -I"$mm/.." -o "$MA_BUILD/guest-bin/mm-migration" \
	"$mm/migration.c" "$mm/thp_settings.c" -lnuma -lpthread >>"$log" 2>&1 ||
	die "building 6.12's mm selftest migration failed; full log: $log"
cp "$MA_SRC/tools/testing/selftests/memory-hotplug/mem-on-off-test.sh" \
	"$MA_BUILD/guest-bin/mem-on-off-test.sh"
grep -E ' warning: ' "$log" | grep -v getaddrinfo | sort -u >&2 || true
