// SPDX-License-Identifier: GPL-2.0
/*
 * Walkers of the fallback lists other than the page allocator must still
 * reach a special node's pages when they are asked to: memcg limit reclaim
 * (6.12 walks the local node's fallback list "to put equal pressure on all
 * nodes"; a list without the special node would never reclaim a cgroup whose
 * pages sit there, and the cgroup would OOM) and the hugetlb pool (a bound
 * fault dequeues along a fallback list, filtered by the policy's nodemask).
 *
 * The truth each test checks is the outcome 6.12 gives for any ordinary
 * node: the task finishes with its data intact, pages went to swap
 * (/proc/vmstat), no OOM kill (memory.events), the huge pages are on the
 * node named (move_pages(2) status).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "topology.h"

#define NODE_DIR	"/sys/devices/system/node"
#define ZRAM_DEV	"/dev/zram0"
#define ZRAM_SYS	"/sys/block/zram0"
#define CG_ROOT		"/sys/fs/cgroup"
#define CG_DIR		CG_ROOT "/memattr-zonelist-users"
#define SWAP_BYTES	(128ULL << 20)	/* zram swap the memcg test creates */
#define MEMCG_MAX	(16ULL << 20)	/* the cgroup's memory.max */
#define MEMCG_TOUCH	(48ULL << 20)	/* what its task writes: 3x the limit */
#define HPAGE_BYTES	(2ULL << 20)
#define NR_HPAGES	2
#define HPAGES_FILE	NODE_DIR "/node%d/hugepages/hugepages-2048kB/%s"

/* What the child of a test saw, sent up a pipe. */
struct child_report {
	long on_node;		/* resident pages on the special node */
	long elsewhere;		/* resident pages on any other node */
	long corrupt;		/* pages that did not read back what was written */
};

FIXTURE(users) {
	struct topo topo;	/* the booted topology */
	int s;			/* a node it makes special at boot, with memory */
	bool swap_on;		/* this test enabled zram swap */
	bool cgroup_made;	/* ... created CG_DIR */
	bool pool_set;		/* ... filled node s's hugetlb pool */
};

FIXTURE_SETUP(users)
{
	int n;

	self->s = -1;
	self->swap_on = false;
	self->cgroup_made = false;
	self->pool_set = false;
	if (topo_load(&self->topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s", strerror(errno));
	for (n = 0; n < self->topo.nr_nodes && self->s < 0; n++)
		if (self->topo.node[n].memattr[TOPO_MA_SPECIAL] == 1 &&
		    self->topo.node[n].mem_bytes)
			self->s = n;
	if (self->s < 0)
		SKIP(return, "topology %s makes no node with memory special at boot",
		     self->topo.name);
	TOPO_NEED(&self->topo, !access(NODE_DIR "/special", R_OK), "node/special");
}

FIXTURE_TEARDOWN(users)
{
	_metadata->trigger = 0;
	if (self->pool_set)
		sysfs_write_str("0", HPAGES_FILE, self->s, "nr_hugepages");
	if (self->cgroup_made)
		rmdir(CG_DIR);
	if (self->swap_on) {
		swapoff(ZRAM_DEV);
		sysfs_write_str("1", ZRAM_SYS "/reset");
	}
}

static long long vmstat(const char *name)
{
	return key_value("/proc/vmstat", name);
}

/* A zram device of SWAP_BYTES with a version-1 swap header, swapped on. */
static int zram_swap_on(void)
{
	static char header[4096];
	unsigned int *info = (unsigned int *)(header + 1024);
	char size[32];
	ssize_t n;
	int fd;

	snprintf(size, sizeof(size), "%llu", SWAP_BYTES);
	if (sysfs_write_str(size, ZRAM_SYS "/disksize"))
		return -1;
	info[0] = 1;					/* version */
	info[1] = SWAP_BYTES / sizeof(header) - 1;	/* last usable page */
	memcpy(header + sizeof(header) - 10, "SWAPSPACE2", 10);
	fd = open(ZRAM_DEV, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, header, sizeof(header));
	close(fd);
	if (n != sizeof(header))
		return -1;
	return swapon(ZRAM_DEV, 0);
}

/* cgroup2 mounted with the memory controller, CG_DIR limited to MEMCG_MAX. */
static int memcg_make(void)
{
	char max[32];

	if (mount("none", CG_ROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		return -1;
	if (sysfs_write_str("+memory", CG_ROOT "/cgroup.subtree_control"))
		return -1;
	if (mkdir(CG_DIR, 0755) && errno != EEXIST)
		return -1;
	snprintf(max, sizeof(max), "%llu", MEMCG_MAX);
	return sysfs_write_str(max, CG_DIR "/memory.max");
}

/* Count the resident pages of [@p, @p + @bytes) on and off @nid. */
static int count_resident(char *p, size_t bytes, size_t step, int nid,
			  struct child_report *r)
{
	long i, n = bytes / step;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	int ret = -1;

	if (!pages || !status)
		goto out;
	for (i = 0; i < n; i++)
		pages[i] = p + i * step;
	if (move_pages(0, n, pages, NULL, status, 0))
		goto out;
	for (i = 0; i < n; i++) {
		if (status[i] == nid)
			r->on_node++;
		else if (status[i] >= 0)
			r->elsewhere++;
	}
	ret = 0;
out:
	free(pages);
	free(status);
	return ret;
}

/*
 * The memcg test's task: join the cgroup, bind to @nid, write three times
 * the cgroup's limit, check where the resident pages are and that every
 * page reads back. Exit 0 with the report written, or non-zero.
 */
static int memcg_child(int nid, int out)
{
	unsigned long mask = 1UL << nid;
	struct child_report r = { 0 };
	long ps = getpagesize(), i;
	char *p;

	if (sysfs_write_str("0", CG_DIR "/cgroup.procs"))
		return 10;
	if (set_mempolicy(MPOL_BIND, &mask, 8 * sizeof(mask)))
		return 11;
	p = mmap(NULL, MEMCG_TOUCH, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 12;
	for (i = 0; i < MEMCG_TOUCH / ps; i++)
		*(long *)(p + i * ps) = i ^ 0x5a5a5a5aL;
	if (count_resident(p, MEMCG_TOUCH, ps, nid, &r))
		return 13;
	for (i = 0; i < MEMCG_TOUCH / ps; i++)
		r.corrupt += *(long *)(p + i * ps) != (i ^ 0x5a5a5a5aL);
	return write(out, &r, sizeof(r)) == sizeof(r) ? 0 : 14;
}

/* Run @fn(@nid, fd) in a child; its report, and its wait status. */
static int run_child(int (*fn)(int, int), int nid, struct child_report *r)
{
	int fds[2], status = -1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		_exit(fn(nid, fds[1]));
	}
	close(fds[1]);
	if (pid > 0) {
		if (read(fds[0], r, sizeof(*r)) != sizeof(*r))
			memset(r, 0, sizeof(*r));
		waitpid(pid, &status, 0);
	}
	close(fds[0]);
	return status;
}

/*
 * A cgroup whose task is bound to the special node, writing three times its
 * memory.max: limit reclaim must swap the node's pages out as for any node.
 */
TEST_F_TIMEOUT(users, memcg_reclaims_special_node, 120)
{
	long long pswpout, ooms;
	struct child_report r;
	int status;

	ASSERT_EQ(0, zram_swap_on()) TH_LOG("zram swap: %s", strerror(errno));
	self->swap_on = true;
	ASSERT_EQ(0, memcg_make()) TH_LOG("cgroup %s: %s", CG_DIR, strerror(errno));
	self->cgroup_made = true;
	pswpout = vmstat("pswpout");
	ASSERT_LE(0, pswpout);

	status = run_child(memcg_child, self->s, &r);
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("the bound task died of signal %d: limit reclaim did not reach node %d",
		       WIFSIGNALED(status) ? WTERMSIG(status) : -1, self->s);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("the bound task failed a step");
	ooms = key_value(CG_DIR "/memory.events", "oom_kill");
	EXPECT_EQ(0, ooms) TH_LOG("memory.events oom_kill %lld", ooms);
	EXPECT_LT(pswpout, vmstat("pswpout")) TH_LOG("no page went to swap");
	EXPECT_EQ(0, r.corrupt) TH_LOG("%ld pages read back wrong after swap-in", r.corrupt);
	EXPECT_LT(0, r.on_node) TH_LOG("no resident page on node %d", self->s);
	EXPECT_EQ(0, r.elsewhere) TH_LOG("%ld resident pages off node %d", r.elsewhere,
					 self->s);
	EXPECT_GE((long)(MEMCG_MAX / getpagesize()), r.on_node)
		TH_LOG("%ld pages resident, above memory.max", r.on_node);
}

/* The hugetlb test's task: fault NR_HPAGES bound to @nid; report where. */
static int hugetlb_child(int nid, int out)
{
	unsigned long mask = 1UL << nid;
	struct child_report r = { 0 };
	size_t bytes = NR_HPAGES * HPAGE_BYTES;
	char *p;

	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED)
		return 20;
	if (mbind(p, bytes, MPOL_BIND, &mask, 8 * sizeof(mask), 0))
		return 21;
	memset(p, 0x5a, bytes);		/* SIGBUS if no pool page is found */
	if (count_resident(p, bytes, HPAGE_BYTES, nid, &r))
		return 22;
	return write(out, &r, sizeof(r)) == sizeof(r) ? 0 : 23;
}

/*
 * Huge pages only in the special node's pool; a task on another node's CPU
 * bound to the special node must get them (dequeue walks a fallback list
 * filtered by the nodemask: the list must hold the node).
 */
TEST_F_TIMEOUT(users, hugetlb_bound_to_special_pool, 60)
{
	unsigned long long nr, free_after;
	struct child_report r;
	char want[16];
	int status;

	snprintf(want, sizeof(want), "%d", NR_HPAGES);
	self->pool_set = true;
	ASSERT_EQ(0, sysfs_write_str(want, HPAGES_FILE, self->s, "nr_hugepages"))
		TH_LOG("node %d nr_hugepages: %s", self->s, strerror(errno));
	ASSERT_EQ(0, sysfs_read_u64(&nr, HPAGES_FILE, self->s, "free_hugepages"));
	ASSERT_EQ(NR_HPAGES, nr) TH_LOG("node %d pool holds %llu free pages", self->s, nr);

	status = run_child(hugetlb_child, self->s, &r);
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("the bound task died of signal %d (SIGBUS: no pool page found)",
		       WIFSIGNALED(status) ? WTERMSIG(status) : -1);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("the bound task failed a step");
	EXPECT_EQ(NR_HPAGES, r.on_node) TH_LOG("huge pages on node %d: %ld, elsewhere %ld",
					       self->s, r.on_node, r.elsewhere);
	ASSERT_EQ(0, sysfs_read_u64(&free_after, HPAGES_FILE, self->s, "free_hugepages"));
	EXPECT_EQ(NR_HPAGES, free_after) TH_LOG("pages not back in the pool after exit");
}

TEST_HARNESS_MAIN
