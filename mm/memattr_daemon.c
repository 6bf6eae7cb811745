// SPDX-License-Identifier: GPL-2.0
/*
 * kmemattrd: move folios between memory tiers by how hot they are, to the
 * nodes the memattr records say are faster or slower.
 *
 * One thread for the system, not one per node. Heat comes from a walk of
 * every process's page tables (the accessed bit of each PTE or PMD that maps
 * memory of a tracked node, with the TLBs flushed after bits are cleared:
 * memattr_flush_cleared()), and one walk serves all nodes at once; a thread
 * per node would walk every mm once per node. Page cache that no process
 * maps is seen through its idle flag (folio_mark_accessed() clears it), in a
 * walk over the PFNs of each tracked node that holds file pages. While the
 * thread runs, fault-around maps the PTEs it adds ahead of a fault old
 * (memattr_wants_old_prefaulted_pte()): every process that maps a shared
 * file would otherwise make the neighbours of the pages it touches look
 * accessed once, and a few such processes make cold pages look hot.
 *
 * Tracked nodes have memory, a known read latency and are not special; a
 * special node's pages never move and nothing moves into it. Each tracked
 * node has 4 bits per 4 KiB page (128 KiB per GiB): the access history of
 * the folio that starts there over the last 4 passes, newest in bit 0. A
 * pass is one walk over all processes and tracked PFNs; scan_budget bounds
 * how many entries one wakeup (every scan_interval_ms) looks at, so a pass
 * takes ceil(entries / scan_budget) intervals and a folio is found hot
 * after hot_threshold passes with an access. After a quiet pass (nothing
 * moved, nothing on a slower node accessed but not yet hot) the wait before
 * the next pass doubles, up to 8 intervals: a steady state costs an eighth
 * of the walks, and a change is noticed at most 8 intervals late.
 *
 * Example, S1 of the benchmark: 262,144 PTEs of a 1 GiB region, default
 * budget 262,144 per 1000 ms: one pass per second (plus the few PTEs of
 * other tasks), so a hot folio is promoted 2 s after it became hot, then
 * at rate_limit_MBps.
 *
 * Promotion: a folio accessed in at least hot_threshold of the last 4
 * passes goes to the fastest tracked node (lowest read latency, then highest
 * bandwidth) that is faster than its own, allowed by the VMA's bind policy
 * and the task's cpuset, and has room above its high watermark plus
 * demote_watermark percent. A memory-only node faster than the CPUs' node
 * is a valid target. When that node lacks room, the pass remembers how much
 * was wanted there and the next pass demotes as much cold memory from it.
 *
 * Demotion: on a node whose free memory is below demote_watermark percent
 * (or that promotion wants room on), folios with no access in 4 passes go to
 * next_demotion_node(), which never names a special node.
 *
 * No ping-pong: a promoted folio starts with a full history (it cannot look
 * cold for 4 passes) and a demoted one with an empty history (it needs
 * hot_threshold passes of accesses to come back). With numa_balancing=2
 * also on, NUMA balancing promotes mapped folios to the node of the CPU
 * that touches them at fault time, sooner than a pass; the daemon then
 * leaves mapped folios whose target has CPUs to it, and keeps promoting
 * page cache and into memory-only nodes, and demoting.
 *
 * Locking: the metadata and the queues belong to the thread alone.
 * memattr_daemon_lock serialises start, stop and knob writes. The walk
 * holds the mm's mmap lock for read (trylock: a busy mm waits a pass) and
 * the page table lock while it reads and isolates.
 */

#define pr_fmt(fmt) "memattr: " fmt

#include <linux/capability.h>
#include <linux/cpuset.h>
#include <linux/freezer.h>
#include <linux/huge_mm.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/memattr.h>
#include <linux/memattr_daemon.h>
#include <linux/memattr_policy.h>
#include <linux/memory-tiers.h>
#include <linux/mempolicy.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mmu_notifier.h>
#include <linux/page_idle.h>
#include <linux/pagewalk.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/sysctl.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#include <asm/tlbflush.h>

#include "internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/memattr.h>

/* History bits per page, and the history of a folio hot in every pass. */
#define MEMATTR_HEAT_BITS	4
#define MEMATTR_HEAT_FULL	0xf
/* A quiet pass doubles the wait before the next, up to 1 << this intervals. */
#define MEMATTR_BACKOFF_MAX	3
/* Folios queued before the queues are migrated and emptied. */
#define MEMATTR_BATCH_PAGES	1024

/* Knobs; written under memattr_daemon_lock, read by the thread. */
static unsigned int memattr_scan_interval_ms = 1000;
static unsigned int memattr_hot_threshold = 2;
static unsigned int memattr_scan_budget = 262144;
static unsigned int memattr_rate_limit_mbps = 256;
static unsigned int memattr_demote_watermark = 2;

static DEFINE_MUTEX(memattr_daemon_lock);
/* The running thread, NULL when disabled (memattr_daemon_lock). */
static struct task_struct *memattr_daemon_task;
/* Bytes of heat metadata allocated now (for sysfs). */
static atomic_long_t memattr_metadata_bytes;
static bool memattr_daemon_at_boot __initdata;
static DECLARE_WAIT_QUEUE_HEAD(memattr_daemon_wait);
/* On while the thread runs: fault-around then maps PTEs old (mm/memory.c). */
DEFINE_STATIC_KEY_FALSE(memattr_daemon_sampling);

/* Access history of one tracked node: 4 bits per page of its span. */
struct memattr_heat {
	/* first PFN of the node's span when allocated */
	unsigned long start_pfn;
	/* pages covered; PFNs past it (hotplug grew the node) are ignored */
	unsigned long nr_pages;
	/* passes aged since allocation; cold means nothing before 4 */
	unsigned long passes;
	/* 16 pages per word, page i in bits 4(i%16)..4(i%16)+3 */
	u64 words[];
};

/* A token bucket in pages, refilled at rate_limit_MBps. */
struct memattr_rate {
	/* pages that may still be queued */
	long tokens;
	/* jiffies of the last refill */
	unsigned long last;
};

/* Everything the thread owns; allocated when it starts. */
struct memattr_daemon {
	/* per node; NULL when the node is not tracked */
	struct memattr_heat *heat[MAX_NUMNODES];
	/* read latency (ns) and bandwidth (MB/s) from the records */
	u32 latency[MAX_NUMNODES];
	u32 bandwidth[MAX_NUMNODES];
	/* nodes whose folios may move, and those among them with CPUs */
	nodemask_t tracked;
	nodemask_t cpu_nodes;
	/* pages a node can still take this pass */
	long room[MAX_NUMNODES];
	/* pages to demote from a node this pass */
	long need[MAX_NUMNODES];
	/* pages promotion found no room for, per node, this pass */
	long wanted[MAX_NUMNODES];
	/* isolated folios, by target node */
	struct list_head promote[MAX_NUMNODES];
	struct list_head demote[MAX_NUMNODES];
	/* pages isolated and not yet migrated */
	long queued;
	/* entries this wakeup may still look at */
	long budget;
	struct memattr_rate rate;
	/* where the pass stands: the next tgid and address to walk */
	int cursor_pid;
	unsigned long cursor_addr;
	/* the PFN walk, after the processes: node and next PFN */
	int cursor_nid;
	unsigned long cursor_pfn;
	/* true once all processes of this pass are walked */
	bool pfn_phase;
	/* true at the start of a pass */
	bool pass_start;
	/* numa_balancing=2 promotes mapped folios to CPU nodes this pass */
	bool nb_tiering;
	/* tracked nodes some other tracked node is faster than */
	nodemask_t slower;
	/* the next pass starts 1 << backoff intervals after this one ended */
	unsigned int backoff;
	/* folios on a slower node accessed this pass but not (yet) hot */
	unsigned long pass_heating;
	/* hot folios not yet on an LRU list (a per-CPU batch holds them) */
	unsigned long pass_unlisted;
	/* this pass so far, for the memattr_scan_pass tracepoint */
	unsigned long pass_jiffies;
	unsigned long pass_scanned;
	unsigned long pass_moved[2];	/* demoted, promoted */
	unsigned long pass_failed;
};

/* ---- pure decisions, tested by KUnit ---- */

/* Age a word of 16 histories by one pass: every nibble shifts left. */
static inline u64 memattr_heat_age_word(u64 word)
{
	return (word << 1) & 0xeeeeeeeeeeeeeeeeULL;
}

/* Hot: accessed in at least @threshold of the passes the history keeps. */
static inline bool memattr_heat_hot(unsigned int history, unsigned int threshold)
{
	return hweight8(history & MEMATTR_HEAT_FULL) >= threshold;
}

/* Cold: no access in any pass the history keeps, and it keeps them all. */
static inline bool memattr_heat_cold(unsigned int history, unsigned long passes)
{
	return !(history & MEMATTR_HEAT_FULL) && passes >= MEMATTR_HEAT_BITS;
}

/*
 * Back off after a quiet pass: one that moved nothing while nothing was
 * pending (a folio on a slower node heating up, or hot folios waiting for
 * room that the next pass demotes). A steady state then walks an eighth as
 * often; a folio that starts getting hot is seen at most
 * 1 << MEMATTR_BACKOFF_MAX intervals later, and the passes that follow run
 * at the full rate.
 */
static inline unsigned int memattr_next_backoff(unsigned int backoff,
						unsigned long moved,
						unsigned long pending)
{
	if (moved || pending)
		return 0;
	return min(backoff + 1, MEMATTR_BACKOFF_MAX);
}

/*
 * Is node @a faster than node @b? Lower read latency first, then higher
 * bandwidth; a node without a known latency is never faster or slower.
 */
static bool memattr_faster(const u32 *latency, const u32 *bandwidth, int a, int b)
{
	if (!latency[a] || !latency[b])
		return false;
	if (latency[a] != latency[b])
		return latency[a] < latency[b];
	return bandwidth[a] > bandwidth[b];
}

/**
 * memattr_pick_faster - the promotion target for @nr pages on node @src
 * @src: node the folio is on
 * @latency: read latency per node, 0 if unknown
 * @bandwidth: read bandwidth per node
 * @candidates: nodes the folio may go to (tracked, allowed)
 * @room: pages each node can still take
 * @nr: pages of the folio
 * @best: set to the fastest candidate faster than @src, room or not
 *
 * Return: the fastest candidate faster than @src with room for @nr pages,
 * or NUMA_NO_NODE.
 */
static int memattr_pick_faster(int src, const u32 *latency, const u32 *bandwidth,
			       const nodemask_t *candidates, const long *room,
			       long nr, int *best)
{
	int nid, pick = NUMA_NO_NODE;

	*best = NUMA_NO_NODE;
	for_each_node_mask(nid, *candidates) {
		if (!memattr_faster(latency, bandwidth, nid, src))
			continue;
		if (*best == NUMA_NO_NODE ||
		    memattr_faster(latency, bandwidth, nid, *best))
			*best = nid;
		if (room[nid] >= nr && (pick == NUMA_NO_NODE ||
					memattr_faster(latency, bandwidth, nid, pick)))
			pick = nid;
	}
	return pick;
}

/* Pages @rate_mbps allows in @elapsed jiffies, at most one second's worth. */
static long memattr_rate_refill(long tokens, unsigned long elapsed,
				unsigned int rate_mbps)
{
	long per_second = (long)rate_mbps << (20 - PAGE_SHIFT);

	if (elapsed >= HZ)
		return per_second;
	return min(per_second, tokens + (long)(per_second * elapsed / HZ));
}

/* Take @nr pages from the bucket; false (nothing taken) if it lacks them. */
static bool memattr_rate_take(struct memattr_rate *rate, long nr)
{
	if (rate->tokens < nr)
		return false;
	rate->tokens -= nr;
	return true;
}

/* ---- heat metadata ---- */

static struct memattr_heat *memattr_heat_alloc(int nid)
{
	unsigned long nr = node_spanned_pages(nid);
	size_t bytes = struct_size_t(struct memattr_heat, words,
				     DIV_ROUND_UP(nr, 16));
	struct memattr_heat *heat = vzalloc_node(bytes, nid);

	if (!heat)
		return NULL;
	heat->start_pfn = node_start_pfn(nid);
	heat->nr_pages = nr;
	atomic_long_add(bytes, &memattr_metadata_bytes);
	return heat;
}

static void memattr_heat_free(struct memattr_heat *heat)
{
	if (!heat)
		return;
	atomic_long_sub(struct_size(heat, words, DIV_ROUND_UP(heat->nr_pages, 16)),
			&memattr_metadata_bytes);
	vfree(heat);
}

static bool memattr_heat_covers(const struct memattr_heat *heat, unsigned long pfn)
{
	return heat && pfn - heat->start_pfn < heat->nr_pages;
}

static unsigned int memattr_heat_get(const struct memattr_heat *heat,
				     unsigned long pfn)
{
	unsigned long i = pfn - heat->start_pfn;

	return (heat->words[i / 16] >> (4 * (i % 16))) & MEMATTR_HEAT_FULL;
}

static void memattr_heat_set(struct memattr_heat *heat, unsigned long pfn,
			     unsigned int history)
{
	unsigned long i = pfn - heat->start_pfn;
	unsigned int shift = 4 * (i % 16);
	u64 *word = &heat->words[i / 16];

	*word = (*word & ~((u64)MEMATTR_HEAT_FULL << shift)) |
		((u64)history << shift);
}

static void memattr_heat_age(struct memattr_heat *heat)
{
	unsigned long i;

	for (i = 0; i < DIV_ROUND_UP(heat->nr_pages, 16); i++)
		heat->words[i] = memattr_heat_age_word(heat->words[i]);
	heat->passes++;
}

/* ---- the pass: which nodes, how much room ---- */

/* lowmem_reserve keeps movable pages out of ZONE_DMA: not room for them. */
static bool memattr_zone_takes_movable(int z)
{
#ifdef CONFIG_ZONE_DMA
	if (z == ZONE_DMA)
		return false;
#endif
	return true;
}

/* Free pages of @nid above the high watermarks and @keep_pct of it. */
static long memattr_node_room(int nid, unsigned int keep_pct)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	long free = 0, reserve = 0, managed = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!managed_zone(zone) || !memattr_zone_takes_movable(z))
			continue;
		free += zone_page_state(zone, NR_FREE_PAGES);
		reserve += high_wmark_pages(zone);
		managed += zone_managed_pages(zone);
	}
	return free - reserve - managed * keep_pct / 100;
}

/* A node whose folios may move: memory, a known latency, not special. */
static bool memattr_node_tracked(int nid)
{
	return node_state(nid, N_MEMORY) && !memattr_node_special(nid) &&
	       memattr_get(nid, MEMATTR_READ_LATENCY);
}

/* (Re)allocate metadata where a node's span changed; free it where gone. */
static void memattr_refresh_nodes(struct memattr_daemon *d)
{
	int nid;

	nodes_clear(d->tracked);
	for_each_node(nid) {
		struct memattr_heat *heat = d->heat[nid];

		if (!memattr_node_tracked(nid)) {
			d->heat[nid] = NULL;
			memattr_heat_free(heat);
			continue;
		}
		if (heat && (heat->start_pfn != node_start_pfn(nid) ||
			     heat->nr_pages != node_spanned_pages(nid))) {
			d->heat[nid] = NULL;
			memattr_heat_free(heat);
		}
		if (!d->heat[nid])
			d->heat[nid] = memattr_heat_alloc(nid);
		if (!d->heat[nid])
			continue;	/* no memory for it: leave the node alone */
		node_set(nid, d->tracked);
		d->latency[nid] = memattr_get(nid, MEMATTR_READ_LATENCY);
		d->bandwidth[nid] = memattr_get(nid, MEMATTR_READ_BANDWIDTH);
	}
	nodes_and(d->cpu_nodes, d->tracked, node_states[N_CPU]);
	nodes_clear(d->slower);
	for_each_node_mask(nid, d->tracked) {
		int other;

		for_each_node_mask(other, d->tracked)
			if (memattr_faster(d->latency, d->bandwidth, other, nid))
				node_set(nid, d->slower);
	}
}

static void memattr_pass_begin(struct memattr_daemon *d)
{
	unsigned int keep = READ_ONCE(memattr_demote_watermark);
	int nid;

	memattr_refresh_nodes(d);
	for_each_node_mask(nid, d->tracked) {
		memattr_heat_age(d->heat[nid]);
		d->room[nid] = memattr_node_room(nid, keep);
		/* below the watermark, or promotion asked for room last pass */
		d->need[nid] = max(0L, -d->room[nid]) + d->wanted[nid];
		d->wanted[nid] = 0;
	}
	d->nb_tiering = sysctl_numa_balancing_mode & NUMA_BALANCING_MEMORY_TIERING;
	d->cursor_pid = 1;
	d->cursor_addr = 0;
	d->cursor_nid = first_node(d->tracked);
	d->cursor_pfn = 0;
	d->pfn_phase = false;
	d->pass_start = false;
	d->pass_jiffies = jiffies;
	d->pass_scanned = 0;
	d->pass_moved[0] = 0;
	d->pass_moved[1] = 0;
	d->pass_failed = 0;
	d->pass_heating = 0;
	d->pass_unlisted = 0;
}

static void memattr_pass_end(struct memattr_daemon *d)
{
	unsigned long pending = d->pass_heating + d->pass_unlisted;
	int nid;

	for_each_node_mask(nid, d->tracked)
		pending += d->wanted[nid];
	/*
	 * A new folio reaches its LRU list only when its CPU's batch fills or
	 * drains; the last few folios a task faulted can sit there for good
	 * and could never be isolated. Drain them for the next pass.
	 */
	if (d->pass_unlisted)
		lru_add_drain_all();
	trace_memattr_scan_pass(d->pass_scanned, d->pass_moved[1], d->pass_moved[0],
				d->pass_failed,
				jiffies_to_msecs(jiffies - d->pass_jiffies));
	d->backoff = memattr_next_backoff(d->backoff,
					  d->pass_moved[0] + d->pass_moved[1], pending);
	d->pass_start = true;
}

/* ---- deciding about one folio ---- */

/* Folios the daemon may isolate: on the LRU, not pinned, locked or busy. */
static bool memattr_folio_movable(struct folio *folio)
{
	return folio_test_lru(folio) && !folio_test_unevictable(folio) &&
	       !folio_test_mlocked(folio) && !folio_test_writeback(folio) &&
	       !folio_test_ksm(folio) && !folio_maybe_dma_pinned(folio) &&
	       !folio_is_zone_device(folio);
}

static bool memattr_queue(struct memattr_daemon *d, struct folio *folio,
			  struct list_head *list)
{
	long nr = folio_nr_pages(folio);

	if (!memattr_folio_movable(folio) || !memattr_rate_take(&d->rate, nr))
		return false;
	if (!folio_isolate_lru(folio)) {
		d->rate.tokens += nr;
		return false;
	}
	node_stat_mod_folio(folio, NR_ISOLATED_ANON + folio_is_file_lru(folio), nr);
	list_add_tail(&folio->lru, list);
	d->queued += nr;
	return true;
}

static void memattr_consider_promotion(struct memattr_daemon *d,
				       struct folio *folio,
				       const nodemask_t *allowed, bool mapped)
{
	int src = folio_nid(folio), target, best;
	long nr = folio_nr_pages(folio);
	nodemask_t candidates;

	nodes_and(candidates, d->tracked, *allowed);
	/* numa_balancing=2 moves a mapped folio to its CPU's node itself */
	if (mapped && d->nb_tiering)
		nodes_andnot(candidates, candidates, d->cpu_nodes);
	target = memattr_pick_faster(src, d->latency, d->bandwidth, &candidates,
				     d->room, nr, &best);
	if (best != NUMA_NO_NODE && best != target)
		d->wanted[best] += nr;
	if (target == NUMA_NO_NODE)
		return;
	if (!folio_test_lru(folio))
		d->pass_unlisted += nr;
	else if (memattr_queue(d, folio, &d->promote[target]))
		d->room[target] -= nr;
}

static void memattr_consider_demotion(struct memattr_daemon *d,
				      struct folio *folio,
				      const nodemask_t *allowed)
{
	int src = folio_nid(folio);
	int target = next_demotion_node(src);
	long nr = folio_nr_pages(folio);

	if (target == NUMA_NO_NODE || !node_isset(target, d->tracked) ||
	    !node_isset(target, *allowed) || d->room[target] < nr)
		return;
	if (memattr_queue(d, folio, &d->demote[target])) {
		d->room[target] -= nr;
		d->need[src] -= nr;
	}
}

/*
 * Record whether @folio was accessed this pass and queue it if it is hot
 * on a slower node or cold on a node short of room. @allowed: nodes the
 * folio's users allow (VMA bind policy, cpuset).
 */
static void memattr_account(struct memattr_daemon *d, struct folio *folio,
			    bool accessed, const nodemask_t *allowed, bool mapped)
{
	int nid = folio_nid(folio);
	struct memattr_heat *heat = d->heat[nid];
	unsigned long pfn = folio_pfn(folio);
	unsigned int history;

	if (!memattr_heat_covers(heat, pfn))
		return;
	history = memattr_heat_get(heat, pfn);
	if (accessed) {
		history |= 1;
		memattr_heat_set(heat, pfn, history);
		if (memattr_heat_hot(history, READ_ONCE(memattr_hot_threshold)))
			memattr_consider_promotion(d, folio, allowed, mapped);
		else if (node_isset(nid, d->slower))
			d->pass_heating++;
	} else if (d->need[nid] > 0 && memattr_heat_cold(history, heat->passes)) {
		memattr_consider_demotion(d, folio, allowed);
	}
}

/* ---- migration ---- */

/* What the allocation callback needs: where, and the history to give. */
struct memattr_target {
	/* the daemon, for the new folio's history */
	struct memattr_daemon *d;
	/* target node */
	int nid;
	/* history the moved folio starts with */
	unsigned int history;
};

static struct folio *memattr_alloc_target(struct folio *src, unsigned long private)
{
	struct memattr_target *t = (struct memattr_target *)private;
	unsigned int order = folio_order(src);
	struct memattr_heat *heat = t->d->heat[t->nid];
	gfp_t gfp;
	struct folio *dst;

	/* never reclaim or dip into reserves for a move that can wait */
	if (order)
		gfp = GFP_TRANSHUGE_LIGHT | __GFP_THISNODE;
	else
		gfp = (GFP_HIGHUSER_MOVABLE & ~__GFP_RECLAIM) | __GFP_NOWARN |
		      __GFP_NOMEMALLOC | __GFP_THISNODE;
	dst = __folio_alloc_node(gfp, order, t->nid);
	if (dst && memattr_heat_covers(heat, folio_pfn(dst)))
		memattr_heat_set(heat, folio_pfn(dst), t->history);
	return dst;
}

static void memattr_migrate_list(struct memattr_daemon *d, struct list_head *list,
				 int nid, bool promote)
{
	struct memattr_target t = {
		.d = d,
		.nid = nid,
		.history = promote ? MEMATTR_HEAT_FULL : 0,
	};
	unsigned int moved = 0;
	struct folio *folio;
	long nr = 0;

	if (list_empty(list))
		return;
	list_for_each_entry(folio, list, lru)
		nr += folio_nr_pages(folio);
	migrate_pages(list, memattr_alloc_target, NULL, (unsigned long)&t,
		      MIGRATE_ASYNC, MR_MEMATTR, &moved);
	putback_movable_pages(list);
	count_vm_events(promote ? MEMATTR_PROMOTE_SUCCESS : MEMATTR_DEMOTE_SUCCESS,
			moved);
	count_vm_events(promote ? MEMATTR_PROMOTE_FAIL : MEMATTR_DEMOTE_FAIL,
			nr - moved);
	trace_memattr_migrate_batch(nid, promote, nr, moved);
	d->pass_moved[promote] += moved;
	d->pass_failed += nr - moved;
}

static void memattr_migrate_queued(struct memattr_daemon *d)
{
	int nid;

	for_each_node(nid) {
		memattr_migrate_list(d, &d->promote[nid], nid, true);
		memattr_migrate_list(d, &d->demote[nid], nid, false);
	}
	d->queued = 0;
}

/* ---- heat from page tables ---- */

/* One process's walk: its nodes and where the budget stopped it. */
struct memattr_walk {
	/* the daemon */
	struct memattr_daemon *d;
	/* nodes the task's cpuset allows */
	nodemask_t task_mems;
	/* address to resume at when the budget ran out, else 0 */
	unsigned long stopped_at;
	/* an accessed bit was cleared: the mm's TLB entries must go */
	bool cleared_young;
};

/* Nodes a folio mapped at @addr may move to: cpuset, and a bind policy. */
static void memattr_allowed(struct vm_area_struct *vma, unsigned long addr,
			    const nodemask_t *task_mems, nodemask_t *allowed)
{
	struct mempolicy *pol;
	pgoff_t ilx;

	*allowed = *task_mems;
	pol = get_vma_policy(vma, addr, 0, &ilx);
	if (pol->mode == MPOL_BIND)
		nodes_and(*allowed, *allowed, pol->nodes);
	mpol_cond_put(pol);
}

static void memattr_walk_folio(struct memattr_walk *w, struct vm_area_struct *vma,
			       unsigned long addr, struct folio *folio, bool young)
{
	nodemask_t allowed;

	if (!folio || !memattr_heat_covers(w->d->heat[folio_nid(folio)],
					   folio_pfn(folio)))
		return;
	/*
	 * A mapped file folio is also read through the page cache (read(2)
	 * on a file someone maps): folio_mark_accessed() clears its idle flag.
	 */
	if (!folio_test_anon(folio)) {
		young |= !folio_test_idle(folio);
		folio_set_idle(folio);
	}
	memattr_allowed(vma, addr, &w->task_mems, &allowed);
	memattr_account(w->d, folio, young, &allowed, true);
}

static bool memattr_walk_huge(pmd_t *pmd, unsigned long addr, struct mm_walk *walk)
{
	struct memattr_walk *w = walk->private;
	struct vm_area_struct *vma = walk->vma;
	spinlock_t *ptl = pmd_trans_huge_lock(pmd, vma);
	struct folio *folio;
	bool young;

	if (!ptl)
		return false;
	if (pmd_present(*pmd)) {
		folio = vm_normal_folio_pmd(vma, addr, *pmd);
		young = pmdp_clear_young_notify(vma, addr, pmd);
		w->cleared_young |= young;
		memattr_walk_folio(w, vma, addr, folio, young);
		w->d->budget--;
		count_vm_event(MEMATTR_SCANNED);
	}
	spin_unlock(ptl);
	return true;
}

static int memattr_pmd_entry(pmd_t *pmd, unsigned long addr, unsigned long end,
			     struct mm_walk *walk)
{
	struct memattr_walk *w = walk->private;
	struct vm_area_struct *vma = walk->vma;
	unsigned long scanned = 0;
	pte_t *start, *pte;
	spinlock_t *ptl;	/* the page table's */

	/* out of budget, or time to migrate what is queued and come back */
	if (w->d->budget <= 0 || w->d->queued >= MEMATTR_BATCH_PAGES) {
		w->stopped_at = addr;
		return 1;
	}
	/* handled here, whole, so that the walk never splits a THP */
	walk->action = ACTION_CONTINUE;
	if (memattr_walk_huge(pmd, addr, walk))
		return 0;
	start = pte_offset_map_lock(walk->mm, pmd, addr, &ptl);
	if (!start) {
		walk->action = ACTION_AGAIN;
		return 0;
	}
	for (pte = start; addr < end; pte++, addr += PAGE_SIZE) {
		pte_t entry = ptep_get(pte);
		bool young;

		if (!pte_present(entry))
			continue;
		scanned++;
		young = ptep_clear_young_notify(vma, addr, pte);
		w->cleared_young |= young;
		memattr_walk_folio(w, vma, addr, vm_normal_folio(vma, addr, entry),
				   young);
	}
	pte_unmap_unlock(start, ptl);
	w->d->budget -= scanned;
	count_vm_events(MEMATTR_SCANNED, scanned);
	return 0;
}

/* Leave out what cannot move or has no LRU folios: hugetlb, I/O, locked. */
static int memattr_test_walk(unsigned long start, unsigned long end,
			     struct mm_walk *walk)
{
	struct vm_area_struct *vma = walk->vma;

	if (is_vm_hugetlb_page(vma) ||
	    (vma->vm_flags & (VM_PFNMAP | VM_IO | VM_MIXEDMAP | VM_LOCKED)))
		return 1;
	return 0;
}

static const struct mm_walk_ops memattr_walk_ops = {
	.pmd_entry = memattr_pmd_entry,
	.test_walk = memattr_test_walk,
	.walk_lock = PGWALK_RDLOCK,
};

/* The process whose tgid is the first at or above @nr, with a reference. */
static struct task_struct *memattr_next_process(int *nr)
{
	struct task_struct *task = NULL;
	struct pid *pid;

	rcu_read_lock();
	while (!task && (pid = find_ge_pid(*nr, &init_pid_ns))) {
		*nr = pid_nr(pid);
		task = pid_task(pid, PIDTYPE_TGID);
		if (task && (task->flags & PF_KTHREAD))
			task = NULL;
		if (!task)
			(*nr)++;
	}
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task;
}

/*
 * A CPU sets an accessed bit only when it walks the page table, so a folio
 * whose translation stays in a TLB looks idle in every later pass, however
 * hot it is. Reclaim accepts that (x86 clears the bit without a flush): a
 * missed access there only makes a page look idle once more. The folios a
 * promotion looks for, a small hot set touched in a loop, are exactly the
 * ones that stay cached; so the mm's TLBs are flushed after each stretch
 * of its walk that cleared bits: once per process and pass, unless queued
 * migrations or the budget split the walk.
 */
static void memattr_flush_cleared(struct mm_struct *mm, struct memattr_walk *w)
{
	if (w->cleared_young)
		flush_tlb_mm(mm);
	w->cleared_young = false;
}

/*
 * Walk one process from @start, migrating what fills the queues on the way;
 * false if the budget stopped it (the cursor says where).
 */
static bool memattr_walk_process(struct memattr_daemon *d,
				 struct task_struct *task, unsigned long start)
{
	struct memattr_walk w = { .d = d, .task_mems = cpuset_mems_allowed(task) };
	struct mm_struct *mm = get_task_mm(task);

	if (!mm)
		return true;
	do {
		w.stopped_at = 0;
		if (!mmap_read_trylock(mm))
			break;	/* busy: its pages wait for the next pass */
		walk_page_range(mm, start, mm->task_size, &memattr_walk_ops, &w);
		mmap_read_unlock(mm);
		memattr_flush_cleared(mm, &w);
		memattr_migrate_queued(d);
		start = w.stopped_at;
	} while (start && d->budget > 0 && !kthread_should_stop());
	mmput(mm);
	if (!w.stopped_at)
		return true;
	d->cursor_addr = w.stopped_at;
	return false;
}

/* Walk processes from the cursor; false if the budget ran out first. */
static bool memattr_walk_processes(struct memattr_daemon *d)
{
	struct task_struct *task;

	while ((task = memattr_next_process(&d->cursor_pid))) {
		bool done = memattr_walk_process(d, task, d->cursor_addr);

		put_task_struct(task);
		if (!done)
			return false;
		d->cursor_pid++;
		d->cursor_addr = 0;
		if (d->budget <= 0 || kthread_should_stop())
			return false;
		cond_resched();
	}
	return true;
}

/* ---- heat of page cache no process maps ---- */

static void memattr_walk_pfn(struct memattr_daemon *d, unsigned long pfn,
			     unsigned long *next)
{
	struct page *page = pfn_to_online_page(pfn);
	struct folio *folio;

	*next = pfn + 1;
	if (!page)
		return;
	folio = page_folio(page);
	if (!folio_try_get(folio))
		return;
	if (unlikely(page_folio(page) != folio))
		goto put;
	*next = folio_pfn(folio) + folio_nr_pages(folio);
	if (folio_test_lru(folio) && !folio_test_anon(folio) && !folio_mapped(folio)) {
		bool accessed = !folio_test_idle(folio);

		folio_set_idle(folio);
		memattr_account(d, folio, accessed, &node_states[N_MEMORY], false);
	}
put:
	folio_put(folio);
}

/*
 * Only nodes with unmapped page cache, and only where it could move: up to
 * a faster node, or down from a node that needs room. The fastest node's
 * PFNs are not walked at all while it has room.
 */
static bool memattr_pfn_walk_useful(struct memattr_daemon *d, int nid)
{
	int other;

	if (node_page_state(NODE_DATA(nid), NR_FILE_PAGES) <=
	    node_page_state(NODE_DATA(nid), NR_FILE_MAPPED))
		return false;
	if (d->need[nid] > 0)
		return true;
	for_each_node_mask(other, d->tracked)
		if (memattr_faster(d->latency, d->bandwidth, other, nid))
			return true;
	return false;
}

/* Walk the PFNs of nodes with unmapped page cache; false if out of budget. */
static bool memattr_walk_pfns(struct memattr_daemon *d)
{
	for (; d->cursor_nid < MAX_NUMNODES;
	     d->cursor_nid = next_node(d->cursor_nid, d->tracked), d->cursor_pfn = 0) {
		int nid = d->cursor_nid;
		unsigned long end = node_end_pfn(nid);

		if (!memattr_pfn_walk_useful(d, nid))
			continue;
		d->cursor_pfn = max(d->cursor_pfn, node_start_pfn(nid));
		while (d->cursor_pfn < end) {
			if (d->queued >= MEMATTR_BATCH_PAGES)
				memattr_migrate_queued(d);
			if (d->budget <= 0 || kthread_should_stop()) {
				memattr_migrate_queued(d);
				return false;
			}
			memattr_walk_pfn(d, d->cursor_pfn, &d->cursor_pfn);
			d->budget--;
			count_vm_event(MEMATTR_SCANNED);
			if (!(d->cursor_pfn % 4096))
				cond_resched();
		}
		memattr_migrate_queued(d);
	}
	return true;
}

/* ---- the thread ---- */

/* One wakeup: continue the pass within this interval's budget. */
static void memattr_daemon_step(struct memattr_daemon *d)
{
	unsigned long now = jiffies;
	long budget = READ_ONCE(memattr_scan_budget);
	bool walked;

	d->rate.tokens = memattr_rate_refill(d->rate.tokens, now - d->rate.last,
					     READ_ONCE(memattr_rate_limit_mbps));
	d->rate.last = now;
	d->budget = budget;
	if (d->pass_start)
		memattr_pass_begin(d);
	if (nodes_weight(d->tracked) < 2) {
		d->pass_start = true;
		return;		/* nothing is faster or slower than anything */
	}
	if (!d->pfn_phase)
		d->pfn_phase = memattr_walk_processes(d);
	walked = d->pfn_phase && memattr_walk_pfns(d);
	d->pass_scanned += budget - d->budget;
	if (walked)
		memattr_pass_end(d);
}

static int memattr_daemon_fn(void *data)
{
	struct memattr_daemon *d = data;

	set_freezable();
	while (!kthread_should_stop()) {
		unsigned long wait;

		memattr_daemon_step(d);
		wait = msecs_to_jiffies(READ_ONCE(memattr_scan_interval_ms));
		/* between passes, longer after quiet ones */
		if (d->pass_start)
			wait <<= d->backoff;
		wait_event_freezable_timeout(memattr_daemon_wait,
					     kthread_should_stop(), wait);
	}
	return 0;
}

static struct memattr_daemon *memattr_daemon_alloc(void)
{
	struct memattr_daemon *d = kzalloc(sizeof(*d), GFP_KERNEL);
	int nid;

	if (!d)
		return NULL;
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		INIT_LIST_HEAD(&d->promote[nid]);
		INIT_LIST_HEAD(&d->demote[nid]);
	}
	d->pass_start = true;
	d->rate.last = jiffies;
	return d;
}

static void memattr_daemon_free(struct memattr_daemon *d)
{
	int nid;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		memattr_heat_free(d->heat[nid]);
	kfree(d);
}

/* The thread's state, for the stopper to free (memattr_daemon_lock). */
static struct memattr_daemon *memattr_daemon_state;

static int __memattr_daemon_start(void)
{
	struct task_struct *task;
	struct memattr_daemon *d;

	lockdep_assert_held(&memattr_daemon_lock);
	if (memattr_daemon_task)
		return 0;
	d = memattr_daemon_alloc();
	if (!d)
		return -ENOMEM;
	task = kthread_run(memattr_daemon_fn, d, "kmemattrd");
	if (IS_ERR(task)) {
		memattr_daemon_free(d);
		return PTR_ERR(task);
	}
	memattr_daemon_task = task;
	memattr_daemon_state = d;
	/* memattr_daemon_lock, then cpu_hotplug_lock: nothing nests the other way */
	static_branch_enable(&memattr_daemon_sampling);
	return 0;
}

static void __memattr_daemon_stop(void)
{
	lockdep_assert_held(&memattr_daemon_lock);
	if (!memattr_daemon_task)
		return;
	static_branch_disable(&memattr_daemon_sampling);
	kthread_stop(memattr_daemon_task);
	memattr_daemon_free(memattr_daemon_state);
	memattr_daemon_task = NULL;
	memattr_daemon_state = NULL;
}

/* ---- sysfs: /sys/kernel/mm/memattr/daemon/ ---- */

/* A knob: an unsigned value and the range a write must fall in. */
struct memattr_knob {
	/* the sysfs file */
	struct kobj_attribute attr;
	/* the value, read by the thread with READ_ONCE() */
	unsigned int *value;
	/* inclusive range of accepted writes */
	unsigned int min;
	unsigned int max;
};

/* Parse a write of @buf into @val within [@min, @max]: 0 or -errno. */
static int memattr_knob_parse(const char *buf, size_t count, unsigned int min,
			      unsigned int max, unsigned int *val)
{
	/*
	 * The file mode keeps other users out; a root task without
	 * CAP_SYS_ADMIN must not start page migration for everyone either.
	 */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (strnlen(buf, count) != count)
		return -EINVAL;		/* a NUL byte: junk after it would be lost */
	if (kstrtouint(buf, 10, val) || *val < min || *val > max)
		return -EINVAL;
	return 0;
}

static ssize_t memattr_knob_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct memattr_knob *knob = container_of(attr, struct memattr_knob, attr);

	return sysfs_emit(buf, "%u\n", READ_ONCE(*knob->value));
}

static ssize_t memattr_knob_store(struct kobject *kobj,
				  struct kobj_attribute *attr,
				  const char *buf, size_t count)
{
	struct memattr_knob *knob = container_of(attr, struct memattr_knob, attr);
	unsigned int val;
	int ret;

	ret = memattr_knob_parse(buf, count, knob->min, knob->max, &val);
	if (ret)
		return ret;
	scoped_guard(mutex, &memattr_daemon_lock)
		WRITE_ONCE(*knob->value, val);
	wake_up(&memattr_daemon_wait);	/* a new interval applies now */
	return count;
}

#define MEMATTR_KNOB(_name, _file, _var, _min, _max)			\
static struct memattr_knob memattr_knob_##_name = {			\
	.attr = {							\
		.attr = { .name = _file, .mode = 0644 },		\
		.show = memattr_knob_show,				\
		.store = memattr_knob_store,				\
	},								\
	.value = &(_var),						\
	.min = (_min),							\
	.max = (_max),							\
}

MEMATTR_KNOB(scan_interval, "scan_interval_ms", memattr_scan_interval_ms, 10, 60000);
MEMATTR_KNOB(hot_threshold, "hot_threshold", memattr_hot_threshold, 1,
	     MEMATTR_HEAT_BITS);
MEMATTR_KNOB(scan_budget, "scan_budget", memattr_scan_budget, 512, 1U << 24);
MEMATTR_KNOB(rate_limit, "rate_limit_MBps", memattr_rate_limit_mbps, 1, 100000);
MEMATTR_KNOB(demote_watermark, "demote_watermark", memattr_demote_watermark,
	     0, 50);

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", !!READ_ONCE(memattr_daemon_task));
}

static ssize_t enabled_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	unsigned int val;
	int ret;

	ret = memattr_knob_parse(buf, count, 0, 1, &val);
	if (ret)
		return ret;
	guard(mutex)(&memattr_daemon_lock);
	if (!val) {
		__memattr_daemon_stop();
		return count;
	}
	ret = __memattr_daemon_start();
	return ret ?: count;
}

static struct kobj_attribute memattr_enabled_attr = __ATTR_RW(enabled);

static ssize_t metadata_bytes_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&memattr_metadata_bytes));
}

static struct kobj_attribute memattr_metadata_bytes_attr = __ATTR_RO(metadata_bytes);

static struct attribute *memattr_daemon_attrs[] = {
	&memattr_enabled_attr.attr,
	&memattr_knob_scan_interval.attr.attr,
	&memattr_knob_hot_threshold.attr.attr,
	&memattr_knob_scan_budget.attr.attr,
	&memattr_knob_rate_limit.attr.attr,
	&memattr_knob_demote_watermark.attr.attr,
	&memattr_metadata_bytes_attr.attr,
	NULL,
};

static const struct attribute_group memattr_daemon_group = {
	.name = "daemon",
	.attrs = memattr_daemon_attrs,
};

/* memattr_daemon=1: start kmemattrd at boot (0 or 1, as "enabled"). */
static int __init memattr_daemon_param(char *str)
{
	if (!str || kstrtobool(str, &memattr_daemon_at_boot)) {
		pr_warn("memattr_daemon=%s: not 0 or 1, the daemon stays off\n",
			str ?: "");
		return -EINVAL;
	}
	return 0;
}
early_param("memattr_daemon", memattr_daemon_param);

/* After the records (late firmware) and the memattr kobject exist. */
static int __init memattr_daemon_init(void)
{
	int ret;

	if (!memattr_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(memattr_kobj, &memattr_daemon_group);
	if (ret)
		return ret;
	if (memattr_daemon_at_boot) {
		guard(mutex)(&memattr_daemon_lock);
		ret = __memattr_daemon_start();
		if (ret)
			pr_warn("kmemattrd did not start: %d\n", ret);
	}
	return 0;
}
late_initcall(memattr_daemon_init);

#include "tests/memattr_daemon-kunit.h"
