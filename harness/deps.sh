#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the harness needs, only those that are missing.
set -euo pipefail

packages=(linux-source-6.12 qemu-system-x86 busybox-static ccache libnuma-dev
	  gcc make flex bison bc libelf-dev libssl-dev cpio gzip xz-utils
	  python3 perl patch rsync jq kmod git gnuplot-nox
	  sysbench numactl hwloc-nox)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "memattr: installing missing packages: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "memattr: error: not root; install them with: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || echo "memattr: apt-get update failed, trying the install anyway" >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	{ echo "memattr: error: apt-get install ${missing[*]} failed" >&2; exit 1; }
