// SPDX-License-Identifier: GPL-2.0
/*
 * Check what unpatched 6.12 already reports about the emulated machine
 * (node distances, CPUs, memory, HMAT access classes, memory-side caches)
 * against the booted topology: this tests the harness against kernel code
 * that memattr did not write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "topology.h"

#define NODE_DIR "/sys/devices/system/node"

static struct topo topo;

/* Load the booted topology, or skip the calling test when there is none. */
#define LOAD_TOPOLOGY()							\
	do {								\
		if (topo_load(&topo, NULL))				\
			SKIP(return, "no topology file (not booted by harness/vm): %s", \
			     strerror(errno));				\
	} while (0)

static bool node_has_access0(int nid)
{
	char path[256];

	snprintf(path, sizeof(path), NODE_DIR "/node%d/access0", nid);
	return access(path, F_OK) == 0;
}

TEST(nodes_online)
{
	char buf[256], want[32];

	LOAD_TOPOLOGY();
	snprintf(want, sizeof(want), "0-%d", topo.nr_nodes - 1);
	ASSERT_LT(0, sysfs_read_str(buf, sizeof(buf), NODE_DIR "/has_memory"));
	EXPECT_STREQ(want, buf);
}

TEST(distances)
{
	char buf[1024], want[1024];
	int nid, i, off;

	LOAD_TOPOLOGY();
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		/* a row has a column per online node, memory or not */
		off = 0;
		for (i = 0; i < TOPO_MAX_NODES; i++)
			if (topo_online_nodes(&topo) >> i & 1)
				off += snprintf(want + off, sizeof(want) - off, "%s%d",
						off ? " " : "", topo.node[nid].distance[i]);
		ASSERT_LT(0, sysfs_read_str(buf, sizeof(buf), NODE_DIR "/node%d/distance", nid));
		EXPECT_STREQ(want, buf) TH_LOG("node %d", nid);
	}
}

TEST(cpus)
{
	char buf[256];
	int nid;

	LOAD_TOPOLOGY();
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_LE(0, sysfs_read_str(buf, sizeof(buf), NODE_DIR "/node%d/cpulist", nid));
		EXPECT_EQ(topo_cpulist_mask(topo.node[nid].cpus), topo_cpulist_mask(buf))
			TH_LOG("node %d: kernel '%s', topology '%s'", nid, buf,
			       topo.node[nid].cpus);
	}
}

/* MemTotal is the backend size less what firmware and the kernel reserve. */
TEST(memory_size)
{
	unsigned long long total_kb;
	char buf[4096], *p;
	int nid;

	LOAD_TOPOLOGY();
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_LT(0, sysfs_read_str(buf, sizeof(buf), NODE_DIR "/node%d/meminfo", nid));
		p = strstr(buf, "MemTotal:");
		ASSERT_NE(NULL, p);
		total_kb = strtoull(p + strlen("MemTotal:"), NULL, 10);
		EXPECT_GE(topo.node[nid].mem_bytes / 1024, total_kb) TH_LOG("node %d", nid);
		EXPECT_LE(topo_min_mem_kb(&topo, nid), total_kb) TH_LOG("node %d", nid);
	}
}

TEST(hmat_access_classes)
{
	unsigned long long got;
	int nid, cls, i;

	LOAD_TOPOLOGY();
	if (!topo.hmat) {
		/* Without HMAT, 6.12 must not invent access classes. */
		for (nid = 0; nid < topo.nr_nodes; nid++)
			EXPECT_FALSE(node_has_access0(nid))
				TH_LOG("node %d has access0 without HMAT", nid);
		return;
	}
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_TRUE(topo.node[nid].has_access) TH_LOG("node %d", nid);
		for (cls = 0; cls <= 1; cls++) {
			for (i = 0; i < TOPO_NR_PERF; i++) {
				ASSERT_EQ(0, sysfs_read_u64(&got, NODE_DIR
							    "/node%d/access%d/initiators/%s",
							    nid, cls, topo_perf_names[i]))
					TH_LOG("node %d access%d %s: %s", nid, cls,
					       topo_perf_names[i], strerror(errno));
				EXPECT_EQ(topo.node[nid].access[i], got)
					TH_LOG("node %d access%d %s", nid, cls,
					       topo_perf_names[i]);
			}
		}
	}
}

TEST(memory_side_caches)
{
	const char *dir = NODE_DIR "/node%d/memory_side_cache/index%d/%s";
	struct topo_cache *c;
	unsigned long long v;
	int nid, checked = 0;

	LOAD_TOPOLOGY();
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		c = &topo.node[nid].cache;
		if (!c->present)
			continue;
		checked++;
		ASSERT_EQ(0, sysfs_read_u64(&v, dir, nid, c->level, "size"));
		EXPECT_EQ(c->size, v);
		ASSERT_EQ(0, sysfs_read_u64(&v, dir, nid, c->level, "line_size"));
		EXPECT_EQ(c->line_size, v);
		ASSERT_EQ(0, sysfs_read_u64(&v, dir, nid, c->level, "indexing"));
		EXPECT_EQ(c->indexing, v);
		ASSERT_EQ(0, sysfs_read_u64(&v, dir, nid, c->level, "write_policy"));
		EXPECT_EQ(c->write_policy, v);
	}
	if (!checked)
		SKIP(return, "topology %s has no memory-side cache", topo.name);
}

TEST_HARNESS_MAIN
