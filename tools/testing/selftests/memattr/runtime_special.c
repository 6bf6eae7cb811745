// SPDX-License-Identifier: GPL-2.0
/*
 * Special memory that arrives at run time, as on real hardware: EFI
 * specific-purpose memory handed to dax/kmem, an NVDIMM made system RAM, a
 * DIMM that ACPI memory hotplug added, a
 * node the boot parameter named before it had memory, a node an
 * administrator marks before or after its memory arrives. Whichever way,
 * /sys/devices/system/node/special must list it, the other nodes' fallback
 * lists must leave it out, and mbind() from a CPU of another node must
 * place every page there (move_pages(2) status), default-policy memory and
 * page cache must not go there, no node may demote to it; offlining and
 * onlining again must keep it so, under each order and spill mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fwmem.h"
#include "kmsg.h"
#include "topology.h"

#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY	5
#endif

#define POLICY_DIR	"/sys/kernel/mm/memattr"
#define DAEMON_DIR	"/sys/kernel/mm/memattr/daemon"
#define BYTES		(8ULL << 20)	/* each explicit allocation */

static const struct {
	int mode;
	const char *name;
} explicit_modes[] = {
	{ MPOL_BIND, "MPOL_BIND" },
	{ MPOL_PREFERRED, "MPOL_PREFERRED" },
	{ MPOL_PREFERRED_MANY, "MPOL_PREFERRED_MANY" },
};

/* The special nodes the kernel lists now; 0 or -1. */
static int special_now(unsigned long long *mask)
{
	char buf[256];

	if (sysfs_read_str(buf, sizeof(buf), NODE_DIR "/special") < 0)
		return -1;
	return topo_parse_list(buf, mask);
}

/* Position of @node in @nid's fallback list, -1 if absent, -2 on error. */
static int fallback_position(int nid, int node)
{
	char buf[512], *tok, *save;
	int pos = 0;

	if (sysfs_read_str(buf, sizeof(buf), NODE_DIR "/node%d/memattr/fallback", nid) < 0)
		return -2;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save), pos++)
		if (atoi(tok) == node)
			return pos;
	return -1;
}

/* Number of entries in @nid's fallback list, -1 on error. */
static int fallback_length(int nid)
{
	char buf[512], *tok, *save;
	int nr = 0;

	if (sysfs_read_str(buf, sizeof(buf), NODE_DIR "/node%d/memattr/fallback", nid) < 0)
		return -1;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		nr++;
	return nr;
}

/* Pages of [@p, @p + @bytes) on @nid, by move_pages(2) status; -1 on error. */
static long pages_on(char *p, size_t bytes, int nid)
{
	long i, npages = bytes / getpagesize(), on = 0;
	void **pages = calloc(npages, sizeof(*pages));
	int *status = calloc(npages, sizeof(*status));

	if (!pages || !status) {
		free(pages);
		free(status);
		return -1;
	}
	for (i = 0; i < npages; i++)
		pages[i] = p + i * getpagesize();
	if (move_pages(0, npages, pages, NULL, status, 0))
		on = -1;
	for (i = 0; on >= 0 && i < npages; i++)
		on += status[i] == nid;
	free(pages);
	free(status);
	return on;
}

/* Fault in BYTES under @mode {@nid}; pages that landed on @nid, or -1. */
static long explicit_alloc(int mode, int nid)
{
	unsigned long mask = 1UL << nid;
	long on;
	char *p;

	p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	if (mbind(p, BYTES, mode, &mask, 8 * sizeof(mask), 0)) {
		munmap(p, BYTES);
		return -1;
	}
	memset(p, 0x5a, BYTES);
	on = pages_on(p, BYTES, nid);
	munmap(p, BYTES);
	return on;
}

FIXTURE(runtime) {
	struct topo topo;			/* the booted topology */
	struct topo_fw_mem fw[TOPO_MAX_FW_MEM];	/* its nvdimm, efi_sp, dimm lines */
	int nr_fw;				/* how many */
	char onlined[TOPO_MAX_FW_MEM][NAME_LEN];	/* dax devices, "dimm": to take away */
	unsigned long long marked;		/* nodes this test wrote special to */
	char scan_interval[32];			/* kmemattrd's, if this test started it */
};

/* The order and spill mode each test runs under. */
FIXTURE_VARIANT(runtime) {
	const char *order;			/* fallback_order */
	const char *spill;			/* spill */
};

FIXTURE_VARIANT_ADD(runtime, distance) { .order = "distance", .spill = "before_oom" };
FIXTURE_VARIANT_ADD(runtime, performance) { .order = "performance", .spill = "before_oom" };
FIXTURE_VARIANT_ADD(runtime, spill_never) { .order = "distance", .spill = "never" };
FIXTURE_VARIANT_ADD(runtime, spill_always) { .order = "performance", .spill = "always" };

/* What every run-time test starts from; skips when nothing arrives here. */
static void runtime_begin(struct __test_metadata *_metadata, FIXTURE_DATA(runtime) *self)
{
	memset(self->onlined, 0, sizeof(self->onlined));
	self->marked = 0;
	self->scan_interval[0] = 0;
	if (topo_load(&self->topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s", strerror(errno));
	self->nr_fw = topo_load_fw_mem(self->fw, TOPO_MAX_FW_MEM, NULL);
	ASSERT_LE(0, self->nr_fw);
	if (!self->nr_fw)
		SKIP(return, "topology %s has no memory that arrives at run time",
		     self->topo.name);
}

/* Take back what the test brought in and wrote, kmemattrd's knobs too. */
static void runtime_end(struct __test_metadata *_metadata, FIXTURE_DATA(runtime) *self)
{
	int i;

	_metadata->trigger = 0;
	if (self->scan_interval[0]) {
		sysfs_write_str("0", DAEMON_DIR "/enabled");
		sysfs_write_str(self->scan_interval, DAEMON_DIR "/scan_interval_ms");
	}
	for (i = 0; i < self->nr_fw; i++) {
		if (!self->onlined[i][0])
			continue;
		if (self->fw[i].kind == TOPO_FW_DIMM) {
			/* ACPI added it; only an eject from the host removes it */
			EXPECT_LE(0, set_node_blocks(self->fw[i].node, "offline"));
			continue;
		}
		EXPECT_EQ(0, system_ram_away(self->fw[i].node, self->onlined[i]))
			TH_LOG("taking %s (node %d) away again: %s", self->onlined[i],
			       self->fw[i].node, strerror(errno));
	}
	for (i = 0; i < TOPO_MAX_NODES; i++)
		if (self->marked >> i & 1)
			sysfs_write_str("auto", NODE_DIR "/node%d/memattr/special", i);
	sysfs_write_str("distance", POLICY_DIR "/fallback_order");
	sysfs_write_str("before_oom", POLICY_DIR "/spill");
}

FIXTURE_SETUP(runtime)
{
	runtime_begin(_metadata, self);
	if (_metadata->exit_code == KSFT_SKIP)
		return;
	/* Before any memory arrives: the onlining must cope with both. */
	ASSERT_EQ(0, sysfs_write_str(variant->order, POLICY_DIR "/fallback_order"));
	ASSERT_EQ(0, sysfs_write_str(variant->spill, POLICY_DIR "/spill"));
}

FIXTURE_TEARDOWN(runtime)
{
	runtime_end(_metadata, self);
}

/* The first fw line of @kind, or -1. */
static int find_fw(FIXTURE_DATA(runtime) *self, enum topo_fw_kind kind)
{
	int i;

	for (i = 0; i < self->nr_fw; i++)
		if (self->fw[i].kind == kind)
			return i;
	return -1;
}

/* Whether the topology's boot parameter makes fw line @i's node special. */
static bool special_from_boot(FIXTURE_DATA(runtime) *self, int i)
{
	return self->topo.node[self->fw[i].node].memattr[TOPO_MA_SPECIAL] == 1;
}

/*
 * The first fw line whose node only an administrator would make special:
 * an NVDIMM or a hot-added DIMM the boot parameter leaves alone; or -1.
 */
static int find_unmarked(FIXTURE_DATA(runtime) *self)
{
	int i;

	for (i = 0; i < self->nr_fw; i++)
		if (self->fw[i].kind != TOPO_FW_EFI_SP && !special_from_boot(self, i))
			return i;
	return -1;
}

/* Bring fw line @i's memory into the page allocator, movable. */
static void online_fw(struct __test_metadata *_metadata, FIXTURE_DATA(runtime) *self, int i)
{
	const struct topo_fw_mem *fw = &self->fw[i];
	const char *why = "";
	char dev[NAME_LEN];

	if (fw->kind == TOPO_FW_DIMM) {
		/* ACPI memory hotplug added its blocks at boot, offline */
		snprintf(self->onlined[i], NAME_LEN, "dimm");
		ASSERT_LT(0, set_node_blocks(fw->node, "online_movable"))
			TH_LOG("node %d: onlining the dimm's blocks: %s", fw->node,
			       strerror(errno));
		ASSERT_LT(0, node_mem_total(fw->node));
		return;
	}
	/* An NVDIMM needs its device-dax instance once; later tests reuse it. */
	if (fw->kind == TOPO_FW_NVDIMM && dax_to_kmem(fw->node, dev, sizeof(dev), &why))
		ASSERT_EQ(0, nvdimm_to_devdax(fw, &why))
			TH_LOG("node %d nvdimm to devdax: %s: %s", fw->node, why, strerror(errno));
	ASSERT_EQ(0, dax_to_kmem(fw->node, dev, sizeof(dev), &why))
		TH_LOG("node %d: %s: %s", fw->node, why, strerror(errno));
	memcpy(self->onlined[i], dev, NAME_LEN);
	ASSERT_LT(0, set_node_blocks(fw->node, "online_movable"))
		TH_LOG("node %d: onlining its memory blocks: %s", fw->node, strerror(errno));
	ASSERT_LT(0, node_mem_total(fw->node));
}

/*
 * Default-policy anonymous memory and tmpfs page cache from a CPU of
 * another node: pages of each on @nid, or -1.
 */
static long implicit_alloc(int nid, bool page_cache)
{
	const char *path = "/tmp/memattr-runtime-special";
	size_t off;
	long on;
	char *p;
	int fd = -1;

	if (page_cache) {
		static char buf[BYTES];

		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			return -1;
		unlink(path);
		memset(buf, 0x5a, sizeof(buf));
		if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
			close(fd);
			return -1;
		}
		p = mmap(NULL, BYTES, PROT_READ, MAP_SHARED, fd, 0);
	} else {
		p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			memset(p, 0x5a, BYTES);
	}
	if (p == MAP_FAILED) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* move_pages(2) places mapped pages only: map every page */
	for (off = 0; off < BYTES; off += getpagesize())
		(void)((volatile char *)p)[off];
	on = pages_on(p, BYTES, nid);
	munmap(p, BYTES);
	if (fd >= 0)
		close(fd);
	return on;
}

/* No node's demotion targets, as the kernel last logged them, include @s. */
static void check_not_demotion_target(struct __test_metadata *_metadata, int s,
				      const char *when)
{
	struct demotion_lines d;
	unsigned long long seq;
	int nid;

	ASSERT_EQ(0, kmsg_demotion(0, &d, &seq)) TH_LOG("reading /dev/kmsg");
	for (nid = 0; nid < TOPO_MAX_NODES; nid++) {
		unsigned long long targets = d.targets[nid];

		EXPECT_FALSE(targets >> s & 1)
			TH_LOG("%s: node %d demotes to special node %d (targets %#llx)", when,
			       nid, s, targets);
	}
}

/* Whether allocations see @s as special, checked from outside. */
static void check_special(struct __test_metadata *_metadata,
			  FIXTURE_DATA(runtime) *self,
			  const FIXTURE_VARIANT(runtime) *variant, int s, const char *when)
{
	unsigned long long special;
	int nid, pos, i;
	long on;

	ASSERT_EQ(0, special_now(&special)) TH_LOG("%s: reading node/special", when);
	EXPECT_TRUE(special >> s & 1)
		TH_LOG("%s: node/special is %#llx, node %d missing", when, special, s);
	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		if (nid == s || !node_mem_total(nid))
			continue;
		pos = fallback_position(nid, s);
		ASSERT_NE(-2, pos) TH_LOG("node %d fallback", nid);
		if (!strcmp(variant->spill, "always")) {
			EXPECT_EQ(fallback_length(nid) - 1, pos)
				TH_LOG("%s: spill=always: node %d should end node %d's list",
				       when, s, nid);
		} else {
			EXPECT_EQ(-1, pos)
				TH_LOG("%s: node %d is in node %d's fallback list", when, s, nid);
		}
	}
	check_not_demotion_target(_metadata, s, when);
	EXPECT_EQ(0, implicit_alloc(s, false))
		TH_LOG("%s: default-policy memory on node %d", when, s);
	EXPECT_EQ(0, implicit_alloc(s, true)) TH_LOG("%s: page cache on node %d", when, s);
	/* Every CPU of the booted topologies sits on another node. */
	for (i = 0; i < ARRAY_SIZE(explicit_modes); i++) {
		on = explicit_alloc(explicit_modes[i].mode, s);
		EXPECT_EQ((long)(BYTES / getpagesize()), on)
			TH_LOG("%s: %s {%d}: %ld of %llu pages there (%s)", when,
			       explicit_modes[i].name, s, on, BYTES / getpagesize(),
			       strerror(errno));
	}
}

/* @s is an ordinary node again: listed nowhere as special, in every list. */
static void check_ordinary(struct __test_metadata *_metadata,
			   FIXTURE_DATA(runtime) *self, int s, const char *when)
{
	unsigned long long special;
	int nid;

	ASSERT_EQ(0, special_now(&special));
	EXPECT_FALSE(special >> s & 1)
		TH_LOG("%s: node/special is %#llx, still lists node %d", when, special, s);
	if (!node_mem_total(s))
		return;
	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		if (nid == s || !node_mem_total(nid))
			continue;
		EXPECT_LE(0, fallback_position(nid, s))
			TH_LOG("%s: node %d missing from node %d's fallback list", when, s, nid);
	}
}

/* Offline the node's memory and online it again: nothing may change. */
static void cycle_blocks(struct __test_metadata *_metadata, int nid)
{
	ASSERT_LT(0, set_node_blocks(nid, "offline"))
		TH_LOG("offlining node %d: %s", nid, strerror(errno));
	EXPECT_EQ(0, node_mem_total(nid) >> 20) TH_LOG("node %d still has memory", nid);
	ASSERT_LT(0, set_node_blocks(nid, "online_movable"))
		TH_LOG("onlining node %d again: %s", nid, strerror(errno));
}

/*
 * An administrator's mark on @s holds now and across offline and online,
 * and "auto" makes the node ordinary again.
 */
static void check_marked_then_cleared(struct __test_metadata *_metadata,
				      FIXTURE_DATA(runtime) *self,
				      const FIXTURE_VARIANT(runtime) *variant, int s,
				      const char *when)
{
	check_special(_metadata, self, variant, s, when);
	cycle_blocks(_metadata, s);
	check_special(_metadata, self, variant, s, "offlined and onlined again");
	ASSERT_EQ(0, sysfs_write_str("auto", NODE_DIR "/node%d/memattr/special", s));
	check_ordinary(_metadata, self, s, "after special=auto");
}

/* EFI specific-purpose memory through dax/kmem: special from efi. */
TEST_F_TIMEOUT(runtime, efi_sp_through_kmem, 120)
{
	int i = find_fw(self, TOPO_FW_EFI_SP), s;

	if (i < 0)
		SKIP(return, "topology %s has no efi_sp memory", self->topo.name);
	s = self->fw[i].node;
	online_fw(_metadata, self, i);
	check_special(_metadata, self, variant, s, "after kmem onlined it");
	cycle_blocks(_metadata, s);
	check_special(_metadata, self, variant, s, "offlined and onlined again");

	/* kmem drops its mark when the memory goes away */
	ASSERT_EQ(0, system_ram_away(s, self->onlined[i]));
	self->onlined[i][0] = '\0';
	check_ordinary(_metadata, self, s, "after kmem let the memory go");
}

/*
 * An administrator marks a node while it has no memory: kmem or ACPI added
 * the blocks but they are offline (the node device exists only once memory
 * was added), then the blocks go online.
 */
TEST_F_TIMEOUT(runtime, admin_before_online, 120)
{
	int i = find_unmarked(self), s;

	if (i < 0)
		SKIP(return, "topology %s has no nvdimm or dimm left unmarked at boot",
		     self->topo.name);
	s = self->fw[i].node;
	online_fw(_metadata, self, i);
	ASSERT_LT(0, set_node_blocks(s, "offline"));
	ASSERT_EQ(0, node_mem_total(s) >> 20) TH_LOG("node %d still has memory", s);
	self->marked |= 1ULL << s;
	ASSERT_EQ(0, sysfs_write_str("1", NODE_DIR "/node%d/memattr/special", s));
	ASSERT_LT(0, set_node_blocks(s, "online_movable"));
	check_marked_then_cleared(_metadata, self, variant, s, "marked while empty, then onlined");
}

/* An administrator marks a node whose memory is already in use. */
TEST_F_TIMEOUT(runtime, admin_after_online, 120)
{
	int i = find_unmarked(self), s;

	if (i < 0)
		SKIP(return, "topology %s has no nvdimm or dimm left unmarked at boot",
		     self->topo.name);
	s = self->fw[i].node;
	online_fw(_metadata, self, i);
	check_ordinary(_metadata, self, s, "onlined, not marked");
	self->marked |= 1ULL << s;
	ASSERT_EQ(0, sysfs_write_str("1", NODE_DIR "/node%d/memattr/special", s));
	check_marked_then_cleared(_metadata, self, variant, s, "onlined, then marked");
}

/* memattr=<node>:special for a node that has no memory at boot. */
TEST_F_TIMEOUT(runtime, cmdline_before_memory, 120)
{
	int i, s = -1;

	for (i = 0; i < self->nr_fw && s < 0; i++)
		if (special_from_boot(self, i))
			s = self->fw[i].node;
	if (s < 0)
		SKIP(return, "topology %s names no run-time node special on the command line",
		     self->topo.name);
	EXPECT_EQ(0, node_mem_total(s)) TH_LOG("node %d has memory at boot", s);
	online_fw(_metadata, self, i - 1);
	check_special(_metadata, self, variant, s, "named at boot, onlined now");
	cycle_blocks(_metadata, s);
	check_special(_metadata, self, variant, s, "offlined and onlined again");
}

/*
 * The node of the CPUs this test runs on: the topologies with memory that
 * arrives at run time have their CPUs on one node.
 */
static int cpu_node(FIXTURE_DATA(runtime) *self)
{
	int nid;

	for (nid = 0; nid < self->topo.nr_nodes; nid++)
		if (self->topo.node[nid].cpus[0])
			return nid;
	return 0;
}

/* Count the kernel's "no ordinary memory left" / "is back" lines for a node. */
struct starved_lines {
	int nid;		/* the node asked about */
	int left;		/* "node N: no ordinary memory left" */
	int back;		/* "node N: ordinary memory is back" */
};

static void starved_line(char *msg, void *ctx)
{
	struct starved_lines *l = ctx;
	char want[64];

	snprintf(want, sizeof(want), "node %d: no ordinary memory left", l->nid);
	if (strstr(msg, want))
		l->left++;
	snprintf(want, sizeof(want), "node %d: ordinary memory is back", l->nid);
	if (strstr(msg, want))
		l->back++;
}

/*
 * The last ordinary memory goes offline while every other node with memory
 * is special (each mark was allowed, as ordinary memory was left then). It
 * is onlined for the kernel (ZONE_NORMAL): memory onlined movable serves no
 * kernel allocation, so a list with only that keeps the special nodes too.
 * Offlining is not refused: the node's list keeps the special nodes, last,
 * so that requests that start there (its own CPUs, a policy preferring it)
 * are still served, and the kernel says so; once the memory is back the
 * special nodes leave the list again. Nodes with memory keep serving their
 * own CPUs first. With spill=always the special nodes are in every list by
 * choice: nothing is starved, so the kernel has nothing to say.
 */
TEST_F_TIMEOUT(runtime, last_ordinary_memory_offline, 120)
{
	int i = find_unmarked(self), u, nid, len;
	bool always = !strcmp(variant->spill, "always");
	struct starved_lines l = { 0 };
	unsigned long long seq;
	int len_before;

	if (i < 0)
		SKIP(return, "topology %s has no nvdimm or dimm left unmarked at boot",
		     self->topo.name);
	/*
	 * While node u is the last ordinary node, every kernel allocation
	 * lands on it; the debug kernel's own (KASAN, stack depot) then pin
	 * its ZONE_NORMAL memory and offlining fails with EBUSY.
	 */
	if (self->topo.debug_kernel)
		SKIP(return, "debug kernel: its allocations pin the last ordinary memory");
	u = self->fw[i].node;
	l.nid = u;
	online_fw(_metadata, self, i);
	ASSERT_LT(0, set_node_blocks(u, "offline"));
	ASSERT_LT(0, set_node_blocks(u, "online_kernel"));
	for (nid = 0; nid < TOPO_MAX_NODES; nid++) {
		if (nid == u || !node_mem_total(nid))
			continue;
		self->marked |= 1ULL << nid;
		ASSERT_EQ(0, sysfs_write_str("1", NODE_DIR "/node%d/memattr/special", nid))
			TH_LOG("marking node %d with node %d ordinary: %s", nid, u,
			       strerror(errno));
	}
	len_before = fallback_length(u);
	if (always) {
		ASSERT_LT(1, len_before) TH_LOG("spill=always: node %d's list", u);
	} else {
		ASSERT_EQ(1, len_before) TH_LOG("node %d's list before offlining", u);
	}
	ASSERT_EQ(0, kmsg_each(0, &seq, starved_line, &(struct starved_lines){ .nid = -1 }));

	ASSERT_LT(0, set_node_blocks(u, "offline"));
	len = fallback_length(u);
	ASSERT_EQ(0, kmsg_each(seq, &seq, starved_line, &l));
	TH_LOG("node %d offline: its list has %d nodes, %d \"left\" lines", u, len, l.left);
	EXPECT_LT(1, len);
	EXPECT_EQ(always ? 0 : 1, l.left);
	/* the CPUs' own node serves them: default-policy memory lands there */
	EXPECT_EQ((long)(BYTES / getpagesize()), implicit_alloc(cpu_node(self), false));

	ASSERT_LT(0, set_node_blocks(u, "online_kernel"));
	ASSERT_EQ(0, kmsg_each(seq, &seq, starved_line, &l));
	EXPECT_EQ(len_before, fallback_length(u));
	EXPECT_EQ(always ? 0 : 1, l.back);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait until @n whole kmemattrd passes have ended; false after 30 s. */
static bool daemon_passes(int n)
{
	unsigned long long start, now;
	int tenths;

	if (sysfs_read_u64(&start, DAEMON_DIR "/passes"))
		return false;
	for (tenths = 0; tenths < 300; tenths++) {
		if (sysfs_read_u64(&now, DAEMON_DIR "/passes"))
			return false;
		if (now >= start + n + 1)	/* the pass under way is not whole */
			return true;
		usleep(100000);
	}
	return false;
}

/* Pages of the region at @p on nodes with HMAT latency above @ns (from @cpu). */
static long pages_slower_than(FIXTURE_DATA(runtime) *self, char *p, size_t bytes,
			      int cpu, long long ns)
{
	long nid, on, slower = 0;

	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		if (topo_view_value(&self->topo, cpu, nid, TOPO_MA_READ_LATENCY, NULL) <= ns)
			continue;
		on = pages_on(p, bytes, nid);
		if (on < 0)
			return -1;
		slower += on;
	}
	return slower;
}

/*
 * kmemattrd running while memory arrives, as it does on real machines
 * (dax/kmem, ACPI hotplug), from the CPUs of another node: the new node is
 * tracked from its first pass on (its heat map allocated), the hot pages
 * placed there are promoted to a faster node, and when the memory is
 * offlined again under the running daemon its map goes with it.
 */
/* kmemattrd's test needs no fallback order or spill mode of its own. */
FIXTURE(runtime_daemon) {
	FIXTURE_DATA(runtime) rt;
};

FIXTURE_SETUP(runtime_daemon)
{
	runtime_begin(_metadata, &self->rt);
}

FIXTURE_TEARDOWN(runtime_daemon)
{
	runtime_end(_metadata, &self->rt);
}

TEST_F_TIMEOUT(runtime_daemon, follows_memory_that_arrives, 120)
{
	FIXTURE_DATA(runtime) *rt = &self->rt;
	int i = find_unmarked(rt), s, cpu = cpu_node(rt);
	unsigned long long before, tracked, after;
	long npages = BYTES / getpagesize(), still = -1, slower = -1;
	unsigned long mask;
	long long ns;
	size_t off;
	double t;
	char *p;

	if (i < 0)
		SKIP(return, "topology %s has no nvdimm or dimm left unmarked at boot",
		     rt->topo.name);
	TOPO_NEED(&rt->topo, !access(DAEMON_DIR "/enabled", W_OK), DAEMON_DIR);
	s = rt->fw[i].node;
	ns = topo_view_value(&rt->topo, cpu, s, TOPO_MA_READ_LATENCY, NULL);
	if (ns <= topo_view_value(&rt->topo, cpu, cpu, TOPO_MA_READ_LATENCY, NULL))
		SKIP(return, "node %d is not slower than the CPUs' node %d", s, cpu);

	ASSERT_LE(0, sysfs_read_str(rt->scan_interval, sizeof(rt->scan_interval),
				    DAEMON_DIR "/scan_interval_ms"));
	ASSERT_EQ(0, sysfs_write_str("200", DAEMON_DIR "/scan_interval_ms"));
	ASSERT_EQ(0, sysfs_write_str("1", DAEMON_DIR "/enabled"));
	ASSERT_TRUE(daemon_passes(2));
	ASSERT_EQ(0, sysfs_read_u64(&before, DAEMON_DIR "/metadata_bytes"));

	online_fw(_metadata, rt, i);
	ASSERT_TRUE(daemon_passes(2));
	ASSERT_EQ(0, sysfs_read_u64(&tracked, DAEMON_DIR "/metadata_bytes"));
	EXPECT_LT(before, tracked) TH_LOG("node %d onlined: metadata %llu -> %llu bytes",
					  s, before, tracked);

	/* placed on the new node, then left to the default policy */
	p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	mask = 1UL << s;
	ASSERT_EQ(0, mbind(p, BYTES, MPOL_BIND, &mask, 8 * sizeof(mask), 0));
	memset(p, 1, BYTES);
	ASSERT_EQ(npages, pages_on(p, BYTES, s));
	ASSERT_EQ(0, mbind(p, BYTES, MPOL_DEFAULT, NULL, 0, 0));
	/* every page hot: touched over and over until none is left there */
	for (t = now_s(); now_s() - t < 60 && still != 0;) {
		for (off = 0; off < BYTES; off += getpagesize())
			p[off]++;
		still = pages_on(p, BYTES, s);
	}
	slower = pages_slower_than(rt, p, BYTES, cpu, ns);
	TH_LOG("node %d: %ld/%ld hot pages moved off it in %.1f s, %ld of them to slower nodes",
	       s, npages - still, npages, now_s() - t, slower);
	EXPECT_EQ(0, still);
	EXPECT_EQ(0, slower);
	munmap(p, BYTES);

	/* offlined under the running daemon, and its map freed */
	ASSERT_LT(0, set_node_blocks(s, "offline"));
	ASSERT_TRUE(daemon_passes(2));
	ASSERT_EQ(0, sysfs_read_u64(&after, DAEMON_DIR "/metadata_bytes"));
	TH_LOG("metadata: %llu bytes before node %d came, %llu with it, %llu once offline",
	       before, s, tracked, after);
	EXPECT_GT(tracked, after) TH_LOG("node %d offlined: metadata %llu -> %llu bytes",
					 s, tracked, after);
	/* what the teardown takes away is online memory */
	ASSERT_LT(0, set_node_blocks(s, "online_movable"));
}

TEST_HARNESS_MAIN
