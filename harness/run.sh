#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make run": build everything, boot a topology and show its nodes.
# Usage: run.sh [TOPOLOGY]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

topology=${1:-default}
"$MA_TOP/harness/kernel.sh"
"$MA_TOP/harness/userspace.sh"
"$MA_TOP/harness/initramfs.sh"
exec "$MA_TOP/harness/vm" --topology "$topology" -- \
	sh -c 'if command -v memattr >/dev/null; then memattr show; else nodes; fi'
