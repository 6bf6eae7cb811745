#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side test of memattr against fake sysfs trees (MEMATTR_SYSFS_ROOT):
# show (table and JSON), select ranking and filters, exec policies, exit
# statuses and "no partial action" on bad input. Needs jq. Prints TAP;
# exits 0 if every check passed, 1 otherwise.
#
# Usage: ./test-fake-sysfs.sh   (MEMATTR=/path/to/memattr)

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
MEMATTR=${MEMATTR:-$here/memattr}
if [[ ! -x $MEMATTR ]]; then
	echo "memattr not built: run 'make -C tools/memattr' first" >&2
	exit 1
fi
if ! command -v jq >/dev/null; then
	echo "jq is needed: apt-get install jq" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nr_tests=0
nr_failed=0

ok() {		# ok DESCRIPTION: record a pass
	nr_tests=$((nr_tests + 1))
	echo "ok $nr_tests - $1"
}

not_ok() {	# not_ok DESCRIPTION DETAIL: record a failure
	nr_tests=$((nr_tests + 1))
	nr_failed=$((nr_failed + 1))
	echo "not ok $nr_tests - $1"
	echo "#   $2"
}

check_eq() {	# check_eq DESCRIPTION EXPECTED ACTUAL
	if [[ $2 == "$3" ]]; then
		ok "$1"
	else
		not_ok "$1" "expected '$2', got '$3'"
	fi
}

# run ROOT ARGS...: run memattr on the tree ROOT; sets $out, $err, $rc.
run() {
	local root=$1

	shift
	rc=0
	out=$(MEMATTR_SYSFS_ROOT=$root "$MEMATTR" "$@" 2>"$tmp/stderr") ||
		rc=$?
	err=$(cat "$tmp/stderr")
}

# expect_select ROOT EXPECTED ARGS...: select prints EXPECTED, exit 0.
expect_select() {
	local root=$1 expected=$2

	shift 2
	run "$root" select "$@"
	check_eq "select $* -> $expected" "$expected (rc 0)" "$out (rc $rc)"
}

# expect_rc ROOT RC ARGS...: exit status RC and exactly one stderr line.
expect_rc() {
	local root=$1 expected=$2 lines

	shift 2
	run "$root" "$@"
	lines=$(printf '%s' "$err" | grep -c . || true)
	check_eq "memattr $* -> exit $expected, one message" \
		"$expected/1" "$rc/$lines"
}

# ---- building fake trees ----

put() {		# put FILE VALUE: write one sysfs-like file under $tmp
	if [[ $1 != "$tmp"/* ]]; then
		echo "refusing to write $1 outside $tmp" >&2
		exit 1
	fi
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >"$1"
}

# perf DIR RL WL RBW WBW: a latency/bandwidth directory
perf() {
	put "$1/read_latency" "$2"
	put "$1/write_latency" "$3"
	put "$1/read_bandwidth" "$4"
	put "$1/write_bandwidth" "$5"
}

# node ROOT ID CPUS TOTAL_KB FREE_KB DISTANCES
node() {
	local dir=$1/sys/devices/system/node/node$2

	put "$dir/cpulist" "$3"
	put "$dir/meminfo" "Node $2 MemTotal:       $4 kB
Node $2 MemFree:        $5 kB
Node $2 MemUsed:        $(($4 - $5)) kB"
	put "$dir/distance" "$6"
}

# record ROOT ID RL WL RBW WBW POWER PERSISTENT SPECIAL [FALLBACK]
record() {
	local dir=$1/sys/devices/system/node/node$2/memattr

	perf "$dir" "$3" "$4" "$5" "$6"
	put "$dir/power" "$7"
	put "$dir/persistent" "$8"
	put "$dir/special" "$9"
	if [[ $# -ge 10 ]]; then
		put "$dir/fallback" "${10}"
	fi
}

tier() {	# tier ROOT T NODELIST
	put "$1/sys/devices/virtual/memory_tiering/memory_tier$2/nodelist" "$3"
}

# Node 0: DRAM, CPU 0.   Node 1: DRAM, CPU 1, unknown write bandwidth.
# Node 2: persistent, memory only.   Node 3: special (node/special), no
# memattr/ directory, HMAT access1 values only, in no memory tier.
make_patched_tree() {
	local root=$1 nodes=$1/sys/devices/system/node

	put "$nodes/online" "0-3"
	put "$nodes/possible" "0-7"
	put "$nodes/has_memory" "0-3"
	put "$nodes/has_cpu" "0-1"
	put "$nodes/special" "3"
	node "$root" 0 0 8388608 4194304 "10 20 30 25"
	node "$root" 1 1 8388608 8000000 "20 10 25 30"
	node "$root" 2 "" 16777216 16777216 "30 25 10 40"
	node "$root" 3 "" 4194304 4194304 "25 30 40 10"
	record "$root" 0 80 90 20000 18000 300 0 0 "0 1 2"
	record "$root" 1 120 130 15000 0 250 0 0 "1 0 2"
	record "$root" 2 300 900 16000 3000 100 1 0 "2 0 1"
	mkdir -p "$nodes/node3/access0/initiators"
	perf "$nodes/node0/access1/initiators" 80 90 20000 18000
	perf "$nodes/node3/access1/initiators" 50 60 100000 90000
	tier "$root" 4 "0-1"
	tier "$root" 22 "2"
}

# What an unpatched 6.12 shows for the same machine.
make_unpatched_tree() {
	make_patched_tree "$1"
	rm -rf "$1"/sys/devices/system/node/node*/memattr
	rm -f "$1/sys/devices/system/node/special"
}

patched=$tmp/patched
unpatched=$tmp/unpatched
nomem=$tmp/nomem
make_patched_tree "$patched"
make_unpatched_tree "$unpatched"
make_patched_tree "$nomem"
put "$nomem/sys/devices/system/node/has_memory" "0-2"

# ---- show --json ----

run "$patched" show --json
check_eq "show --json exits 0" 0 "$rc"
json=$out
j() { jq -c "$1" <<<"$json"; }
check_eq "json version" 1 "$(j .version)"
check_eq "json memattr flag" true "$(j .memattr)"
check_eq "json special_nodes" "[3]" "$(j .special_nodes)"
check_eq "json node ids" "[0,1,2,3]" "$(j '[.nodes[].id]')"
check_eq "json cpus" '["0","1","",""]' "$(j '[.nodes[].cpus]')"
check_eq "json memory" "[8388608,4194304]" \
	"$(j '[.nodes[0].mem_total_kb, .nodes[0].mem_free_kb]')"
check_eq "json read latency" "[80,120,300,50]" \
	"$(j '[.nodes[].read_latency_ns]')"
check_eq "json write bandwidth, 0 is null" "[18000,null,3000,90000]" \
	"$(j '[.nodes[].write_bandwidth_mb_s]')"
check_eq "json perf_source" '["memattr","memattr","memattr","access1"]' \
	"$(j '[.nodes[].perf_source]')"
check_eq "json per-node memattr" "[true,true,true,false]" \
	"$(j '[.nodes[].memattr]')"
check_eq "json power" "[300,250,100,null]" \
	"$(j '[.nodes[].power_mw_per_gib]')"
check_eq "json persistent" "[false,false,true,null]" \
	"$(j '[.nodes[].persistent]')"
check_eq "json special (record, then node/special)" \
	"[false,false,false,true]" "$(j '[.nodes[].special]')"
access1='[{"read_latency_ns":80,"write_latency_ns":90,'
access1+='"read_bandwidth_mb_s":20000,"write_bandwidth_mb_s":18000},null,null,'
access1+='{"read_latency_ns":50,"write_latency_ns":60,'
access1+='"read_bandwidth_mb_s":100000,"write_bandwidth_mb_s":90000}]'
check_eq "json access1" "$access1" \
	"$(j '[.nodes[].access1]')"
check_eq "json memory_tier" "[4,4,22,null]" "$(j '[.nodes[].memory_tier]')"
check_eq "json distance" "[[10,20,30,25],[20,10,25,30],[30,25,10,40],[25,30,40,10]]" \
	"$(j '[.nodes[].distance]')"
check_eq "json fallback" "[[0,1,2],[1,0,2],[2,0,1],null]" \
	"$(j '[.nodes[].fallback]')"
check_eq "json numbers are numbers" '["number","number","boolean"]' \
	"$(j '[.nodes[0].id, .nodes[0].read_latency_ns, .nodes[0].has_memory] | map(type)')"

run "$unpatched" show --json
json=$out
check_eq "unpatched: memattr false" false "$(j .memattr)"
check_eq "unpatched: special_nodes null" null "$(j .special_nodes)"
check_eq "unpatched: latency from access1" "[80,null,null,50]" \
	"$(j '[.nodes[].read_latency_ns]')"
check_eq "unpatched: record-only fields null" "[null,null,null]" \
	"$(j '[.nodes[0].persistent, .nodes[0].special, .nodes[0].power_mw_per_gib]')"
check_eq "unpatched: fallback null" "[null,null,null,null]" \
	"$(j '[.nodes[].fallback]')"

# ---- show (table) ----

run "$patched"
check_eq "show exits 0" 0 "$rc"
row() { awk -v id="$1" '$1 == id { $1 = $1; print; exit }' <<<"$out"; }
check_eq "table row node 0" "0 0 8192 4096 80 90 20000 18000 300 no no 4" \
	"$(row 0)"
check_eq "table row node 1 (unknown is -)" \
	"1 1 8192 7812 120 130 15000 - 250 no no 4" "$(row 1)"
check_eq "table row node 3 (access1 marked *)" \
	"3 - 4096 4096 50* 60* 100000* 90000* - - yes -" "$(row 3)"
check_eq "table note for the node without record" 1 \
	"$(grep -c '^memattr: no attribute record for node 3;' <<<"$out")"
check_eq "table distance and fallback row" "2: 30 25 10 40 2 0 1" \
	"$(row 2: )"
run "$unpatched" show
check_eq "unpatched table says records are unavailable" 1 \
	"$(grep -c 'attribute records unavailable' <<<"$out")"
check_eq "unpatched table row node 2" \
	"2 - 16384 16384 - - - - - - - 22" "$(row 2)"

# ---- select ----

expect_select "$patched" "0,1,2,3"
expect_select "$patched" "3,0,1,2" --lowest-latency
expect_select "$patched" "3,0,2,1" --highest-bandwidth
expect_select "$patched" "2" --persistent
expect_select "$patched" "3" --special
expect_select "$patched" "0,1,2" --no-special --lowest-latency
expect_select "$patched" "0,1,3" --max-latency 120
expect_select "$patched" "0,2,3" --min-bandwidth=16000
expect_select "$patched" "2,1,0,3" --low-power
expect_select "$patched" "3,0" --lowest-latency --count 2
expect_select "$patched" "2,1" --low-power --no-special --count 2
expect_select "$unpatched" "3,0,1,2" --lowest-latency
expect_select "$nomem" "0,1,2" --lowest-latency

run "$patched" select --persistent --special
check_eq "select with no match exits 1 with a message" "1/" "$rc/$out"
check_eq "no-match message" 1 "$(grep -c 'no node' <<<"$err")"
expect_rc "$patched" 1 select --max-latency 10
expect_rc "$unpatched" 1 select --persistent

if command -v taskset >/dev/null && taskset -c 1 true 2>/dev/null &&
   taskset -c 0 true 2>/dev/null; then
	run "$patched" select --local
	MEMATTR_SYSFS_ROOT=$patched taskset -c 0 "$MEMATTR" select --local \
		>"$tmp/local0"
	MEMATTR_SYSFS_ROOT=$patched taskset -c 1 "$MEMATTR" select --local \
		>"$tmp/local1"
	check_eq "select --local on CPU 0" "0,1,3,2" "$(cat "$tmp/local0")"
	check_eq "select --local on CPU 1" "1,0,2,3" "$(cat "$tmp/local1")"
	out=$(MEMATTR_SYSFS_ROOT=$patched taskset -c 1 "$MEMATTR" select \
		--local --persistent --count 1)
	check_eq "select --local --persistent --count 1" "2" "$out"
else
	echo "# SKIP select --local: needs taskset and CPUs 0 and 1"
fi

# ---- the view from each initiator (nodeN/memattr/<field>_from) ----

# Node 2 (persistent) sits behind CPU node 1: 100 ns from there, 300 from
# node 0. Node 1 sees node 0 at 150 ns; node 3 has no record (access1).
views=$tmp/views
make_patched_tree "$views"
vdir=$views/sys/devices/system/node
put "$vdir/node0/memattr/read_latency_from" "0:80 1:150"
put "$vdir/node1/memattr/read_latency_from" "0:150 1:120"
put "$vdir/node2/memattr/read_latency_from" "0:300 1:100"
put "$vdir/node2/memattr/read_bandwidth_from" "0:16000 1:40000"
expect_select "$views" "3,2,1,0" --cpunodebind 1 --lowest-latency
expect_select "$views" "3,0,1,2" --cpunodebind=0 --lowest-latency
expect_select "$views" "3,2" --cpunodebind 1 --highest-bandwidth --count 2
expect_select "$views" "2,3" --cpunodebind 1 --max-latency 100
run "$views" show --from 1 --json
check_eq "show --from 1 exits 0" 0 "$rc"
check_eq "json from" 1 "$(jq -c .from <<<"$out")"
check_eq "json node 2 from node 1" 100 \
	"$(jq -c '.nodes[] | select(.id == 2) | .read_latency_ns' <<<"$out")"
check_eq "json node 0 from node 1" 150 \
	"$(jq -c '.nodes[] | select(.id == 0) | .read_latency_ns' <<<"$out")"
check_eq "json node 2 write latency: no pair, the record's" 900 \
	"$(jq -c '.nodes[] | select(.id == 2) | .write_latency_ns' <<<"$out")"
run "$views" show --json
check_eq "json from without --from" null "$(jq -c .from <<<"$out")"
check_eq "json node 2 without --from" 300 \
	"$(jq -c '.nodes[] | select(.id == 2) | .read_latency_ns' <<<"$out")"
run "$views" show --from 1
check_eq "show --from 1 names the node" "latency and bandwidth as seen from node 1:" \
	"$(head -1 <<<"$out")"
expect_rc "$views" 1 show --from 7
expect_rc "$views" 1 select --cpunodebind 2 --lowest-latency
expect_rc "$views" 1 select --cpunodebind 9
expect_rc "$views" 2 select --cpunodebind x
expect_rc "$views" 2 select --cpunodebind 1024
expect_rc "$views" 2 show --cpunodebind 1
expect_rc "$views" 2 select --from 1

# ---- exec (policies are set for real on the host: node 0 exists) ----

maps_policy='grep -m1 -oE "(bind|prefer( \(many\))?|interleave):[0-9,-]+" /proc/self/numa_maps'
run "$patched" exec --lowest-latency --no-special --count 1 -- \
	sh -c "$maps_policy"
check_eq "exec --bind (default) on node 0" "bind:0 (rc 0)" "$out (rc $rc)"
run "$patched" exec --lowest-latency --count 1 --no-special --interleave \
	sh -c "$maps_policy"
check_eq "exec --interleave, CMD without --" "interleave:0 (rc 0)" \
	"$out (rc $rc)"
run "$patched" exec --persistent --special --preferred -- true
check_eq "exec with empty selection exits 2" 2 "$rc"
run "$patched" exec --lowest-latency --no-special --count 1 --preferred -- \
	sh -c "$maps_policy"
case $out in
"prefer (many):0" | "prefer:0") ok "exec --preferred on node 0" ;;
*) not_ok "exec --preferred on node 0" "got '$out' (rc $rc)" ;;
esac
expect_rc "$patched" 127 exec -- "$tmp/no-such-command"

# Bad input: exit 2, one message, and CMD never runs.
marker=$tmp/ran
for args in "exec --count 0 --" "exec --count x --" "exec --bogus --" \
	    "exec --bind --interleave --" "exec --special --no-special --" \
	    "exec --persistent --special --" "exec --max-latency=-5 --"; do
	# shellcheck disable=SC2086 # split the option words on purpose
	expect_rc "$patched" 2 $args touch "$marker"
	if [[ -e $marker ]]; then
		not_ok "$args: command must not run" "it ran"
		rm -f "$marker"
	else
		ok "$args: command did not run"
	fi
done
expect_rc "$patched" 2 exec --lowest-latency
expect_rc "$patched" 2 exec --lowest-latency --
expect_rc "$patched" 2 select --count
expect_rc "$patched" 2 select --count 99999999999999999999999
expect_rc "$patched" 2 select --json
expect_rc "$patched" 2 show --local
expect_rc "$patched" 2 frobnicate
expect_rc "$patched" 2 select stray
expect_rc "$tmp/empty" 1 show

# ---- help and man page list every option ----

run "$patched" --help
check_eq "--help exits 0" 0 "$rc"
help=$out
man=$(sed 's/\\-/-/g' "$here/memattr.8")
for opt in json lowest-latency highest-bandwidth persistent special \
	   no-special max-latency min-bandwidth low-power local count bind \
	   preferred interleave; do
	if grep -q -- "--$opt" <<<"$help" &&
	   grep -q -- "--$opt" <<<"$man"; then
		ok "--$opt documented in --help and memattr.8"
	else
		not_ok "--$opt documented" "missing in --help or memattr.8"
	fi
done

echo "1..$nr_tests"
if [[ $nr_failed -ne 0 ]]; then
	echo "# $nr_failed of $nr_tests checks failed"
	exit 1
fi
echo "# all $nr_tests checks passed"
