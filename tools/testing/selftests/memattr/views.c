// SPDX-License-Identifier: GPL-2.0
/*
 * Each node's performance as seen from each initiator (HMAT's matrix):
 * nodeN/memattr/<field>_from against the booted topology's HMAT pairs and
 * memattr=T@I entries, the source of every pair (debugfs memattr/views),
 * the administrator's writes of a pair and "auto", and hwloc's view of the
 * pairs 6.12 exposes (access1), which must agree with ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "topology.h"

#define NODE_DIR	"/sys/devices/system/node"
#define FROM_FMT	NODE_DIR "/node%d/memattr/%s_from"
#define VIEWS_FILE	"/sys/kernel/debug/memattr/views"
#define POLICY_DIR	"/sys/kernel/mm/memattr"
#define LSTOPO		"/memattr/bin/lstopo-no-graphics"
#define NOBODY		65534

static struct topo topo;

/* ---- the files ---- */

/*
 * Parse nodeT/memattr/<field>_from into @val (indexed by initiator, -1 where
 * the file lists none); 0 or -1 with errno (EINVAL: a malformed line).
 */
static int read_from(int target, int field, long long *val)
{
	char buf[4096], *tok, *save, *colon;
	int i;

	for (i = 0; i < TOPO_MAX_NODES; i++)
		val[i] = -1;
	if (sysfs_read_str(buf, sizeof(buf), FROM_FMT, target, topo_perf_names[field]) < 0)
		return -1;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		colon = strchr(tok, ':');
		i = atoi(tok);
		if (!colon || i < 0 || i >= TOPO_MAX_NODES || val[i] >= 0) {
			errno = EINVAL;
			return -1;
		}
		val[i] = strtoll(colon + 1, NULL, 10);
	}
	return 0;
}

static int write_from(int target, int field, const char *val)
{
	return sysfs_write_str(val, FROM_FMT, target, topo_perf_names[field]);
}

/* The winning source debugfs memattr/views shows for a pair's field ("-": none). */
static int view_source(int initiator, int target, int field, char *src, size_t len)
{
	char line[512], name[32], winner[32];
	unsigned int t, i;
	unsigned long long v;
	FILE *f = fopen(VIEWS_FILE, "r");

	if (!f)
		return -1;
	snprintf(src, len, "-");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %31s %llu %31s", &t, &i, name, &v, winner) != 5)
			continue;
		if (t == target && i == initiator && !strcmp(name, topo_perf_names[field]))
			snprintf(src, len, "%s", winner);
	}
	fclose(f);
	return 0;
}

static bool has_cpus(int nid)
{
	return topo.node[nid].cpus[0];
}

/* ---- what the booted topology says against what the kernel shows ---- */

FIXTURE(views) {
	char order_mode[64];	/* fallback_order as found */
	int touched_init;	/* the pair a test wrote, -1 if none */
	int touched_target;
};

FIXTURE_SETUP(views)
{
	char buf[64];

	self->touched_init = -1;
	ASSERT_EQ(0, topo_load(&topo, NULL));
	TOPO_NEED(&topo, sysfs_read_str(buf, sizeof(buf), FROM_FMT, 0,
					topo_perf_names[0]) >= 0,
		  "nodeN/memattr/<field>_from");
	ASSERT_LE(0, sysfs_read_str(self->order_mode, sizeof(self->order_mode),
				    POLICY_DIR "/fallback_order"));
}

/* Undo what a failed test left: the pair written and the order mode. */
FIXTURE_TEARDOWN(views)
{
	char buf[32];

	if (self->touched_init >= 0) {
		snprintf(buf, sizeof(buf), "%d:auto", self->touched_init);
		write_from(self->touched_target, TOPO_READ_LATENCY, buf);
	}
	/* "[distance] performance": the word in brackets is the active one */
	sysfs_write_str(strstr(self->order_mode, "[performance]") ? "performance" :
			"distance", POLICY_DIR "/fallback_order");
}

/*
 * Every pair the topology gives (HMAT, memattr=T@I) shows its value, and
 * no file lists an initiator the topology gives no pair for.
 */
TEST_F(views, pairs_match_topology)
{
	long long val[TOPO_MAX_NODES], want;
	int target, field, init, checked = 0;

	for (target = 0; target < topo.nr_nodes; target++) {
		for (field = 0; field < TOPO_NR_PERF; field++) {
			ASSERT_EQ(0, read_from(target, field, val))
				TH_LOG("node%d %s_from: %s", target, topo_perf_names[field],
				       strerror(errno));
			for (init = 0; init < TOPO_MAX_NODES; init++) {
				want = topo_view_value(&topo, init, target, field, NULL);
				EXPECT_EQ(want, val[init])
					TH_LOG("node %d %s from node %d", target,
					       topo_perf_names[field], init);
				checked += want >= 0;
			}
		}
	}
	if (!topo.nr_views)
		SKIP(return, "topology %s gives no pair (no HMAT)", topo.name);
	EXPECT_LT(0, checked);
}

/* Each pair's winning source: hmat, or cmdline for memattr=T@I. */
TEST_F(views, pair_sources)
{
	const char *want;
	char got[32];
	int k, field;

	if (access(VIEWS_FILE, R_OK))
		SKIP(return, "no debugfs");
	if (!topo.nr_views)
		SKIP(return, "topology %s gives no pair (no HMAT)", topo.name);
	for (k = 0; k < topo.nr_views; k++) {
		const struct topo_view *v = &topo.view[k];

		if (v->target >= topo.nr_nodes)
			continue;	/* comes online later */
		for (field = 0; field < TOPO_NR_PERF; field++) {
			if (topo_view_value(&topo, v->initiator, v->target, field, &want) < 0)
				continue;	/* a memattr=T@I pair without this field */
			ASSERT_EQ(0, view_source(v->initiator, v->target, field, got,
						 sizeof(got)));
			EXPECT_STREQ(want, got) TH_LOG("node %d %s from node %d", v->target,
						       topo_perf_names[field], v->initiator);
		}
	}
}

/*
 * A pair to override: initiator @init with CPUs and memory, and a target
 * other than @init with memory that is not special, the first such.
 */
static bool pick_pair(int *init, int *target)
{
	int k;

	for (k = 0; k < topo.nr_views; k++) {
		const struct topo_view *v = &topo.view[k];

		if (v->initiator == v->target || v->target >= topo.nr_nodes ||
		    !has_cpus(v->initiator) || !topo.node[v->initiator].mem_bytes ||
		    !topo.node[v->target].mem_bytes ||
		    topo.node[v->target].memattr[TOPO_MA_SPECIAL] > 0)
			continue;
		*init = v->initiator;
		*target = v->target;
		return true;
	}
	return false;
}

/* The second node of @nid's fallback list, -1 if none. */
static int second_in_fallback(int nid)
{
	char buf[256], *sp;

	if (sysfs_read_str(buf, sizeof(buf), NODE_DIR "/node%d/memattr/fallback", nid) < 0)
		return -1;
	sp = strchr(buf, ' ');
	return sp ? atoi(sp + 1) : -1;
}

/*
 * The administrator's pair: shown at once with source admin, ordering the
 * initiator's own list under fallback_order=performance (the target, now
 * the nearest by far, comes right after the initiator itself); "auto"
 * brings back what the topology gave. Bad writes change nothing.
 */
TEST_F(views, admin_pair_and_auto)
{
	static const char *const bad[] = {
		"junk", "1000", ":5", "%d:", "%d:junk", "%d:-1", "%d:2000000",
		"%d:5 ", "1000:5", "%d:5\n%d:6",
	};
	long long val[TOPO_MAX_NODES], want;
	const char *want_src;
	char buf[64], src[32];
	int init, target, i;

	if (!pick_pair(&init, &target))
		SKIP(return, "topology %s has no pair of two nodes with memory", topo.name);
	want = topo_view_value(&topo, init, target, TOPO_READ_LATENCY, &want_src);
	ASSERT_LE(0, want);

	self->touched_init = init;
	self->touched_target = target;
	snprintf(buf, sizeof(buf), "%d:1", init);
	ASSERT_EQ(0, write_from(target, TOPO_READ_LATENCY, buf)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, read_from(target, TOPO_READ_LATENCY, val));
	EXPECT_EQ(1, val[init]);
	ASSERT_EQ(0, view_source(init, target, TOPO_READ_LATENCY, src, sizeof(src)));
	EXPECT_STREQ("admin", src);
	/* the other initiators' views of the target are untouched */
	for (i = 0; i < TOPO_MAX_NODES; i++)
		if (i != init)
			EXPECT_EQ(topo_view_value(&topo, i, target, TOPO_READ_LATENCY, NULL),
				  val[i]) TH_LOG("from node %d", i);

	ASSERT_EQ(0, sysfs_write_str("performance", POLICY_DIR "/fallback_order"));
	EXPECT_EQ(target, second_in_fallback(init))
		TH_LOG("node %d sees node %d at 1 ns", init, target);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char word[32];

		snprintf(word, sizeof(word), bad[i], init, init);
		EXPECT_EQ(-1, write_from(target, TOPO_READ_LATENCY, word)) TH_LOG("\"%s\"", word);
		EXPECT_EQ(EINVAL, errno) TH_LOG("\"%s\": %s", word, strerror(errno));
		ASSERT_EQ(0, read_from(target, TOPO_READ_LATENCY, val));
		EXPECT_EQ(1, val[init]) TH_LOG("after \"%s\"", word);
	}

	snprintf(buf, sizeof(buf), "%d:auto", init);
	ASSERT_EQ(0, write_from(target, TOPO_READ_LATENCY, buf));
	ASSERT_EQ(0, read_from(target, TOPO_READ_LATENCY, val));
	EXPECT_EQ(want, val[init]);
	ASSERT_EQ(0, view_source(init, target, TOPO_READ_LATENCY, src, sizeof(src)));
	EXPECT_STREQ(want_src, src);
}

/* Only root with CAP_SYS_ADMIN changes a pair. */
TEST_F(views, unprivileged_write_refused)
{
	long long before[TOPO_MAX_NODES], after[TOPO_MAX_NODES];
	int init, target, status;
	pid_t pid;

	if (!pick_pair(&init, &target))
		SKIP(return, "topology %s has no pair of two nodes with memory", topo.name);
	ASSERT_EQ(0, read_from(target, TOPO_READ_LATENCY, before));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char buf[32];

		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		snprintf(buf, sizeof(buf), "%d:1", init);
		if (!write_from(target, TOPO_READ_LATENCY, buf))
			_exit(2);
		_exit(errno == EACCES || errno == EPERM ? 0 : 4);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("2 accepted, 4 wrong errno, 100 setup");
	ASSERT_EQ(0, read_from(target, TOPO_READ_LATENCY, after));
	EXPECT_EQ(0, memcmp(before, after, sizeof(before)));
}

/* ---- hwloc ---- */

/* The node whose CPUs are exactly @mask, -1 if none. */
static int node_of_cpuset(unsigned long long mask)
{
	int nid;

	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (has_cpus(nid) && topo_cpulist_mask(topo.node[nid].cpus) == (long long)mask)
			return nid;
	return -1;
}

/* Our field for hwloc's attribute @name, or -1. */
static int hwloc_field(const char *name)
{
	static const char *const names[TOPO_NR_PERF] = {
		"ReadLatency", "WriteLatency", "ReadBandwidth", "WriteBandwidth",
	};
	int i;

	for (i = 0; i < TOPO_NR_PERF; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

/* Boot nodes whose record memattr= leaves to HMAT. */
static int hmat_only_nodes(void)
{
	int nid, f, nr = 0;
	bool own;

	for (nid = 0; nid < topo.nr_nodes; nid++) {
		own = false;
		for (f = 0; f < TOPO_NR_PERF; f++)
			own |= topo.node[nid].memattr[f] >= 0;
		nr += topo.node[nid].has_access && !own;
	}
	return nr;
}

/*
 * lstopo -p --memattrs (Debian's hwloc 2.9, which reads 6.12's access1
 * files) and our files agree on every pair hwloc reports: under each
 * attribute, "  NUMANode P#<node> = <value> from cpuset 0x<cpus> (...)".
 */
TEST_F(views, hwloc_agrees)
{
	long long val[TOPO_MAX_NODES];
	char line[512], name[64];
	int field = -1, target, init, seen = 0;
	unsigned long long value, mask;
	const char *src;
	FILE *p;

	if (!topo.hmat)
		SKIP(return, "topology %s has no HMAT", topo.name);
	if (access(LSTOPO, X_OK)) {
		ASSERT_FALSE(topo.memattr_kernel) TH_LOG("the harness initramfs lacks %s", LSTOPO);
		SKIP(return, "no %s", LSTOPO);
	}
	p = popen(LSTOPO " -p --memattrs 2>&1", "r");
	ASSERT_NE(NULL, p);
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "Memory attribute #%*d name `%63[^']'", name) == 1) {
			field = hwloc_field(name);
			continue;
		}
		if (field < 0 || sscanf(line, " NUMANode P#%d = %llu from cpuset 0x%llx",
					&target, &value, &mask) != 3)
			continue;
		init = node_of_cpuset(mask);
		ASSERT_LE(0, init) TH_LOG("hwloc's initiator cpuset 0x%llx: %s", mask, line);
		/* hwloc reads firmware's values: skip pairs memattr= overrides */
		if (topo_view_value(&topo, init, target, field, &src) < 0 ||
		    strcmp(src, "hmat") || topo.node[target].memattr[field] >= 0)
			continue;
		ASSERT_EQ(0, read_from(target, field, val));
		EXPECT_EQ((long long)value, val[init])
			TH_LOG("node %d %s from node %d: hwloc %llu", target,
			       topo_perf_names[field], init, value);
		seen++;
	}
	pclose(p);
	/* hwloc shows each node with memory (firmware's values) for 4 attributes */
	EXPECT_LE(4 * hmat_only_nodes(), seen) TH_LOG("hwloc reported %d pairs", seen);
}

TEST_HARNESS_MAIN
