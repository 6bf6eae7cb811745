# SPDX-License-Identifier: GPL-2.0
# Shared paths and helpers for the memattr harness scripts (sourced, not run).

MA_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MA_BUILD=${MA_BUILD:-$MA_TOP/build}
MA_BASE_TAR=${MA_BASE_TAR:-/usr/src/linux-source-6.12.tar.xz}
MA_BASE=$MA_BUILD/base/linux-source-6.12	# pristine, never modified
MA_SRC=$MA_BUILD/src				# pristine + our overlay + patches
MA_OBJ=$MA_BUILD/obj				# kernel build output (O=)
MA_IMAGE=$MA_BUILD/bzImage			# stable path other tools rely on
MA_LOGS=$MA_BUILD/logs
MA_LOCK=$MA_BUILD/.build-lock			# one kernel build at a time

die() {
	echo "memattr: error: $*" >&2
	exit 1
}

note() {
	echo "memattr: $*" >&2
}

need_cmd() {
	local cmd
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null 2>&1 ||
			die "'$cmd' not found: run 'harness/deps.sh' (or 'make deps') to install the build dependencies"
	done
}

# The directories of our tree that are overlaid onto the kernel source.
MA_OVERLAY_DIRS="arch block drivers fs include init kernel lib mm Documentation tools"

# The compiler for kernel builds: ccache when it is there, in depend mode.
# On a miss ccache's default mode runs the preprocessor as well as the
# compiler, which made a cold build half as long again (mm/ and
# kernel/sched/: 83 s, against 54 s with gcc alone); depend mode compiles
# once and takes the headers from the .d file the kernel asks gcc for (53 s),
# and hits as before (8 s).
kernel_cc() {
	if command -v ccache >/dev/null 2>&1; then
		echo "ccache gcc"
	else
		echo gcc
	fi
}
export CCACHE_DEPEND=1
