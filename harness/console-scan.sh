#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A kernel splat is a failure, not a warning: print one result line for a
# console log, FAIL with the first offending line if the kernel reported a
# warning, a bug, a lockdep or KASAN report, an RCU stall or a hung task.
# Usage: console-scan.sh NAME CONSOLE_LOG
set -euo pipefail

name=$1 log=$2
[ -f "$log" ] || { echo "FAIL $name (no console log $log)"; exit 0; }
# OOM reports and "Killed" are expected (the spill and OOM tests cause
# them); none of these patterns is part of an OOM report.
splat='WARNING:|BUG:|KASAN|UBSAN|Oops|general protection fault|Kernel panic'
splat+='|possible (circular|recursive) locking|inconsistent lock state'
splat+='|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|sleeping function called from invalid context'
splat+='|detected stalls? on CPU|self-detected stall|soft lockup|hard LOCKUP'
splat+='|blocked for more than [0-9]+ seconds|list_(add|del) corruption'
splat+='|VM_FAULT_OOM leaked|page dumped because'
if first=$(grep -aEm1 "$splat" "$log"); then
	first=$(echo "$first" | sed 's/^\[[^]]*\] //' | tr -d '\r' | cut -c1-160)
	echo "FAIL $name ($first; log $log)"
else
	echo "PASS $name"
fi
