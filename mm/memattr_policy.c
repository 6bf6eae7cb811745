// SPDX-License-Identifier: GPL-2.0
/*
 * memattr fallback policy: which nodes an allocation may fall back to, in
 * what order, and whether "special" nodes may take implicit allocations.
 *
 * Every decision here is taken when zonelists are built (boot, memory
 * hotplug, or a change of the policy), never per allocation. Each node gets
 * two fallback zonelists:
 *
 *  ZONELIST_FALLBACK  what implicit allocations walk: 6.12's distance order
 *                     (or the performance order), after the node's explicit
 *                     prefix, without the special nodes (or with them last
 *                     when spill=always).
 *  ZONELIST_EXPLICIT  the same order with the special nodes kept. Requests
 *                     whose nodemask names a special node walk it, so
 *                     mbind(MPOL_BIND, {special}) works from any CPU.
 *
 * Worked example, "default" topology, node 3 special, spill=before_oom:
 *   6.12 order for node 0:  0 2 1 3
 *   ZONELIST_FALLBACK:      0 2 1        (implicit use never reaches 3)
 *   ZONELIST_EXPLICIT:      0 2 1 3      (bind to {3} from CPU 0 finds 3)
 * With spill=always the fallback list is 0 2 1 3 as well; with
 * fallback_order=performance it is 0 2 1 when 2 (HBM) has the lowest latency.
 *
 * Which nodes are special is one fact, memattr_special_mask(): every node
 * whose record says so, whether or not it has memory yet. Memory hotplug
 * rebuilds zonelists from that same mask, so a node marked before its
 * memory arrives is left out of the fallback lists from its first page,
 * and one marked afterwards is left out by the next policy apply.
 *
 * Which list an allocation walks. A request with a nodemask (a memory
 * policy) walks the explicit list, always: while no node is special it has
 * the fallback list's content, so this costs nothing and needs no key.
 * Once a node has been special (the static key, which then stays on), so
 * does a task whose cpuset holds only special nodes; other implicit
 * requests walk the fallback list. The choice depends on no node's state,
 * so a change of the special set cannot leave a request on a list that
 * lacks a node it may use: the explicit list holds every node. The slow
 * path chooses again when it restarts (memattr_choose_zonelist()), for
 * cpuset requests that chose before the first node became special and for
 * cpusets whose nodes changed.
 *
 * Locking order, outermost first:
 *   device_hotplug_lock (sysfs writers)
 *     cpu_hotplug_lock (cpus_read_lock) -> mem_hotplug_lock (read)
 *       memattr_policy_lock
 *         zonelist seqlock; memory_tier_lock
 * The hotplug locks come first, in the order mem_hotplug_begin() takes
 * them: memory hot-remove holds mem_hotplug_lock while it removes a node's
 * device and waits for every reader of its sysfs files, and the readers
 * here take memattr_policy_lock, so nobody may wait for the hotplug locks
 * while holding it. Record changes arrive through the memattr notifier,
 * often from code that already holds the hotplug locks (HMAT and CXL report
 * a node's performance while its memory goes online): the notifier only
 * queues memattr_policy_work, which applies the change with the order
 * above. memattr_sync() waits for it where the caller holds none of these
 * locks.
 */

#define pr_fmt(fmt) "memattr: " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpuset.h>
#include <linux/device.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/ktime.h>
#include <linux/memattr.h>
#include <linux/memattr_policy.h>
#include <linux/memory_hotplug.h>
#include <linux/memory-tiers.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/node.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "internal.h"

DEFINE_STATIC_KEY_FALSE(memattr_special_in_use);

/* How long after a spill further allocations skip reclaim and spill. */
#define MEMATTR_SPILL_WINDOW	(HZ / 10)

/* An explicit fallback prefix set by the administrator or a driver. */
struct memattr_prefix {
	int nr;				/* entries in @node */
	int node[];			/* nodes tried right after the local one */
};

/* Serialises every policy change and the zonelist rebuild that follows. */
static DEFINE_MUTEX(memattr_policy_lock);
/*
 * Special nodes zonelists are built from. Written under memattr_policy_lock
 * and memattr_special_seq with mem_hotplug_lock held for reading. Builds
 * read it directly: they run either in the writer, after the write, or with
 * mem_hotplug_lock held for writing. Everyone else reads it through
 * memattr_special_mask(), as a multi-word mask may be torn.
 */
static nodemask_t memattr_build_special;
static DEFINE_SEQLOCK(memattr_special_seq);
/*
 * Nodes whose implicit list holds special nodes only because no ordinary
 * node had memory when it was built; written by builds (zonelist seqlock).
 */
static nodemask_t memattr_starved;
/* enum memattr_spill_mode; written under memattr_policy_lock. */
static int memattr_spill = MEMATTR_SPILL_BEFORE_OOM;
/* enum memattr_order_mode; written under memattr_policy_lock. */
static int memattr_order = MEMATTR_ORDER_DISTANCE;
/* When (jiffies) a spill after failed reclaim last opened the window. */
static unsigned long memattr_spill_opened;
/* Whether memattr_spill_opened is meaningful (no window before the first). */
static bool memattr_spill_window_valid;
/* Per-node explicit prefix; replaced under memattr_policy_lock, read by builds. */
static struct memattr_prefix __rcu *memattr_prefixes[MAX_NUMNODES];

static const char * const spill_names[MEMATTR_NR_SPILL_MODES] = {
	[MEMATTR_SPILL_NEVER] = "never",
	[MEMATTR_SPILL_BEFORE_OOM] = "before_oom",
	[MEMATTR_SPILL_ALWAYS] = "always",
};

static const char * const order_names[MEMATTR_NR_ORDER_MODES] = {
	[MEMATTR_ORDER_DISTANCE] = "distance",
	[MEMATTR_ORDER_PERFORMANCE] = "performance",
};

/* ---- pure ordering logic (tested by tests/memattr_policy-kunit.h) ---- */

/* Everything one fallback-order decision depends on (pure input). */
struct memattr_order_input {
	int local;			/* the node whose list is built */
	const nodemask_t *special;	/* special nodes */
	enum memattr_spill_mode spill;	/* spill mode */
	enum memattr_order_mode mode;	/* order mode */
	const int *prefix;		/* explicit prefix, may be NULL */
	int nr_prefix;			/* entries in @prefix */
	const u32 *latency;		/* per node read latency, 0 = unknown */
	const u32 *bandwidth;		/* per node read bandwidth, 0 = unknown */
	const nodemask_t *kernel_memory; /* nodes with memory below ZONE_MOVABLE */
};

/* Is @a strictly better than @b by measured performance? */
static bool perf_better(int a, int b, const struct memattr_order_input *in)
{
	u32 la = in->latency[a], lb = in->latency[b];

	if (!la != !lb)
		return la;		/* known latency beats unknown */
	if (la != lb)
		return la < lb;
	return in->bandwidth[a] > in->bandwidth[b];
}

/* Stable insertion sort of @order[from..nr) by performance. */
static void sort_by_performance(int *order, int from, int nr,
				const struct memattr_order_input *in)
{
	int i, j, node;

	for (i = from + 1; i < nr; i++) {
		node = order[i];
		for (j = i; j > from && perf_better(node, order[j - 1], in); j--)
			order[j] = order[j - 1];
		order[j] = node;
	}
}

/* Move @node from its place in @order[from..nr) to @order[from]. */
static bool move_to(int *order, int from, int nr, int node)
{
	int i;

	for (i = from; i < nr && order[i] != node; i++)
		;
	if (i == nr)
		return false;
	for (; i > from; i--)
		order[i] = order[i - 1];
	order[from] = node;
	return true;
}

static bool in_prefix(int node, const struct memattr_order_input *in)
{
	int i;

	for (i = 0; i < in->nr_prefix; i++)
		if (in->prefix[i] == node)
			return true;
	return false;
}

/*
 * Move special nodes to the end, keeping their relative order; return how
 * many nodes come before them. The prefix keeps its special nodes: naming
 * one there is explicit use.
 */
static int place_special(int *order, int from, int nr,
			 const struct memattr_order_input *in)
{
	int i = from, end = nr, node, j;

	while (i < end) {
		node = order[i];
		if (!node_isset(node, *in->special) || in_prefix(node, in)) {
			i++;
			continue;
		}
		for (j = i; j < nr - 1; j++)
			order[j] = order[j + 1];
		order[nr - 1] = node;
		end--;
	}
	return end;
}

/* Does any of @order[0..nr) have memory the kernel can allocate? */
static bool memattr_any_kernel_memory(const int *order, int nr,
				      const struct memattr_order_input *in)
{
	int i;

	for (i = 0; i < nr; i++)
		if (node_isset(order[i], *in->kernel_memory))
			return true;
	return false;
}

/**
 * memattr_order_fallback - turn 6.12's distance order into memattr's order
 * @order: in: the node order 6.12 builds for @in->local; out: the new order
 * @nr: entries in @order
 * @in: the policy and the per-node facts to apply
 * @implicit: build the list implicit allocations walk (special nodes left
 *	out, or last with spill=always) rather than the explicit one
 * @starved: if not NULL, set when the implicit list keeps its special nodes
 *	only because no other node in it has memory
 *
 * The local node stays first when it has memory; the explicit prefix comes
 * next, in the order given; the rest follow by distance or by performance.
 * When memory left (offline, hot-remove) and no ordinary node with memory
 * remains, the implicit list keeps the special nodes last, as spill=always
 * does, rather than leave the node's CPUs with nothing: administrators and
 * drivers are refused marks that would do this, memory leaving is not.
 *
 * Return: the number of entries now in @order.
 */
static int memattr_order_fallback(int *order, int nr,
				  const struct memattr_order_input *in,
				  bool implicit, bool *starved)
{
	int from = (nr && order[0] == in->local) ? 1 : 0;
	int i, placed = from, ordinary;

	if (starved)
		*starved = false;
	if (in->mode == MEMATTR_ORDER_PERFORMANCE)
		sort_by_performance(order, from, nr, in);
	for (i = 0; i < in->nr_prefix; i++)
		if (in->prefix[i] != in->local &&
		    move_to(order, placed, nr, in->prefix[i]))
			placed++;
	if (!implicit)
		return nr;
	ordinary = place_special(order, from, nr, in);
	if (in->spill == MEMATTR_SPILL_ALWAYS || ordinary == nr)
		return nr;
	if (!memattr_any_kernel_memory(order, ordinary, in)) {
		if (starved)
			*starved = true;
		return nr;
	}
	return ordinary;
}

/* ---- pure spill decisions (tested by tests/memattr_policy-kunit.h) ---- */

/*
 * Would the allocator call the OOM killer for this request once reclaim
 * failed? Spilling is only an alternative to that: atomic, NOWAIT, NORETRY,
 * RETRY_MAYFAIL, node-bound, costly-order, !__GFP_FS and lowmem requests
 * fail or retry on 6.12 without killing anything, and keep doing so.
 */
static bool memattr_would_oom(gfp_t gfp, unsigned int order,
			      enum zone_type highest_zoneidx)
{
	if (!(gfp & __GFP_DIRECT_RECLAIM) ||
	    (gfp & (__GFP_NORETRY | __GFP_RETRY_MAYFAIL | __GFP_THISNODE)))
		return false;
	return order <= PAGE_ALLOC_COSTLY_ORDER && (gfp & __GFP_FS) &&
	       highest_zoneidx >= ZONE_NORMAL;
}

/*
 * Is @now inside the spill window opened at @opened? time_in_range() is
 * right across a jiffies wrap as long as the window was opened less than
 * half the counter's range ago; memattr_spilling() closes stale windows so
 * that a much older @opened never comes back into range.
 */
static bool memattr_in_spill_window(unsigned long now, unsigned long opened)
{
	return time_in_range(now, opened, opened + MEMATTR_SPILL_WINDOW);
}

/*
 * Is every node in @memory (the nodes with memory) in @special, so that
 * implicit allocations would find no ordinary memory at all? With
 * spill=always special nodes stay last in every list, so nothing is ever
 * left empty.
 */
static bool memattr_leaves_no_ordinary(const nodemask_t *memory,
				       const nodemask_t *special,
				       enum memattr_spill_mode spill)
{
	return spill != MEMATTR_SPILL_ALWAYS && !nodes_empty(*memory) &&
	       nodes_subset(*memory, *special);
}

/* ---- zonelist construction (called by build_zonelists()) ---- */

/*
 * Present pages below ZONE_MOVABLE: memory that is all movable (hot-added
 * memory onlined movable) serves no kernel allocation, so a list with only
 * that besides special nodes must keep them. Zone sizes, not N_MEMORY, as
 * memory hotplug rebuilds the lists before it updates the node states.
 */
static bool memattr_has_kernel_memory(pg_data_t *pgdat)
{
	int z;

	for (z = 0; z < ZONE_MOVABLE; z++)
		if (populated_zone(&pgdat->node_zones[z]))
			return true;
	return false;
}

/* Facts gathered for one rebuild; the zonelist seqlock serialises builds. */
static u32 build_latency[MAX_NUMNODES];
static u32 build_bandwidth[MAX_NUMNODES];
static nodemask_t build_kernel_memory;

/*
 * What @viewer sees of each node in @nodes, for the performance order: a
 * CXL expander behind socket 0 is near for socket 0 and far for socket 1.
 */
static void memattr_view_perf(int viewer, const nodemask_t *nodes,
			      u32 *latency, u32 *bandwidth)
{
	int nid;

	for_each_node_mask(nid, *nodes) {
		latency[nid] = memattr_get_from(viewer, nid, MEMATTR_READ_LATENCY);
		bandwidth[nid] = memattr_get_from(viewer, nid,
						  MEMATTR_READ_BANDWIDTH);
	}
}

/*
 * @local's list is ordered by what @local's CPUs see, or for a memory-only
 * node by what its initiator sees (memattr_viewer()).
 */
static void gather_inputs(struct memattr_order_input *in, int local)
{
	struct memattr_prefix *prefix;
	int nid;

	memattr_view_perf(memattr_viewer(local), &node_states[N_MEMORY],
			  build_latency, build_bandwidth);
	nodes_clear(build_kernel_memory);
	for_each_node_state(nid, N_MEMORY) {
		if (memattr_has_kernel_memory(NODE_DATA(nid)))
			node_set(nid, build_kernel_memory);
	}
	/* Builds run with interrupts off: an RCU-sched read-side section. */
	prefix = rcu_dereference_sched(memattr_prefixes[local]);
	*in = (struct memattr_order_input) {
		.local = local,
		.special = &memattr_build_special,
		.spill = READ_ONCE(memattr_spill),
		.mode = READ_ONCE(memattr_order),
		.prefix = prefix ? prefix->node : NULL,
		.nr_prefix = prefix ? prefix->nr : 0,
		.latency = build_latency,
		.bandwidth = build_bandwidth,
		.kernel_memory = &build_kernel_memory,
	};
}

/* Say when a node's CPUs start or stop using special nodes for want of others. */
static void memattr_note_starved(int local, bool starved)
{
	if (starved == node_isset(local, memattr_starved))
		return;
	if (starved) {
		node_set(local, memattr_starved);
		pr_warn("node %d: no ordinary memory left, special nodes serve its implicit allocations\n",
			local);
	} else {
		node_clear(local, memattr_starved);
		pr_info("node %d: ordinary memory is back, special nodes serve only explicit allocations\n",
			local);
	}
}

/**
 * memattr_build_fallback - apply the policy to one node's fallback order
 * @local: the node whose zonelists are being built
 * @order: in: 6.12's order; out: what ZONELIST_FALLBACK should hold
 * @nr: entries in @order, updated
 * @explicit_order: out: what ZONELIST_EXPLICIT should hold
 * @nr_explicit: out: entries in @explicit_order
 *
 * Called with the zonelist seqlock held for writing and interrupts off, by
 * memattr (mem_hotplug_lock held for reading) or memory hotplug (held for
 * writing), so memattr_build_special cannot change underneath.
 */
void memattr_build_fallback(int local, int *order, int *nr, int *explicit_order,
			    int *nr_explicit)
{
	struct memattr_order_input in;
	bool starved;

	gather_inputs(&in, local);
	memcpy(explicit_order, order, *nr * sizeof(*order));
	*nr_explicit = memattr_order_fallback(explicit_order, *nr, &in, false,
					      NULL);
	*nr = memattr_order_fallback(order, *nr, &in, true, &starved);
	memattr_note_starved(local, starved);
}

/* ---- allocation-time hooks (slow or cpuset paths only) ---- */

/**
 * memattr_special_mask - the nodes implicit allocation and demotion avoid
 * @mask: filled in
 *
 * Every node whose record says special, with memory or not yet.
 */
void memattr_special_mask(nodemask_t *mask)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&memattr_special_seq);
		*mask = memattr_build_special;
	} while (read_seqretry(&memattr_special_seq, seq));
}

bool memattr_is_special(int nid)
{
	nodemask_t special;

	memattr_special_mask(&special);
	return node_isset(nid, special);
}

/*
 * Does the current task's cpuset hold special nodes only? Its implicit
 * allocations then have nowhere else to go: they walk the explicit list,
 * filtered by the cpuset, at once rather than after a futile reclaim.
 */
static bool memattr_cpuset_only_special(void)
{
	nodemask_t special;

	memattr_special_mask(&special);
	return nodes_intersects(cpuset_current_mems_allowed, special) &&
	       nodes_subset(cpuset_current_mems_allowed, special);
}

/*
 * The node whose ZONELIST_FALLBACK @zl is, or NULL for any other list. A
 * fallback list starts with its own node's zones when that node has memory,
 * so that node is tried first, every node after it.
 */
static pg_data_t *memattr_fallback_owner(struct zonelist *zl)
{
	struct zone *zone = zonelist_zone(zl->_zonerefs);
	pg_data_t *pgdat;
	int nid;

	if (zone && zl == &zone->zone_pgdat->node_zonelists[ZONELIST_FALLBACK])
		return zone->zone_pgdat;
	for_each_online_node(nid) {
		pgdat = NODE_DATA(nid);
		if (zl == &pgdat->node_zonelists[ZONELIST_FALLBACK])
			return pgdat;
	}
	return NULL;
}

/**
 * memattr_prepare_cpuset - choose the explicit zonelist for a cpuset's request
 * @ac: the allocation context, its nodemask the task's cpuset.mems
 *
 * Called by prepare_alloc_pages() only while some node is special, for a
 * request without a memory policy from a task whose cpuset applies. A
 * memory policy's nodemask already chose the explicit list
 * (memattr_zonelist()); the cpuset's does when it holds special nodes only,
 * because a cpuset is how an administrator gives a workload special memory.
 * __GFP_THISNODE's list, which is no fallback list, stays as it is.
 */
void memattr_prepare_cpuset(struct alloc_context *ac)
{
	pg_data_t *pgdat;

	if (!memattr_cpuset_only_special())
		return;
	pgdat = memattr_fallback_owner(ac->zonelist);
	if (pgdat)
		ac->zonelist = &pgdat->node_zonelists[ZONELIST_EXPLICIT];
}

struct zonelist *__memattr_cpuset_zonelist(int nid, gfp_t gfp)
{
	if (!(gfp & __GFP_THISNODE) && in_task() && memattr_cpuset_only_special())
		return &NODE_DATA(nid)->node_zonelists[ZONELIST_EXPLICIT];
	return node_zonelist(nid, gfp);
}

/* The node whose fallback or explicit zonelist @zl is, or NULL. */
static pg_data_t *memattr_zonelist_owner(struct zonelist *zl)
{
	pg_data_t *pgdat;
	int nid;

	for_each_online_node(nid) {
		pgdat = NODE_DATA(nid);
		if (zl == &pgdat->node_zonelists[ZONELIST_FALLBACK] ||
		    zl == &pgdat->node_zonelists[ZONELIST_EXPLICIT])
			return pgdat;
	}
	return NULL;
}

/**
 * memattr_choose_zonelist - choose the list again when the slow path restarts
 * @gfp: the allocation's flags
 * @ac: its context; @ac->zonelist may be replaced by its node's other list
 * @cpuset: the task's cpuset restricts this attempt (ALLOC_CPUSET)
 *
 * The fast path chose its list when it started: the explicit one for a
 * memory policy's nodemask (memattr_zonelist()) and for a cpuset of special
 * nodes only (memattr_prepare_cpuset()), else the fallback list. Since then
 * the first node may have become special (a cpuset's choice was made
 * without the static key) or the task's cpuset may have changed, and the
 * slow path restarts for both (zonelist and cpuset cookies). Requests with
 * a nodemask walk the explicit list, implicit ones the fallback list, and a
 * cpuset of special nodes only the explicit one: the slow path gets no
 * nodemask for the cpuset (it filters zones by ALLOC_CPUSET), so @cpuset
 * says whether the task's cpuset still applies. It does not once the slow path drops the
 * nodemask because memory policies and cpusets may be ignored: the request
 * is implicit then.
 */
void memattr_choose_zonelist(gfp_t gfp, struct alloc_context *ac, bool cpuset)
{
	pg_data_t *pgdat;
	bool explicit;

	if (gfp & __GFP_THISNODE)
		return;
	pgdat = memattr_zonelist_owner(ac->zonelist);
	if (!pgdat)
		return;
	if (ac->nodemask == &cpuset_current_mems_allowed)
		explicit = memattr_cpuset_only_special();
	else if (ac->nodemask)
		explicit = true;
	else
		explicit = cpuset && cpusets_enabled() && in_task() &&
			   memattr_cpuset_only_special();
	ac->zonelist = &pgdat->node_zonelists[explicit ? ZONELIST_EXPLICIT :
							 ZONELIST_FALLBACK];
}

/**
 * memattr_may_spill - may this failing allocation try the special nodes?
 * @gfp: the allocation's flags
 * @order: its order
 * @ac: its context
 *
 * Called from the allocator slow path after reclaim and compaction failed,
 * right before the OOM killer would be invoked.
 */
bool memattr_may_spill(gfp_t gfp, unsigned int order,
		       const struct alloc_context *ac)
{
	if (!static_branch_unlikely(&memattr_special_in_use) ||
	    READ_ONCE(memattr_spill) != MEMATTR_SPILL_BEFORE_OOM ||
	    !memattr_would_oom(gfp, order, ac->highest_zoneidx))
		return false;
	/*
	 * Only implicit requests spill: those with a nodemask and cpusets of
	 * special nodes only walk the explicit list already, and what they
	 * get there is no spill.
	 */
	return !!memattr_fallback_owner(ac->zonelist);
}

/**
 * memattr_spilling - should this allocation spill before it reclaims?
 * @gfp: the allocation's flags
 * @order: its order
 * @ac: its context
 *
 * For MEMATTR_SPILL_WINDOW after reclaim failed and an allocation spilled,
 * the next ones that would also end at the OOM killer spill straight away:
 * ordinary memory is known to be exhausted, and making every page fault
 * repeat the futile reclaim first would stall the task for minutes. Only a
 * spill after failed reclaim opens the window, so under steady pressure
 * reclaim is retried once per window and the window closes on its own.
 */
bool memattr_spilling(gfp_t gfp, unsigned int order,
		      const struct alloc_context *ac)
{
	if (!READ_ONCE(memattr_spill_window_valid) ||
	    !memattr_may_spill(gfp, order, ac))
		return false;
	if (memattr_in_spill_window(jiffies, READ_ONCE(memattr_spill_opened)))
		return true;
	WRITE_ONCE(memattr_spill_window_valid, false);
	return false;
}

/**
 * memattr_spill_context - the context a spilling allocation retries with
 * @ac: the failing allocation's context
 * @spill: filled in: the same request over its node's explicit zonelist
 */
void memattr_spill_context(const struct alloc_context *ac,
			   struct alloc_context *spill)
{
	pg_data_t *pgdat = memattr_zonelist_owner(ac->zonelist);

	*spill = *ac;
	if (pgdat)
		spill->zonelist = &pgdat->node_zonelists[ZONELIST_EXPLICIT];
	spill->preferred_zoneref = first_zones_zonelist(spill->zonelist,
							spill->highest_zoneidx,
							spill->nodemask);
}

/**
 * memattr_spilled - account a page a spill retry returned
 * @page: the page
 * @order: its order
 * @gfp: the allocation's flags
 * @ac: the spill context
 * @after_reclaim: the spill came after reclaim failed (opens the window)
 *
 * Counts the spill and wakes the special node's kswapd, so that it starts
 * reclaiming there as it would for any node allocations fall back to.
 */
void memattr_spilled(struct page *page, unsigned int order, gfp_t gfp,
		     const struct alloc_context *ac, bool after_reclaim)
{
	if (!memattr_is_special(page_to_nid(page)))
		return;
	count_vm_events(MEMATTR_SPILL, 1 << order);
	wakeup_kswapd(page_zone(page), gfp, order, ac->highest_zoneidx);
	if (!after_reclaim)
		return;
	WRITE_ONCE(memattr_spill_opened, jiffies);
	WRITE_ONCE(memattr_spill_window_valid, true);
}

/* ---- applying a change ---- */

/*
 * Every possible node whose record says special: the one place this is
 * computed. memattr= may name any id below MAX_NUMNODES, before the
 * firmware said which nodes the machine can have; an id that is not
 * possible can never get memory, and listing it would only mislead.
 */
static void memattr_recorded_special(nodemask_t *special)
{
	int nid;

	nodes_clear(*special);
	for_each_node(nid)
		if (memattr_node_special(nid))
			node_set(nid, *special);
}

/*
 * What a policy change holds, in the order given at the top of this file:
 * the hotplug locks first, so that memattr_policy_lock is never held while
 * waiting for them.
 */
static void memattr_policy_lock_all(void)
{
	cpus_read_lock();
	get_online_mems();
	mutex_lock(&memattr_policy_lock);
}

static void memattr_policy_unlock_all(void)
{
	mutex_unlock(&memattr_policy_lock);
	put_online_mems();
	cpus_read_unlock();
}

DEFINE_LOCK_GUARD_0(memattr_policy, memattr_policy_lock_all(),
		    memattr_policy_unlock_all())

/*
 * The first node becomes special: from now on tasks whose cpuset holds only
 * special nodes walk the explicit list, which never loses a node when the
 * special set changes. The fallback list does, in place, under requests
 * walking it: one limited to a node that leaves it could find its preferred
 * zoneref pointing past the list's new end. So the key stays on once it
 * went on, and before the first rebuild that drops a node, requests that
 * chose their list without it get the time to finish their fast path
 * (which does not sleep; a slow path that restarts chooses again).
 */
static void memattr_special_key_on(void)
{
	if (static_key_enabled(&memattr_special_in_use))
		return;
	static_branch_enable_cpuslocked(&memattr_special_in_use);
	synchronize_rcu();
}

/*
 * Rebuild zonelists, and demotion targets when the special set changed,
 * from the records as they are now. The log line gives the rebuild's cost.
 */
static void memattr_policy_apply(void)
{
	bool special_changed;
	nodemask_t special;
	u64 start;

	lockdep_assert_held(&memattr_policy_lock);
	lockdep_assert_cpus_held();
	memattr_recorded_special(&special);

	if (!nodes_empty(special))
		memattr_special_key_on();
	special_changed = !nodes_equal(special, memattr_build_special);
	/*
	 * Readers allocate in any context, with any lock held (a task under
	 * css_set_lock, an atomic allocation in an interrupt): an interrupt
	 * must not find the count odd on the CPU that is writing it.
	 */
	write_seqlock_irq(&memattr_special_seq);
	memattr_build_special = special;
	write_sequnlock_irq(&memattr_special_seq);

	start = ktime_get_ns();
	build_all_zonelists(NULL);
	pr_info("zonelists rebuilt in %llu us (special nodes: %*pbl)\n",
		div_u64(ktime_get_ns() - start, NSEC_PER_USEC),
		nodemask_pr_args(&special));

	if (special_changed)
		memory_tier_refresh_demotion();
}

static void memattr_policy_workfn(struct work_struct *work)
{
	guard(memattr_policy)();
	memattr_policy_apply();
}

/* Applies record changes with none of the caller's locks held. */
static DECLARE_WORK(memattr_policy_work, memattr_policy_workfn);

/* A node's record changed (@nid); *@data is the mask of changed fields. */
static int memattr_policy_notify(struct notifier_block *nb,
				 unsigned long nid, void *data)
{
	unsigned long changed = *(unsigned long *)data;
	unsigned long perf = BIT(MEMATTR_READ_LATENCY) | BIT(MEMATTR_READ_BANDWIDTH);

	/* Latency and bandwidth only matter for the performance order. */
	if (READ_ONCE(memattr_order) != MEMATTR_ORDER_PERFORMANCE)
		perf = 0;
	if (!(changed & (BIT(MEMATTR_SPECIAL) | perf)))
		return NOTIFY_DONE;
	/* The caller may hold the hotplug locks (HMAT, CXL): defer. */
	schedule_work(&memattr_policy_work);
	return NOTIFY_OK;
}

static struct notifier_block memattr_policy_nb = {
	.notifier_call = memattr_policy_notify,
};

/**
 * memattr_policy_sync - wait until the policy reflects every record change
 *
 * Must not be called with CPU or memory hotplug locks held.
 */
static void memattr_policy_sync(void)
{
	flush_work(&memattr_policy_work);
}

/**
 * memattr_policy_check_special - may @nid become special?
 * @nid: the node a source other than the boot parameter is about to mark
 *
 * Called by the records, under their lock, for every source, so that two
 * marks cannot both pass. Memory that leaves later (offline, hot-remove)
 * is not refused: memattr_order_fallback() keeps the CPUs served then.
 *
 * Return: 0, or -EINVAL if implicit allocations would be left with no
 * ordinary memory at all (every node with memory special, and spill is not
 * "always"): kernel allocations would then fail on every CPU.
 */
static int memattr_policy_check_special(int nid)
{
	nodemask_t special;

	memattr_recorded_special(&special);
	node_set(nid, special);
	if (memattr_leaves_no_ordinary(&node_states[N_MEMORY], &special,
				       READ_ONCE(memattr_spill)))
		return -EINVAL;
	return 0;
}

/**
 * memattr_set_fallback - give a node an explicit fallback prefix
 * @nid: the node whose implicit allocations fall back
 * @nodes: nodes to try right after @nid, best first; NULL with @nr 0 clears
 * @nr: entries in @nodes
 *
 * For drivers that know better than the firmware, e.g. two accelerators
 * with a fast link that should fall back to each other first.
 *
 * Return: 0, or -EINVAL if a node is invalid, has no memory or repeats.
 */
int memattr_set_fallback(int nid, const int *nodes, int nr)
{
	struct memattr_prefix *new = NULL, *old;
	nodemask_t seen = NODE_MASK_NONE;
	int i;

	if (nid < 0 || nid >= MAX_NUMNODES || !node_possible(nid) ||
	    nr < 0 || nr > MAX_NUMNODES)
		return -EINVAL;
	node_set(nid, seen);	/* a node does not fall back to itself */
	for (i = 0; i < nr; i++) {
		if (nodes[i] < 0 || nodes[i] >= MAX_NUMNODES ||
		    !node_state(nodes[i], N_MEMORY) || node_isset(nodes[i], seen))
			return -EINVAL;
		node_set(nodes[i], seen);
	}
	if (nr) {
		new = kmalloc(struct_size(new, node, nr), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		new->nr = nr;
		memcpy(new->node, nodes, nr * sizeof(*nodes));
	}

	scoped_guard(memattr_policy) {
		old = rcu_replace_pointer(memattr_prefixes[nid], new,
					  lockdep_is_held(&memattr_policy_lock));
		memattr_policy_apply();
	}
	synchronize_rcu();
	kfree(old);
	return 0;
}

/* ---- sysfs ---- */

/*
 * Parse "4 0" (optionally starting with @nid itself) into @nodes; a list
 * naming no node at all is -EINVAL.
 */
static int parse_fallback(int nid, const char *buf, int *nodes, int max)
{
	char *copy, *cur, *tok;
	int nr = 0, node, ret = 0;
	bool first = true;

	copy = kstrdup(buf, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cur = strim(copy);
	while ((tok = strsep(&cur, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (kstrtoint(tok, 10, &node) || nr >= max) {
			ret = -EINVAL;
			break;
		}
		/* The node itself is always first; it may say so, once. */
		if (first && node == nid) {
			first = false;
			continue;
		}
		first = false;
		nodes[nr++] = node;
	}
	kfree(copy);
	if (!ret && first)
		ret = -EINVAL;
	return ret ?: nr;
}

static ssize_t fallback_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct zonelist *zl = &NODE_DATA(dev->id)->node_zonelists[ZONELIST_FALLBACK];
	int len = 0, last = NUMA_NO_NODE;
	struct zoneref *z;

	/*
	 * Rebuilds come from memattr (our lock) or memory hotplug. Hotplug
	 * locks cannot be taken here: node removal holds them and waits for
	 * sysfs readers. Our lock is safe, as its holders never wait for the
	 * hotplug locks. A read racing with a hotplug rebuild may see a mixed
	 * order, as the allocator itself may.
	 */
	guard(mutex)(&memattr_policy_lock);
	for (z = zl->_zonerefs; zonelist_zone(z); z++) {
		if (zonelist_node_idx(z) == last)
			continue;
		last = zonelist_node_idx(z);
		len += sysfs_emit_at(buf, len, "%s%d", len ? " " : "", last);
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

/*
 * Set @dev's prefix from its sysfs file. The apply takes the hotplug locks,
 * and node removal holds them while it waits for this file's users: step
 * out of their count first. The device hotplug lock keeps removal out
 * meanwhile (it is taken by trylock, so a removal that holds it is never
 * waited for).
 */
static int memattr_store_fallback(struct device *dev, struct device_attribute *attr,
				  const int *nodes, int nr)
{
	struct kernfs_node *dir, *kn;
	int ret;

	/* The file sits in the node's "memattr" attribute group directory. */
	dir = kernfs_find_and_get(dev->kobj.sd, "memattr");
	kn = dir ? kernfs_find_and_get(dir, attr->attr.name) : NULL;
	kernfs_put(dir);
	if (!kn)
		return -ENODEV;
	get_device(dev);
	kernfs_break_active_protection(kn);
	ret = lock_device_hotplug_sysfs();
	if (!ret) {
		ret = memattr_set_fallback(dev->id, nodes, nr);
		unlock_device_hotplug();
	}
	kernfs_unbreak_active_protection(kn);
	kernfs_put(kn);
	put_device(dev);
	return ret;
}

static ssize_t fallback_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	int *nodes, nr, ret;

	/* See store_choice() for why the file mode is not enough. */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (strnlen(buf, count) != count)
		return -EINVAL;		/* a NUL byte: junk after it would be lost */
	nodes = kcalloc(MAX_NUMNODES, sizeof(*nodes), GFP_KERNEL);
	if (!nodes)
		return -ENOMEM;
	nr = sysfs_streq(buf, "auto") ? 0 : parse_fallback(dev->id, buf, nodes,
							   MAX_NUMNODES);
	ret = nr;
	if (nr >= 0)
		ret = memattr_store_fallback(dev, attr, nodes, nr);
	kfree(nodes);
	return ret ?: count;
}

struct device_attribute memattr_fallback_attr = __ATTR_RW(fallback);

static ssize_t special_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	nodemask_t special;

	memattr_special_mask(&special);
	return sysfs_emit(buf, "%*pbl\n", nodemask_pr_args(&special));
}
static DEVICE_ATTR_RO(special);

static struct attribute *memattr_node_root_attrs[] = {
	&dev_attr_special.attr,
	NULL,
};

const struct attribute_group memattr_node_root_group = {
	.attrs = memattr_node_root_attrs,
};

/* Show every choice with the active one in brackets, like THP's "enabled". */
static ssize_t show_choices(char *buf, const char * const *names, int nr, int active)
{
	int i, len = 0;

	for (i = 0; i < nr; i++)
		len += sysfs_emit_at(buf, len, i == active ? "%s[%s]" : "%s%s",
				     i ? " " : "", names[i]);
	return len + sysfs_emit_at(buf, len, "\n");
}

/*
 * Set *@knob to the choice named in @buf and rebuild; -EINVAL if none, or
 * if @refuse says the choice cannot be taken now.
 */
static ssize_t store_choice(const char *buf, size_t count, const char * const *names,
			    int nr, int *knob, bool (*refuse)(int choice))
{
	int choice, ret;

	/*
	 * The file mode keeps other users out; a root task that dropped
	 * CAP_SYS_ADMIN (a container, a sandboxed daemon) must not change
	 * where every task's memory goes either.
	 */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (strnlen(buf, count) != count)
		return -EINVAL;		/* a NUL byte: junk after it would be lost */
	choice = __sysfs_match_string(names, nr, buf);
	if (choice < 0 || choice >= nr)
		return -EINVAL;
	ret = lock_device_hotplug_sysfs();
	if (ret)
		return ret;
	scoped_guard(memattr_policy) {
		if (refuse && refuse(choice)) {
			ret = -EINVAL;
		} else if (*knob != choice) {
			WRITE_ONCE(*knob, choice);
			memattr_policy_apply();
		}
	}
	unlock_device_hotplug();
	return ret ?: count;
}

/* Leaving "always" when every node with memory is special empties lists. */
static bool memattr_spill_refused(int choice)
{
	nodemask_t special;

	memattr_recorded_special(&special);
	return memattr_leaves_no_ordinary(&node_states[N_MEMORY], &special, choice);
}

static ssize_t spill_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return show_choices(buf, spill_names, MEMATTR_NR_SPILL_MODES,
			    READ_ONCE(memattr_spill));
}

static ssize_t spill_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	return store_choice(buf, count, spill_names, MEMATTR_NR_SPILL_MODES,
			    &memattr_spill, memattr_spill_refused);
}

static struct kobj_attribute spill_attr = __ATTR_RW(spill);

static ssize_t fallback_order_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return show_choices(buf, order_names, MEMATTR_NR_ORDER_MODES,
			    READ_ONCE(memattr_order));
}

static ssize_t fallback_order_store(struct kobject *kobj,
				    struct kobj_attribute *attr,
				    const char *buf, size_t count)
{
	return store_choice(buf, count, order_names, MEMATTR_NR_ORDER_MODES,
			    &memattr_order, NULL);
}

static struct kobj_attribute fallback_order_attr = __ATTR_RW(fallback_order);

static struct attribute *memattr_policy_attrs[] = {
	&spill_attr.attr,
	&fallback_order_attr.attr,
	NULL,
};

static const struct attribute_group memattr_policy_group = {
	.attrs = memattr_policy_attrs,
};

/*
 * The node memattr= may not make special when it would make every node with
 * memory special: the boot CPU's, or the first node with memory if the boot
 * CPU's has none.
 */
static int __init memattr_boot_ordinary_node(const nodemask_t *special)
{
	int nid = numa_node_id();

	if (node_state(nid, N_MEMORY) && node_isset(nid, *special))
		return nid;
	return first_node(node_states[N_MEMORY]);
}

/**
 * memattr_policy_boot_init - take memattr=<nodes>:special before zonelists
 *
 * Called by the first zonelist build (build_all_zonelists_init()), so that
 * it already keeps the nodes the boot parameter makes special out of
 * implicit use. The records follow at memattr_init(), and their notifier
 * enables the rest. A parameter that would leave no ordinary memory keeps
 * one node ordinary, and says so.
 */
void __init memattr_policy_boot_init(void)
{
	nodemask_t special = NODE_MASK_NONE;
	bool value;
	int nid;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		if (memattr_boot_special(nid, &value) && value)
			node_set(nid, special);
	if (memattr_leaves_no_ordinary(&node_states[N_MEMORY], &special,
				       memattr_spill)) {
		nid = memattr_boot_ordinary_node(&special);
		node_clear(nid, special);
		memattr_boot_refuse_special(nid);
	}
	memattr_build_special = special;
}

static const struct memattr_policy_ops memattr_special_policy = {
	.check_special = memattr_policy_check_special,
	.sync = memattr_policy_sync,
};

/* Before memattr_init() replays the boot parameter into the records. */
static int __init memattr_policy_listen(void)
{
	memattr_register_policy(&memattr_special_policy);
	return register_memattr_notifier(&memattr_policy_nb);
}
core_initcall(memattr_policy_listen);

/* /sys/kernel/mm/memattr, for the daemon's group too; NULL if not made. */
struct kobject *memattr_kobj;

static int __init memattr_policy_sysfs_init(void)
{
	struct kobject *kobj;
	int ret;

	kobj = kobject_create_and_add("memattr", mm_kobj);
	if (!kobj)
		return -ENOMEM;
	ret = sysfs_create_group(kobj, &memattr_policy_group);
	if (ret) {
		kobject_put(kobj);
		return ret;
	}
	memattr_kobj = kobj;
	return 0;
}
subsys_initcall(memattr_policy_sysfs_init);

#include "tests/memattr_policy-kunit.h"
