// SPDX-License-Identifier: GPL-2.0
/*
 * The memattr fallback policy as user space sees it: special nodes stay out
 * of implicit allocation, explicit requests still reach them, the spill
 * modes, and per-node fallback orders. Every check looks at where pages
 * really are (move_pages(2) status, per-node meminfo), not at intentions.
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
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "kmsg.h"
#include "topology.h"

#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY	5
#endif

#define NODE_DIR	"/sys/devices/system/node"
#define POLICY_DIR	"/sys/kernel/mm/memattr"
#define DEMOTION_FILE	"/sys/kernel/mm/numa/demotion_enabled"
#define NUMAB_FILE	"/proc/sys/kernel/numa_balancing"
#define MIB		(1ULL << 20)
#define EXTRA_BYTES	(64 * MIB)	/* how far a hog goes past the memory it fills */
#define MAX_FILL_BYTES	(1024 * MIB)	/* more would be too slow to fill under TCG */
#define SLACK_KB	1024ULL		/* "about zero" growth of a node's meminfo */
#define HOG_DEADLINE_S	180		/* a hog that runs longer is killed */
#define SMALL_BYTES	(4 * MIB)	/* size of the explicit-policy allocations */

/* Exit statuses of a hog child besides 0. */
enum { HOG_NOMEM = 3, HOG_POLICY, HOG_LOCATE, HOG_PIPE, HOG_PIN };

static struct topo topo;
static long page_size;
/* Nodes whose special flag / fallback prefix a test wrote; teardown resets them. */
static unsigned long long touched_special, touched_fallback;
static const char *const spill_modes[] = { "never", "before_oom", "always" };
static const char *const order_modes[] = { "distance", "performance" };

/* ---- reading and changing the policy ---- */

static bool has_node(unsigned long long mask, int nid)
{
	return mask >> nid & 1;
}

/* The word in brackets of a "never [before_oom] always" file. */
static int read_choice(char *word, size_t len, const char *file)
{
	char buf[256], *open, *close;

	if (sysfs_read_str(buf, sizeof(buf), POLICY_DIR "/%s", file) < 0)
		return -1;
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		errno = EINVAL;
		return -1;
	}
	*close = '\0';
	snprintf(word, len, "%s", open + 1);
	return 0;
}

static int set_choice(const char *file, const char *word)
{
	return sysfs_write_str(word, POLICY_DIR "/%s", file);
}

static int set_special(int nid, const char *val)
{
	touched_special |= 1ULL << nid;
	return sysfs_write_str(val, NODE_DIR "/node%d/memattr/special", nid);
}

static int set_fallback(int nid, const char *val)
{
	touched_fallback |= 1ULL << nid;
	return sysfs_write_str(val, NODE_DIR "/node%d/memattr/fallback", nid);
}

static int read_fallback(char *buf, size_t len, int nid)
{
	return sysfs_read_str(buf, len, NODE_DIR "/node%d/memattr/fallback", nid);
}

/* The special nodes the kernel lists now; 0 or -1. */
static int special_now(unsigned long long *mask)
{
	char buf[256];

	if (sysfs_read_str(buf, sizeof(buf), NODE_DIR "/special") < 0)
		return -1;
	return topo_parse_list(buf, mask);
}

static int vmstat_read(const char *name, unsigned long long *val)
{
	char line[256], key[64];
	FILE *f = fopen("/proc/vmstat", "r");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu", key, val) == 2 && !strcmp(key, name)) {
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

/* ---- facts from the booted topology ---- */

static unsigned long long topo_special(void)
{
	unsigned long long mask = 0;
	int nid;

	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (topo.node[nid].memattr[TOPO_MA_SPECIAL] == 1)
			mask |= 1ULL << nid;
	return mask;
}

/*
 * What node/special lists: the boot nodes above and the nodes the boot
 * parameter marks before their memory arrives (nvdimm/efi_sp nodes).
 */
static unsigned long long topo_listed_special(void)
{
	unsigned long long mask = 0;
	int nid;

	for (nid = 0; nid < TOPO_MAX_NODES; nid++)
		if (topo.node[nid].memattr[TOPO_MA_SPECIAL] == 1)
			mask |= 1ULL << nid;
	return mask;
}

static bool topo_has_cpus(int nid)
{
	return topo.node[nid].cpus[0];
}

static int first_cpu(int nid)
{
	unsigned long long cpus;

	if (topo_parse_list(topo.node[nid].cpus, &cpus) || !cpus)
		return -1;
	return __builtin_ctzll(cpus);
}

/* A CPU on a node other than @nid, or -1. */
static int cpu_off_node(int nid)
{
	int n;

	for (n = 0; n < topo.nr_nodes; n++)
		if (n != nid && first_cpu(n) >= 0)
			return first_cpu(n);
	return -1;
}

/*
 * The node tests make special: the topology's own, else the last
 * memory-only node. A node with CPUs is never picked: its own CPUs
 * allocate locally from it by design (its list starts with itself, so
 * that explicit requests for it work), which the tests would count as
 * implicit use.
 */
static int pick_special(void)
{
	unsigned long long special = topo_special();
	int nid;

	if (special)
		return __builtin_ctzll(special);
	for (nid = topo.nr_nodes - 1; nid >= 0; nid--)
		if (!topo_has_cpus(nid))
			return nid;
	return -1;
}

/* Bytes of memory on nodes outside @special, per the topology. */
static unsigned long long ordinary_bytes(unsigned long long special)
{
	unsigned long long sum = 0;
	int nid;

	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (!has_node(special, nid))
			sum += topo.node[nid].mem_bytes;
	return sum;
}

static unsigned long long free_kb(unsigned long long nodes)
{
	unsigned long long kb, sum = 0;
	int nid;

	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (has_node(nodes, nid) && !node_meminfo_kb(nid, "MemFree", &kb))
			sum += kb;
	return sum;
}

/* Read latency / bandwidth the node's record should hold (0: unknown). */
static unsigned long long topo_perf(int nid, int ma, int access)
{
	const struct topo_node *n = &topo.node[nid];

	if (n->memattr[ma] >= 0)
		return n->memattr[ma];
	return n->has_access ? n->access[access] : 0;
}

/*
 * The node whose view orders @local's list, as documented: its HMAT
 * initiator (itself for a node with CPUs), else @local if it has CPUs,
 * else the nearest node with CPUs.
 */
static int viewer_of(int local)
{
	int n, best = -1;

	if (topo.hmat && topo.node[local].initiator >= 0)
		return topo.node[local].initiator;
	if (topo_has_cpus(local))
		return local;
	for (n = 0; n < topo.nr_nodes; n++)
		if (topo_has_cpus(n) && (best < 0 || topo.node[local].distance[n] <
						     topo.node[local].distance[best]))
			best = n;
	return best < 0 ? local : best;
}

/* What @local's list is ordered by for node @nid: its viewer's view. */
static unsigned long long perf_seen(int local, int nid, int field)
{
	long long v = topo_view_value(&topo, viewer_of(local), nid, field, NULL);

	return v > 0 ? v : topo_perf(nid, field, field);
}

/* Is @a better than @b for @local's CPUs (latency, then bandwidth)? */
static bool perf_better(int local, int a, int b)
{
	unsigned long long la = perf_seen(local, a, TOPO_READ_LATENCY);
	unsigned long long lb = perf_seen(local, b, TOPO_READ_LATENCY);

	if (!la != !lb)
		return la;
	if (la != lb)
		return la < lb;
	return perf_seen(local, a, TOPO_READ_BANDWIDTH) >
	       perf_seen(local, b, TOPO_READ_BANDWIDTH);
}

/*
 * 6.12's fallback order for @local (build_zonelists()/find_next_best_node()),
 * recomputed from the topology's SLIT as a rebuild at run time computes it:
 * nodes with CPUs get their penalty (the very first build, before the CPUs
 * come up, sees none), and node_load breaks ties across the nodes built
 * before @local.
 */
static int order_6_12(int local, int *order)
{
	int load[TOPO_MAX_NODES] = { 0 };
	int nid, n, nr = 0, best, prev;
	long val, min;
	unsigned long long used;

	for (nid = 0; nid <= local; nid++) {
		used = 1ULL << nid;
		nr = 0;
		order[nr++] = nid;
		prev = nid;
		for (;;) {
			best = -1;
			min = 0;
			for (n = 0; n < topo.nr_nodes; n++) {
				if (has_node(used, n))
					continue;
				val = topo.node[nid].distance[n] + (n < nid) + topo_has_cpus(n);
				val = val * TOPO_MAX_NODES + load[n];
				if (best < 0 || val < min) {
					min = val;
					best = n;
				}
			}
			if (best < 0)
				break;
			used |= 1ULL << best;
			if (topo.node[nid].distance[best] != topo.node[nid].distance[prev])
				load[best]++;
			order[nr++] = best;
			prev = best;
		}
	}
	return nr;
}

/*
 * The order nodeN/memattr/fallback should show: the node, its explicit
 * prefix, the rest by distance (6.12) or performance, special nodes dropped
 * or (spill=always) last.
 */
static int expected_order(int local, const int *prefix, int nr_prefix,
			  unsigned long long special, bool always, bool perf, int *out)
{
	int order[TOPO_MAX_NODES], tail[TOPO_MAX_NODES];
	unsigned long long placed = 1ULL << local;
	int nr = order_6_12(local, order), i, j, node, nr_out = 0, nr_tail = 0;

	for (i = 2; perf && i < nr; i++) {
		node = order[i];
		for (j = i; j > 1 && perf_better(local, node, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = node;
	}
	out[nr_out++] = local;
	for (i = 0; i < nr_prefix; i++) {
		out[nr_out++] = prefix[i];
		placed |= 1ULL << prefix[i];
	}
	for (i = 0; i < nr; i++) {
		if (has_node(placed, order[i]))
			continue;
		if (has_node(special, order[i]))
			tail[nr_tail++] = order[i];
		else
			out[nr_out++] = order[i];
	}
	for (i = 0; always && i < nr_tail; i++)
		out[nr_out++] = tail[i];
	return nr_out;
}

static void format_order(char *buf, size_t len, const int *order, int nr)
{
	int i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < nr; i++)
		off += snprintf(buf + off, len - off, "%s%d", i ? " " : "", order[i]);
}

/*
 * Make the kernel rebuild every zonelist (a spill change does), so that the
 * lists no longer depend on what the boot-time build knew about CPUs.
 */
static int force_rebuild(const char *spill)
{
	if (set_choice("spill", strcmp(spill, "never") ? "never" : "always"))
		return -1;
	return set_choice("spill", spill);
}

/* Compare every node's fallback file with the expected order. */
static void check_all_orders(struct __test_metadata *_metadata,
			     unsigned long long special, const char *spill, bool perf)
{
	int order[TOPO_MAX_NODES], nid, nr;
	char want[256], got[256];

	for (nid = 0; nid < topo.nr_nodes; nid++) {
		nr = expected_order(nid, NULL, 0, special, !strcmp(spill, "always"),
				    perf, order);
		format_order(want, sizeof(want), order, nr);
		ASSERT_LE(0, read_fallback(got, sizeof(got), nid));
		EXPECT_STREQ(want, got)
			TH_LOG("node %d, spill=%s, fallback_order=%s, special 0x%llx",
			       nid, spill, perf ? "performance" : "distance", special);
	}
}

/* ---- where pages are ---- */

/* What a set of pages looked like, in touch order. */
struct placement {
	long pages;			/* pages looked at */
	long per_node[TOPO_MAX_NODES];	/* pages found on each node */
	long first[TOPO_MAX_NODES];	/* index of the first page on each node, -1 */
	long bad;			/* pages move_pages(2) could not place */
	int first_bad_status;		/* status of the first of those */
};

static int locate_pages(char *addr, long npages, struct placement *p)
{
	void *pages[1024];
	int status[1024];
	long i, j, n;

	memset(p, 0, sizeof(*p));
	memset(p->first, 0xff, sizeof(p->first));
	p->pages = npages;
	for (i = 0; i < npages; i += n) {
		n = npages - i < 1024 ? npages - i : 1024;
		for (j = 0; j < n; j++)
			pages[j] = addr + (i + j) * page_size;
		if (move_pages(0, n, pages, NULL, status, 0))
			return -1;
		for (j = 0; j < n; j++) {
			if (status[j] < 0 || status[j] >= TOPO_MAX_NODES) {
				if (!p->bad++)
					p->first_bad_status = status[j];
				continue;
			}
			if (!p->per_node[status[j]]++)
				p->first[status[j]] = i + j;
		}
	}
	return 0;
}

static void format_placement(char *buf, size_t len, const struct placement *p)
{
	size_t off;
	int nid;

	off = snprintf(buf, len, "%ld pages:", p->pages);
	for (nid = 0; nid < topo.nr_nodes && off < len; nid++)
		if (p->per_node[nid])
			off += snprintf(buf + off, len - off, " node%d=%ld (first #%ld)",
					nid, p->per_node[nid], p->first[nid]);
	if (p->bad && off < len)
		snprintf(buf + off, len - off, " unplaced=%ld (status %d)", p->bad,
			 p->first_bad_status);
}

/* The first node other than @nid that got pages, in touch order, or -1. */
static int first_other_node(const struct placement *p, int nid)
{
	int n, best = -1;

	for (n = 0; n < topo.nr_nodes; n++)
		if (n != nid && p->first[n] >= 0 && (best < 0 || p->first[n] < p->first[best]))
			best = n;
	return best;
}

static int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Fault in @bytes of anonymous memory, in 4k pages only if @small. */
static char *touch_anon(size_t bytes, bool small)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	size_t off;

	if (p == MAP_FAILED)
		return NULL;
	if (small)
		madvise(p, bytes, MADV_NOHUGEPAGE);
	for (off = 0; off < bytes; off += page_size)
		p[off] = 1;
	return p;
}

/* ---- memory hogs: children that allocate and report where it went ---- */

/* How a hog allocates. */
struct hog {
	size_t bytes;			/* anonymous memory to touch */
	int mode;			/* set_mempolicy() mode, MPOL_DEFAULT: none */
	unsigned long nodes;		/* the policy's nodes */
	int cpu;			/* CPU to run on, -1: any */
};

/* What became of a hog. */
struct hog_result {
	int status;			/* from waitpid() */
	bool timed_out;			/* killed by us after HOG_DEADLINE_S */
	bool reported;			/* @where is valid */
	struct placement where;		/* its pages, as it saw them */
	unsigned long long peak_kb;	/* peak of the watched meminfo field */
};

static void __attribute__((noreturn)) hog_child(const struct hog *h, int fd)
{
	struct placement where;
	char *p;

	sysfs_write_str("1000", "/proc/self/oom_score_adj");
	if (h->cpu >= 0 && pin_to_cpu(h->cpu))
		_exit(HOG_PIN);
	if (h->mode != MPOL_DEFAULT &&
	    set_mempolicy(h->mode, &h->nodes, 8 * sizeof(h->nodes)))
		_exit(HOG_POLICY);
	p = touch_anon(h->bytes, false);
	if (!p)
		_exit(HOG_NOMEM);
	if (locate_pages(p, h->bytes / page_size, &where))
		_exit(HOG_LOCATE);
	if (write(fd, &where, sizeof(where)) != sizeof(where))
		_exit(HOG_PIPE);
	_exit(0);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Run @h in a child; meanwhile poll @field of node @watch's meminfo (if
 * @watch >= 0) and keep the peak. 0, or -1 if the child could not start.
 */
static int run_hog(const struct hog *h, int watch, const char *field,
		   struct hog_result *r)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	unsigned long long kb;
	pid_t pid, lamb;
	int fds[2];
	double end;

	memset(r, 0, sizeof(*r));
	/*
	 * The runner and every test process sit at oom_score_adj -1000. Once
	 * the OOM reaper marks the hog done, an allocation that failed just
	 * before the hog's pages came back can invoke the OOM killer again:
	 * the lamb, at 999, takes that kill instead of a test process (with
	 * nothing killable left, the kernel would panic).
	 */
	lamb = fork();
	if (lamb < 0)
		return -1;
	if (!lamb) {
		sysfs_write_str("999", "/proc/self/oom_score_adj");
		for (;;)
			pause();
	}
	/* After the lamb: it must not hold the pipe's write end open. */
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(fds[0]);
		hog_child(h, fds[1]);
	}
	close(fds[1]);
	end = now_s() + HOG_DEADLINE_S;
	while (waitpid(pid, &r->status, WNOHANG) == 0) {
		if (watch >= 0 && !node_meminfo_kb(watch, field, &kb) && kb > r->peak_kb)
			r->peak_kb = kb;
		if (now_s() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &r->status, 0);
			r->timed_out = true;
			break;
		}
		nanosleep(&tick, NULL);
	}
	r->reported = read(fds[0], &r->where, sizeof(r->where)) == sizeof(r->where);
	close(fds[0]);
	kill(lamb, SIGKILL);
	waitpid(lamb, NULL, 0);
	return 0;
}

static bool oom_killed_or_failed(int status)
{
	return (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
	       (WIFEXITED(status) && WEXITSTATUS(status) == HOG_NOMEM);
}

/* ---- the fixture: skip without the interface, restore what tests change ---- */

FIXTURE(policy) {
	char spill[32];			/* spill mode at setup */
	char order[32];			/* fallback_order at setup */
	char demotion[16];		/* demotion_enabled at setup, "" if absent */
	char numab[16];			/* kernel.numa_balancing at setup, "" if absent */
};

FIXTURE_SETUP(policy)
{
	static const char *const files[] = {
		POLICY_DIR "/spill", POLICY_DIR "/fallback_order",
		NODE_DIR "/special", NODE_DIR "/node0/memattr/fallback",
	};
	int i;

	if (topo_load(&topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s",
		     strerror(errno));
	for (i = 0; i < ARRAY_SIZE(files); i++)
		TOPO_NEED(&topo, !access(files[i], F_OK), files[i]);
	if (geteuid())
		SKIP(return, "needs root to change the policy");
	page_size = sysconf(_SC_PAGESIZE);
	ASSERT_EQ(0, read_choice(self->spill, sizeof(self->spill), "spill"));
	ASSERT_EQ(0, read_choice(self->order, sizeof(self->order), "fallback_order"));
	if (sysfs_read_str(self->demotion, sizeof(self->demotion), DEMOTION_FILE) < 0)
		self->demotion[0] = '\0';
	/* NUMA balancing would move pages while tests look at them. */
	if (sysfs_read_str(self->numab, sizeof(self->numab), NUMAB_FILE) < 0)
		self->numab[0] = '\0';
	else
		sysfs_write_str("0", NUMAB_FILE);
	/* The hogs must be the OOM killer's choice, never the test itself. */
	sysfs_write_str("-1000", "/proc/self/oom_score_adj");
}

FIXTURE_TEARDOWN(policy)
{
	unsigned long long special;
	int nid;

	/*
	 * An ASSERT that ended the test left its trigger set; the harness's
	 * EXPECT handlers below would print their messages for nothing.
	 */
	_metadata->trigger = 0;
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		if (has_node(touched_fallback, nid)) {
			EXPECT_EQ(0, set_fallback(nid, "auto"))
				TH_LOG("restoring node %d fallback", nid);
		}
	}
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		if (has_node(touched_special, nid)) {
			EXPECT_EQ(0, set_special(nid, "auto"))
				TH_LOG("restoring node %d special", nid);
		}
	}
	EXPECT_EQ(0, set_choice("spill", self->spill));
	EXPECT_EQ(0, set_choice("fallback_order", self->order));
	if (self->demotion[0]) {
		EXPECT_EQ(0, sysfs_write_str(self->demotion, DEMOTION_FILE));
	}
	if (self->numab[0]) {
		EXPECT_EQ(0, sysfs_write_str(self->numab, NUMAB_FILE));
	}
	if (!special_now(&special)) {
		EXPECT_EQ(topo_listed_special(), special) TH_LOG("special nodes not restored");
	}
}

/* ---- the tests ---- */

/* The special nodes the kernel lists are the ones the topology set, and follow writes. */
TEST_F(policy, special_nodelist)
{
	unsigned long long mask, val;
	int nid, s = pick_special();

	ASSERT_EQ(0, special_now(&mask));
	EXPECT_EQ(topo_listed_special(), mask);
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_EQ(0, sysfs_read_u64(&val, NODE_DIR "/node%d/memattr/special", nid));
		EXPECT_EQ(has_node(topo_special(), nid), val) TH_LOG("node %d", nid);
	}
	if (s < 0)
		return;
	ASSERT_EQ(0, set_special(s, "0"));
	ASSERT_EQ(0, special_now(&mask));
	EXPECT_FALSE(has_node(mask, s));
	ASSERT_EQ(0, set_special(s, "1"));
	ASSERT_EQ(0, special_now(&mask));
	EXPECT_TRUE(has_node(mask, s));
	ASSERT_EQ(0, sysfs_read_u64(&val, NODE_DIR "/node%d/memattr/special", s));
	EXPECT_EQ(1, val);
}

/* With nothing changed, every node's order is 6.12's minus the special nodes. */
TEST_F(policy, distance_order_is_6_12)
{
	if (strcmp(self->order, "distance"))
		SKIP(return, "fallback_order is %s at boot", self->order);
	ASSERT_EQ(0, force_rebuild(self->spill));
	check_all_orders(_metadata, topo_special(), self->spill, false);
}

/* spill=never: a default-policy hog bigger than ordinary memory dies; none of it is special. */
TEST_F_TIMEOUT(policy, spill_never_oom, 300)
{
	int s = pick_special();
	unsigned long long special = topo_special() | 1ULL << s, base;
	struct hog h = { .mode = MPOL_DEFAULT, .cpu = -1 };
	struct hog_result r;
	char where[1024] = "";

	if (s < 0)
		SKIP(return, "topology %s has no node that can be made special", topo.name);
	if (ordinary_bytes(special) > MAX_FILL_BYTES)
		SKIP(return, "%llu MiB of ordinary memory is too much to fill quickly",
		     ordinary_bytes(special) / MIB);
	ASSERT_EQ(0, set_special(s, "1"));
	ASSERT_EQ(0, set_choice("spill", "never"));
	ASSERT_EQ(0, node_meminfo_kb(s, "AnonPages", &base));
	h.bytes = ordinary_bytes(special) + EXTRA_BYTES;
	ASSERT_EQ(0, run_hog(&h, s, "AnonPages", &r));
	ASSERT_FALSE(r.timed_out);
	if (r.reported)
		format_placement(where, sizeof(where), &r.where);
	EXPECT_TRUE(oom_killed_or_failed(r.status))
		TH_LOG("hog of %llu MiB survived (status 0x%x): %s", h.bytes / MIB,
		       r.status, where);
	EXPECT_GE(base + SLACK_KB, r.peak_kb)
		TH_LOG("node %d AnonPages rose from %llu to %llu kB", s, base, r.peak_kb);
}

/* Page cache of a tmpfs file (kernel allocations) stays off special nodes. */
TEST_F(policy, tmpfs_avoids_special)
{
	unsigned long long shmem0, file0, shmem1, file1;
	const char *path = "/tmp/memattr-fallback-policy";
	size_t bytes = EXTRA_BYTES, off, sum = 0;
	struct placement where;
	char buf[1 << 16], msg[1024];
	int s = pick_special(), fd;
	char *map;

	if (s < 0)
		SKIP(return, "topology %s has no node that can be made special", topo.name);
	ASSERT_EQ(0, set_special(s, "1"));
	ASSERT_EQ(0, set_choice("spill", "never"));
	ASSERT_EQ(0, node_meminfo_kb(s, "Shmem", &shmem0));
	ASSERT_EQ(0, node_meminfo_kb(s, "FilePages", &file0));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	unlink(path);
	memset(buf, 0x5a, sizeof(buf));
	for (off = 0; off < bytes; off += sizeof(buf)) {
		ASSERT_EQ(sizeof(buf), write(fd, buf, sizeof(buf)));
	}
	ASSERT_EQ(0, node_meminfo_kb(s, "Shmem", &shmem1));
	ASSERT_EQ(0, node_meminfo_kb(s, "FilePages", &file1));
	EXPECT_GE(shmem0 + SLACK_KB, shmem1);
	EXPECT_GE(file0 + SLACK_KB, file1);
	map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	/* move_pages(2) places only mapped pages: map each one first */
	for (off = 0; off < bytes; off += page_size)
		sum += ((volatile char *)map)[off];
	ASSERT_EQ(0x5a * (bytes / page_size), sum);
	ASSERT_EQ(0, locate_pages(map, bytes / page_size, &where));
	format_placement(msg, sizeof(msg), &where);
	EXPECT_EQ(0, where.bad) TH_LOG("tmpfs pages: %s", msg);
	EXPECT_EQ(0, where.per_node[s]) TH_LOG("tmpfs pages: %s", msg);
	munmap(map, bytes);
	close(fd);
}

/* spill=before_oom: the same hog completes, spilling only once ordinary memory ran out. */
TEST_F_TIMEOUT(policy, spill_before_oom, 300)
{
	int s = pick_special();
	unsigned long long special = topo_special() | 1ULL << s, ordinary;
	unsigned long long spill0, spill1, free0;
	struct hog h = { .mode = MPOL_DEFAULT, .cpu = -1 };
	struct hog_result r;
	char where[1024];

	if (s < 0)
		SKIP(return, "topology %s has no node that can be made special", topo.name);
	ordinary = ordinary_bytes(special);
	if (ordinary > MAX_FILL_BYTES)
		SKIP(return, "%llu MiB of ordinary memory is too much to fill quickly",
		     ordinary / MIB);
	if (topo.node[s].mem_bytes < 2 * EXTRA_BYTES)
		SKIP(return, "node %d is too small to take the spill", s);
	ASSERT_EQ(0, set_special(s, "1"));
	ASSERT_EQ(0, set_choice("spill", "before_oom"));
	ASSERT_EQ(0, vmstat_read("memattr_spill", &spill0))
		TH_LOG("/proc/vmstat has no memattr_spill");
	free0 = free_kb(~special);
	/* What is free, not the topology's size: the debug kernel's KASAN takes an eighth */
	h.bytes = free0 * 1024 + EXTRA_BYTES;
	ASSERT_EQ(0, run_hog(&h, s, "AnonPages", &r));
	ASSERT_FALSE(r.timed_out);
	ASSERT_TRUE(WIFEXITED(r.status) && !WEXITSTATUS(r.status))
		TH_LOG("hog of %llu MiB did not complete (status 0x%x)", h.bytes / MIB,
		       r.status);
	ASSERT_TRUE(r.reported);
	ASSERT_EQ(0, vmstat_read("memattr_spill", &spill1));
	format_placement(where, sizeof(where), &r.where);
	TH_LOG("%s; memattr_spill +%llu", where, spill1 - spill0);
	EXPECT_LT(0, r.where.per_node[s]);
	/* Every page was placed, so all before the first spilled one are ordinary ... */
	EXPECT_EQ(0, r.where.bad);
	/* ... and spilling began only when ordinary memory was (nearly) used up. */
	EXPECT_LE(free0 / 4 * 3, r.where.first[s] * (page_size / 1024))
		TH_LOG("first spilled page #%ld, ordinary memory free at start %llu kB",
		       r.where.first[s], free0);
	EXPECT_LE(r.where.per_node[s], spill1 - spill0);
}

static const struct {
	int mode;
	const char *name;
} explicit_modes[] = {
	{ MPOL_BIND, "MPOL_BIND" },
	{ MPOL_PREFERRED, "MPOL_PREFERRED" },
	{ MPOL_PREFERRED_MANY, "MPOL_PREFERRED_MANY" },
};

/* move_pages(2) of ordinary pages to @s lands them there. */
static void check_move_to(struct __test_metadata *_metadata, int s, const char *spill)
{
	long i, npages = SMALL_BYTES / page_size;
	void **pages = calloc(npages, sizeof(*pages));
	int *nodes = calloc(npages, sizeof(*nodes));
	int *status = calloc(npages, sizeof(*status));
	struct placement where;
	char msg[1024];
	char *p;

	ASSERT_TRUE(pages && nodes && status);
	/* move_pages(2) reports -EBUSY for the other subpages of a THP it moves. */
	p = touch_anon(SMALL_BYTES, true);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, locate_pages(p, npages, &where));
	EXPECT_EQ(0, where.per_node[s]);
	for (i = 0; i < npages; i++) {
		pages[i] = p + i * page_size;
		nodes[i] = s;
	}
	EXPECT_EQ(0, move_pages(0, npages, pages, nodes, status, MPOL_MF_MOVE))
		TH_LOG("move_pages to node %d: %s", s, strerror(errno));
	/* 6.12 reports a transient -EBUSY for a page or two: "try again later". */
	for (i = 0; i < npages; i++)
		if (status[i] == -EBUSY)
			move_pages(0, 1, &pages[i], &nodes[i], &status[i], MPOL_MF_MOVE);
	for (i = 0; i < npages && status[i] == s; i++)
		;
	EXPECT_EQ(npages, i) TH_LOG("spill=%s: page %ld status %d", spill, i,
				    i < npages ? status[i] : 0);
	ASSERT_EQ(0, locate_pages(p, npages, &where));
	format_placement(msg, sizeof(msg), &where);
	EXPECT_EQ(npages, where.per_node[s]) TH_LOG("after move_pages: %s", msg);
	munmap(p, SMALL_BYTES);
	free(pages);
	free(nodes);
	free(status);
}

/* Explicit policies naming a special node work from another node's CPU, in every spill mode. */
TEST_F_TIMEOUT(policy, explicit_policies, 60)
{
	int s = pick_special(), cpu = cpu_off_node(s), m, i;
	long npages = SMALL_BYTES / page_size;
	unsigned long mask = 1UL << s;
	struct placement where;
	struct hog_result r;
	char msg[1024];
	char *p;

	if (s < 0 || cpu < 0)
		SKIP(return, "topology %s has no special node and CPU elsewhere", topo.name);
	ASSERT_EQ(0, set_special(s, "1"));
	ASSERT_EQ(0, pin_to_cpu(cpu));
	for (m = 0; m < ARRAY_SIZE(spill_modes); m++) {
		ASSERT_EQ(0, set_choice("spill", spill_modes[m]));
		for (i = 0; i < ARRAY_SIZE(explicit_modes); i++) {
			struct hog h = { SMALL_BYTES, explicit_modes[i].mode, mask, cpu };

			p = mmap(NULL, SMALL_BYTES, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			ASSERT_NE(MAP_FAILED, p);
			ASSERT_EQ(0, mbind(p, SMALL_BYTES, explicit_modes[i].mode, &mask,
					   8 * sizeof(mask), 0))
				TH_LOG("mbind %s: %s", explicit_modes[i].name, strerror(errno));
			memset(p, 1, SMALL_BYTES);
			ASSERT_EQ(0, locate_pages(p, npages, &where));
			format_placement(msg, sizeof(msg), &where);
			EXPECT_EQ(npages, where.per_node[s])
				TH_LOG("mbind %s {%d} from CPU %d, spill=%s: %s",
				       explicit_modes[i].name, s, cpu, spill_modes[m], msg);
			munmap(p, SMALL_BYTES);

			ASSERT_EQ(0, run_hog(&h, -1, NULL, &r));
			EXPECT_TRUE(WIFEXITED(r.status) && !WEXITSTATUS(r.status))
				TH_LOG("set_mempolicy %s child: status 0x%x",
				       explicit_modes[i].name, r.status);
			if (!r.reported)
				continue;
			format_placement(msg, sizeof(msg), &r.where);
			EXPECT_EQ(npages, r.where.per_node[s])
				TH_LOG("set_mempolicy %s {%d} from CPU %d, spill=%s: %s",
				       explicit_modes[i].name, s, cpu, spill_modes[m], msg);
		}
		check_move_to(_metadata, s, spill_modes[m]);
	}
}

/* ---- the kernel log (kmsg.c) ---- */

/* Kernel warnings and bugs: how many, and the first. */
struct warn_lines {
	int count;				/* lines that look like a splat */
	char first[256];			/* the first of them */
};

static void warn_line(char *msg, void *ctx)
{
	struct warn_lines *w = ctx;

	if (!strstr(msg, "WARNING:") && !strstr(msg, "BUG:") &&
	    !strstr(msg, "Call Trace"))
		return;
	if (!w->count++)
		snprintf(w->first, sizeof(w->first), "%s", msg);
}

static void skip_line(char *msg, void *ctx)
{
}

/* Demotion never targets a special node: the kernel's targets, then a real reclaim. */
TEST_F_TIMEOUT(policy, demotion_avoids_special, 300)
{
	struct demotion_lines before, after;
	int s = pick_special(), c = -1, nid;
	unsigned long long seq, base;
	bool was_target = false;
	struct hog_result r;
	char msg[1024];

	if (s < 0)
		SKIP(return, "topology %s has no node that can be made special", topo.name);
	if (!self->demotion[0])
		SKIP(return, "no %s", DEMOTION_FILE);
	ASSERT_EQ(0, sysfs_write_str("1", DEMOTION_FILE));
	ASSERT_EQ(0, set_choice("spill", "never"));
	/* The targets now; then rebuilt with the node ordinary, then special. */
	ASSERT_EQ(0, kmsg_demotion(0, &before, &seq));
	if (has_node(topo_special(), s)) {
		ASSERT_EQ(0, set_special(s, "0"));
		ASSERT_EQ(0, kmsg_demotion(seq, &before, &seq));
		ASSERT_LT(0, before.lines)
			TH_LOG("no \"Demotion targets\" lines after node %d became ordinary", s);
	}
	ASSERT_EQ(0, set_special(s, "1"));
	ASSERT_EQ(0, kmsg_demotion(seq, &after, &seq));
	ASSERT_LT(0, after.lines)
		TH_LOG("no \"Demotion targets\" lines after node %d became special", s);
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		was_target |= has_node(before.targets[nid], s);
		EXPECT_FALSE(has_node(after.targets[nid], s))
			TH_LOG("node %d demotes to 0x%llx, special node %d included",
			       nid, after.targets[nid], s);
	}
	if (!was_target)
		TH_LOG("note: node %d was no demotion target even while ordinary", s);

	/* Real reclaim: fill a small CPU node through a binding; demotion must skip s. */
	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (nid != s && topo_has_cpus(nid) && after.targets[nid] &&
		    topo.node[nid].mem_bytes <= MAX_FILL_BYTES / 2)
			c = nid;
	if (c < 0) {
		TH_LOG("no small CPU node with demotion targets: no real reclaim");
		return;
	}
	{
		unsigned long long free;
		struct hog h = { 0, MPOL_BIND, 1UL << c, first_cpu(c) };

		/* what is free, not the topology's size (KASAN's shadow, ...) */
		ASSERT_EQ(0, node_meminfo_kb(c, "MemFree", &free));
		h.bytes = free * 1024 + EXTRA_BYTES;
		ASSERT_EQ(0, node_meminfo_kb(s, "AnonPages", &base));
		ASSERT_EQ(0, run_hog(&h, s, "AnonPages", &r));
	}
	ASSERT_FALSE(r.timed_out);
	EXPECT_GE(base + SLACK_KB, r.peak_kb)
		TH_LOG("node %d AnonPages rose from %llu to %llu kB", s, base, r.peak_kb);
	if (r.reported) {
		format_placement(msg, sizeof(msg), &r.where);
		TH_LOG("hog bound to node %d: %s", c, msg);
		EXPECT_EQ(0, r.where.per_node[s]);
	} else {
		TH_LOG("hog bound to node %d ended with status 0x%x (no demotion?)",
		       c, r.status);
	}
}

/* Toggling special while a workload allocates: no crash, no lost data, new setting obeyed. */
TEST_F_TIMEOUT(policy, toggle_while_allocating, 60)
{
	struct shared {
		int stop;		/* parent: finish (atomic) */
		long rounds;		/* child: chunks written and verified (atomic) */
		long errors;		/* child: words that came back wrong (atomic) */
	} *sh;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	size_t chunk = 4 * MIB, words = chunk / sizeof(long), i;
	int s = pick_special(), status, n, stale = 0;
	unsigned long long mask, seq;
	struct warn_lines warns = { 0 };
	struct placement where;
	char msg[1024];
	long *p;
	pid_t pid;

	if (s < 0)
		SKIP(return, "topology %s has no node that can be made special", topo.name);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		long round, errors;

		for (round = 0; !__atomic_load_n(&sh->stop, __ATOMIC_RELAXED); round++) {
			p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				_exit(HOG_NOMEM);
			for (i = 0; i < words; i++)
				p[i] = round << 32 ^ i;
			for (i = 0, errors = 0; i < words; i++)
				errors += p[i] != (round << 32 ^ i);
			munmap(p, chunk);
			__atomic_add_fetch(&sh->errors, errors, __ATOMIC_RELAXED);
			__atomic_store_n(&sh->rounds, round + 1, __ATOMIC_RELAXED);
		}
		_exit(0);
	}
	ASSERT_EQ(0, kmsg_each(0, &seq, skip_line, NULL));
	for (n = 0; n < 50; n++) {
		EXPECT_EQ(0, set_special(s, n & 1 ? "0" : "1"));
		/* Each write must take effect by itself, with nothing else rebuilding. */
		if (special_now(&mask) || has_node(mask, s) != !(n & 1))
			stale++;
		nanosleep(&pause, NULL);
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	EXPECT_EQ(0, stale) TH_LOG("%d of 50 writes to node%d/memattr/special not reflected in %s",
				   stale, s, NODE_DIR "/special");
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("status 0x%x", status);
	EXPECT_LT(0, sh->rounds);
	EXPECT_EQ(0, sh->errors)
		TH_LOG("%ld corrupt words in %ld rounds", sh->errors, sh->rounds);
	ASSERT_EQ(0, kmsg_each(seq, &seq, warn_line, &warns));
	EXPECT_EQ(0, warns.count) TH_LOG("kernel log: %s", warns.first);

	/* Now special and spill=never: new default allocations avoid it. */
	ASSERT_EQ(0, set_special(s, "1"));
	ASSERT_EQ(0, set_choice("spill", "never"));
	ASSERT_EQ(0, special_now(&mask));
	EXPECT_TRUE(has_node(mask, s));
	p = (long *)touch_anon(8 * SMALL_BYTES, false);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, locate_pages((char *)p, 8 * SMALL_BYTES / page_size, &where));
	format_placement(msg, sizeof(msg), &where);
	EXPECT_EQ(0, where.per_node[s]) TH_LOG("%s", msg);
	EXPECT_EQ(0, where.bad) TH_LOG("%s", msg);
	munmap(p, 8 * SMALL_BYTES);
	munmap(sh, sizeof(*sh));
}

/*
 * A task bound to one node allocates all along while that node becomes
 * special and ordinary again, many times over. A request that chose its
 * zonelist just before the node became special (the static key still off)
 * must find the node once its slow path restarts after the rebuild: it may
 * neither fail (an OOM kill of the bound task) nor be taken for a spill.
 */
TEST_F_TIMEOUT(policy, bound_while_special_toggles, 120)
{
	struct shared {
		int stop;		/* parent: finish (atomic) */
		long rounds;		/* child: chunks written (atomic) */
		long elsewhere;		/* child: pages found off the node (atomic) */
	} *sh;
	unsigned long long spill_before, spill_after;
	int s = pick_special(), status, n;
	size_t chunk = MIB, i;
	pid_t pid;

	if (s < 0)
		SKIP(return, "topology %s has no node that can be made special", topo.name);
	ASSERT_EQ(0, set_choice("spill", "before_oom"));
	ASSERT_EQ(0, vmstat_read("memattr_spill", &spill_before));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		unsigned long mask = 1UL << s;
		struct placement where;
		char *p;

		if (set_mempolicy(MPOL_BIND, &mask, sizeof(mask) * 8))
			_exit(HOG_POLICY);
		while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
			p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				_exit(HOG_NOMEM);
			for (i = 0; i < chunk; i += page_size)
				p[i] = 1;
			if (locate_pages(p, chunk / page_size, &where))
				_exit(HOG_LOCATE);
			__atomic_add_fetch(&sh->elsewhere,
					   chunk / page_size - where.per_node[s],
					   __ATOMIC_RELAXED);
			munmap(p, chunk);
			__atomic_add_fetch(&sh->rounds, 1, __ATOMIC_RELAXED);
		}
		_exit(0);
	}
	for (n = 0; n < 100; n++)
		EXPECT_EQ(0, set_special(s, n & 1 ? "0" : "1"));
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, vmstat_read("memattr_spill", &spill_after));
	TH_LOG("bound to node %d through 100 changes: %ld MiB written, %ld pages elsewhere, %llu spilled, status %#x",
	       s, sh->rounds, sh->elsewhere, spill_after - spill_before, status);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_LT(0, sh->rounds);
	EXPECT_EQ(0, sh->elsewhere);
	EXPECT_EQ(spill_before, spill_after);
	munmap(sh, sizeof(*sh));
}

/*
 * Two memory-only nodes closer to each other than to any CPU node (accelerators
 * with a fast link): *a, *b, and the CPU node nearest *a as *c. False if none.
 */
static bool find_peers(int *a, int *b, int *c)
{
	int i, j, n, near;

	for (i = 0; i < topo.nr_nodes; i++) {
		for (j = 0; j < topo.nr_nodes; j++) {
			if (i == j || topo_has_cpus(i) || topo_has_cpus(j))
				continue;
			near = -1;
			for (n = 0; n < topo.nr_nodes; n++) {
				if (!topo_has_cpus(n))
					continue;
				if (near < 0 ||
				    topo.node[i].distance[n] < topo.node[i].distance[near])
					near = n;
			}
			if (near < 0 || topo.node[i].distance[j] >= topo.node[i].distance[near] ||
			    topo.node[j].distance[i] >= topo.node[j].distance[near])
				continue;
			*a = i;
			*b = j;
			*c = near;
			return true;
		}
	}
	return false;
}

/* Set @a's prefix to {@first}, check the file, overflow @a, see where it goes. */
static void check_peer_overflow(struct __test_metadata *_metadata, int a, int first,
				int other, int cpu, unsigned long long special)
{
	int order[TOPO_MAX_NODES], nr;
	char val[16], want[256], got[256], msg[1024];
	unsigned long long total_kb;
	struct hog_result r;
	struct hog h = { 0, MPOL_PREFERRED, 1UL << a, cpu };

	snprintf(val, sizeof(val), "%d", first);
	ASSERT_EQ(0, set_fallback(a, val));
	nr = expected_order(a, &first, 1, special, false, false, order);
	format_order(want, sizeof(want), order, nr);
	ASSERT_LE(0, read_fallback(got, sizeof(got), a));
	EXPECT_STREQ(want, got) TH_LOG("node %d fallback after writing \"%s\"", a, val);

	ASSERT_EQ(0, node_meminfo_kb(a, "MemTotal", &total_kb));
	h.bytes = total_kb * 1024 + EXTRA_BYTES;
	ASSERT_EQ(0, run_hog(&h, -1, NULL, &r));
	ASSERT_FALSE(r.timed_out);
	ASSERT_TRUE(WIFEXITED(r.status) && !WEXITSTATUS(r.status))
		TH_LOG("MPOL_PREFERRED {%d} hog: status 0x%x", a, r.status);
	ASSERT_TRUE(r.reported);
	format_placement(msg, sizeof(msg), &r.where);
	EXPECT_EQ(first, first_other_node(&r.where, a))
		TH_LOG("fallback \"%s\": %s", got, msg);
	EXPECT_EQ(0, r.where.per_node[other]) TH_LOG("fallback \"%s\": %s", got, msg);
}

/* gpu-peers: an accelerator node that fills up continues on its peer when told to. */
TEST_F_TIMEOUT(policy, peer_fallback, 90)
{
	int a, b, c;
	unsigned long long special, total_kb;

	if (!find_peers(&a, &b, &c))
		SKIP(return, "topology %s has no pair of close memory-only nodes", topo.name);
	ASSERT_EQ(0, node_meminfo_kb(a, "MemTotal", &total_kb));
	if (total_kb * 1024 > MAX_FILL_BYTES ||
	    free_kb(1ULL << b) < 2 * EXTRA_BYTES / 1024 ||
	    free_kb(1ULL << c) < 2 * EXTRA_BYTES / 1024)
		SKIP(return, "nodes %d/%d/%d too big or too full", a, b, c);
	special = topo_special() | 1ULL << a | 1ULL << b;
	ASSERT_EQ(0, set_special(a, "1"));
	ASSERT_EQ(0, set_special(b, "1"));
	ASSERT_EQ(0, set_choice("spill", "never"));
	check_peer_overflow(_metadata, a, b, c, first_cpu(c), special);
	check_peer_overflow(_metadata, a, c, b, first_cpu(c), special);
}

/* Bad fallback writes fail with EINVAL and change nothing. */
TEST_F(policy, fallback_invalid_writes)
{
	char before[256], after[256], bad[5][32];
	int nid = 0, other = topo.nr_nodes > 1 ? 1 : 0, i;

	snprintf(bad[0], sizeof(bad[0]), "%d", topo.nr_nodes > 9 ? topo.nr_nodes : 9);
	snprintf(bad[1], sizeof(bad[1]), "%d %d", other, other);
	snprintf(bad[2], sizeof(bad[2]), "abc");
	snprintf(bad[3], sizeof(bad[3]), "%d abc", other);
	snprintf(bad[4], sizeof(bad[4]), "-1");
	ASSERT_LE(0, read_fallback(before, sizeof(before), nid));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		EXPECT_EQ(-1, set_fallback(nid, bad[i])) TH_LOG("\"%s\" accepted", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("\"%s\": %s", bad[i], strerror(errno));
		ASSERT_LE(0, read_fallback(after, sizeof(after), nid));
		EXPECT_STREQ(before, after) TH_LOG("after \"%s\"", bad[i]);
	}
}

/*
 * The documented performance rule, as a property of the list rather than
 * a way to build it: after the node itself come exactly the ordinary nodes
 * (and, with spill=always, the special ones after them), and each node is
 * no worse than the next by (latency known, lower read latency, higher
 * read bandwidth, shorter distance). Ties the rule leaves open may come
 * in any order. Independent of how the kernel sorts.
 */
static int rule_compare(int local, int a, int b)
{
	unsigned long long la = perf_seen(local, a, TOPO_READ_LATENCY);
	unsigned long long lb = perf_seen(local, b, TOPO_READ_LATENCY);
	unsigned long long ba = perf_seen(local, a, TOPO_READ_BANDWIDTH);
	unsigned long long bb = perf_seen(local, b, TOPO_READ_BANDWIDTH);
	int da = topo.node[local].distance[a], db = topo.node[local].distance[b];

	if (!la != !lb)
		return la ? -1 : 1;		/* unknown latency goes last */
	if (la != lb)
		return la < lb ? -1 : 1;
	if (ba != bb)
		return ba > bb ? -1 : 1;
	return da < db ? -1 : da > db;
}

static void check_documented_rule(struct __test_metadata *_metadata,
				  unsigned long long special, bool always)
{
	int nid, n, nr, list[TOPO_MAX_NODES], i;
	unsigned long long seen, want;
	char buf[256], *tok, *save;

	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_LE(0, read_fallback(buf, sizeof(buf), nid));
		nr = 0;
		for (tok = strtok_r(buf, " \n", &save); tok && nr < TOPO_MAX_NODES;
		     tok = strtok_r(NULL, " \n", &save))
			list[nr++] = atoi(tok);
		ASSERT_LT(0, nr);
		EXPECT_EQ(nid, list[0]) TH_LOG("node %d's list starts with %d", nid, list[0]);
		want = 0;
		for (n = 0; n < topo.nr_nodes; n++)
			if (n != nid && (always || !has_node(special, n)))
				want |= 1ULL << n;
		seen = 0;
		for (i = 1; i < nr; i++)
			seen |= 1ULL << list[i];
		EXPECT_EQ(want, seen)
			TH_LOG("node %d: the list holds 0x%llx, the rule 0x%llx", nid, seen, want);
		for (i = 2; i < nr; i++) {
			/* special nodes (spill=always) form their own run at the end */
			if (has_node(special, list[i]) != has_node(special, list[i - 1])) {
				EXPECT_TRUE(has_node(special, list[i]))
					TH_LOG("node %d: ordinary %d after special %d", nid,
					       list[i], list[i - 1]);
				continue;
			}
			EXPECT_GE(0, rule_compare(nid, list[i - 1], list[i]))
				TH_LOG("node %d: %d before %d breaks the documented rule",
				       nid, list[i - 1], list[i]);
		}
	}
}

/* fallback_order=performance sorts by the booted HMAT values; distance restores 6.12. */
TEST_F(policy, performance_order)
{
	char saved[TOPO_MAX_NODES][256], got[256];
	int nid;

	if (!topo.hmat)
		SKIP(return, "topology %s has no HMAT", topo.name);
	ASSERT_EQ(0, force_rebuild(self->spill));
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_LE(0, read_fallback(saved[nid], sizeof(saved[nid]), nid));
	}
	ASSERT_EQ(0, set_choice("fallback_order", "performance"));
	check_all_orders(_metadata, topo_special(), self->spill, true);
	check_documented_rule(_metadata, topo_special(), !strcmp(self->spill, "always"));
	ASSERT_EQ(0, set_choice("fallback_order", "distance"));
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_LE(0, read_fallback(got, sizeof(got), nid));
		EXPECT_STREQ(saved[nid], got) TH_LOG("node %d after going back to distance",
						     nid);
	}
}

static void check_choices(struct __test_metadata *_metadata, const char *file,
			  const char *const *names, int nr, const char *active)
{
	char want[256], got[256];
	int i, off = 0;

	for (i = 0; i < nr; i++)
		off += snprintf(want + off, sizeof(want) - off,
				strcmp(names[i], active) ? "%s%s" : "%s[%s]",
				i ? " " : "", names[i]);
	ASSERT_LE(0, sysfs_read_str(got, sizeof(got), POLICY_DIR "/%s", file));
	EXPECT_STREQ(want, got);
}

/* Spill modes as the fallback files show them; junk and non-root writes refused. */
TEST_F(policy, spill_modes)
{
	static const char *const junk[] = { "junk", "\n", "never always", "[never]" };
	int s = pick_special(), m, i;
	unsigned long long special;

	if (s < 0)
		SKIP(return, "topology %s has no node that can be made special", topo.name);
	ASSERT_EQ(0, set_special(s, "1"));
	special = topo_special() | 1ULL << s;
	for (m = 0; m < ARRAY_SIZE(spill_modes); m++) {
		ASSERT_EQ(0, set_choice("spill", spill_modes[m]));
		check_choices(_metadata, "spill", spill_modes, ARRAY_SIZE(spill_modes),
			      spill_modes[m]);
		check_all_orders(_metadata, special, spill_modes[m], false);
	}
	for (i = 0; i < ARRAY_SIZE(junk); i++) {
		errno = 0;
		EXPECT_EQ(-1, set_choice("spill", junk[i])) TH_LOG("spill \"%s\"", junk[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("spill \"%s\": %s", junk[i], strerror(errno));
		errno = 0;
		EXPECT_EQ(-1, set_choice("fallback_order", junk[i]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("fallback_order \"%s\": %s", junk[i],
						strerror(errno));
	}
	check_choices(_metadata, "spill", spill_modes, ARRAY_SIZE(spill_modes), "always");
	check_choices(_metadata, "fallback_order", order_modes, ARRAY_SIZE(order_modes),
		      self->order);
}

/* Only root may change the policy. */
TEST_F(policy, unprivileged_writes)
{
	char paths[4][128], before[4][256], after[256];
	int s = pick_special(), status, i;
	const char *val[4] = { "always", "performance", "1", "auto" };
	pid_t pid;

	if (s < 0)
		s = topo.nr_nodes - 1;
	snprintf(paths[0], sizeof(paths[0]), POLICY_DIR "/spill");
	snprintf(paths[1], sizeof(paths[1]), POLICY_DIR "/fallback_order");
	snprintf(paths[2], sizeof(paths[2]), NODE_DIR "/node%d/memattr/special", s);
	snprintf(paths[3], sizeof(paths[3]), NODE_DIR "/node%d/memattr/fallback", 0);
	for (i = 0; i < 4; i++) {
		ASSERT_LE(0, sysfs_read_str(before[i], sizeof(before[i]), "%s", paths[i]));
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int bad = 0;

		if (setgid(65534) || setuid(65534))
			_exit(100);
		for (i = 0; i < 4; i++)
			if (!sysfs_write_str(val[i], "%s", paths[i]) ||
			    (errno != EACCES && errno != EPERM))
				bad |= 1 << i;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("writes that were not refused: mask 0x%x",
						 WEXITSTATUS(status));
	for (i = 0; i < 4; i++) {
		ASSERT_LE(0, sysfs_read_str(after, sizeof(after), "%s", paths[i]));
		EXPECT_STREQ(before[i], after) TH_LOG("%s", paths[i]);
	}
}

TEST_HARNESS_MAIN
