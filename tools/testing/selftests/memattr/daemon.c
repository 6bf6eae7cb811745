// SPDX-License-Identifier: GPL-2.0
/*
 * kmemattrd in a booted kernel: hot pages reach the node the booted
 * topology says is fastest (a memory-only node included), cold ones stay,
 * bind policies, cpusets and special nodes are obeyed, unmapped page cache
 * is promoted, a shifting hot set is followed with demotion, and no byte
 * is lost on the way. Placement is read with move_pages(2), counts from
 * /proc/vmstat; expected nodes come from /memattr/topology.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "topology.h"

#define MIB		(1ULL << 20)
#define REGION		(16 * MIB)	/* each test's working region */
#define HOT_EVERY	10		/* every 10th page is hot: a 10% hot set */
#define DAEMON_DIR	"/sys/kernel/mm/memattr/daemon"
#define THP_ENABLED	"/sys/kernel/mm/transparent_hugepage/enabled"
#define CG_ROOT		"/sys/fs/cgroup"
#define CG_DIR		CG_ROOT "/memattr-daemon"
#define TMPFS_DIR	"/tmp/memattr-daemon"
/*
 * The test runs the daemon every 100 ms with the default budget, which
 * covers the few thousand entries of a test in one wakeup: a hot page is
 * found after hot_threshold (2) passes, then moved within the rate limit
 * (256 MB/s, 1.6 MiB of hot set). About 0.3 s on hardware; TCG runs the
 * walk 10-50x slower, so 20 s is the bound, and tests report what they took.
 */
#define INTERVAL_MS	"100"
#define SETTLE_S	20
#define QUIET_S		1	/* 10 passes, 5x what a hot page needs */
/* Passes a test that expects nothing to move waits: 2 to heat, 2 to move, 1 more */
#define POLICY_PASSES	5

/* A node's read latency and bandwidth as the records will show them. */
static unsigned long long topo_read(const struct topo *t, int n, int ma, int perf)
{
	const struct topo_node *node = &t->node[n];

	if (node->memattr[ma] >= 0)
		return node->memattr[ma];
	return node->has_access ? node->access[perf] : 0;
}

static unsigned long long latency(const struct topo *t, int n)
{
	return topo_read(t, n, TOPO_MA_READ_LATENCY, TOPO_READ_LATENCY);
}

/* Documented: the daemon moves pages of nodes with memory, a latency, not special. */
static bool tracked(const struct topo *t, int n)
{
	return t->node[n].mem_bytes && !(t->online_empty & (1ULL << n)) &&
	       t->node[n].memattr[TOPO_MA_SPECIAL] != 1 && latency(t, n);
}

/*
 * Node @n's read value @perf as the CPUs of node @c see it: their pair's
 * value, else the node's record (the best initiator's); @c < 0: the record.
 */
static unsigned long long seen_from(const struct topo *t, int c, int n, int perf)
{
	long long v = c < 0 ? -1 : topo_view_value(t, c, n, perf, NULL);

	return v > 0 ? v : topo_read(t, n, perf, perf);
}

/* Documented order, from node @c: lower read latency, then higher bandwidth. */
static bool faster(const struct topo *t, int c, int a, int b)
{
	unsigned long long la = seen_from(t, c, a, TOPO_READ_LATENCY);
	unsigned long long lb = seen_from(t, c, b, TOPO_READ_LATENCY);

	if (la != lb)
		return la < lb;
	return seen_from(t, c, a, TOPO_READ_BANDWIDTH) > seen_from(t, c, b, TOPO_READ_BANDWIDTH);
}

/* The fastest tracked node of @allowed faster than @src from @c, -1 if none. */
static int fastest(const struct topo *t, int c, int src, unsigned long long allowed)
{
	int n, best = -1;

	for (n = 0; n < t->nr_nodes; n++)
		if (tracked(t, n) && (allowed >> n & 1) && faster(t, c, n, src) &&
		    (best < 0 || faster(t, c, n, best)))
			best = n;
	return best;
}

/* The slowest tracked node from @c with room for the region, -1 if none. */
static int slowest(const struct topo *t, int c)
{
	int n, worst = -1;

	for (n = 0; n < t->nr_nodes; n++)
		if (tracked(t, n) && t->node[n].mem_bytes >= 3 * REGION &&
		    (worst < 0 || faster(t, c, worst, n)))
			worst = n;
	return worst;
}

/* Pin this thread (and the threads it starts) to the CPUs of node @c. */
static int pin_to_node(const struct topo *t, int c)
{
	unsigned long long mask;
	cpu_set_t set;

	if (topo_parse_list(t->node[c].cpus, &mask))
		return -1;
	CPU_ZERO(&set);
	for (int cpu = 0; cpu < 64; cpu++)
		if (mask >> cpu & 1)
			CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

#define TIERS_DIR	"/sys/devices/virtual/memory_tiering"

/* The memory tier id of node @nid (higher: slower), -1 if unknown. */
static int tier_of(int nid)
{
	unsigned long long nodes;
	struct dirent *de;
	DIR *dir = opendir(TIERS_DIR);
	char list[256];
	int id, found = -1;

	while (dir && found < 0 && (de = readdir(dir)))
		if (sscanf(de->d_name, "memory_tier%d", &id) == 1 &&
		    sysfs_read_str(list, sizeof(list), TIERS_DIR "/%s/nodelist", de->d_name) >= 0 &&
		    !topo_parse_list(list, &nodes) && (nodes >> nid & 1))
			found = id;
	if (dir)
		closedir(dir);
	return found;
}

/*
 * Nodes of the top tiers, as NUMA balancing's tiering mode sees them: the
 * tiers up to the slowest one that holds a CPU node (tier ids grow with
 * abstract distance). 0 if the tiers cannot be read.
 */
static unsigned long long toptier_nodes(const struct topo *t)
{
	unsigned long long tier_nodes[64] = {}, cpus = 0, top = 0;
	int id, last = -1, n;
	struct dirent *de;
	DIR *dir = opendir(TIERS_DIR);
	char list[256];

	for (n = 0; n < t->nr_nodes; n++)
		if (t->node[n].cpus[0])
			cpus |= 1ULL << n;
	while (dir && (de = readdir(dir))) {
		if (sscanf(de->d_name, "memory_tier%d", &id) != 1 || id < 0 || id >= 64 ||
		    sysfs_read_str(list, sizeof(list), TIERS_DIR "/%s/nodelist", de->d_name) < 0 ||
		    topo_parse_list(list, &tier_nodes[id]))
			continue;
		if ((tier_nodes[id] & cpus) && id > last)
			last = id;
	}
	if (dir)
		closedir(dir);
	for (id = 0; id <= last; id++)
		top |= tier_nodes[id];
	return top;
}

static long long vmstat(const char *name)
{
	return key_value("/proc/vmstat", name);
}

/* 0, or the -errno a write of @val to the daemon's knob @name failed with. */
static int knob(const char *name, const char *val)
{
	return sysfs_write_str(val, DAEMON_DIR "/%s", name) ? -errno : 0;
}

/* The node of every page of [@p, @p + @bytes) in process @pid (0: this one). */
static int *where_pid(pid_t pid, char *p, size_t bytes)
{
	long ps = getpagesize(), n = bytes / ps, i;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));

	if (pages && status) {
		for (i = 0; i < n; i++)
			pages[i] = p + i * ps;
		if (!move_pages(pid, n, pages, NULL, status, 0)) {
			free(pages);
			return status;
		}
	}
	free(pages);
	free(status);
	return NULL;
}

/* The node of every page of [@p, @p + @bytes), -errno where unmapped. */
static int *where(char *p, size_t bytes)
{
	return where_pid(0, p, bytes);
}

struct placement {
	long hot_on;		/* hot pages on the expected node */
	long hot;		/* hot pages */
	long cold_moved;	/* cold pages no longer on the start node */
	long cold;		/* cold pages */
	long on_special;	/* pages on a node the topology makes special */
};

static int place(const struct topo *t, char *p, size_t bytes, int start, int target,
		 int hot_offset, struct placement *out)
{
	long i, n = bytes / getpagesize();
	int *status = where(p, bytes);

	if (!status)
		return -1;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		int nid = status[i];

		if (nid >= 0 && nid < t->nr_nodes &&
		    t->node[nid].memattr[TOPO_MA_SPECIAL] == 1)
			out->on_special++;
		if (i % HOT_EVERY == hot_offset) {
			out->hot++;
			out->hot_on += nid == target;
		} else {
			out->cold++;
			out->cold_moved += nid != start;
		}
	}
	free(status);
	return 0;
}

/* ---- the workload: a thread touching the hot pages ---- */

struct hot_loop {
	pthread_t thread;
	char *p;		/* region, or NULL to pread @fd */
	int fd;			/* tmpfs file for page-cache tests */
	size_t bytes;
	volatile int offset;	/* hot pages are i % HOT_EVERY == offset */
	volatile bool stop;
	volatile bool busy;	/* no pause between sweeps (NUMA balancing scans by CPU time) */
};

static void *hot_loop_fn(void *arg)
{
	struct hot_loop *h = arg;
	long ps = getpagesize(), i, n = h->bytes / ps;
	char buf[64];

	while (!h->stop) {
		for (i = h->offset; i < n && !h->stop; i += HOT_EVERY) {
			if (h->p)
				(void)*(volatile char *)(h->p + i * ps);
			else if (pread(h->fd, buf, sizeof(buf), i * ps) < 0)
				return NULL;
		}
		if (!h->busy)
			usleep(1000);
	}
	return NULL;
}

#define CHILD_ENV	"MEMATTR_DAEMON_CHILD"
#define NUMACTL		"/memattr/bin/numactl"

/*
 * This binary started by a client such as numactl with CHILD_ENV set:
 * fault a region under the policy the client gave, print its address,
 * touch its hot set until killed. Runs before the harness's main.
 */
__attribute__((constructor)) static void policy_child(void)
{
	struct hot_loop h = { .fd = -1, .bytes = REGION };

	if (!getenv(CHILD_ENV))
		return;
	h.p = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h.p == MAP_FAILED)
		_exit(1);
	memset(h.p, 1, REGION);
	printf("%p\n", (void *)h.p);
	fflush(stdout);
	hot_loop_fn(&h);
	_exit(0);
}

static int hot_loop_start(struct hot_loop *h, char *p, int fd, size_t bytes)
{
	h->p = p;
	h->fd = fd;
	h->bytes = bytes;
	h->offset = 0;
	h->stop = false;
	h->busy = false;
	return pthread_create(&h->thread, NULL, hot_loop_fn, h);
}

static void hot_loop_stop(struct hot_loop *h)
{
	h->stop = true;
	pthread_join(h->thread, NULL);
}

/*
 * Anonymous memory faulted on @nid, left with the default policy (unless
 * @keep_bind). From @shared_from bytes on (if below @bytes) it is shared
 * (MAP_SHARED, shmem): one address range, two VMAs, so one hot loop and
 * one move_pages() query cover both kinds.
 */
static char *region_mixed_on(int nid, size_t bytes, bool keep_bind, size_t shared_from)
{
	unsigned long mask = 1UL << nid;
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED)
		return NULL;
	if (shared_from < bytes &&
	    mmap(p + shared_from, bytes - shared_from, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		goto fail;
	if (mbind(p, bytes, MPOL_BIND, &mask, sizeof(mask) * 8, 0))
		goto fail;
	for (i = 0; i < bytes; i += 8)
		*(unsigned long *)(p + i) = (unsigned long)(p + i) * 2654435761UL;
	if (!keep_bind && mbind(p, bytes, MPOL_DEFAULT, NULL, 0, 0))
		goto fail;
	return p;
fail:
	munmap(p, bytes);
	return NULL;
}

static char *region_on(int nid, size_t bytes, bool keep_bind)
{
	return region_mixed_on(nid, bytes, keep_bind, bytes);
}

static long corrupt_words(char *p, size_t bytes)
{
	long bad = 0;
	size_t i;

	for (i = 0; i < bytes; i += 8)
		bad += *(unsigned long *)(p + i) != (unsigned long)(p + i) * 2654435761UL;
	return bad;
}

/* Free memory of the whole machine, KiB. */
static unsigned long long free_kb(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return 0;
	return (unsigned long long)si.freeram * si.mem_unit / 1024;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Passes the daemon finished since boot (its "passes" file), -1 if unknown. */
static long long passes(void)
{
	unsigned long long v;

	return sysfs_read_u64(&v, DAEMON_DIR "/passes") ? -1 : (long long)v;
}

/*
 * Wait until @n passes that began after the call have ended: each of them
 * looked at every present entry of every process. False if that took
 * longer than @timeout_s.
 */
static bool wait_passes(int n, int timeout_s)
{
	long long start = passes();
	double t0 = now_s();

	if (start < 0)
		return false;
	while (now_s() - t0 < timeout_s) {
		if (passes() >= start + n + 1)	/* the pass under way is not whole */
			return true;
		usleep(100000);
	}
	return false;
}

FIXTURE(daemon) {
	struct topo topo;	/* the booted topology */
	int viewer;		/* the CPU node the test runs on */
	int start;		/* slowest tracked node: where regions start */
	int target;		/* fastest node faster than it, from there */
	char thp[64];		/* THP mode before the test */
};

FIXTURE_SETUP(daemon)
{
	if (topo_load(&self->topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s", strerror(errno));
	self->thp[0] = 0;
	TOPO_NEED(&self->topo, !access(DAEMON_DIR "/enabled", W_OK), DAEMON_DIR);
	/* under KASAN the timed tests are slow: one topology is enough there */
	if (self->topo.debug_kernel && strcmp(self->topo.name, "special"))
		SKIP(return, "debug kernel: the daemon's tests run on special only");
	/*
	 * The daemon ranks nodes as the CPUs the task runs on see them: run
	 * on the first CPU node's, and expect what they see.
	 */
	for (self->viewer = 0; self->viewer < self->topo.nr_nodes; self->viewer++)
		if (self->topo.node[self->viewer].cpus[0])
			break;
	ASSERT_LT(self->viewer, self->topo.nr_nodes);
	ASSERT_EQ(0, pin_to_node(&self->topo, self->viewer));
	self->start = slowest(&self->topo, self->viewer);
	self->target = self->start < 0 ? -1 :
		       fastest(&self->topo, self->viewer, self->start, ~0ULL);
	if (self->target < 0)
		SKIP(return, "topology %s has no tracked node faster than another",
		     self->topo.name);
	/* hot and cold 4 KiB pages must not share a huge page */
	sysfs_read_str(self->thp, sizeof(self->thp), THP_ENABLED);
	ASSERT_EQ(0, sysfs_write_str("never", THP_ENABLED));
	ASSERT_EQ(0, knob("scan_interval_ms", INTERVAL_MS));
	TH_LOG("CPUs of node %d: start node %d, fastest node %d", self->viewer,
	       self->start, self->target);
}

FIXTURE_TEARDOWN(daemon)
{
	char *mode = strchr(self->thp, '['), *end;

	_metadata->trigger = 0;
	knob("enabled", "0");
	knob("scan_interval_ms", "500");
	knob("demote_watermark", "2");
	end = mode ? strchr(mode, ']') : NULL;
	if (end) {
		*end = 0;
		sysfs_write_str(mode + 1, THP_ENABLED);
	}
}

/*
 * Wait up to SETTLE_S until 90% of the hot pages are on @target; the seconds
 * it took, or -1.
 */
static double settle(const struct topo *t, char *p, size_t bytes, int start,
		     int target, int offset, struct placement *pl)
{
	double t0 = now_s();

	while (now_s() - t0 < SETTLE_S) {
		if (place(t, p, bytes, start, target, offset, pl))
			return -1;
		if (pl->hot_on * 10 >= pl->hot * 9)
			return now_s() - t0;
		usleep(250000);
	}
	return -1;
}

/*
 * Touch the hot pages of @p (offset 0) in a thread, enable the daemon and
 * wait for them on the target: the seconds it took, -1 if they did not
 * arrive, -2 if the thread or the daemon did not start (no thread then).
 */
static double heat_until_settled(FIXTURE_DATA(daemon) *self, struct hot_loop *h,
				 char *p, size_t bytes, struct placement *pl)
{
	if (hot_loop_start(h, p, -1, bytes))
		return -2;
	if (knob("enabled", "1")) {
		hot_loop_stop(h);
		return -2;
	}
	return settle(&self->topo, p, bytes, self->start, self->target, 0, pl);
}

TEST_F_TIMEOUT(daemon, hot_set_promoted, 120)
{
	long long before = vmstat("memattr_promote_success");
	struct placement pl;
	struct hot_loop h;
	double took;
	char *p = region_on(self->start, REGION, false);

	ASSERT_NE(NULL, p);
	took = heat_until_settled(self, &h, p, REGION, &pl);
	ASSERT_NE(-2, took);
	/* let it run on: cold pages must stay, hot ones must not come back */
	sleep(2);
	hot_loop_stop(&h);
	ASSERT_EQ(0, place(&self->topo, p, REGION, self->start, self->target, 0, &pl));
	TH_LOG("%.1f s to 90%%; hot %ld/%ld on node %d, cold moved %ld/%ld, promoted %lld pages",
	       took, pl.hot_on, pl.hot, self->target, pl.cold_moved, pl.cold,
	       vmstat("memattr_promote_success") - before);
	EXPECT_LE(0, took);
	EXPECT_GE(pl.hot_on * 10, pl.hot * 9);
	EXPECT_LT(pl.cold_moved * 20, pl.cold);		/* < 5% */
	EXPECT_EQ(0, pl.on_special);
	EXPECT_GE(vmstat("memattr_promote_success") - before, pl.hot_on);
	EXPECT_EQ(0, corrupt_words(p, REGION));
	munmap(p, REGION);
}

#define CONFIRM_INTERVAL_MS	8000

/*
 * A pass that sees pages of a slower node accessed is confirmed a quarter
 * interval later. With a long interval, the hot set is promoted by that
 * confirming pass, well before a second regular pass could come and not
 * before the confirming one could; the region's pages, all written before
 * the first pass and so all seen accessed by it, stay unless hot.
 */
TEST_F_TIMEOUT(daemon, heating_confirmed_early, 120)
{
	long long passes_before = passes();
	char interval[16];
	struct placement pl;
	struct hot_loop h;
	double took;
	char *p = region_on(self->start, REGION, false);

	ASSERT_NE(NULL, p);
	snprintf(interval, sizeof(interval), "%d", CONFIRM_INTERVAL_MS);
	ASSERT_EQ(0, knob("scan_interval_ms", interval));
	took = heat_until_settled(self, &h, p, REGION, &pl);
	ASSERT_NE(-2, took);
	hot_loop_stop(&h);
	ASSERT_EQ(0, place(&self->topo, p, REGION, self->start, self->target, 0, &pl));
	TH_LOG("%.1f s to 90%% at a %d ms interval, %lld passes; hot %ld/%ld on node %d, cold moved %ld/%ld",
	       took, CONFIRM_INTERVAL_MS, passes() - passes_before, pl.hot_on,
	       pl.hot, self->target, pl.cold_moved, pl.cold);
	EXPECT_LE(0, took);
	/* the confirming pass starts a quarter interval after the first */
	EXPECT_GE(took * 1000, CONFIRM_INTERVAL_MS / 4 - 250);
	/* a second regular pass would start a whole interval after it */
	EXPECT_LT(took * 1000, CONFIRM_INTERVAL_MS * 3 / 4);
	EXPECT_LT(pl.cold_moved * 20, pl.cold);		/* < 5% */
	EXPECT_EQ(0, corrupt_words(p, REGION));
	munmap(p, REGION);
}

/*
 * A hot set small enough to stay in the TLB: 7 pages among 64, touched in a
 * loop. A CPU sets the accessed bit only when it walks the page table, so
 * unless the daemon flushes the TLB after clearing the bits, these pages
 * look idle from the second pass on and are never found hot (TCG keeps
 * translations as long as nothing flushes them; so does hardware for a set
 * this small).
 */
TEST_F_TIMEOUT(daemon, tlb_resident_hot_set_promoted, 120)
{
	size_t bytes = 64 * getpagesize();
	struct placement pl;
	struct hot_loop h;
	double took;
	char *p = region_on(self->start, bytes, false);

	ASSERT_NE(NULL, p);
	took = heat_until_settled(self, &h, p, bytes, &pl);
	ASSERT_NE(-2, took);
	hot_loop_stop(&h);
	TH_LOG("%.1f s to 90%%; hot %ld/%ld on node %d, cold moved %ld/%ld",
	       took, pl.hot_on, pl.hot, self->target, pl.cold_moved, pl.cold);
	EXPECT_LE(0, took);
	EXPECT_EQ(0, corrupt_words(p, bytes));
	munmap(p, bytes);
}

/* Sleep @seconds reading the clock every 50 ms, as programs that keep time. */
static void keep_time(double seconds)
{
	double t0 = now_s();

	while (now_s() - t0 < seconds)
		usleep(50000);
}

#define TRACE_DIR	"/sys/kernel/tracing"
#define PASS_EVENT	TRACE_DIR "/events/memattr/memattr_scan_pass/enable"

/* The next_wait_ms of the newest pass in the trace, or -1 if none is there. */
static long newest_pass_wait(void)
{
	FILE *f = fopen(TRACE_DIR "/trace", "r");
	char line[512], *ev;
	long wait = -1, w;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		ev = strstr(line, "next_wait_ms=");
		if (strstr(line, "memattr_scan_pass: ") && ev &&
		    sscanf(ev, "next_wait_ms=%ld", &w) == 1)
			wait = w;
	}
	fclose(f);
	return wait;
}

/*
 * Wait up to @timeout_s for a pass to end that puts @wait_ms before the
 * next (memattr_scan_pass's next_wait_ms): a test that starts something
 * just after it knows how long the passes alone would take to see it. 0
 * once one did, else -1.
 */
static int wait_pass_ending_with(long wait_ms, double timeout_s)
{
	double t0 = now_s();
	int fd, ret = -1;

	if (access(TRACE_DIR "/events", F_OK))
		mount("tracefs", TRACE_DIR, "tracefs", 0, NULL);
	if (sysfs_write_str("1", PASS_EVENT) || sysfs_write_str("1", TRACE_DIR "/tracing_on"))
		return -1;
	while (ret && now_s() - t0 < timeout_s) {
		fd = open(TRACE_DIR "/trace", O_WRONLY | O_TRUNC);	/* empties it */
		if (fd < 0)
			break;
		close(fd);
		while (newest_pass_wait() < 0 && now_s() - t0 < timeout_s)
			usleep(5000);
		if (newest_pass_wait() == wait_ms)
			ret = 0;
	}
	sysfs_write_str("0", PASS_EVENT);
	return ret;
}

/*
 * Once the hot set is in place and nothing heats up on a slower node, the
 * passes slow down (up to 16 intervals apart), and speed up again when a
 * new hot set appears. memattr_scanned counts the entries walked. The
 * interval is the default 500 ms here (the fixture's 100 ms would not do:
 * under TCG a pass of a node's PFNs takes a few hundred ms of CPU, which
 * must not hide the waits between passes).
 */
TEST_F_TIMEOUT(daemon, quiet_passes_back_off, 120)
{
	long long busy, quiet, start, quiet_passes, probed;
	struct placement pl;
	struct hot_loop h;
	double took;
	char *p = region_on(self->start, REGION, false);

	ASSERT_NE(NULL, p);
	ASSERT_LE(0, passes());
	ASSERT_EQ(0, knob("scan_interval_ms", "500"));
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	start = vmstat("memattr_scanned");
	ASSERT_EQ(0, knob("enabled", "1"));
	/* the first 2 s: every page of the region was just written, then touched */
	sleep(2);
	busy = vmstat("memattr_scanned") - start;
	took = settle(&self->topo, p, REGION, self->start, self->target, 0, &pl);
	ASSERT_LE(0, took);
	/*
	 * 0.5 + 1 + 2 + 4 s of quiet passes reach the longest wait, 8 s; the
	 * test reads the clock as programs do, so the vDSO's text is accessed
	 * (and this loop's own pages are promoted before the count starts).
	 */
	keep_time(10);
	start = vmstat("memattr_scanned");
	probed = vmstat("memattr_probed");
	quiet_passes = passes();
	keep_time(16);
	quiet = vmstat("memattr_scanned") - start;
	probed = vmstat("memattr_probed") - probed;
	quiet_passes = passes() - quiet_passes;
	/*
	 * A new hot set on the slow node is still found: the backed-off
	 * thread's probes of accessed bits see it within an interval or two
	 * (0.5-0.8 s here; 7.2-7.4 s, the next pass 8 s away, before the
	 * probe). It once took over 40 s: its translations stayed in the
	 * TLB, so its accessed bits were never set again, until the daemon
	 * flushed after clearing them (tlb_resident_hot_set_promoted).
	 */
	h.offset = HOT_EVERY / 2;
	took = settle(&self->topo, p, REGION, self->start, self->target,
		      HOT_EVERY / 2, &pl);
	hot_loop_stop(&h);
	TH_LOG("entries/s: %lld in the first 2 s, %lld when quiet (%lld passes in 16 s); new hot set %.1f s",
	       busy / 2, quiet / 16, quiet_passes, took);
	TH_LOG("new hot set: %ld/%ld on node %d; probed %lld entries/s when quiet",
	       pl.hot_on, pl.hot, self->target, probed / 16);
	EXPECT_GT(busy, 0);
	/*
	 * Backed off, it probed: a quarter of the last pass's walk a look,
	 * 16384 entries (a sixteenth of the 262144 of scan_budget) if that
	 * is less, 65536 (a quarter) if more.
	 */
	EXPECT_GT(probed, 0);
	EXPECT_LE(probed, 16 * 2 * 4 * (262144 / 4));
	/*
	 * Passes 8 s apart instead of 0.5 s, plus the pass itself: under
	 * half the rate while a pass takes less than 7 s of TCG time.
	 */
	EXPECT_LT(quiet / 16 * 2, busy / 2);
	/*
	 * And in passes: 2 or 3 in 16 s at the longest wait, and after a
	 * pass that finds a page of some task heating up (once in 16 s here;
	 * the probe may end a wait for it) its confirming pass and the 4 of a
	 * new ramp (0.5 + 1 + 2 + 4 s): 6 or 7 were seen, not 32. Pages
	 * that can never move do not keep it busy: where a memory-only node
	 * is faster than the CPUs' own (default), every process maps the
	 * vDSO, kernel text on a slower node, hot and never on an LRU list;
	 * it held every pass on time (15 passes in 8 s before that was fixed).
	 */
	EXPECT_LE(quiet_passes, 8);
	EXPECT_LE(0, took);
	munmap(p, REGION);
}

/*
 * A backed-off daemon still reads the tracked nodes' mapped page counts
 * four times an interval: a workload that starts after a quiet spell,
 * right after a pass at the longest wait (8 s at 500 ms), is walked a
 * quarter interval later, not 8 s later.
 */
TEST_F_TIMEOUT(daemon, new_memory_ends_back_off, 120)
{
	struct placement pl;
	struct hot_loop h;
	double took;
	char *p;

	ASSERT_EQ(0, knob("scan_interval_ms", "500"));
	ASSERT_EQ(0, knob("enabled", "1"));
	/* 0.5 + 1 + 2 + 4 s of quiet passes reach the longest wait */
	ASSERT_EQ(0, wait_pass_ending_with(8000, 60));
	/* 16 MiB taken on the slow node, the next pass 8 s away */
	p = region_on(self->start, REGION, false);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	took = settle(&self->topo, p, REGION, self->start, self->target, 0, &pl);
	hot_loop_stop(&h);
	TH_LOG("%.1f s to 90%% after the pass at the longest wait; hot %ld/%ld on node %d",
	       took, pl.hot_on, pl.hot, self->target);
	EXPECT_LE(0, took);
	/* a pass a quarter interval later, its confirming pass, the migration */
	EXPECT_LT(took, 4);
	EXPECT_LT(pl.cold_moved * 20, pl.cold);		/* < 5% */
	munmap(p, REGION);
}

/*
 * The same for a hot set that appears in memory mapped long before, which
 * no page count shows: the backed-off thread probes accessed bits four
 * times an interval, and the region's pages are few enough for the probes
 * of one interval to reach.
 */
TEST_F_TIMEOUT(daemon, hot_set_in_mapped_memory_ends_back_off, 120)
{
	char *p = region_on(self->start, REGION, false);
	struct placement pl;
	struct hot_loop h;
	double took;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, knob("scan_interval_ms", "500"));
	ASSERT_EQ(0, knob("enabled", "1"));
	/* the region written once, then quiet passes up to the longest wait */
	ASSERT_EQ(0, wait_pass_ending_with(8000, 60));
	/* the pass just ended; the next one is 8 s away */
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	took = settle(&self->topo, p, REGION, self->start, self->target, 0, &pl);
	hot_loop_stop(&h);
	TH_LOG("%.1f s to 90%% after the pass at the longest wait; hot %ld/%ld on node %d",
	       took, pl.hot_on, pl.hot, self->target);
	EXPECT_LE(0, took);
	/* a probe a quarter interval later, a pass, its confirming one, the move */
	EXPECT_LT(took, 4);
	EXPECT_LT(pl.cold_moved * 20, pl.cold);		/* < 5% */
	munmap(p, REGION);
}

#define LATE_MAPPERS	3

/*
 * Processes that map a shared region one after another, passes apart, and
 * each touch only its hot pages. Their first faults also map the cold
 * neighbours of those pages (fault-around); that is no access, and with
 * the task that filled the region it would make two "accessed" passes for
 * nearly every cold page.
 */
TEST_F_TIMEOUT(daemon, late_mappers_leave_neighbours_cold, 120)
{
	pid_t child[LATE_MAPPERS];
	struct placement pl;
	double took;
	int i;
	char *p = region_mixed_on(self->start, REGION, false, 0);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, knob("enabled", "1"));
	for (i = 0; i < LATE_MAPPERS; i++) {
		/* a few passes apart: 100 ms each with this region */
		usleep(400000);
		child[i] = fork();
		ASSERT_LE(0, child[i]);
		if (!child[i]) {
			struct hot_loop h = { .p = p, .fd = -1, .bytes = REGION };

			hot_loop_fn(&h);
			_exit(0);
		}
	}
	took = settle(&self->topo, p, REGION, self->start, self->target, 0, &pl);
	sleep(QUIET_S);
	ASSERT_EQ(0, place(&self->topo, p, REGION, self->start, self->target, 0, &pl));
	for (i = 0; i < LATE_MAPPERS; i++) {
		kill(child[i], SIGKILL);
		waitpid(child[i], NULL, 0);
	}
	TH_LOG("%.1f s to 90%%; hot %ld/%ld on node %d, cold moved %ld/%ld",
	       took, pl.hot_on, pl.hot, self->target, pl.cold_moved, pl.cold);
	EXPECT_LE(0, took);
	EXPECT_LT(pl.cold_moved * 20, pl.cold);		/* < 5% */
	EXPECT_EQ(0, corrupt_words(p, REGION));
	munmap(p, REGION);
}

/*
 * Off means off: no pass runs and nothing moves for as long as the hot set
 * takes to move with the daemon on (hot_set_promoted: under a second here),
 * three times over.
 */
TEST_F_TIMEOUT(daemon, off_moves_nothing, 60)
{
	long long before = vmstat("memattr_promote_success"), done = passes();
	struct placement pl;
	struct hot_loop h;
	char *p = region_on(self->start, REGION, false);

	ASSERT_NE(NULL, p);
	ASSERT_LE(0, done);
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	sleep(3);
	hot_loop_stop(&h);
	EXPECT_EQ(done, passes());
	ASSERT_EQ(0, place(&self->topo, p, REGION, self->start, self->target, 0, &pl));
	EXPECT_EQ(0, pl.hot_on);
	EXPECT_EQ(0, pl.cold_moved);
	EXPECT_EQ(before, vmstat("memattr_promote_success"));
	munmap(p, REGION);
}

TEST_F_TIMEOUT(daemon, bind_obeyed, 60)
{
	long long before = vmstat("memattr_promote_success");
	struct placement pl;
	struct hot_loop h;
	char *p = region_on(self->start, REGION, true);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	ASSERT_EQ(0, knob("enabled", "1"));
	/* long enough to find the hot set (2 passes) and move it, twice over */
	EXPECT_TRUE(wait_passes(POLICY_PASSES, SETTLE_S));
	hot_loop_stop(&h);
	ASSERT_EQ(0, place(&self->topo, p, REGION, self->start, self->target, 0, &pl));
	TH_LOG("bound to node %d: %ld hot and %ld cold pages left it, %lld promoted in all",
	       self->start, pl.hot_on, pl.cold_moved,
	       vmstat("memattr_promote_success") - before);
	EXPECT_EQ(0, pl.hot_on);
	EXPECT_EQ(0, pl.cold_moved);
	munmap(p, REGION);
}

/* Join a cgroup v2 cpuset whose mems leave out @excluded. */
static int join_cpuset_without(const struct topo *t, int excluded)
{
	char mems[256] = "", pid[32];
	int n;

	mkdir(CG_ROOT, 0755);
	if (access(CG_ROOT "/cgroup.controllers", R_OK) &&
	    mount("none", CG_ROOT, "cgroup2", 0, NULL))
		return -1;
	if (sysfs_write_str("+cpuset", CG_ROOT "/cgroup.subtree_control"))
		return -1;
	if (mkdir(CG_DIR, 0755) && errno != EEXIST)
		return -1;
	for (n = 0; n < t->nr_nodes; n++)
		if (n != excluded && t->node[n].mem_bytes &&
		    !(t->online_empty & (1ULL << n)))
			snprintf(mems + strlen(mems), sizeof(mems) - strlen(mems),
				 "%s%d", mems[0] ? "," : "", n);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (sysfs_write_str(mems, CG_DIR "/cpuset.mems") ||
	    sysfs_write_str(pid, CG_DIR "/cgroup.procs"))
		return -1;
	return 0;
}

TEST_F_TIMEOUT(daemon, cpuset_obeyed, 120)
{
	int next = fastest(&self->topo, self->viewer, self->start,
			   ~0ULL & ~(1ULL << self->target));
	struct placement pl;
	struct hot_loop h;
	double took;
	char *p;

	if (next < 0)
		SKIP(return, "topology %s has one node faster than node %d",
		     self->topo.name, self->start);
	ASSERT_EQ(0, join_cpuset_without(&self->topo, self->target));
	p = region_on(self->start, REGION, false);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	ASSERT_EQ(0, knob("enabled", "1"));
	took = settle(&self->topo, p, REGION, self->start, next, 0, &pl);
	hot_loop_stop(&h);
	ASSERT_EQ(0, place(&self->topo, p, REGION, self->start, self->target, 0, &pl));
	TH_LOG("cpuset without node %d: %.1f s to 90%% on node %d; %ld hot on node %d",
	       self->target, took, next, pl.hot_on, self->target);
	EXPECT_LE(0, took);
	EXPECT_EQ(0, pl.hot_on);
	munmap(p, REGION);
	sysfs_write_str("1", CG_ROOT "/cgroup.procs");	/* back to the root */
	rmdir(CG_DIR);
}

TEST_F_TIMEOUT(daemon, special_stays, 60)
{
	unsigned long mask;
	struct hot_loop h;
	long i, moved = 0, n = REGION / getpagesize();
	int s, *status;
	char *p;

	for (s = 0; s < self->topo.nr_nodes; s++)
		if (self->topo.node[s].memattr[TOPO_MA_SPECIAL] == 1 &&
		    self->topo.node[s].mem_bytes >= 3 * REGION && latency(&self->topo, s))
			break;
	if (s == self->topo.nr_nodes)
		SKIP(return, "topology %s makes no node with memory special at boot",
		     self->topo.name);
	/* preferred, then default: nothing but the daemon would keep it there */
	mask = 1UL << s;
	p = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, mbind(p, REGION, MPOL_PREFERRED, &mask, sizeof(mask) * 8, 0));
	memset(p, 1, REGION);
	ASSERT_EQ(0, mbind(p, REGION, MPOL_DEFAULT, NULL, 0, 0));
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	ASSERT_EQ(0, knob("enabled", "1"));
	EXPECT_TRUE(wait_passes(POLICY_PASSES, SETTLE_S));
	hot_loop_stop(&h);
	status = where(p, REGION);
	ASSERT_NE(NULL, status);
	for (i = 0; i < n; i++)
		moved += status[i] != s;
	TH_LOG("special node %d: %ld of %ld pages left it", s, moved, n);
	EXPECT_EQ(0, moved);
	free(status);
	munmap(p, REGION);
}

/*
 * Page cache no process maps follows its file's policy: a tmpfs mounted
 * with mpol=bind:<slow node> keeps its hot pages there (read with pread(2)
 * while the daemon makes its passes); the same file on a tmpfs without
 * mpol= is page_cache_promoted.
 */
TEST_F_TIMEOUT(daemon, page_cache_follows_tmpfs_mpol, 120)
{
	int start = slowest(&self->topo, -1);
	int target = start < 0 ? -1 : fastest(&self->topo, -1, start, ~0ULL);
	long long before = vmstat("memattr_promote_success");
	char opts[64], *buf, *map;
	struct placement pl;
	struct hot_loop h;
	int fd;

	if (target < 0)
		SKIP(return, "topology %s: no node is faster than another by the records",
		     self->topo.name);
	mkdir(TMPFS_DIR, 0755);
	snprintf(opts, sizeof(opts), "size=64m,mpol=bind:%d", start);
	ASSERT_EQ(0, mount("tmpfs", TMPFS_DIR, "tmpfs", 0, opts));
	fd = open(TMPFS_DIR "/file", O_RDWR | O_CREAT, 0600);
	ASSERT_LE(0, fd);
	buf = malloc(MIB);
	ASSERT_NE(NULL, buf);
	memset(buf, 0x5a, MIB);
	for (int i = 0; i < REGION / MIB; i++)
		ASSERT_EQ(MIB, pwrite(fd, buf, MIB, i * MIB));
	free(buf);
	ASSERT_EQ(0, hot_loop_start(&h, NULL, fd, REGION));
	ASSERT_EQ(0, knob("enabled", "1"));
	EXPECT_TRUE(wait_passes(POLICY_PASSES, SETTLE_S));
	hot_loop_stop(&h);
	ASSERT_EQ(0, knob("enabled", "0"));
	map = mmap(NULL, REGION, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, place(&self->topo, map, REGION, start, target, 0, &pl));
	munmap(map, REGION);
	close(fd);
	umount(TMPFS_DIR);
	TH_LOG("tmpfs %s: %ld of %ld hot pages on node %d, %ld cold moved, %lld promoted in all",
	       opts, pl.hot_on, pl.hot, target, pl.cold_moved,
	       vmstat("memattr_promote_success") - before);
	EXPECT_EQ(0, pl.hot_on);
	EXPECT_EQ(0, pl.cold_moved);
}

/*
 * A tmpfs file of REGION bytes written on @start, its hot set read with
 * pread(2) in a loop while kmemattrd runs, until 90% of the hot set was
 * promoted (by the counter) or SETTLE_S passed; then where its pages are
 * (@pl, toward @target, by topology @t) and whether the data survived
 * (*@intact). With
 * @mapped, a mapping of the whole file stays in place meanwhile, each page
 * faulted in once by a load and never touched through it again: a process
 * that maps a file that others read. Returns the seconds to 90%, -1 if
 * never, -2 on a setup error.
 */
static double page_cache_heated(const struct topo *t, int start, int target,
				bool mapped, struct placement *pl, bool *intact,
				long long *promoted)
{
	unsigned long mask = 1UL << start;
	long long before = vmstat("memattr_promote_success");
	char *buf = NULL, *chunk = NULL, *map = NULL;
	volatile char sink = 0;
	struct hot_loop h;
	double t0, took = -2;
	int fd = -1;

	mkdir(TMPFS_DIR, 0755);
	if (mount("tmpfs", TMPFS_DIR, "tmpfs", 0, "size=128m"))
		return -2;
	fd = open(TMPFS_DIR "/file", O_RDWR | O_CREAT, 0600);
	buf = malloc(MIB);
	chunk = malloc(MIB);
	if (fd < 0 || !buf || !chunk)
		goto out;
	memset(buf, 0x5a, MIB);
	/* the file's pages on the slow node, then the policy dropped */
	if (set_mempolicy(MPOL_BIND, &mask, sizeof(mask) * 8))
		goto out;
	for (int i = 0; i < REGION / MIB; i++)
		if (pwrite(fd, buf, MIB, i * MIB) != MIB)
			goto out;
	if (set_mempolicy(MPOL_DEFAULT, NULL, 0))
		goto out;
	if (mapped) {
		map = mmap(NULL, REGION, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			map = NULL;
			goto out;
		}
		/* a load maps a page; MAP_POPULATE would also mark it accessed */
		for (size_t off = 0; off < REGION; off += getpagesize())
			sink += map[off];
	}
	if (hot_loop_start(&h, NULL, fd, REGION))
		goto out;
	if (knob("enabled", "1")) {
		hot_loop_stop(&h);
		goto out;
	}
	/*
	 * Wait on the promotion counter: mapping the file to ask where its
	 * pages are would make every page look accessed in the passes that
	 * see the mapping. One query at the end.
	 */
	took = -1;
	t0 = now_s();
	while (now_s() - t0 < SETTLE_S) {
		if ((vmstat("memattr_promote_success") - before) * 10 >=
		    REGION / getpagesize() / HOT_EVERY * 9) {
			took = now_s() - t0;
			break;
		}
		usleep(250000);
	}
	sleep(1);	/* cold pages get their chance to move wrongly */
	hot_loop_stop(&h);
	knob("enabled", "0");
	*promoted = vmstat("memattr_promote_success") - before;
	if (!map)
		map = mmap(NULL, REGION, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (map == MAP_FAILED || place(t, map, REGION, start, target, 0, pl))
		took = -2;
	*intact = true;
	for (int i = 0; i < REGION / MIB; i++)
		if (pread(fd, chunk, MIB, i * MIB) != MIB || memcmp(chunk, buf, MIB))
			*intact = false;
out:
	if (map && map != MAP_FAILED)
		munmap(map, REGION);
	if (fd >= 0)
		close(fd);
	free(buf);
	free(chunk);
	umount(TMPFS_DIR);
	return took;
}

/*
 * The page-cache tests' checks: the hot set of a file on @start reaches
 * @target, no more than 5% of the cold pages move, and the data survives.
 */
static void check_page_cache_promoted(struct __test_metadata *_metadata,
				      const struct topo *t, int start, int target,
				      bool mapped)
{
	long long promoted = 0;
	struct placement pl;
	bool intact = false;
	double took;

	if (target < 0)
		SKIP(return, "topology %s: no node is faster than node %d for its users",
		     t->name, start);
	took = page_cache_heated(t, start, target, mapped, &pl, &intact, &promoted);
	ASSERT_NE(-2, took);
	TH_LOG("%s page cache: %.1f s to 90%%; hot %ld/%ld on node %d, cold moved %ld/%ld, %lld promoted",
	       mapped ? "mapped" : "unmapped", took, pl.hot_on, pl.hot, target,
	       pl.cold_moved, pl.cold, promoted);
	EXPECT_LE(0, took);
	EXPECT_GE(pl.hot_on * 10, pl.hot * 9);
	EXPECT_LT(pl.cold_moved * 20, pl.cold);
	EXPECT_TRUE(intact);
}

/*
 * Page cache no process maps is used by no CPU in particular: it is ranked
 * by the nodes' own records (what their best initiator sees), so its start
 * and target nodes are the slowest and fastest by the records.
 */
TEST_F_TIMEOUT(daemon, page_cache_promoted, 120)
{
	int start = slowest(&self->topo, -1);
	int target = start < 0 ? -1 : fastest(&self->topo, -1, start, ~0ULL);

	check_page_cache_promoted(_metadata, &self->topo, start, target, false);
}

/*
 * Page cache that a process maps but reads only with pread(2) (or that
 * another process reads): the accesses are in the LRU state that
 * read(2) leaves (folio_mark_accessed()), not in any page table entry,
 * and the pages are still promoted; the cold ones, mapped young once,
 * stay. Mapped by the test, the file is ranked as the CPUs it runs on see
 * the nodes, as the fixture's anonymous regions are.
 */
TEST_F_TIMEOUT(daemon, mapped_page_cache_read_is_seen, 120)
{
	check_page_cache_promoted(_metadata, &self->topo, self->start, self->target,
				  true);
}

/*
 * Free KiB of @nid above its zones' high watermarks, from /proc/zoneinfo;
 * ZONE_DMA left out, as lowmem_reserve keeps user pages out of it.
 */
static long long room_kb(int nid)
{
	long long room = 0, v;
	char line[256], zone[32];
	bool counted = false;
	int node = -1;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &node, zone) == 2) {
			counted = node == nid && strcmp(zone, "DMA");
			continue;
		}
		if (!counted)
			continue;
		if (sscanf(line, " pages free %lld", &v) == 1)
			room += v * (getpagesize() / 1024);
		else if (sscanf(line, " high %lld", &v) == 1)
			room -= v * (getpagesize() / 1024);
	}
	fclose(f);
	return room;
}

/*
 * A child holding @bytes, on @nid as far as it has them, until killed;
 * mlocked so that the daemon leaves them there without the child having
 * to keep them hot. Its pid once it has them. Preferred, not bound: a
 * node that has less than the test measured (the daemon promotes into it
 * meanwhile) gives the rest from another node, where a bound filler would
 * have the OOM killer free the biggest filler, and with it the room the
 * test is taking away.
 */
static pid_t hot_filler(int nid, size_t bytes)
{
	unsigned long mask = 1UL << nid;
	int ready[2];
	pid_t pid;
	char c = 0;
	char *p;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid) {
		close(ready[1]);
		if (pid < 0 || read(ready[0], &c, 1) != 1)
			pid = -1;
		close(ready[0]);
		return pid;
	}
	/* a test that ends early on an ASSERT leaves no memory locked */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		_exit(1);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED ||
	    mbind(p, bytes, MPOL_PREFERRED, &mask, sizeof(mask) * 8, 0) ||
	    mlock(p, bytes))
		_exit(1);
	if (write(ready[1], &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void stop_filler(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static void stop_fillers(const pid_t *pids, int n)
{
	while (n--)
		stop_filler(pids[n]);
}

/*
 * Children that fork, dirty a private page of the region (COW), map a hot
 * page of the shared half (a second mm maps that folio while it migrates)
 * and exit. Only one each: fault-around maps the neighbours young, and
 * unmapping a young PTE of a file folio counts as an access to it.
 */
static void churn(char *p, size_t shared_from, int offset)
{
	long ps = getpagesize();

	for (int i = 0; i < 8; i++) {
		pid_t pid = fork();

		if (!pid) {
			p[i * ps] ^= 1;
			(void)*(volatile char *)(p + shared_from + (i * HOT_EVERY + offset) * ps);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
}

/* Pages of neither hot set (offsets 0 and HOT_EVERY / 2) not on @start. */
static long idle_moved(char *p, size_t bytes, int start)
{
	long i, n = bytes / getpagesize(), moved = 0;
	int *status = where(p, bytes);

	for (i = 0; status && i < n; i++)
		if (i % HOT_EVERY && i % HOT_EVERY != HOT_EVERY / 2)
			moved += status[i] != start;
	free(status);
	return moved;
}

/* Pages reclaim has freed or demoted so far, by kswapd or direct reclaim */
static long long reclaimed(void)
{
	return vmstat("pgsteal_kswapd") + vmstat("pgsteal_direct") +
	       vmstat("pgdemote_kswapd") + vmstat("pgdemote_direct");
}

#define SHIFT_REGION	(8 * REGION)
#define SHIFT_SLACK	(8 * MIB)
#define SHIFT_TOPUPS	3

/*
 * The hot set moves while the fast node is full: demotion alone makes room.
 * Half the region is private (COW-shared with forking children), half
 * shmem mapped by them too; every byte must survive both moves.
 */
TEST_F_TIMEOUT(daemon, shift_demotes_and_keeps_data, 180)
{
	/* hot sets well above the slack the fast node keeps */
	size_t hot_bytes = SHIFT_REGION / HOT_EVERY;
	struct placement a, b;
	long long room, demoted = vmstat("memattr_demote_success");
	long long promoted = vmstat("memattr_promote_success");
	long long failed = vmstat("memattr_promote_fail");
	long long oom_kills = vmstat("oom_kill");
	long long reclaim;
	struct hot_loop h;
	double took_a, took_b;
	pid_t filler = 0, topup[SHIFT_TOPUPS] = { 0 };
	long long room_a;
	long idle;
	int i;
	char *p;

	/* demotion goes to a lower memory tier only */
	if (tier_of(self->target) < 0 || tier_of(self->target) >= tier_of(self->start))
		SKIP(return, "node %d is not in a lower memory tier than node %d: no demotion path",
		     self->start, self->target);
	/* the fast node left with room for one hot set by a locked filler */
	ASSERT_EQ(0, knob("demote_watermark", "0"));
	/*
	 * What else is hot (the text of the programs running, in page cache)
	 * goes to the fast node first, so that the room measured is the room
	 * set A will find.
	 */
	ASSERT_EQ(0, knob("enabled", "1"));
	ASSERT_TRUE(wait_passes(4, 30));
	room = room_kb(self->target);
	ASSERT_LT(0, room);
	/*
	 * Room for set A and some slack, not for 90% of set B as well: a node
	 * without room for a hot folio sends it to the next fastest one, until
	 * demotion makes room.
	 */
	if (self->topo.node[self->start].mem_bytes < 2 * SHIFT_REGION)
		SKIP(return, "node %d has less than %llu MiB", self->start,
		     2 * SHIFT_REGION / MIB);
	if (room * 1024 > (long long)(hot_bytes + SHIFT_SLACK)) {
		filler = hot_filler(self->target, room * 1024 - hot_bytes - SHIFT_SLACK);
		ASSERT_LT(0, filler);
	}
	/* private anonymous memory, then shmem (MAP_SHARED) */
	p = region_mixed_on(self->start, SHIFT_REGION, false, SHIFT_REGION / 2);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, idle_moved(p, SHIFT_REGION, self->start));
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, SHIFT_REGION));
	ASSERT_EQ(0, knob("enabled", "1"));
	took_a = settle(&self->topo, p, SHIFT_REGION, self->start, self->target, 0, &a);
	/*
	 * Room left once set A is in would let set B in without displacing
	 * it: fillers take what is there beyond a quarter of the slack, in a
	 * few rounds (pages come and go: per-CPU free lists are drained late,
	 * the last of set A is still being promoted).
	 */
	room = room_kb(self->target);
	room_a = room;
	for (i = 0; i < SHIFT_TOPUPS && room * 1024 > (long long)SHIFT_SLACK / 4; i++) {
		topup[i] = hot_filler(self->target, room * 1024 - SHIFT_SLACK / 4);
		ASSERT_LT(0, topup[i]);
		room = room_kb(self->target);
	}
	TH_LOG("room on node %d for set B: %lld KiB before, %lld KiB after %d fillers",
	       self->target, room_a, room, i);
	if (room * 1024 > (long long)SHIFT_SLACK / 2) {
		hot_loop_stop(&h);
		stop_fillers(topup, SHIFT_TOPUPS);
		stop_filler(filler);
		munmap(p, SHIFT_REGION);
		SKIP(return, "node %d keeps gaining free pages: no way to leave it full",
		     self->target);
	}
	/* the hot set moves: set B must displace set A */
	reclaim = reclaimed();
	h.offset = HOT_EVERY / 2;
	churn(p, SHIFT_REGION / 2, HOT_EVERY / 2);
	took_b = settle(&self->topo, p, SHIFT_REGION, self->start, self->target,
			HOT_EVERY / 2, &b);
	hot_loop_stop(&h);
	ASSERT_EQ(0, place(&self->topo, p, SHIFT_REGION, self->start, self->target, 0, &a));
	TH_LOG("set A %.1f s, set B %.1f s to 90%% on node %d; set A left on it %ld/%ld",
	       took_a, took_b, self->target, a.hot_on, a.hot);
	idle = idle_moved(p, SHIFT_REGION, self->start);
	TH_LOG("pages of neither set off node %d: %ld/%ld", self->start, idle,
	       a.cold - b.hot);
	TH_LOG("demoted %lld, promoted %lld, failed %lld pages; reclaim freed %lld during the shift; %lld OOM kills",
	       vmstat("memattr_demote_success") - demoted,
	       vmstat("memattr_promote_success") - promoted,
	       vmstat("memattr_promote_fail") - failed, reclaimed() - reclaim,
	       vmstat("oom_kill") - oom_kills);
	stop_fillers(topup, SHIFT_TOPUPS);
	stop_filler(filler);
	EXPECT_LE(0, took_a);
	EXPECT_LE(0, took_b);
	/* a killed filler would have given B the room it was to make */
	EXPECT_EQ(oom_kills, vmstat("oom_kill"));
	/*
	 * B found room through demotion alone. What went is the coldest; on
	 * a fast node with CPUs other tasks' idle pages compete with set A.
	 */
	EXPECT_LT(idle * 20, a.cold - b.hot);	/* < 5%, as for a steady hot set */
	EXPECT_EQ(0, corrupt_words(p + 8 * getpagesize(),
				   SHIFT_REGION - 8 * getpagesize()));
	munmap(p, SHIFT_REGION);
	/*
	 * The fillers can take the node below its low watermark, and reclaim
	 * then frees room of its own: B had no need to displace A, so
	 * kmemattrd's demotion was not exercised (a fail without reclaim).
	 */
	reclaim = reclaimed() - reclaim;
	if (vmstat("memattr_demote_success") == demoted && reclaim > 0)
		SKIP(return, "reclaim freed %lld pages during the shift: B found room without demotion",
		     reclaim);
	EXPECT_GT(vmstat("memattr_demote_success") - demoted, 0);
}

TEST_F_TIMEOUT(daemon, knobs_refuse_junk, 60)
{
	static const char *const files[] = {
		"enabled", "scan_interval_ms", "hot_threshold", "scan_budget",
		"rate_limit_MBps", "demote_watermark",
	};
	static const char *const junk[] = {
		"-1", "x", "1x", "99999999999999999999", "0x10", "1 2", " ",
	};
	char before[64], after[64];

	for (unsigned int f = 0; f < ARRAY_SIZE(files); f++) {
		ASSERT_LE(0, sysfs_read_str(before, sizeof(before), DAEMON_DIR "/%s",
					    files[f]));
		for (unsigned int j = 0; j < ARRAY_SIZE(junk); j++) {
			EXPECT_EQ(-EINVAL, knob(files[f], junk[j]))
				TH_LOG("%s <- '%s'", files[f], junk[j]);
			sysfs_read_str(after, sizeof(after), DAEMON_DIR "/%s", files[f]);
			EXPECT_STREQ(before, after);
		}
	}
	/* the ends of each documented range */
	EXPECT_EQ(-EINVAL, knob("hot_threshold", "0"));
	EXPECT_EQ(-EINVAL, knob("hot_threshold", "5"));
	EXPECT_EQ(0, knob("hot_threshold", "4"));
	EXPECT_EQ(0, knob("hot_threshold", "2"));
	EXPECT_EQ(-EINVAL, knob("scan_interval_ms", "9"));
	EXPECT_EQ(-EINVAL, knob("scan_interval_ms", "60001"));
	EXPECT_EQ(-EINVAL, knob("enabled", "2"));
	EXPECT_EQ(-EINVAL, knob("demote_watermark", "51"));
	EXPECT_EQ(-EINVAL, knob("rate_limit_MBps", "0"));
	EXPECT_EQ(-EINVAL, knob("scan_budget", "511"));
	EXPECT_EQ(-EACCES, knob("metadata_bytes", "1"));
}

TEST_F_TIMEOUT(daemon, toggled_under_load_no_leak, 120)
{
	unsigned long long free_before, free_after, bytes;
	struct hot_loop h;
	char *p;

	ASSERT_EQ(0, knob("enabled", "1"));
	sleep(1);
	/* metadata: 4 bits per page of every tracked node, no more */
	ASSERT_EQ(0, sysfs_read_u64(&bytes, DAEMON_DIR "/metadata_bytes"));
	TH_LOG("metadata %llu bytes", bytes);
	EXPECT_LT(0, bytes);
	ASSERT_EQ(0, knob("enabled", "0"));
	ASSERT_EQ(0, sysfs_read_u64(&bytes, DAEMON_DIR "/metadata_bytes"));
	EXPECT_EQ(0, bytes);
	/* all nodes: demotion of other tasks' pages moves memory between them */
	free_before = free_kb();
	for (int round = 0; round < 2; round++) {
		p = region_on(self->start, REGION, false);
		ASSERT_NE(NULL, p);
		ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
		for (int i = 0; i < 6; i++) {
			ASSERT_EQ(0, knob("enabled", i % 2 ? "0" : "1"));
			ASSERT_EQ(0, knob("hot_threshold", i % 3 ? "1" : "2"));
			ASSERT_EQ(0, knob("scan_interval_ms", i % 2 ? "10" : "100"));
			usleep(300000);
		}
		hot_loop_stop(&h);
		EXPECT_EQ(0, corrupt_words(p, REGION));
		munmap(p, REGION);
	}
	ASSERT_EQ(0, knob("enabled", "0"));
	ASSERT_EQ(0, sysfs_read_u64(&bytes, DAEMON_DIR "/metadata_bytes"));
	EXPECT_EQ(0, bytes);
	/* freed pages reach MemFree late under KASAN (quarantine, RCU): wait */
	for (int tries = 0; tries < 20; tries++) {
		free_after = free_kb();
		if (free_before < free_after + 24576)
			break;
		usleep(500000);
	}
	/*
	 * Two 16 MiB regions came and went: the machine's MemFree within
	 * 24 MiB of where it started (per-CPU lists, the kernel log and KASAN's
	 * quarantine drift it by 4-12 MiB here). Exact checks are the ones
	 * that name the daemon's own memory: its metadata (0 above) and a
	 * folio left isolated, however small (the counters below).
	 */
	TH_LOG("MemFree %llu -> %llu KiB", free_before, free_after);
	EXPECT_LT(free_before, free_after + 24576);
	/* no folio left isolated by a stopped thread */
	EXPECT_EQ(0, vmstat("nr_isolated_anon"));
	EXPECT_EQ(0, vmstat("nr_isolated_file"));
}

/* A root task without CAP_SYS_ADMIN opens the knobs but may not write them. */
TEST_F(daemon, knobs_need_cap_sys_admin)
{
	static const char *const files[] = {
		"enabled", "scan_interval_ms", "hot_threshold", "scan_budget",
		"rate_limit_MBps", "demote_watermark",
	};
	unsigned long long val;
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		int refused = 0;

		if (drop_cap_sys_admin())
			_exit(100);
		for (unsigned int f = 0; f < ARRAY_SIZE(files); f++)
			refused += knob(files[f], "1") == -EPERM;
		_exit(refused);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(ARRAY_SIZE(files), WEXITSTATUS(status));
	ASSERT_EQ(0, sysfs_read_u64(&val, DAEMON_DIR "/enabled"));
	EXPECT_EQ(0, val);
}

/* KiB of this process's anonymous memory in huge pages; -1 if unknown. */
static long long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	long long kb = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Anonymous THP memory, every page hot: it must move as huge pages. */
TEST_F_TIMEOUT(daemon, thp_moves_whole, 120)
{
	size_t bytes = 8 * MIB, i;
	long long thp_before, thp_after;
	unsigned long mask = 1UL << self->start;
	struct placement pl;
	struct hot_loop h;
	double took;
	char *raw, *p;

	ASSERT_EQ(0, sysfs_write_str("always", THP_ENABLED));
	raw = mmap(NULL, bytes + 2 * MIB, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, raw);
	p = (char *)(((unsigned long)raw + 2 * MIB - 1) & ~(2 * MIB - 1));
	ASSERT_EQ(0, mbind(p, bytes, MPOL_BIND, &mask, sizeof(mask) * 8, 0));
	for (i = 0; i < bytes; i += 8)
		*(unsigned long *)(p + i) = (unsigned long)(p + i) * 2654435761UL;
	ASSERT_EQ(0, mbind(p, bytes, MPOL_DEFAULT, NULL, 0, 0));
	thp_before = anon_huge_kb();
	if (thp_before < (long long)(bytes >> 10))
		SKIP(goto out, "only %lld KiB of THP on node %d", thp_before, self->start);
	/* a page in ten touched: every huge page is accessed, at its PMD */
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, bytes));
	ASSERT_EQ(0, knob("enabled", "1"));
	took = settle(&self->topo, p, bytes, self->start, self->target, 0, &pl);
	hot_loop_stop(&h);
	thp_after = anon_huge_kb();
	TH_LOG("%.1f s to 90%% on node %d; AnonHugePages %lld -> %lld KiB",
	       took, self->target, thp_before, thp_after);
	EXPECT_LE(0, took);
	EXPECT_EQ(thp_before, thp_after);
	EXPECT_EQ(0, corrupt_words(p, bytes));
out:
	munmap(raw, bytes + 2 * MIB);
}

/*
 * With numa_balancing=2 too, no page may come back down once on the fastest
 * node. NUMA balancing promotes mapped pages of the lower tiers to CPU
 * nodes and kmemattrd leaves those to it (documented); into memory-only
 * nodes, and from the top tiers, which NUMA balancing does not scan,
 * kmemattrd promotes.
 */
#define PINGPONG_SAMPLES	10
#define NB_DEBUG	"/sys/kernel/debug/sched/numa_balancing"

/* " node:pages" for the hot pages of @status (@n pages), in a static buffer. */
static const char *hot_nodes(const int *status, long n)
{
	static char text[256];
	long on[TOPO_MAX_NODES] = {};

	text[0] = 0;
	for (long i = 0; i < n; i += HOT_EVERY)
		if (status[i] >= 0 && status[i] < TOPO_MAX_NODES)
			on[status[i]]++;
	for (int nid = 0; nid < TOPO_MAX_NODES; nid++)
		if (on[nid])
			snprintf(text + strlen(text), sizeof(text) - strlen(text),
				 " %d:%ld", nid, on[nid]);
	return text;
}

/* Entries of @status (@n pages) equal to @nid. */
static long count_on(const int *status, long n, int nid)
{
	long i, on = 0;

	for (i = 0; i < n; i++)
		on += status[i] == nid;
	return on;
}

TEST_F_TIMEOUT(daemon, with_numa_balancing_no_ping_pong, 120)
{
	long i, n = REGION / getpagesize(), back = 0, on_target = 0;
	bool cpu_target = self->topo.node[self->target].cpus[0];
	unsigned long long its_targets = 0;
	int ours;
	long long promoted = vmstat("memattr_promote_success");
	long long nb_moved = vmstat("numa_pages_migrated");
	int *prev = NULL, *now;
	struct hot_loop h;
	char *p;

	if (access("/proc/sys/kernel/numa_balancing", W_OK))
		SKIP(return, "kernel without NUMA balancing");
	/*
	 * Where kmemattrd itself promotes: the fastest node without CPUs, or
	 * any from a top tier (NUMA balancing leaves those alone).
	 */
	for (i = 0; i < self->topo.nr_nodes; i++)
		if (!self->topo.node[i].cpus[0])
			its_targets |= 1ULL << i;
	ours = fastest(&self->topo, self->viewer, self->start, ~0ULL);
	if (!(toptier_nodes(&self->topo) >> self->start & 1) && ours >= 0 &&
	    !((its_targets & toptier_nodes(&self->topo)) >> ours & 1))
		ours = -1;	/* NUMA balancing's: a CPU node, or of a lower tier */
	ASSERT_EQ(0, sysfs_write_str("1", "/sys/kernel/mm/numa/demotion_enabled"));
	/* NUMA balancing's first scan after 1 s of task CPU time: start at once */
	if (access(NB_DEBUG "/scan_delay_ms", W_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	sysfs_write_str("0", NB_DEBUG "/scan_delay_ms");
	sysfs_write_str("100", NB_DEBUG "/scan_period_min_ms");
	ASSERT_EQ(0, sysfs_write_str("2", "/proc/sys/kernel/numa_balancing"));
	p = region_on(self->start, REGION, false);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	h.busy = true;
	ASSERT_EQ(0, knob("enabled", "1"));
	for (int sample = 0; sample < PINGPONG_SAMPLES; sample++) {
		sleep(1);
		now = where(p, REGION);
		ASSERT_NE(NULL, now);
		for (i = 0; prev && i < n; i++)
			back += prev[i] == self->target && now[i] != self->target;
		free(prev);
		prev = now;
	}
	hot_loop_stop(&h);
	sysfs_write_str("0", "/proc/sys/kernel/numa_balancing");
	sysfs_write_str("0", "/sys/kernel/mm/numa/demotion_enabled");
	sysfs_write_str("1000", NB_DEBUG "/scan_delay_ms");
	sysfs_write_str("1000", NB_DEBUG "/scan_period_min_ms");
	for (i = 0; i < n; i += HOT_EVERY)
		on_target += ours >= 0 && prev[i] == ours;
	promoted = vmstat("memattr_promote_success") - promoted;
	nb_moved = vmstat("numa_pages_migrated") - nb_moved;
	TH_LOG("fastest node %d (%s), kmemattrd's target %d: %ld of %ld hot pages there",
	       self->target, cpu_target ? "CPUs" : "memory-only", ours, on_target,
	       (n + HOT_EVERY - 1) / HOT_EVERY);
	TH_LOG("after %d s, %ld left node %d, kmemattrd promoted %lld, NUMA balancing %lld; hot pages per node:%s",
	       PINGPONG_SAMPLES, back, self->target, promoted, nb_moved, hot_nodes(prev, n));
	EXPECT_EQ(0, back);
	/* no ping-pong because nothing moved proves nothing */
	EXPECT_LT(0, promoted + nb_moved);
	if (ours >= 0) {	/* NUMA balancing cannot promote there */
		EXPECT_GE(on_target * 10, n / HOT_EVERY * 9);
	} else {		/* mapped pages bound for CPU nodes are its */
		EXPECT_GE(nb_moved * 10, n / HOT_EVERY * 9);
	}
	free(prev);
	munmap(p, REGION);
}

/* Sums over the trace of kmemattrd's two events. */
struct trace_sums {
	long passes;		/* memattr_scan_pass events */
	long pass_promoted;	/* their promoted= */
	long batches;		/* memattr_migrate_batch events */
	long batch_promoted;	/* nr_succeeded= of promote batches */
};

static int read_trace(struct trace_sums *t)
{
	FILE *f = fopen(TRACE_DIR "/trace", "r");
	char line[512], *ev;
	long a, b;

	if (!f)
		return -1;
	memset(t, 0, sizeof(*t));
	while (fgets(line, sizeof(line), f)) {
		ev = strstr(line, "memattr_scan_pass: ");
		if (ev && sscanf(ev, "memattr_scan_pass: scanned=%ld promoted=%ld", &a, &b) == 2) {
			t->passes++;
			t->pass_promoted += b;
		}
		ev = strstr(line, "memattr_migrate_batch: ");
		if (!ev)
			continue;
		t->batches++;
		if (strstr(ev, " promote ") && strstr(ev, "nr_succeeded=") &&
		    sscanf(strstr(ev, "nr_succeeded="), "nr_succeeded=%ld", &b) == 1)
			t->batch_promoted += b;
	}
	fclose(f);
	return 0;
}

/*
 * The tracepoints agree with /proc/vmstat: every promoted page is in a
 * promote batch and in the pass that moved it.
 */
TEST_F_TIMEOUT(daemon, tracepoints_agree_with_vmstat, 120)
{
	long long before = vmstat("memattr_promote_success"), promoted;
	struct trace_sums t;
	struct placement pl;
	struct hot_loop h;
	char *p;
	int fd, i;

	if (access(TRACE_DIR "/events", F_OK))
		mount("tracefs", TRACE_DIR, "tracefs", 0, NULL);
	/* the harness's kernels have event tracing (harness/configs) */
	ASSERT_EQ(0, access(TRACE_DIR "/events/memattr", F_OK))
		TH_LOG("no memattr events in %s", TRACE_DIR "/events");
	ASSERT_EQ(0, sysfs_write_str("0", TRACE_DIR "/tracing_on"));
	fd = open(TRACE_DIR "/trace", O_WRONLY | O_TRUNC);	/* empties it */
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, sysfs_write_str("1", TRACE_DIR "/events/memattr/enable"));
	ASSERT_EQ(0, sysfs_write_str("1", TRACE_DIR "/tracing_on"));
	p = region_on(self->start, REGION, false);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
	ASSERT_EQ(0, knob("enabled", "1"));
	settle(&self->topo, p, REGION, self->start, self->target, 0, &pl);
	/* the pass that moved them reports after its PFN walk: wait for it */
	for (i = 0; i < 80; i++) {
		ASSERT_EQ(0, read_trace(&t));
		if (t.pass_promoted)
			break;
		usleep(250000);
	}
	/* stopping the thread ends its last pass: nothing moves after */
	ASSERT_EQ(0, knob("enabled", "0"));
	hot_loop_stop(&h);
	promoted = vmstat("memattr_promote_success") - before;
	sysfs_write_str("0", TRACE_DIR "/tracing_on");
	sysfs_write_str("0", TRACE_DIR "/events/memattr/enable");
	ASSERT_EQ(0, read_trace(&t));
	TH_LOG("%ld passes, %ld batches; promoted: vmstat %lld, batches %ld, passes %ld",
	       t.passes, t.batches, promoted, t.batch_promoted, t.pass_promoted);
	EXPECT_LT(0, t.passes);
	EXPECT_LT(0, promoted);
	EXPECT_EQ(promoted, t.batch_promoted);
	/* a pass cut short by the stop is not reported */
	EXPECT_GE(t.batch_promoted, t.pass_promoted);
	EXPECT_LT(0, t.pass_promoted);
	munmap(p, REGION);
}

/* ---- kmemattrd works with the kernel: reclaim, memory policy, CPUs ---- */

/* KiB "Referenced" in /proc/self/smaps for the mapping that holds @p. */
static long long referenced_kb(const char *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long lo, hi;
	long long kb = -1;
	char line[512];
	bool in = false;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = lo <= (unsigned long)p && (unsigned long)p < hi;
			continue;
		}
		if (in && sscanf(line, "Referenced: %lld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/*
 * Reclaim keeps its view: a region touched once after clear_refs (which
 * also flushes the TLB, so that TCG sets the accessed bits again) reads
 * all "Referenced" in smaps: young PTEs, or young or referenced folios,
 * what folio_referenced() consults. It must still after the daemon has
 * cleared the accessed bits of its pages for two whole passes, on the slow
 * node and on the fastest one. The region is bound where it is, so that
 * nothing moves it.
 */
TEST_F_TIMEOUT(daemon, reclaim_keeps_referenced, 120)
{
	int nodes[2] = { self->start, self->target };
	long ps = getpagesize();

	for (int i = 0; i < 2; i++) {
		long long before, after;
		char *p = region_on(nodes[i], REGION, true);

		ASSERT_NE(NULL, p);
		ASSERT_EQ(0, sysfs_write_str("1", "/proc/self/clear_refs"));
		for (long off = 0; off < REGION; off += ps)
			(void)*(volatile char *)(p + off);
		before = referenced_kb(p);
		ASSERT_EQ(0, knob("enabled", "1"));
		EXPECT_TRUE(wait_passes(2, SETTLE_S));
		after = referenced_kb(p);
		ASSERT_EQ(0, knob("enabled", "0"));
		TH_LOG("node %d: %lld of %llu KiB referenced before the daemon ran, %lld after",
		       nodes[i], before, REGION / 1024, after);
		EXPECT_GE(before * 10, REGION / 1024 * 9);
		EXPECT_GE(after * 10, before * 9);
		munmap(p, REGION);
	}
}

/* How a memory policy reaches the region. */
enum policy_via {
	VIA_SET_MEMPOLICY,	/* the task's policy */
	VIA_MBIND,		/* the region's own */
	VIA_FAULT_ONLY,		/* the region's, dropped once it is faulted */
};

/*
 * A region faulted under memory policy @mode over @mask, set with @via,
 * whose hot set is touched while the daemon makes POLICY_PASSES whole
 * passes: enough to find it hot and move it. The pages that changed node
 * (-1 on a setup failure) and, in @on_start, how many started on the
 * slow node.
 */
static long moved_under_policy(FIXTURE_DATA(daemon) *self, int mode,
			       unsigned long mask, enum policy_via via,
			       long *on_start)
{
	long i, n = REGION / getpagesize(), moved = -1;
	int *before = NULL, *after = NULL;
	struct hot_loop h;
	char *p;

	if (via == VIA_SET_MEMPOLICY && set_mempolicy(mode, &mask, sizeof(mask) * 8))
		return -1;
	p = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		goto out;
	if (via != VIA_SET_MEMPOLICY && mbind(p, REGION, mode, &mask, sizeof(mask) * 8, 0))
		goto unmap;
	memset(p, 1, REGION);
	if (via == VIA_FAULT_ONLY && mbind(p, REGION, MPOL_DEFAULT, NULL, 0, 0))
		goto unmap;
	before = where(p, REGION);
	if (!before || hot_loop_start(&h, p, -1, REGION))
		goto unmap;
	if (!knob("enabled", "1") && wait_passes(POLICY_PASSES, SETTLE_S))
		after = where(p, REGION);
	hot_loop_stop(&h);
	knob("enabled", "0");
	if (after) {
		moved = 0;
		for (i = 0; i < n; i++)
			moved += before[i] != after[i];
		*on_start = count_on(before, n, self->start);
	}
unmap:
	free(before);
	free(after);
	munmap(p, REGION);
out:
	set_mempolicy(MPOL_DEFAULT, NULL, 0);
	return moved;
}

/*
 * The daemon obeys the task's and the region's memory policy as NUMA
 * balancing does: bind and preferred keep the hot set on the slow node
 * they name, interleaving over the slow and the fast node is never undone.
 * The default policy is the control: there the hot set moves.
 */
TEST_F_TIMEOUT(daemon, memory_policy_obeyed, 180)
{
	unsigned long slow = 1UL << self->start, both = slow | 1UL << self->target;
	const struct {
		const char *name;
		int mode;
		unsigned long mask;
		enum policy_via via;
		bool moves;
	} cases[] = {
		{ "default (control)", MPOL_BIND, slow, VIA_FAULT_ONLY, true },
		{ "set_mempolicy bind", MPOL_BIND, slow, VIA_SET_MEMPOLICY, false },
		{ "set_mempolicy preferred", MPOL_PREFERRED, slow, VIA_SET_MEMPOLICY, false },
		{ "set_mempolicy interleave", MPOL_INTERLEAVE, both, VIA_SET_MEMPOLICY, false },
		{ "mbind preferred", MPOL_PREFERRED, slow, VIA_MBIND, false },
		{ "mbind interleave", MPOL_INTERLEAVE, both, VIA_MBIND, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long on_start = 0, moved;

		moved = moved_under_policy(self, cases[i].mode, cases[i].mask,
					   cases[i].via, &on_start);
		TH_LOG("%s: %ld of %ld pages moved (%ld started on node %d)",
		       cases[i].name, moved, (long)(REGION / getpagesize()), on_start,
		       self->start);
		ASSERT_LE(0, moved);
		EXPECT_LT(0, on_start);
		if (cases[i].moves) {
			EXPECT_LT(0, moved);
		} else {
			EXPECT_EQ(0, moved);
		}
	}
}

/*
 * Debian's numactl as the client: a child it starts with --membind,
 * --preferred or --interleave (over the slow and the fast node) keeps its
 * hot set where the policy put it while the daemon makes its passes.
 */
TEST_F_TIMEOUT(daemon, numactl_policies_obeyed, 180)
{
	const char *options[] = { "--membind=%d", "--preferred=%d", "--interleave=%d,%d" };
	long n = REGION / getpagesize();
	char exe[256], opt[64];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	TOPO_NEED(&self->topo, !access(NUMACTL, X_OK), NUMACTL);
	ASSERT_LT(0, len);
	exe[len] = 0;
	for (size_t k = 0; k < sizeof(options) / sizeof(options[0]); k++) {
		int *before = NULL, *after = NULL, out[2];
		long moved = 0, on_start;
		char line[64];
		void *addr = NULL;
		FILE *f;
		pid_t pid;

		snprintf(opt, sizeof(opt), options[k], self->start, self->target);
		ASSERT_EQ(0, pipe(out));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			dup2(out[1], 1);
			close(out[0]);
			setenv(CHILD_ENV, "1", 1);
			execl(NUMACTL, "numactl", opt, exe, (char *)NULL);
			_exit(127);
		}
		close(out[1]);
		f = fdopen(out[0], "r");
		if (f && fgets(line, sizeof(line), f))
			sscanf(line, "%p", &addr);
		if (addr)
			before = where_pid(pid, addr, REGION);
		if (before && !knob("enabled", "1") && wait_passes(POLICY_PASSES, SETTLE_S))
			after = where_pid(pid, addr, REGION);
		knob("enabled", "0");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (f)
			fclose(f);
		ASSERT_NE(NULL, after) TH_LOG("numactl %s: no region, or no passes", opt);
		for (long i = 0; i < n; i++)
			moved += before[i] != after[i];
		on_start = count_on(before, n, self->start);
		TH_LOG("numactl %s: %ld of %ld pages moved (%ld started on node %d)",
		       opt, moved, n, on_start, self->start);
		EXPECT_LT(0, on_start);
		EXPECT_EQ(0, moved);
		free(before);
		free(after);
	}
}

/*
 * A start node whose fastest node differs between the CPU nodes (the
 * first one with room), with the fastest from each CPU node in @want
 * (-1 for memory-only nodes or where none is faster); -1 if none.
 */
static int start_seen_differently(const struct topo *t, int *want)
{
	for (int s = 0; s < t->nr_nodes; s++) {
		int first = -1;
		bool differ = false;

		if (!tracked(t, s) || t->node[s].mem_bytes < 3 * REGION)
			continue;
		for (int c = 0; c < t->nr_nodes; c++) {
			want[c] = t->node[c].cpus[0] ? fastest(t, c, s, ~0ULL) : -1;
			if (want[c] < 0)
				continue;
			differ |= first >= 0 && want[c] != first;
			if (first < 0)
				first = want[c];
		}
		if (differ)
			return s;
	}
	return -1;
}

/*
 * Hot pages go to the node that is fastest for the CPUs that use them. On
 * a machine whose sockets see memory differently (asym), a task on each
 * socket gets the same slow region's hot set on its own best node, not on
 * the node with the best value for some other socket.
 */
TEST_F_TIMEOUT(daemon, promotes_for_the_cpus_that_use_it, 180)
{
	int want[TOPO_MAX_NODES], c;
	int start = start_seen_differently(&self->topo, want);
	cpu_set_t all;

	if (start < 0)
		SKIP(return, "topology %s: every CPU node has the same fastest node",
		     self->topo.name);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	for (c = 0; c < self->topo.nr_nodes; c++) {
		struct placement pl;
		struct hot_loop h;
		double took;
		char *p;

		if (want[c] < 0)
			continue;
		ASSERT_EQ(0, pin_to_node(&self->topo, c));
		p = region_on(start, REGION, false);
		ASSERT_NE(NULL, p);
		ASSERT_EQ(0, hot_loop_start(&h, p, -1, REGION));
		ASSERT_EQ(0, knob("enabled", "1"));
		took = settle(&self->topo, p, REGION, start, want[c], 0, &pl);
		hot_loop_stop(&h);
		knob("enabled", "0");
		TH_LOG("CPUs of node %d: %ld/%ld hot pages on node %d (fastest from there) in %.1f s",
		       c, pl.hot_on, pl.hot, want[c], took);
		EXPECT_LE(0, took);
		EXPECT_EQ(0, corrupt_words(p, REGION));
		munmap(p, REGION);
	}
	sched_setaffinity(0, sizeof(all), &all);
}

/*
 * A child pinned to the CPUs of node @c touching the hot set of a region
 * it faulted on @start; its pid, and the region's address in *@addr.
 */
static pid_t socket_child(const struct topo *t, int c, int start, char **addr)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		struct hot_loop h = { .fd = -1, .bytes = REGION };

		close(fds[0]);
		if (pin_to_node(t, c))
			_exit(1);
		h.p = region_on(start, REGION, false);
		if (!h.p || write(fds[1], &h.p, sizeof(h.p)) != sizeof(h.p))
			_exit(1);
		hot_loop_fn(&h);
		_exit(0);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], addr, sizeof(*addr)) != sizeof(*addr)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(fds[0]);
	return pid;
}

#define SOCKETS		2
#define NB_SAMPLES	24	/* every 0.5 s */

/*
 * A task on each of two sockets, NUMA balancing on in its normal and in
 * its tiering mode beside the daemon: each task's hot set ends on a fast
 * node of its own socket (its CPUs' node, or the node fastest from there),
 * and no page moves more than twice while the two mechanisms run.
 */
TEST_F_TIMEOUT(daemon, two_sockets_with_numa_balancing, 240)
{
	long n = REGION / getpagesize();
	int want[TOPO_MAX_NODES], sock[SOCKETS], nr = 0, c;
	int start = start_seen_differently(&self->topo, want);

	if (access("/proc/sys/kernel/numa_balancing", W_OK))
		SKIP(return, "kernel without NUMA balancing");
	for (c = 0; start >= 0 && c < self->topo.nr_nodes && nr < SOCKETS; c++)
		if (want[c] >= 0 && self->topo.node[c].mem_bytes)
			sock[nr++] = c;
	if (nr < SOCKETS)
		SKIP(return, "topology %s has no two CPU nodes with memory that see a slow node differently",
		     self->topo.name);
	for (int mode = 1; mode <= 2; mode++) {
		int *moves[SOCKETS], *prev[SOCKETS], *now;
		char *addr[SOCKETS];
		pid_t pid[SOCKETS];
		char val[4];

		for (int k = 0; k < SOCKETS; k++) {
			pid[k] = socket_child(&self->topo, sock[k], start, &addr[k]);
			ASSERT_LT(0, pid[k]);
			prev[k] = where_pid(pid[k], addr[k], REGION);
			moves[k] = calloc(n, sizeof(int));
			ASSERT_NE(NULL, prev[k]);
			ASSERT_NE(NULL, moves[k]);
		}
		snprintf(val, sizeof(val), "%d", mode);
		ASSERT_EQ(0, sysfs_write_str(val, "/proc/sys/kernel/numa_balancing"));
		ASSERT_EQ(0, knob("enabled", "1"));
		for (int sample = 0; sample < NB_SAMPLES; sample++) {
			usleep(500000);
			for (int k = 0; k < SOCKETS; k++) {
				now = where_pid(pid[k], addr[k], REGION);
				ASSERT_NE(NULL, now);
				for (long i = 0; i < n; i++)
					moves[k][i] += now[i] != prev[k][i];
				free(prev[k]);
				prev[k] = now;
			}
		}
		knob("enabled", "0");
		sysfs_write_str("0", "/proc/sys/kernel/numa_balancing");
		for (int k = 0; k < SOCKETS; k++) {
			int own = sock[k], best = want[own];
			long hot = 0, home = 0, most = 0, on[TOPO_MAX_NODES] = {};
			char where_hot[128] = "";

			kill(pid[k], SIGKILL);
			waitpid(pid[k], NULL, 0);
			for (long i = 0; i < n; i++) {
				if (moves[k][i] > most)
					most = moves[k][i];
				if (i % HOT_EVERY)
					continue;
				hot++;
				home += prev[k][i] == own || prev[k][i] == best;
				if (prev[k][i] >= 0 && prev[k][i] < TOPO_MAX_NODES)
					on[prev[k][i]]++;
			}
			for (c = 0; c < self->topo.nr_nodes; c++)
				snprintf(where_hot + strlen(where_hot),
					 sizeof(where_hot) - strlen(where_hot), " %d:%ld", c, on[c]);
			TH_LOG("numa_balancing=%d, task on node %d's CPUs: %ld/%ld hot pages on node %d or %d (node:pages%s); most moves of a page %ld",
			       mode, own, home, hot, own, best, where_hot, most);
			EXPECT_GE(home * 10, hot * 9);
			EXPECT_LE(most, 2);
			free(prev[k]);
			free(moves[k]);
		}
	}
}

/* A thread that maps and unmaps a page in a loop: the longest round it took. */
struct mmap_loop {
	pthread_t thread;
	volatile bool stop;
	double worst;		/* seconds */
	long rounds;
};

static void *mmap_loop_fn(void *arg)
{
	struct mmap_loop *m = arg;
	long ps = getpagesize();

	while (!m->stop) {
		double t0 = now_s(), took;
		void *q = mmap(NULL, ps, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (q != MAP_FAILED)
			munmap(q, ps);
		took = now_s() - t0;
		if (took > m->worst)
			m->worst = took;
		m->rounds++;
		usleep(500);
	}
	return NULL;
}

/* The longest pass and the longest mmap_lock hold in the trace, ms. */
static int read_pass_costs(double *pass_ms, double *hold_ms, long *nr)
{
	FILE *f = fopen(TRACE_DIR "/trace", "r");
	unsigned int msecs, hold_us;
	char line[512], *ev;

	if (!f)
		return -1;
	*pass_ms = *hold_ms = 0;
	*nr = 0;
	while (fgets(line, sizeof(line), f)) {
		ev = strstr(line, "memattr_scan_pass: ");
		if (!ev || !strstr(ev, "msecs=") || !strstr(ev, "max_hold_us=") ||
		    sscanf(strstr(ev, "msecs="), "msecs=%u", &msecs) != 1 ||
		    sscanf(strstr(ev, "max_hold_us="), "max_hold_us=%u", &hold_us) != 1)
			continue;
		(*nr)++;
		if (msecs > *pass_ms)
			*pass_ms = msecs;
		if (hold_us / 1000.0 > *hold_ms)
			*hold_ms = hold_us / 1000.0;
	}
	fclose(f);
	return 0;
}

/* Processes now (an upper bound for the mms a pass walks). */
static long nr_processes(void)
{
	struct dirent *de;
	DIR *dir = opendir("/proc");
	long n = 0;

	while (dir && (de = readdir(dir)))
		n += de->d_name[0] >= '1' && de->d_name[0] <= '9';
	if (dir)
		closedir(dir);
	return n;
}

#define LOCK_REGION	(128 * MIB)

/*
 * The walk holds a process's mmap_lock one batch of entries at a time when
 * someone waits for it: a thread mapping and unmapping in a loop beside a
 * 128 MiB region (8 batches of 4096 entries) is never stalled for the
 * whole walk. And TLB flushes are counted and bounded: at most one per
 * process a pass (plus one per wakeup the budget ends inside a walk, none
 * here: the budget covers a pass).
 */
TEST_F_TIMEOUT(daemon, mmap_lock_and_tlb_flushes_bounded, 120)
{
	long long flushes = vmstat("memattr_tlb_flush"), done = passes();
	double pass_ms, hold_ms;
	struct mmap_loop m = {};
	long nr, procs;
	int fd, n, roomy = self->start;
	char *p;

	/* a tracked node with room for the region: its bits are the ones cleared */
	for (n = 0; n < self->topo.nr_nodes; n++)
		if (tracked(&self->topo, n) &&
		    self->topo.node[n].mem_bytes > self->topo.node[roomy].mem_bytes)
			roomy = n;
	if (self->topo.node[roomy].mem_bytes < 2 * LOCK_REGION)
		SKIP(return, "no tracked node has twice %llu MiB", LOCK_REGION / MIB);
	p = region_on(roomy, LOCK_REGION, false);

	ASSERT_NE(NULL, p);
	EXPECT_LE(0, flushes) TH_LOG("no memattr_tlb_flush in /proc/vmstat");
	if (access(TRACE_DIR "/events", F_OK))
		mount("tracefs", TRACE_DIR, "tracefs", 0, NULL);
	ASSERT_EQ(0, sysfs_write_str("0", TRACE_DIR "/tracing_on"));
	fd = open(TRACE_DIR "/trace", O_WRONLY | O_TRUNC);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, sysfs_write_str("1", TRACE_DIR "/events/memattr/memattr_scan_pass/enable"));
	ASSERT_EQ(0, sysfs_write_str("1", TRACE_DIR "/tracing_on"));
	ASSERT_EQ(0, knob("scan_budget", "16777216"));
	ASSERT_EQ(0, pthread_create(&m.thread, NULL, mmap_loop_fn, &m));
	ASSERT_EQ(0, knob("enabled", "1"));
	EXPECT_TRUE(wait_passes(3, 60));
	ASSERT_EQ(0, knob("enabled", "0"));
	m.stop = true;
	pthread_join(m.thread, NULL);
	procs = nr_processes();
	flushes = vmstat("memattr_tlb_flush") - flushes;
	done = passes() - done;
	knob("scan_budget", "262144");
	sysfs_write_str("0", TRACE_DIR "/tracing_on");
	sysfs_write_str("0", TRACE_DIR "/events/memattr/memattr_scan_pass/enable");
	ASSERT_EQ(0, read_pass_costs(&pass_ms, &hold_ms, &nr));
	TH_LOG("%ld passes: longest %.0f ms, longest mmap_lock hold %.1f ms; worst mmap+munmap %.1f ms in %ld rounds",
	       nr, pass_ms, hold_ms, m.worst * 1000, m.rounds);
	TH_LOG("%lld TLB flushes in %lld passes, %ld processes", flushes, done, procs);
	ASSERT_LT(0, nr);
	EXPECT_LT(0, m.rounds);
	/*
	 * The region alone is 8 batches: a writer stalled for a third of the
	 * walk waited for more than a batch. (Without a waiter a hold may last
	 * the whole walk: that is allowed.) A walk under 60 ms cannot tell a
	 * batch from scheduling noise.
	 */
	if (pass_ms >= 60) {
		EXPECT_LT(m.worst * 1000 * 3, pass_ms);
	} else {
		TH_LOG("the walk took %.0f ms: too short to bound the stall by it", pass_ms);
	}
	EXPECT_LT(0, flushes);
	EXPECT_LE(flushes, (done + 1) * procs);
	munmap(p, LOCK_REGION);
}

TEST_HARNESS_MAIN
