// SPDX-License-Identifier: GPL-2.0
/*
 * Implicit allocations avoid a special node, shown against a control: the
 * same workload, on the unpatched kernel booted on the same topology, does
 * put its pages there.
 *
 * The workload needs a topology where the special node s is closer to a
 * CPU node c than some ordinary node o (SLIT distances; "two-socket"), and
 * c full: 6.12 then falls back from c to s before o. The test fills c with
 * a bound child, then from a CPU of c faults anonymous memory and writes a
 * tmpfs file under the default policy. On the base kernel most of it must
 * land on s (the control: the workload can tell); on a memattr kernel none
 * of it may, and it goes to o instead. The kernel booted is read from the
 * harness's topology file, never guessed from what the kernel shows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "topology.h"

#define MIB		(1ULL << 20)
#define MARGIN_KB	(8ULL << 10)	/* left free above the high watermark */
#define WORKLOAD	(48 * MIB)	/* faulted or written by the test */

/* Pages of [@p, @p + @bytes) per node, by move_pages(2) status; 0 or -1. */
static int count_pages(char *p, size_t bytes, long per_node[TOPO_MAX_NODES])
{
	long ps = getpagesize(), n = bytes / ps, i;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	int ret = -1;

	memset(per_node, 0, TOPO_MAX_NODES * sizeof(per_node[0]));
	if (!pages || !status)
		goto out;
	for (i = 0; i < n; i++)
		pages[i] = p + i * ps;
	if (move_pages(0, n, pages, NULL, status, 0))
		goto out;
	for (i = 0; i < n; i++)
		if (status[i] >= 0 && status[i] < TOPO_MAX_NODES)
			per_node[status[i]]++;
	ret = 0;
out:
	free(pages);
	free(status);
	return ret;
}

static int first_cpu(const struct topo *t, int nid)
{
	unsigned long long cpus;

	if (topo_parse_list(t->node[nid].cpus, &cpus) || !cpus)
		return -1;
	return __builtin_ctzll(cpus);
}

/*
 * A special node @s, a CPU node @c and an ordinary memory node @o with
 * distance(c, s) < distance(c, o), from the topology; false if none.
 */
static bool find_layout(const struct topo *t, int *c, int *s, int *o)
{
	int ci, si, oi;

	for (si = 0; si < t->nr_nodes; si++) {
		if (t->node[si].memattr[TOPO_MA_SPECIAL] != 1 || !t->node[si].mem_bytes)
			continue;
		for (ci = 0; ci < t->nr_nodes; ci++) {
			if (ci == si || first_cpu(t, ci) < 0)
				continue;
			for (oi = 0; oi < t->nr_nodes; oi++) {
				if (oi == ci || oi == si || !t->node[oi].mem_bytes ||
				    t->node[oi].memattr[TOPO_MA_SPECIAL] == 1)
					continue;
				if (t->node[ci].distance[si] < t->node[ci].distance[oi]) {
					*c = ci;
					*s = si;
					*o = oi;
					return true;
				}
			}
		}
	}
	return false;
}

FIXTURE(avoid) {
	struct topo topo;
	int c, s, o;		/* CPU node, special node, ordinary node */
	pid_t filler;		/* holds node c full */
};

/* Sum of the high watermarks of @nid's zones, in kB (/proc/zoneinfo). */
static unsigned long long high_wmark_kb(int nid)
{
	unsigned long long pages, sum = 0;
	char line[256], zone[32];
	bool ours = false;
	int n;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &n, zone) == 2)
			ours = n == nid;
		else if (ours && sscanf(line, " high %llu", &pages) == 1)
			sum += pages;
	}
	fclose(f);
	return sum * (getpagesize() >> 10);
}

/*
 * Child: take @nid's free memory, a few MiB at a time, until MARGIN_KB
 * above its high watermark are left (so neither its reclaim nor the OOM
 * killer starts), then wait to be killed.
 */
static void __attribute__((noreturn)) fill_node(int nid, int ready)
{
	unsigned long long free_kb, keep = MARGIN_KB + high_wmark_kb(nid);
	const size_t chunk = 4 * MIB;
	unsigned long mask = 1UL << nid;
	size_t off;
	char *p;

	sysfs_write_str("1000", "/proc/self/oom_score_adj");
	if (set_mempolicy(MPOL_BIND, &mask, 8 * sizeof(mask)))
		_exit(2);
	for (;;) {
		if (node_meminfo_kb(nid, "MemFree", &free_kb))
			_exit(1);
		if (free_kb < keep + (chunk >> 10))
			break;
		p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED)
			_exit(3);
		for (off = 0; off < chunk; off += getpagesize())
			p[off] = 1;
	}
	if (write(ready, "r", 1) != 1)
		_exit(4);
	for (;;)
		pause();
}

FIXTURE_SETUP(avoid)
{
	cpu_set_t cpus;
	int fds[2];
	char r;

	self->filler = -1;
	if (topo_load(&self->topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s", strerror(errno));
	if (!find_layout(&self->topo, &self->c, &self->s, &self->o))
		SKIP(return, "topology %s has no special node closer to a CPU node %s",
		     self->topo.name, "than an ordinary node");
	/* NUMA balancing would move the pages the test counts */
	sysfs_write_str("0", "/proc/sys/kernel/numa_balancing");
	CPU_ZERO(&cpus);
	CPU_SET(first_cpu(&self->topo, self->c), &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	ASSERT_EQ(0, pipe(fds));
	self->filler = fork();
	ASSERT_LE(0, self->filler);
	if (!self->filler) {
		close(fds[0]);
		fill_node(self->c, fds[1]);
	}
	close(fds[1]);
	ASSERT_EQ(1, read(fds[0], &r, 1)) TH_LOG("filling node %d failed", self->c);
	close(fds[0]);
}

FIXTURE_TEARDOWN(avoid)
{
	if (self->filler > 0) {
		kill(self->filler, SIGKILL);
		waitpid(self->filler, NULL, 0);
	}
}

/* What the kernel booted must do with @per_node pages of @total. */
static void judge(struct __test_metadata *_metadata, FIXTURE_DATA(avoid) *self,
		  const long per_node[TOPO_MAX_NODES], long total, const char *what)
{
	ksft_print_msg("%s, %ld pages from a CPU of full node %d: ", what, total, self->c);
	printf("node %d (special) %ld, node %d %ld, node %d %ld (%s kernel)\n",
	       self->s, per_node[self->s], self->o, per_node[self->o], self->c,
	       per_node[self->c], self->topo.memattr_kernel ? "memattr" : "6.12");
	if (!self->topo.memattr_kernel) {
		/* control: without memattr, 6.12's order puts most of it on s */
		EXPECT_LE(total / 2, per_node[self->s])
			TH_LOG("%s on 6.12: %ld of %ld pages on node %d (node %d: %ld): %s", what,
			       per_node[self->s], total, self->s, self->o, per_node[self->o],
			       "the workload does not reach the node");
		return;
	}
	EXPECT_EQ(0, per_node[self->s])
		TH_LOG("%s: %ld of %ld pages on special node %d", what, per_node[self->s], total,
		       self->s);
	EXPECT_LE(total / 2, per_node[self->o])
		TH_LOG("%s: %ld of %ld pages on node %d, where the fallback goes instead", what,
		       per_node[self->o], total, self->o);
}

/* Anonymous memory under the default policy, from a CPU of the full node. */
TEST_F_TIMEOUT(avoid, anon_default_policy, 120)
{
	long per_node[TOPO_MAX_NODES];
	char *p;

	p = mmap(NULL, WORKLOAD, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0x5a, WORKLOAD);
	ASSERT_EQ(0, count_pages(p, WORKLOAD, per_node));
	judge(_metadata, self, per_node, WORKLOAD / getpagesize(), "anonymous memory");
	munmap(p, WORKLOAD);
}

/* Page cache of a tmpfs file written with write(2), never mapped to write. */
TEST_F_TIMEOUT(avoid, tmpfs_page_cache, 120)
{
	const char *path = "/tmp/memattr-avoidance";
	long per_node[TOPO_MAX_NODES];
	static char buf[1 << 16];
	size_t off, sum = 0;
	char *map;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	unlink(path);
	memset(buf, 0x5a, sizeof(buf));
	for (off = 0; off < WORKLOAD; off += sizeof(buf))
		ASSERT_EQ(sizeof(buf), write(fd, buf, sizeof(buf)));
	map = mmap(NULL, WORKLOAD, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	/* move_pages(2) sees only mapped pages: map each (no new page cache) */
	for (off = 0; off < WORKLOAD; off += getpagesize())
		sum += ((volatile char *)map)[off];
	ASSERT_EQ(0x5a * (WORKLOAD / getpagesize()), sum);
	ASSERT_EQ(0, count_pages(map, WORKLOAD, per_node));
	judge(_metadata, self, per_node, WORKLOAD / getpagesize(), "tmpfs page cache");
	munmap(map, WORKLOAD);
	close(fd);
}

TEST_HARNESS_MAIN
