#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Extract the pristine base kernel source once and print its exact version.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$MA_BASE_TAR" ] ||
	die "$MA_BASE_TAR missing: install Debian's linux-source-6.12 (harness/deps.sh)"

stamp=$MA_BUILD/base/.extracted
if [ ! -f "$stamp" ] || [ "$MA_BASE_TAR" -nt "$stamp" ]; then
	note "extracting $MA_BASE_TAR"
	rm -rf "$MA_BUILD/base"
	mkdir -p "$MA_BUILD/base"
	tar -C "$MA_BUILD/base" -xf "$MA_BASE_TAR"
	[ -f "$MA_BASE/Makefile" ] || die "unexpected tarball layout: no $MA_BASE/Makefile"
	touch "$stamp"
fi

pkg=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
kver=$(make -s -C "$MA_BASE" kernelversion 2>/dev/null)
echo "memattr: base: Debian linux-source-6.12 $pkg (Linux $kver)" >&2
