// SPDX-License-Identifier: GPL-2.0
/*
 * Special nodes given to a workload through a cgroup v2 cpuset, the way
 * upstream answers "keep this memory for some users": a cpuset of special
 * nodes only gets its tasks' implicit allocations there at once (no
 * reclaim, no OOM while they have room, the OOM killer inside the cpuset
 * when they are full); one with ordinary nodes as well keeps implicit use
 * on those and lets mbind()/set_mempolicy() reach the special ones; one
 * without the special node refuses it as it refuses any node outside
 * cpuset.mems. Where pages went is read with move_pages(2), reclaim from
 * /proc/vmstat, the OOM kill's constraint from the kernel log.
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
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "kmsg.h"
#include "topology.h"

#define NODE_DIR	"/sys/devices/system/node"
#define SPILL_FILE	"/sys/kernel/mm/memattr/spill"
#define WMARK_SCALE	"/proc/sys/vm/watermark_scale_factor"
#define CG_ROOT		"/sys/fs/cgroup"
#define CG_A		CG_ROOT "/memattr-cpuset-a"
#define CG_B		CG_ROOT "/memattr-cpuset-b"
#define MIB		(1ULL << 20)
#define ANON_BYTES	(32 * MIB)	/* anonymous memory a task touches */
#define SHMEM_BYTES	(16 * MIB)	/* tmpfs (memfd) pages it writes */
#define NR_FILES	3000		/* inodes and dentries: slab on its behalf */
#define POLICY_BYTES	(8 * MIB)	/* each explicit-policy region */

FIXTURE(cpuset) {
	struct topo topo;	/* the booted topology */
	int s;			/* a special node with memory */
	int o;			/* an ordinary node with CPUs and memory */
	bool marked;		/* this test made @s special */
	char spill[32];		/* spill mode to restore, "" if untouched */
	char scale[32];		/* watermark_scale_factor to restore, "" if untouched */
};

/* Does @nid have memory now (boot memory, or memory onlined since)? */
static bool has_memory(int nid)
{
	unsigned long long kb;

	return !node_meminfo_kb(nid, "MemTotal", &kb) && kb;
}

static bool is_special_now(int nid)
{
	unsigned long long mask;
	char buf[256];

	if (sysfs_read_str(buf, sizeof(buf), NODE_DIR "/special") < 0 ||
	    topo_parse_list(buf, &mask))
		return false;
	return mask >> nid & 1;
}

/*
 * The special node: the topology's own, else the last memory-only node with
 * memory, marked by the test. Nodes with CPUs are never picked: their own
 * CPUs allocate from them first by design.
 */
static int pick_special(const struct topo *t, bool *mark)
{
	int nid;

	*mark = false;
	for (nid = 0; nid < t->nr_nodes; nid++)
		if (t->node[nid].memattr[TOPO_MA_SPECIAL] == 1 && has_memory(nid))
			return nid;
	for (nid = t->nr_nodes - 1; nid >= 0; nid--)
		if (!t->node[nid].cpus[0] && has_memory(nid)) {
			*mark = true;
			return nid;
		}
	return -1;
}

static int pick_ordinary(const struct topo *t, int s)
{
	int nid;

	for (nid = 0; nid < t->nr_nodes; nid++)
		if (nid != s && t->node[nid].cpus[0] && has_memory(nid) &&
		    t->node[nid].memattr[TOPO_MA_SPECIAL] != 1)
			return nid;
	return -1;
}

static int cg_make(const char *dir, const char *mems)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	return sysfs_write_str(mems, "%s/cpuset.mems", dir);
}

static int cg_join(const char *dir, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", pid);
	return sysfs_write_str(buf, "%s/cgroup.procs", dir);
}

FIXTURE_SETUP(cpuset)
{
	char mems[256];

	self->marked = false;
	self->spill[0] = '\0';
	self->scale[0] = '\0';
	if (topo_load(&self->topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s", strerror(errno));
	TOPO_NEED(&self->topo, !access(NODE_DIR "/special", R_OK), "node/special");
	self->s = pick_special(&self->topo, &self->marked);
	self->o = pick_ordinary(&self->topo, self->s);
	if (self->s < 0 || self->o < 0)
		SKIP(return, "topology %s has no memory-only node with memory and CPU node besides",
		     self->topo.name);
	if (self->marked)
		ASSERT_EQ(0, sysfs_write_str("1", NODE_DIR "/node%d/memattr/special", self->s));
	ASSERT_TRUE(is_special_now(self->s));

	mkdir(CG_ROOT, 0755);
	if (access(CG_ROOT "/cgroup.controllers", R_OK))
		ASSERT_EQ(0, mount("none", CG_ROOT, "cgroup2", 0, NULL));
	ASSERT_LT(0, sysfs_read_str(mems, sizeof(mems), CG_ROOT "/cgroup.controllers"));
	if (!strstr(mems, "cpuset"))
		SKIP(return, "kernel without the cgroup v2 cpuset controller (CONFIG_CPUSETS)");
	ASSERT_EQ(0, sysfs_write_str("+cpuset", CG_ROOT "/cgroup.subtree_control"));
	snprintf(mems, sizeof(mems), "%d", self->s);
	ASSERT_EQ(0, cg_make(CG_A, mems));
	snprintf(mems, sizeof(mems), "%d", self->o);
	ASSERT_EQ(0, cg_make(CG_B, mems));
}

FIXTURE_TEARDOWN(cpuset)
{
	_metadata->trigger = 0;
	rmdir(CG_A);
	rmdir(CG_B);
	if (self->spill[0])
		sysfs_write_str(self->spill, SPILL_FILE);
	if (self->scale[0])
		sysfs_write_str(self->scale, WMARK_SCALE);
	if (self->marked)
		sysfs_write_str("auto", NODE_DIR "/node%d/memattr/special", self->s);
}

/* ---- what a child task did, sent up a pipe ---- */

struct report {
	long on[TOPO_MAX_NODES];	/* resident pages per node */
	long off;			/* resident pages whose node is unknown */
	long long reclaim;		/* allocstall_* + pgscan_* during the work */
	long long slab_kb[TOPO_MAX_NODES];	/* growth of each node's Slab */
	int err;			/* errno of a failed step, 0 */
	int step;			/* which step failed */
};

/* Every allocstall_* and pgscan_* counter of /proc/vmstat, summed. */
static long long reclaim_events(void)
{
	char line[128], key[64];
	long long sum = 0, v;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", key, &v) == 2 &&
		    (!strncmp(key, "allocstall_", 11) || !strncmp(key, "pgscan_", 7)))
			sum += v;
	fclose(f);
	return sum;
}

/* Add where the pages of [@p, @p + @bytes) are to @r; 0 or -1. */
static int locate(struct report *r, char *p, size_t bytes)
{
	long i, n = bytes / getpagesize();
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	int ret = -1;

	if (!pages || !status)
		goto out;
	for (i = 0; i < n; i++)
		pages[i] = p + i * getpagesize();
	if (move_pages(0, n, pages, NULL, status, 0))
		goto out;
	for (i = 0; i < n; i++) {
		if (status[i] >= 0 && status[i] < TOPO_MAX_NODES)
			r->on[status[i]]++;
		else
			r->off++;
	}
	ret = 0;
out:
	free(pages);
	free(status);
	return ret;
}

static char *touch_anon(size_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5a, bytes);
	return p;
}

/* A tmpfs file written through write(2), mapped to find its pages. */
static char *write_shmem(size_t bytes)
{
	static char chunk[1 << 16];
	int fd = memfd_create("memattr-cpuset", 0);
	size_t done;
	char *p;

	if (fd < 0)
		return NULL;
	memset(chunk, 0xa5, sizeof(chunk));
	for (done = 0; done < bytes; done += sizeof(chunk))
		if (write(fd, chunk, sizeof(chunk)) != sizeof(chunk)) {
			close(fd);
			return NULL;
		}
	p = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	/* move_pages(2) finds mapped pages only: map every one */
	for (done = 0; done < bytes; done += getpagesize())
		(void)((volatile char *)p)[done];
	return p;
}

static int slab_kb(long long *kb, int nr_nodes)
{
	unsigned long long v;
	int nid;

	for (nid = 0; nid < nr_nodes; nid++) {
		kb[nid] = 0;
		if (has_memory(nid)) {
			if (node_meminfo_kb(nid, "Slab", &v))
				return -1;
			kb[nid] = v;
		}
	}
	return 0;
}

/* Many inodes and dentries in a fresh tmpfs: slab the kernel allocates for us. */
static int make_files(const char *dir)
{
	char path[128];
	int i, fd;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	if (mount("none", dir, "tmpfs", 0, NULL))
		return -1;
	for (i = 0; i < NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* Run @fn in a child that first joined @cg; its report in @r, its wait status back. */
static int in_cpuset(const char *cg, int (*fn)(struct report *r, void *arg),
		     void *arg, struct report *r)
{
	int fds[2], status;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		struct report mine = { 0 };

		close(fds[0]);
		if (cg_join(cg, getpid())) {
			mine.err = errno;
			mine.step = -1;
		} else {
			fn(&mine, arg);
		}
		if (write(fds[1], &mine, sizeof(mine)) != sizeof(mine))
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], r, sizeof(*r)) != sizeof(*r))
		r->step = -2;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static int fail(struct report *r, int step)
{
	r->err = errno ? errno : EIO;
	r->step = step;
	return -1;
}

/* ---- a cpuset of special nodes only ---- */

struct implicit_work {
	struct report anon;	/* where the anonymous pages went */
	struct report shmem;	/* where the tmpfs pages went */
};

static int implicit_use(struct report *r, void *arg)
{
	long long before_slab[TOPO_MAX_NODES], after_slab[TOPO_MAX_NODES];
	const struct topo *t = arg;
	long long before = reclaim_events();
	char *anon, *shm;
	int nid;

	if (slab_kb(before_slab, t->nr_nodes))
		return fail(r, 1);
	anon = touch_anon(ANON_BYTES);
	if (!anon || locate(r, anon, ANON_BYTES))
		return fail(r, 2);
	shm = write_shmem(SHMEM_BYTES);
	if (!shm || locate(r, shm, SHMEM_BYTES))
		return fail(r, 3);
	if (make_files("/tmp/memattr-cpuset-files"))
		return fail(r, 4);
	if (slab_kb(after_slab, t->nr_nodes))
		return fail(r, 5);
	for (nid = 0; nid < t->nr_nodes; nid++)
		r->slab_kb[nid] = after_slab[nid] - before_slab[nid];
	r->reclaim = reclaim_events() - before;
	umount2("/tmp/memattr-cpuset-files", MNT_DETACH);
	return 0;
}

/* The slab the same files cost a task of the root cgroup, in r->slab_kb[]. */
static int files_only(struct report *r, void *arg)
{
	long long before[TOPO_MAX_NODES], after[TOPO_MAX_NODES];
	const struct topo *t = arg;
	int nid;

	if (slab_kb(before, t->nr_nodes) || make_files("/tmp/memattr-cpuset-base") ||
	    slab_kb(after, t->nr_nodes))
		return fail(r, 1);
	for (nid = 0; nid < t->nr_nodes; nid++)
		r->slab_kb[nid] = after[nid] - before[nid];
	umount2("/tmp/memattr-cpuset-base", MNT_DETACH);
	return 0;
}

/*
 * Anonymous memory, tmpfs pages and the slab of new inodes all come from
 * the special node, and nothing was reclaimed to get them there (the old
 * way ran direct reclaim on every fault and then spilled). The slab costs
 * what it costs a task outside the cpuset (SLUB finds the partial slabs
 * on the special node), not a new slab per object.
 */
TEST_F_TIMEOUT(cpuset, only_special_implicit_at_once, 120)
{
	long long slab_s, slab_rest = 0, slab_base = 0;
	struct report r;
	long total;
	int nid;

	ASSERT_EQ(0, in_cpuset(CG_ROOT, files_only, &self->topo, &r));
	ASSERT_EQ(0, r.err) TH_LOG("step %d failed: %s", r.step, strerror(r.err));
	for (nid = 0; nid < self->topo.nr_nodes; nid++)
		slab_base += r.slab_kb[nid];
	ASSERT_EQ(0, in_cpuset(CG_A, implicit_use, &self->topo, &r));
	ASSERT_EQ(0, r.err) TH_LOG("step %d failed: %s", r.step, strerror(r.err));
	total = ANON_BYTES / getpagesize() + SHMEM_BYTES / getpagesize();
	slab_s = r.slab_kb[self->s];
	for (nid = 0; nid < self->topo.nr_nodes; nid++)
		if (nid != self->s)
			slab_rest += r.slab_kb[nid];
	TH_LOG("cpuset {%d}: %ld of %ld pages on node %d, reclaim events %lld, slab +%lld kB there, %+lld kB elsewhere (%lld kB outside the cpuset)",
	       self->s, r.on[self->s], total, self->s, r.reclaim, slab_s, slab_rest,
	       slab_base);
	EXPECT_EQ(total, r.on[self->s]);
	EXPECT_EQ(0, r.reclaim);
	/* new inodes and dentries need new slab pages: they are the cpuset's */
	EXPECT_LT(256, slab_s);
	EXPECT_GT(slab_s, slab_rest);
	/*
	 * What the task's slab grew by in all (under KASAN, its quarantine
	 * frees slabs elsewhere meanwhile): a new slab per object would be
	 * about ten times what the same work costs outside the cpuset.
	 */
	EXPECT_GE(2 * slab_base + 512, slab_s + slab_rest);
}

/* Sum of the min and low watermarks (kB) of node @nid's zones; 0 or -1. */
static int watermarks_kb(int nid, long long *min, long long *low)
{
	char line[256], want[32];
	long long pages;
	bool in = false;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	*min = *low = 0;
	snprintf(want, sizeof(want), "Node %d, zone", nid);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Node ", 5))
			in = !strncmp(line, want, strlen(want));
		else if (in && sscanf(line, " min %lld", &pages) == 1)
			*min += pages * getpagesize() / 1024;
		else if (in && sscanf(line, " low %lld", &pages) == 1)
			*low += pages * getpagesize() / 1024;
	}
	fclose(f);
	return *low ? 0 : -1;
}

/*
 * Keep the task on the CPU it runs on. A CPU's list of free pages is
 * refilled in batches that grow with the zone's low watermark (raised
 * tenfold by the test); a task the scheduler moves leaves those pages on
 * the list of a CPU it no longer runs on, out of its reach. Under the debug
 * kernel that stranded 17 MB of the special node, more than the margin
 * the test leaves above the min watermark, and the fill was OOM-killed.
 */
static int stay_on_this_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int fill(struct report *r, void *arg)
{
	size_t bytes = *(size_t *)arg;

	/* the OOM killer's victim, if it comes to that */
	if (sysfs_write_str("1000", "/proc/self/oom_score_adj"))
		return fail(r, 1);
	if (stay_on_this_cpu())
		return fail(r, 1);
	if (!touch_anon(bytes))
		return fail(r, 1);
	return 0;
}

/*
 * With spill=never, a task of the cpuset is not OOM-killed while the
 * special node has room, down to its min watermark: below the low one the
 * allocator's slow path must find the node too (it gets no nodemask for
 * the cpuset), and nothing is counted as a spill. Once the task asks for
 * more than the node holds, the OOM killer acts, inside the cpuset
 * (CONSTRAINT_CPUSET), and the ordinary node does not give it a page.
 */
static void oom_lines(char *msg, void *ctx)
{
	int *seen = ctx;

	if (strstr(msg, "constraint=CONSTRAINT_CPUSET"))
		seen[0]++;
	if (strstr(msg, "Out of memory") || strstr(msg, "oom-kill:"))
		seen[1]++;
}

static void skip_line(char *msg, void *ctx)
{
}

/* The word in brackets of "never [before_oom] always" into @word; 0 or -1. */
static int read_choice(char *word, size_t len, const char *file)
{
	char buf[128], *open, *close;

	if (sysfs_read_str(buf, sizeof(buf), "%s", file) < 0)
		return -1;
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return -1;
	*close = '\0';
	snprintf(word, len, "%s", open + 1);
	return 0;
}

TEST_F_TIMEOUT(cpuset, only_special_no_oom_until_full, 180)
{
	unsigned long long free_kb, total_kb, o_before, o_after, seq = 0;
	long long spill, min_kb, low_kb;
	int st, seen[2] = { 0, 0 };
	struct report r;
	size_t bytes;

	ASSERT_EQ(0, read_choice(self->spill, sizeof(self->spill), SPILL_FILE));
	ASSERT_EQ(0, sysfs_write_str("never", SPILL_FILE));
	/*
	 * Down to halfway between the low and the min watermark: the last
	 * pages come from the slow path. Spread the watermarks (10% of the
	 * zone apart, not 0.1%) so that per-CPU page lists cannot move the
	 * task across either of them.
	 */
	ASSERT_LT(0, sysfs_read_str(self->scale, sizeof(self->scale), WMARK_SCALE));
	ASSERT_EQ(0, sysfs_write_str("1000", WMARK_SCALE));
	ASSERT_EQ(0, node_meminfo_kb(self->s, "MemFree", &free_kb));
	ASSERT_EQ(0, node_meminfo_kb(self->s, "MemTotal", &total_kb));
	ASSERT_EQ(0, watermarks_kb(self->s, &min_kb, &low_kb));
	spill = key_value("/proc/vmstat", "memattr_spill");
	bytes = (free_kb - (min_kb + low_kb) / 2) * 1024;
	st = in_cpuset(CG_A, fill, &bytes, &r);
	EXPECT_EQ(0, sysfs_write_str(self->scale, WMARK_SCALE));
	self->scale[0] = '\0';
	spill = key_value("/proc/vmstat", "memattr_spill") - spill;
	TH_LOG("node %d: %llu kB free, watermarks min %lld low %lld kB; %zu kB taken: wait status %#x, %lld pages spilled",
	       self->s, free_kb, min_kb, low_kb, bytes / 1024, st, spill);
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, r.err);
	EXPECT_EQ(0, spill);

	ASSERT_EQ(0, kmsg_each(0, &seq, skip_line, NULL));
	ASSERT_EQ(0, node_meminfo_kb(self->o, "MemFree", &o_before));
	bytes = (total_kb + 32 * 1024) * 1024;
	st = in_cpuset(CG_A, fill, &bytes, &r);
	ASSERT_EQ(0, node_meminfo_kb(self->o, "MemFree", &o_after));
	ASSERT_EQ(0, kmsg_each(seq, &seq, oom_lines, seen));
	TH_LOG("node %d's %llu kB and 32 MiB more: wait status %#x, %d OOM lines, %d with CONSTRAINT_CPUSET; node %d free %llu -> %llu kB",
	       self->s, total_kb, st, seen[1], seen[0], self->o, o_before, o_after);
	EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	EXPECT_LT(0, seen[0]);
	/* the ordinary node gave the task nothing (16 MiB of slack for others) */
	EXPECT_LE(o_before, o_after + 16 * 1024);
}

/* ---- a cpuset of ordinary and special nodes ---- */

struct placement {
	long implicit_on_o;	/* implicit pages on the ordinary node */
	long implicit_on_s;	/* ... on the special one */
};

static int set_bind_region(char **p, int mode, int nid)
{
	unsigned long mask = 1UL << nid;

	*p = mmap(NULL, POLICY_BYTES, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*p == MAP_FAILED)
		return -1;
	if (mbind(*p, POLICY_BYTES, mode, &mask, sizeof(mask) * 8, 0))
		return -1;
	memset(*p, 1, POLICY_BYTES);
	return 0;
}

/* r->on[] of implicit pages; r->slab_kb[] reused: pages per explicit form on node s. */
static int mixed_use(struct report *r, void *arg)
{
	const int *nodes = arg;	/* { s } */
	struct report one;
	unsigned long mask = 1UL << nodes[0];
	char *anon, *p;

	anon = touch_anon(ANON_BYTES);
	if (!anon || locate(r, anon, ANON_BYTES))
		return fail(r, 1);
	memset(&one, 0, sizeof(one));
	if (set_bind_region(&p, MPOL_BIND, nodes[0]) || locate(&one, p, POLICY_BYTES))
		return fail(r, 2);
	r->slab_kb[0] = one.on[nodes[0]];
	memset(&one, 0, sizeof(one));
	if (set_bind_region(&p, MPOL_PREFERRED, nodes[0]) || locate(&one, p, POLICY_BYTES))
		return fail(r, 3);
	r->slab_kb[1] = one.on[nodes[0]];
	if (set_mempolicy(MPOL_BIND, &mask, sizeof(mask) * 8))
		return fail(r, 4);
	memset(&one, 0, sizeof(one));
	p = touch_anon(POLICY_BYTES);
	if (!p || locate(&one, p, POLICY_BYTES))
		return fail(r, 5);
	r->slab_kb[2] = one.on[nodes[0]];
	return 0;
}

TEST_F_TIMEOUT(cpuset, mixed_keeps_implicit_on_ordinary, 120)
{
	long want = POLICY_BYTES / getpagesize();
	char mems[32];
	struct report r;

	snprintf(mems, sizeof(mems), "%d,%d", self->o, self->s);
	ASSERT_EQ(0, sysfs_write_str(mems, CG_A "/cpuset.mems"));
	ASSERT_EQ(0, in_cpuset(CG_A, mixed_use, &self->s, &r));
	ASSERT_EQ(0, r.err) TH_LOG("step %d failed: %s", r.step, strerror(r.err));
	TH_LOG("cpuset {%s}: implicit %ld pages on node %d, %ld on node %d; bind %lld, preferred %lld, set_mempolicy %lld of %ld on node %d",
	       mems, r.on[self->o], self->o, r.on[self->s], self->s,
	       r.slab_kb[0], r.slab_kb[1], r.slab_kb[2], want, self->s);
	EXPECT_EQ(0, r.on[self->s]);
	EXPECT_EQ((long)(ANON_BYTES / getpagesize()), r.on[self->o]);
	EXPECT_EQ(want, r.slab_kb[0]);
	EXPECT_EQ(want, r.slab_kb[1]);
	EXPECT_EQ(want, r.slab_kb[2]);
}

/* ---- a cpuset without the special node ---- */

/* r->slab_kb[0..3]: mbind and set_mempolicy results (0 or errno) for nodes[0], then nodes[1]. */
static int outside_use(struct report *r, void *arg)
{
	const int *nodes = arg;
	unsigned long mask;
	char *p;
	int i;

	p = mmap(NULL, POLICY_BYTES, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return fail(r, 1);
	for (i = 0; i < 2; i++) {
		if (nodes[i] < 0)
			continue;
		mask = 1UL << nodes[i];
		errno = 0;
		r->slab_kb[2 * i] = mbind(p, POLICY_BYTES, MPOL_BIND, &mask,
					  sizeof(mask) * 8, 0) ? errno : 0;
		errno = 0;
		r->slab_kb[2 * i + 1] = set_mempolicy(MPOL_BIND, &mask,
						      sizeof(mask) * 8) ? errno : 0;
		set_mempolicy(MPOL_DEFAULT, NULL, 0);
	}
	return 0;
}

/*
 * Explicit requests for the special node fail exactly as for an ordinary
 * node outside cpuset.mems, and as 6.12 fails those: -EINVAL.
 */
TEST_F_TIMEOUT(cpuset, without_special_refuses_it_like_any_node, 60)
{
	int nodes[2] = { self->s, -1 }, nid;
	struct report r;

	for (nid = 0; nid < self->topo.nr_nodes; nid++)
		if (nid != self->s && nid != self->o && has_memory(nid) &&
		    !is_special_now(nid))
			nodes[1] = nid;
	ASSERT_EQ(0, in_cpuset(CG_B, outside_use, nodes, &r));
	ASSERT_EQ(0, r.err) TH_LOG("step %d failed: %s", r.step, strerror(r.err));
	TH_LOG("cpuset {%d}: special node %d: mbind %s, set_mempolicy %s; ordinary node %d: mbind %s, set_mempolicy %s",
	       self->o, self->s, strerror(r.slab_kb[0]), strerror(r.slab_kb[1]),
	       nodes[1], nodes[1] < 0 ? "-" : strerror(r.slab_kb[2]),
	       nodes[1] < 0 ? "-" : strerror(r.slab_kb[3]));
	EXPECT_EQ(EINVAL, r.slab_kb[0]);
	EXPECT_EQ(EINVAL, r.slab_kb[1]);
	if (nodes[1] >= 0) {
		EXPECT_EQ(r.slab_kb[2], r.slab_kb[0]);
		EXPECT_EQ(r.slab_kb[3], r.slab_kb[1]);
	}
}

/* ---- moving between cpusets and changing mems while allocating ---- */

#define NR_PHASES	5
#define CHUNK		(1 * MIB)
#define MAX_CHUNKS	4096

/* Shared between the allocating child and the test. */
struct phase_log {
	volatile int phase;		/* set by the test, -1 while it changes things */
	volatile int stop;		/* set by the test */
	volatile int nr;		/* chunks the child allocated */
	int phase_of[MAX_CHUNKS];	/* phase when the chunk was touched */
	int node_of[MAX_CHUNKS];	/* where its first page went */
	int seq_in_phase[MAX_CHUNKS];	/* how many chunks of its phase came before */
};

static void allocate_until_stopped(struct phase_log *log)
{
	int last = -1, in_phase = 0, status;
	void *page;
	char *p;

	while (!log->stop && log->nr < MAX_CHUNKS) {
		int phase = log->phase;

		p = touch_anon(CHUNK);
		if (!p)
			_exit(3);
		/* a chunk that overlapped a change belongs to no phase */
		if (log->phase != phase)
			phase = -1;
		in_phase = phase == last ? in_phase + 1 : 0;
		last = phase;
		page = p;
		if (move_pages(0, 1, &page, NULL, &status, 0))
			_exit(4);
		log->phase_of[log->nr] = phase;
		log->node_of[log->nr] = status;
		log->seq_in_phase[log->nr] = in_phase;
		log->nr++;
		munmap(p, CHUNK);
		usleep(20000);
	}
	_exit(0);
}

/* Let the child touch @nr chunks wholly inside @phase, or give up after 20 s. */
static void wait_for_chunks(struct phase_log *log, int phase, int nr)
{
	int i, seen, tries;

	for (tries = 0; tries < 200; tries++) {
		for (i = 0, seen = 0; i < log->nr; i++)
			seen += log->phase_of[i] == phase;
		if (seen >= nr)
			return;
		usleep(100000);
	}
}

/*
 * The task allocates all along while the test moves it from {s} to {o} and
 * back, and then changes {s}'s mems to {o} and back to {s}. Every chunk
 * touched once a phase has settled (its third chunk on) is on that phase's
 * node; the task is never killed.
 */
TEST_F_TIMEOUT(cpuset, move_and_change_mems_while_allocating, 120)
{
	/* phase: 0 in A={s}, 1 in B={o}, 2 in A={s}, 3 A={o}, 4 A={s} */
	const int want[NR_PHASES] = { self->s, self->o, self->s, self->o, self->s };
	struct phase_log *log;
	int i, st, bad = 0, settled[NR_PHASES] = { 0 };
	char mems[16];
	pid_t pid;

	log = mmap(NULL, sizeof(*log), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, log);
	memset(log, 0, sizeof(*log));
	log->phase = -1;
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (cg_join(CG_A, getpid()))
			_exit(2);
		allocate_until_stopped(log);
	}
	for (i = 0; i < NR_PHASES; i++) {
		log->phase = -1;
		switch (i) {
		case 1:
			ASSERT_EQ(0, cg_join(CG_B, pid));
			break;
		case 2:
			ASSERT_EQ(0, cg_join(CG_A, pid));
			break;
		case 3:
		case 4:
			snprintf(mems, sizeof(mems), "%d", want[i]);
			ASSERT_EQ(0, sysfs_write_str(mems, CG_A "/cpuset.mems"));
			break;
		}
		log->phase = i;
		wait_for_chunks(log, i, 6);
	}
	log->stop = 1;
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	for (i = 0; i < log->nr; i++) {
		if (log->phase_of[i] < 0 || log->seq_in_phase[i] < 2)
			continue;
		settled[log->phase_of[i]]++;
		if (log->node_of[i] != want[log->phase_of[i]]) {
			bad++;
			TH_LOG("chunk %d of phase %d on node %d, want %d", i,
			       log->phase_of[i], log->node_of[i], want[log->phase_of[i]]);
		}
	}
	TH_LOG("%d chunks, settled per phase %d %d %d %d %d, %d misplaced",
	       log->nr, settled[0], settled[1], settled[2], settled[3], settled[4], bad);
	for (i = 0; i < NR_PHASES; i++)
		EXPECT_LT(0, settled[i]) TH_LOG("phase %d had no settled chunk", i);
	EXPECT_EQ(0, bad);
	munmap(log, sizeof(*log));
}

TEST_HARNESS_MAIN
