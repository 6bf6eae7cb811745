// SPDX-License-Identifier: GPL-2.0
/*
 * kmemattrd: move folios between memory tiers by how hot they are, to the
 * nodes the memattr records say are faster or slower for the CPUs that use
 * them.
 *
 * One thread for the system, not one per node. Heat comes from a walk of
 * every process's page tables (the accessed bit of each PTE or PMD that maps
 * memory of a tracked node, with the TLBs flushed after bits are cleared:
 * memattr_flush_cleared()), and one walk serves all nodes at once; a thread
 * per node would walk every mm once per node. A cleared bit is handed on
 * to reclaim and page_idle as folio_referenced() does (folio_set_young(),
 * folio_clear_idle()); bits of other nodes are left alone. A read(2) of
 * page cache sets no accessed bit, so page cache is also seen through the
 * LRU state reclaim keeps (an active folio was read again), read and never
 * changed: by the page-table walk where a process maps the folio, else by
 * a walk over the PFNs of each tracked node that holds such page cache.
 *
 * Tracked nodes have memory, a known read latency and are not special; a
 * special node's pages never move and nothing moves into it. Each tracked
 * node has 8 bits per 4 KiB page (256 KiB per GiB): the access history of
 * the folio that starts there over the last 4 passes, newest in bit 0,
 * aged lazily per 2 MiB chunk, and a tag of that folio, so that a folio
 * that gets the frame after it is freed starts over (struct memattr_heat).
 * A pass is one walk over all processes and tracked PFNs; scan_budget
 * bounds how many entries a pass's first wakeup looks at, every entry
 * visited counted; one that needs more goes on in steps of a quarter
 * budget a quarter interval apart (the same rate: a pass of a little more
 * than the budget ends a quarter interval later, not a whole one), and a
 * folio is found hot after hot_threshold passes with an access. An entry
 * without the accessed bit is passed over before its folio is looked up
 * while no node needs room, so a steady state costs
 * what was touched rather than what is mapped. After a quiet pass (nothing
 * moved, nothing on a slower node accessed but not yet hot) the wait
 * before the next pass doubles, up to 16 intervals, and is at least 100
 * times the CPU time of the pass: a steady state costs a sixteenth of the
 * walks (one every 8 s at the default 500 ms), its passes 1% of a CPU at
 * most. A backed-off thread still wakes four times an interval: it reads
 * the nodes' mapped page counts (4 MiB of a tracked node mapped or
 * unmapped, a workload starting, ends the back-off) and probes the
 * accessed bits of a quarter of the page-table entries the last pass
 * walked, scan_budget / 16 to scan_budget / 4 (an accessed one whose
 * folio it looks up counts as 17), clearing none: one on a slower node
 * whose folio was not hot ends it too, so a hot set that appears in
 * memory already mapped is found within about an interval where a pass
 * walks it in one wakeup, and at most 16 intervals late.
 * A pass that saw folios on a slower node accessed but not yet hot, or
 * left hot ones waiting for room, is followed by a confirming one a
 * quarter interval after it rather than a whole one: a folio still
 * accessed then is hot without waiting a whole interval, one written once
 * and left is not, and cold folios to make room are found a pass sooner.
 * A confirming pass that moved folios and left others unsettled gets a
 * second one; never three in a row, so the walk rate is at most twice
 * scan_budget per scan_interval_ms.
 *
 * Example: 262,144 PTEs of a 1 GiB region, default budget 262,144 per
 * 500 ms: a pass every 500 ms (plus the few PTEs of other tasks), and a
 * hot folio is promoted 125 ms after the pass that first saw it accessed
 * (a whole interval without the confirming pass), then at rate_limit_MBps.
 *
 * Promotion: a folio accessed in at least hot_threshold of the last 4
 * passes goes to the fastest tracked node, as the CPUs of the node where
 * most of its process's threads run see it (per-initiator views), that is
 * faster than its own, allowed by its memory policy (read as NUMA
 * balancing reads it) and the task's cpuset, and has room above its high
 * watermark plus demote_watermark percent. A memory-only node faster than
 * the CPUs' node is a valid target. When that node lacks room, the rest of
 * the pass demotes as much cold memory from it as was wanted there, and so
 * does the next pass if the walk had passed the cold memory already; room
 * so freed goes to those wanting folios first, which the next pass
 * promotes, so that it is never promised twice.
 *
 * Demotion: on a node whose free memory is below demote_watermark percent
 * (or that promotion wants room on), folios with no access in 4 passes go to
 * next_demotion_node(), which never names a special node.
 *
 * No ping-pong: a promoted folio starts with a full history (it cannot look
 * cold for 4 passes) and a demoted one with an empty history (it needs
 * hot_threshold passes of accesses to come back). With numa_balancing=2
 * also on, NUMA balancing promotes mapped folios of lower tiers to the
 * node of the CPU that touches them at fault time, sooner than a pass;
 * the daemon then leaves those folios to it where the target has CPUs,
 * and keeps promoting page cache, top-tier folios and into memory-only
 * nodes, and demoting.
 *
 * Fault-around maps the PTEs it adds ahead of a fault of a file mapping
 * young on x86, though no task touched those pages: every process that
 * maps a shared file would make the neighbours of the pages it touches
 * look accessed once, and a few such processes make cold pages look hot.
 * So in the VMAs fault-around serves, a PTE's first young observation
 * after it was made does not count (struct memattr_seen); the fault path
 * is left as it is.
 *
 * Locking: the metadata and the queues belong to the thread alone.
 * memattr_daemon_lock serialises start, stop and knob writes. The walk
 * holds the mm's mmap lock for read (trylock: a busy mm waits a pass) and
 * drops it every MEMATTR_LOCK_BATCH entries that a writer waits; the page
 * table lock is held while it reads and isolates.
 */

#define pr_fmt(fmt) "memattr: " fmt

#include <linux/capability.h>
#include <linux/cpuset.h>
#include <linux/freezer.h>
#include <linux/hash.h>
#include <linux/huge_mm.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/memattr.h>
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
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include <linux/xarray.h>

#include <asm/tlbflush.h>

#include "internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/memattr.h>

/* History bits per page, and the history of a folio hot in every pass. */
#define MEMATTR_HEAT_BITS	4
#define MEMATTR_HEAT_FULL	0xf
/*
 * What one look records: an access this pass (a young entry), or one this
 * pass and one before (a page-cache folio reclaim counts as used, which
 * took a second read to become so).
 */
#define MEMATTR_SEEN_NOW	0x1
#define MEMATTR_SEEN_REUSED	0x3
/* A quiet pass doubles the wait before the next, up to 1 << this intervals. */
#define MEMATTR_BACKOFF_MAX	4
/*
 * A quiet pass is followed by a wait of at least this many times the CPU
 * time it took (up to 1 << MEMATTR_BACKOFF_MAX intervals): backed off, the
 * passes take 1% of a CPU at most, however much memory each walks.
 */
#define MEMATTR_QUIET_SHARE	100
/* A confirming pass starts 1 / (1 << this) interval after the one before. */
#define MEMATTR_CONFIRM_SHIFT	2
/* At most this many confirming passes in a row. */
#define MEMATTR_CONFIRM_MAX	2
/* A pass goes on in steps of 1 / (1 << this) budget and interval. */
#define MEMATTR_STEP_SHIFT	2
/* Backed off, the thread looks for news 1 << this times an interval. */
#define MEMATTR_LOOK_SHIFT	2
/*
 * What a probe's look at an accessed entry's folio costs, in entries read:
 * reading an entry is one load; looking up its folio and history takes
 * tens of them (a hash and two bitmaps), about what a pass pays per entry.
 */
#define MEMATTR_PROBE_LOOKUP_COST	16
/* Mapped memory a node gains or loses that ends a back-off (4 MiB). */
#define MEMATTR_WAKE_PAGES	(SZ_4M >> PAGE_SHIFT)
/* Folios queued before the queues are migrated and emptied. */
#define MEMATTR_BATCH_PAGES	1024
/* Pages whose histories are aged together, lazily (one byte of state). */
#define MEMATTR_CHUNK_PAGES	512
#define MEMATTR_CHUNK_WORDS	(MEMATTR_CHUNK_PAGES / 16)
/* Passes over which every chunk is caught up once, whether visited or not. */
#define MEMATTR_SWEEP_PASSES	64
/* Entries walked under one mmap_lock hold before yielding to waiters. */
#define MEMATTR_LOCK_BATCH	4096
/* Passes before a node whose metadata could not be allocated is retried. */
#define MEMATTR_RETRY_PASSES	64

/* Knobs; written under memattr_daemon_lock, read by the thread. */
static unsigned int memattr_scan_interval_ms = 500;
static unsigned int memattr_hot_threshold = 2;
static unsigned int memattr_scan_budget = 262144;
static unsigned int memattr_rate_limit_mbps = 256;
static unsigned int memattr_demote_watermark = 2;

static DEFINE_MUTEX(memattr_daemon_lock);
/* The running thread, NULL when disabled (memattr_daemon_lock). */
static struct task_struct *memattr_daemon_task;
/* Bytes of heat metadata allocated now (for sysfs). */
static atomic_long_t memattr_metadata_bytes;
/* Passes completed since boot (for sysfs: tests wait for whole passes). */
static atomic_long_t memattr_passes;
static bool memattr_daemon_at_boot __initdata;
static DECLARE_WAIT_QUEUE_HEAD(memattr_daemon_wait);
/* Set by a knob write, for the thread to work out its wait again. */
static atomic_t memattr_knobs_written = ATOMIC_INIT(0);

/*
 * Access history of one tracked node: 4 bits per page of its span, 4 bits
 * naming the folio the history belongs to (memattr_folio_tag()), plus one
 * byte per chunk of MEMATTR_CHUNK_PAGES pages saying up to which pass (its
 * low 8 bits) the chunk's histories are aged. A pass ages nothing: the walk
 * catches up a chunk when it first looks at one of its pages, and a sweep
 * catches up every chunk once in MEMATTR_SWEEP_PASSES passes so that the
 * byte never wraps; the cost of a pass follows the pages walked, not the
 * node's size.
 */
struct memattr_heat {
	/* first PFN of the node's span when allocated */
	unsigned long start_pfn;
	/* pages covered; PFNs past it (hotplug grew the node) are ignored */
	unsigned long nr_pages;
	/* passes since allocation; cold means nothing before 4 */
	unsigned long passes;
	/* the next chunk the sweep catches up */
	unsigned long sweep;
	/* per chunk, the pass (low 8 bits) its words are aged to */
	u8 *aged;
	/* per page, the tag of the folio its history is about; as words */
	u64 *owners;
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

/* Everything the thread owns; allocated (kvzalloc) when it starts. */
struct memattr_daemon {
	/* per node; NULL when the node is not tracked */
	struct memattr_heat *heat[MAX_NUMNODES];
	/* read latency (ns) and bandwidth (MB/s) from the records */
	u32 latency[MAX_NUMNODES];
	u32 bandwidth[MAX_NUMNODES];
	/* the same as CPUs of node [i] see them (per-initiator views) */
	u32 view_latency[MAX_NUMNODES][MAX_NUMNODES];
	u32 view_bandwidth[MAX_NUMNODES][MAX_NUMNODES];
	/* nodes whose folios may move, those with CPUs, those of top tiers */
	nodemask_t tracked;
	nodemask_t cpu_nodes;
	nodemask_t toptier;
	/* per tgid, the PTEs of its fault-around VMAs seen (memattr_seen) */
	struct xarray seen;
	/* passes begun since the thread started */
	unsigned long pass_nr;
	/* nodes whose metadata could not be allocated, and when to retry */
	nodemask_t heat_failed;
	unsigned long heat_retry;
	/* threads of the process being walked per node they last ran on */
	unsigned int threads_on[MAX_NUMNODES];
	/* pages a node can still take this pass */
	long room[MAX_NUMNODES];
	/* pages to demote from a node this pass */
	long need[MAX_NUMNODES];
	/* pages promotion found no room for, per node, this pass */
	long wanted[MAX_NUMNODES];
	/* some node needed room this pass: cold folios must be looked at */
	bool demoting;
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
	/* the same as CPUs of node [i] see them */
	nodemask_t view_slower[MAX_NUMNODES];
	/* the next pass starts 1 << backoff intervals after this one ended */
	unsigned int backoff;
	/* where the probe of a backed-off thread goes on: tgid and address */
	int probe_pid;
	unsigned long probe_addr;
	/* mapped pages of each tracked node when the last pass began */
	unsigned long mapped_seen[MAX_NUMNODES];
	/*
	 * The pass under way (between passes: the next one) confirms the
	 * folios the one before saw heating up; it starts a quarter interval
	 * after that one rather than 1 << backoff intervals.
	 */
	unsigned int confirming;	/* confirming passes in a row, 0: none */
	/* folios on a slower node accessed this pass but not (yet) hot */
	unsigned long pass_heating;
	/* hot folios not yet on an LRU list (a per-CPU batch holds them) */
	unsigned long pass_unlisted;
	/* room this pass's demotions made for hot folios, for the next pass */
	unsigned long pass_served;
	/* the previous pass found some too, and drained the batches for them */
	bool drained;
	/* page-table entries this pass walked (between passes: the last) */
	unsigned long pass_walked;
	/* this pass so far, for the memattr_scan_pass tracepoint */
	unsigned long pass_jiffies;
	unsigned long pass_scanned;
	unsigned long pass_moved[2];	/* demoted, promoted */
	unsigned long pass_failed;
	unsigned long pass_tlb_flushes;
	/* the longest mmap_lock hold of the pass, ns */
	u64 pass_max_hold_ns;
	/* the time the pass's steps took, ns */
	u64 pass_ns;
};

/* ---- pure decisions, tested by KUnit ---- */

/*
 * Age a word of 16 histories by @lag passes: every nibble shifts left by
 * @lag, and what it keeps of 4 passes falls off its top.
 */
static inline u64 memattr_heat_age_word_by(u64 word, unsigned int lag)
{
	u64 keep;

	if (lag >= MEMATTR_HEAT_BITS)
		return 0;
	keep = 0x1111111111111111ULL * ((MEMATTR_HEAT_FULL << lag) & MEMATTR_HEAT_FULL);
	return (word << lag) & keep;
}

static inline u64 memattr_heat_age_word(u64 word)
{
	return memattr_heat_age_word_by(word, 1);
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
 * room that the next pass demotes). A steady state then walks a sixteenth
 * as often; a folio that starts getting hot is seen at most
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
 * Confirm a pass that saw folios on a slower node heating up (accessed,
 * not yet hot) with one that comes early: a hot folio is then found a
 * quarter interval after it was first seen instead of a whole one, and a
 * folio touched once (written, then left) is not accessed again in so
 * short a time. The same for a pass that left hot folios waiting for room,
 * or made room for them: the cold folios that must make it are found, and
 * the room made is used, a pass sooner. @confirmed is how many confirming
 * passes in a row the one that ended was (0: it was not one). A confirming
 * pass that moved folios and left others unsettled is followed by a
 * second: a hot set that a workload was still getting to when the first
 * pass looked, or that waited for the room this one made, is then placed a
 * quarter interval later, not an interval and a quarter. Never more than
 * two in a row: a workload that keeps heating new folios gets at most
 * three passes every one and a half intervals, the walk at most twice
 * scan_budget per scan_interval_ms. @unsettled (heating, waiting and
 * served folios) keeps the back-off at 0, so a confirming pass never cuts
 * a quiet spell short. Returns what the next pass is.
 */
static inline unsigned int memattr_next_confirms(unsigned int confirmed,
						 unsigned long unsettled,
						 unsigned long moved)
{
	if (!unsettled)
		return 0;
	if (!confirmed)
		return 1;
	return moved && confirmed < MEMATTR_CONFIRM_MAX ? confirmed + 1 : 0;
}

/*
 * The wait before the next pass, @interval being scan_interval_ms in
 * jiffies: 1 << @backoff intervals, or a quarter of one before a
 * confirming pass. Backed off, at least @quiet_floor, MEMATTR_QUIET_SHARE
 * times the CPU time of the pass that ended, within the longest back-off:
 * a pass that walks a lot of memory slows down sooner, so that what a
 * steady state costs does not grow with the memory walked.
 */
static inline unsigned long memattr_pass_wait(unsigned long interval,
					      unsigned int backoff, bool confirming,
					      unsigned long quiet_floor)
{
	if (confirming)
		return DIV_ROUND_UP(interval, 1U << MEMATTR_CONFIRM_SHIFT);
	if (!backoff)
		return interval;
	return clamp(quiet_floor, interval << backoff, interval << MEMATTR_BACKOFF_MAX);
}

/*
 * A pass that needs more than one wakeup goes on a quarter interval later
 * with a quarter of scan_budget, @continuing being whether this wakeup
 * goes on with a pass: the walk rate is that of whole budgets an interval
 * apart, and a pass that walks a little more than the budget ends a
 * quarter interval after its first wakeup rather than a whole one (and
 * holds an mmap_lock in shorter spells).
 */
static inline long memattr_step_budget(unsigned int scan_budget, bool continuing)
{
	return continuing ? max(scan_budget >> MEMATTR_STEP_SHIFT, 1U) : scan_budget;
}

static inline unsigned long memattr_step_wait(unsigned long interval)
{
	return DIV_ROUND_UP(interval, 1U << MEMATTR_STEP_SHIFT);
}

/*
 * While backed off, has a node's mapped memory changed enough to look at
 * once? @seen and @now are its mapped pages when the last pass began and
 * now: tasks that fault in or unmap @threshold pages have started or ended
 * something a pass should see. Mapped, not free: page cache, slab and
 * kswapd move free memory on a quiet system too.
 */
static inline bool memattr_mapped_moved(unsigned long seen, unsigned long now,
					unsigned long threshold)
{
	return (seen > now ? seen - now : now - seen) >= threshold;
}

/*
 * While backed off, is an access to a folio on a slower node, whose
 * history is @history, news to the next pass? Yes unless the last pass
 * already found it hot: a hot set that cannot move (its policy binds it to
 * a slower node) is accessed in every pass of a quiet spell, and must not
 * end it. A folio that was not hot either heats up or becomes hot with
 * this access, and the next pass has something to do about it.
 */
static inline bool memattr_probe_news(unsigned int history, unsigned int threshold)
{
	return !memattr_heat_hot(history, threshold);
}

/*
 * One probe's budget while backed off, @walked being the page-table
 * entries the last pass walked: the four probes of an interval can read
 * as many, so a hot set that appears in memory mapped long before is
 * found within about an interval wherever it is (later where many entries
 * are accessed, as a probe pays for looking up their folios). At most a
 * quarter of scan_budget (the probes of an interval never read more than
 * a pass on time walks), at least what a pass at the longest wait walks in
 * an interval. A probe reads entries without clearing them and looks up
 * only the folios of accessed ones, so it costs a fraction of a pass.
 */
static inline long memattr_probe_budget(unsigned int scan_budget,
					unsigned long walked)
{
	unsigned long least = max(scan_budget >> MEMATTR_BACKOFF_MAX, 1U);
	unsigned long most = max(scan_budget >> MEMATTR_LOOK_SHIFT, 1U);
	unsigned long looks = 1UL << MEMATTR_LOOK_SHIFT;

	/* rounded up, without overflowing */
	return clamp(walked / looks + !!(walked % looks), least, most);
}

/* What a probe of @entries entries, @looked_up of them accessed, costs. */
static inline long memattr_probe_cost(long entries, long looked_up)
{
	return entries + looked_up * MEMATTR_PROBE_LOOKUP_COST;
}

/* Backed off, the time between two looks for news (mapped pages, a probe). */
static inline unsigned long memattr_look_wait(unsigned long interval)
{
	return DIV_ROUND_UP(interval, 1U << MEMATTR_LOOK_SHIFT);
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

/* Bytes of the metadata for @nr pages: histories, owners, chunk bytes. */
static size_t memattr_heat_bytes(unsigned long nr)
{
	return struct_size_t(struct memattr_heat, words, 2 * DIV_ROUND_UP(nr, 16)) +
	       DIV_ROUND_UP(nr, MEMATTR_CHUNK_PAGES);
}

/* Lay out zeroed metadata of memattr_heat_bytes(@nr) for @nr pages at @start. */
static void memattr_heat_init(struct memattr_heat *heat, unsigned long start,
			      unsigned long nr)
{
	heat->start_pfn = start;
	heat->nr_pages = nr;
	heat->owners = &heat->words[DIV_ROUND_UP(nr, 16)];
	heat->aged = (u8 *)&heat->owners[DIV_ROUND_UP(nr, 16)];
}

/*
 * The metadata of @nid, on @nid if it can be. Never worth reclaim or an OOM
 * kill: a node without it is left alone. GFP_KERNEL keeps it off
 * ZONE_MOVABLE, so it never stands in the way of a hot-remove.
 */
static struct memattr_heat *memattr_heat_alloc(int nid)
{
	unsigned long nr = node_spanned_pages(nid);
	size_t bytes = memattr_heat_bytes(nr);
	struct memattr_heat *heat;

	heat = __vmalloc_node(bytes, 1, GFP_KERNEL | __GFP_ZERO | __GFP_NORETRY |
			      __GFP_NOWARN, nid, __builtin_return_address(0));
	if (!heat)
		return NULL;
	memattr_heat_init(heat, node_start_pfn(nid), nr);
	atomic_long_add(bytes, &memattr_metadata_bytes);
	return heat;
}

static void memattr_heat_free(struct memattr_heat *heat)
{
	if (!heat)
		return;
	atomic_long_sub(memattr_heat_bytes(heat->nr_pages), &memattr_metadata_bytes);
	vfree(heat);
}

static bool memattr_heat_covers(const struct memattr_heat *heat, unsigned long pfn)
{
	return heat && pfn - heat->start_pfn < heat->nr_pages;
}

/* Age chunk @chunk's histories up to the current pass. */
static void memattr_heat_catch_up_chunk(struct memattr_heat *heat,
					unsigned long chunk)
{
	u8 lag = (u8)heat->passes - heat->aged[chunk];
	unsigned long w = chunk * MEMATTR_CHUNK_WORDS;
	unsigned long end = min(w + MEMATTR_CHUNK_WORDS,
				DIV_ROUND_UP(heat->nr_pages, 16));

	if (!lag)
		return;
	for (; w < end; w++)
		heat->words[w] = memattr_heat_age_word_by(heat->words[w], lag);
	heat->aged[chunk] = heat->passes;
}

/* Bring @pfn's history up to the current pass before reading or writing it. */
static void memattr_heat_catch_up(struct memattr_heat *heat, unsigned long pfn)
{
	memattr_heat_catch_up_chunk(heat, (pfn - heat->start_pfn) / MEMATTR_CHUNK_PAGES);
}

/* The 4 bits of page @i in an array of words of 16 pages. */
static unsigned int memattr_nibble_get(const u64 *words, unsigned long i)
{
	return (words[i / 16] >> (4 * (i % 16))) & 0xf;
}

static void memattr_nibble_set(u64 *words, unsigned long i, unsigned int val)
{
	unsigned int shift = 4 * (i % 16);
	u64 *word = &words[i / 16];

	*word = (*word & ~(0xfULL << shift)) | ((u64)val << shift);
}

static unsigned int memattr_heat_get(const struct memattr_heat *heat,
				     unsigned long pfn)
{
	return memattr_nibble_get(heat->words, pfn - heat->start_pfn);
}

static void memattr_heat_set(struct memattr_heat *heat, unsigned long pfn,
			     unsigned int history)
{
	memattr_nibble_set(heat->words, pfn - heat->start_pfn, history);
}

/*
 * Which folio a page frame's history is about, in 4 bits: a hash of what
 * rmap and the page cache know it by (its mapping, anon_vma or address
 * space, and its index there). A frame freed by its owner and given to
 * another folio mostly gets another tag, and the new folio starts with an
 * empty history instead of its predecessor's (1 time in 16 it inherits
 * at most 4 passes of it). Nothing on the allocator's paths is involved.
 */
static unsigned int memattr_folio_tag(const struct folio *folio)
{
	unsigned long key = (unsigned long)READ_ONCE(folio->mapping) ^
			    (READ_ONCE(folio->index) * GOLDEN_RATIO_PRIME);

	return hash_long(key, 4);
}

/* Record that @pfn's history, now @history, is about the folio tagged @tag. */
static void memattr_heat_record(struct memattr_heat *heat, unsigned long pfn,
				unsigned int tag, unsigned int history)
{
	memattr_nibble_set(heat->owners, pfn - heat->start_pfn, tag);
	memattr_heat_set(heat, pfn, history);
}

/* @folio's history: what its frame keeps, or nothing if that was another's. */
static unsigned int memattr_heat_of(struct memattr_heat *heat,
				    struct folio *folio)
{
	unsigned long pfn = folio_pfn(folio);
	unsigned int tag = memattr_folio_tag(folio);

	if (memattr_nibble_get(heat->owners, pfn - heat->start_pfn) != tag)
		memattr_heat_record(heat, pfn, tag, 0);
	return memattr_heat_get(heat, pfn);
}

/*
 * A new pass: O(1) for the histories, which age lazily, plus a sweep of
 * 1/MEMATTR_SWEEP_PASSES of the chunks so that none lags 256 passes.
 */
static void memattr_heat_age(struct memattr_heat *heat)
{
	unsigned long chunks = DIV_ROUND_UP(heat->nr_pages, MEMATTR_CHUNK_PAGES);
	unsigned long n = DIV_ROUND_UP(chunks, MEMATTR_SWEEP_PASSES);

	heat->passes++;
	while (n--) {
		memattr_heat_catch_up_chunk(heat, heat->sweep);
		heat->sweep = (heat->sweep + 1) % chunks;
	}
}

/* ---- fault-around's young neighbours ---- */

/*
 * Which PTEs of one page table the walk found present, and when. A young
 * PTE whose bit is clear was made since the table was last walked:
 * fault-around maps young what it maps ahead of a fault, so that first
 * young bit is no evidence that a task touched the page.
 */
struct memattr_seen_table {
	/* the last pass that walked the table */
	unsigned long pass_nr;
	DECLARE_BITMAP(present, PTRS_PER_PTE);
};

/* The tables of one process's VMAs that fault-around serves. */
struct memattr_seen {
	/* the process's mm when the tables were made: compared, never used */
	const struct mm_struct *mm;
	/* the last pass that walked the process */
	unsigned long pass_nr;
	/* PMD index -> struct memattr_seen_table */
	struct xarray tables;
};

#define MEMATTR_SEEN_GFP	(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)

static void memattr_seen_free_table(struct memattr_seen *seen, unsigned long index,
				    struct memattr_seen_table *table)
{
	xa_erase(&seen->tables, index);
	kfree(table);
	atomic_long_sub(sizeof(*table), &memattr_metadata_bytes);
}

/*
 * Drop the tables of page tables the last whole walk of @seen did not
 * visit, or with @all every table.
 */
static void memattr_seen_trim(struct memattr_seen *seen, bool all)
{
	struct memattr_seen_table *table;
	unsigned long index;

	xa_for_each(&seen->tables, index, table)
		if (all || table->pass_nr != seen->pass_nr)
			memattr_seen_free_table(seen, index, table);
}

static void memattr_seen_free(struct memattr_seen *seen)
{
	memattr_seen_trim(seen, true);
	xa_destroy(&seen->tables);
	kfree(seen);
	atomic_long_sub(sizeof(*seen), &memattr_metadata_bytes);
}

/* Drop the processes this pass did not walk (gone, or skipped). */
static void memattr_seen_prune(struct memattr_daemon *d, bool all)
{
	struct memattr_seen *seen;
	unsigned long tgid;

	xa_for_each(&d->seen, tgid, seen) {
		if (!all && seen->pass_nr == d->pass_nr)
			continue;
		xa_erase(&d->seen, tgid);
		memattr_seen_free(seen);
	}
}

/* @tgid's tables, new ones if it had none or they were for another mm. */
static struct memattr_seen *memattr_seen_get(struct memattr_daemon *d, pid_t tgid,
					     const struct mm_struct *mm)
{
	struct memattr_seen *seen = xa_load(&d->seen, tgid), *old;

	if (!seen || seen->mm != mm) {
		seen = kzalloc(sizeof(*seen), MEMATTR_SEEN_GFP);
		if (!seen)
			return NULL;
		seen->mm = mm;
		xa_init(&seen->tables);
		old = xa_store(&d->seen, tgid, seen, MEMATTR_SEEN_GFP);
		if (xa_is_err(old)) {
			kfree(seen);
			return NULL;
		}
		atomic_long_add(sizeof(*seen), &memattr_metadata_bytes);
		if (old)
			memattr_seen_free(old);
	}
	seen->pass_nr = d->pass_nr;
	return seen;
}

/* The table for the page table that maps @addr; NULL if none can be had. */
static struct memattr_seen_table *memattr_seen_table(struct memattr_seen *seen,
						     unsigned long addr)
{
	unsigned long index = addr >> PMD_SHIFT;
	struct memattr_seen_table *table = xa_load(&seen->tables, index);
	void *old;

	if (!table) {
		table = kzalloc(sizeof(*table), MEMATTR_SEEN_GFP);
		if (!table)
			return NULL;
		old = xa_store(&seen->tables, index, table, MEMATTR_SEEN_GFP);
		if (xa_is_err(old)) {
			kfree(table);
			return NULL;
		}
		atomic_long_add(sizeof(*table), &memattr_metadata_bytes);
	}
	table->pass_nr = seen->pass_nr;
	return table;
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

/* Free pages of @zone on per-CPU lists (a racy read, as show_free_areas()). */
static long memattr_zone_pcp_free(struct zone *zone)
{
	long nr = 0;
	int cpu;

	for_each_online_cpu(cpu)
		nr += READ_ONCE(per_cpu_ptr(zone->per_cpu_pageset, cpu)->count);
	return nr;
}

/*
 * Free pages of @nid above the high watermarks and @keep_pct of it. Free
 * includes the per-CPU lists: a demotion frees its folios onto its CPU's
 * list, which since 6.7 grows while a CPU frees in bulk; they stay there
 * until that CPU allocates them or vmstat decays the list, over seconds,
 * and without them the next pass would not see the room the demotion
 * made. The buddy lists alone must still be above the high watermarks,
 * which kswapd and the allocator's checks count: the promotions never
 * take what kswapd would then reclaim, and their allocations, which take
 * no pages from other CPUs' lists, find the pages they were promised.
 */
static long memattr_node_room(int nid, unsigned int keep_pct)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	long free = 0, pcp = 0, reserve = 0, managed = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!managed_zone(zone) || !memattr_zone_takes_movable(z))
			continue;
		free += zone_page_state(zone, NR_FREE_PAGES);
		pcp += memattr_zone_pcp_free(zone);
		reserve += high_wmark_pages(zone);
		managed += zone_managed_pages(zone);
	}
	return min(free + pcp - reserve - managed * keep_pct / 100, free - reserve);
}

/* A node whose folios may move: memory, a known latency, not special. */
static bool memattr_node_tracked(int nid)
{
	return node_state(nid, N_MEMORY) && !memattr_node_special(nid) &&
	       memattr_get(nid, MEMATTR_READ_LATENCY);
}

/*
 * Metadata for tracked node @nid, (re)allocated if its span changed. A node
 * whose allocation failed is left alone, and tried again after
 * MEMATTR_RETRY_PASSES passes rather than on every one.
 */
static bool memattr_refresh_heat(struct memattr_daemon *d, int nid)
{
	struct memattr_heat *heat = d->heat[nid];

	if (heat && (heat->start_pfn != node_start_pfn(nid) ||
		     heat->nr_pages != node_spanned_pages(nid))) {
		d->heat[nid] = NULL;
		memattr_heat_free(heat);
	}
	if (d->heat[nid])
		return true;
	if (node_isset(nid, d->heat_failed) && time_before(jiffies, d->heat_retry))
		return false;
	d->heat[nid] = memattr_heat_alloc(nid);
	if (d->heat[nid]) {
		if (node_isset(nid, d->heat_failed))
			pr_info("kmemattrd: node %d is tracked again\n", nid);
		node_clear(nid, d->heat_failed);
		return true;
	}
	if (!node_test_and_set(nid, d->heat_failed))
		pr_warn("kmemattrd: no memory for node %d's access history (%zu bytes): its pages stay where they are\n",
			nid, memattr_heat_bytes(node_spanned_pages(nid)));
	d->heat_retry = jiffies + MEMATTR_RETRY_PASSES *
			msecs_to_jiffies(READ_ONCE(memattr_scan_interval_ms));
	return false;
}

/* Each CPU node's view of the tracked nodes, and the records' own values. */
static void memattr_refresh_views(struct memattr_daemon *d)
{
	int nid, viewer;

	for_each_node_mask(nid, d->tracked) {
		d->latency[nid] = memattr_get(nid, MEMATTR_READ_LATENCY);
		d->bandwidth[nid] = memattr_get(nid, MEMATTR_READ_BANDWIDTH);
		for_each_node_state(viewer, N_CPU) {
			d->view_latency[viewer][nid] =
				memattr_get_from(viewer, nid, MEMATTR_READ_LATENCY);
			d->view_bandwidth[viewer][nid] =
				memattr_get_from(viewer, nid, MEMATTR_READ_BANDWIDTH);
		}
	}
}

/* The tracked nodes some other tracked node is faster than, by @latency. */
static void memattr_find_slower(const struct memattr_daemon *d, const u32 *latency,
				const u32 *bandwidth, nodemask_t *slower)
{
	int nid, other;

	nodes_clear(*slower);
	for_each_node_mask(nid, d->tracked)
		for_each_node_mask(other, d->tracked)
			if (memattr_faster(latency, bandwidth, other, nid))
				node_set(nid, *slower);
}

/* (Re)allocate metadata where a node's span changed; free it where gone. */
static void memattr_refresh_nodes(struct memattr_daemon *d)
{
	int nid;

	nodes_clear(d->tracked);
	for_each_node(nid) {
		if (!memattr_node_tracked(nid)) {
			memattr_heat_free(d->heat[nid]);
			d->heat[nid] = NULL;
			node_clear(nid, d->heat_failed);
			continue;
		}
		if (memattr_refresh_heat(d, nid))
			node_set(nid, d->tracked);
	}
	memattr_refresh_views(d);
	nodes_and(d->cpu_nodes, d->tracked, node_states[N_CPU]);
	nodes_clear(d->toptier);
	for_each_node_mask(nid, d->tracked)
		if (node_is_toptier(nid))
			node_set(nid, d->toptier);
	memattr_find_slower(d, d->latency, d->bandwidth, &d->slower);
	for_each_node_state(nid, N_CPU)
		memattr_find_slower(d, d->view_latency[nid], d->view_bandwidth[nid],
				    &d->view_slower[nid]);
}

/* Pages of @nid that tasks map: what a workload starting or ending moves. */
static unsigned long memattr_node_mapped(int nid)
{
	return node_page_state(NODE_DATA(nid), NR_ANON_MAPPED) +
	       node_page_state(NODE_DATA(nid), NR_FILE_MAPPED);
}

static void memattr_pass_begin(struct memattr_daemon *d)
{
	unsigned int keep = READ_ONCE(memattr_demote_watermark);
	int nid;

	d->pass_nr++;
	memattr_refresh_nodes(d);
	d->demoting = false;
	for_each_node_mask(nid, d->tracked) {
		d->mapped_seen[nid] = memattr_node_mapped(nid);
		memattr_heat_age(d->heat[nid]);
		d->room[nid] = memattr_node_room(nid, keep);
		/* below the watermark, or promotion asked for room last pass */
		d->need[nid] = max(0L, -d->room[nid]) + d->wanted[nid];
		d->wanted[nid] = 0;
		if (d->need[nid] > 0)
			d->demoting = true;
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
	d->pass_walked = 0;
	d->pass_moved[0] = 0;
	d->pass_moved[1] = 0;
	d->pass_failed = 0;
	d->pass_heating = 0;
	d->pass_unlisted = 0;
	d->pass_served = 0;
	d->pass_tlb_flushes = 0;
	d->pass_max_hold_ns = 0;
	d->pass_ns = 0;
}

/*
 * How long the thread sleeps after a wakeup: a quarter interval within a
 * pass; between passes longer after quiet ones, shorter to confirm.
 */
static unsigned long memattr_wait(const struct memattr_daemon *d)
{
	unsigned long interval = msecs_to_jiffies(READ_ONCE(memattr_scan_interval_ms));

	if (!d->pass_start)
		return memattr_step_wait(interval);
	return memattr_pass_wait(interval, d->backoff, d->confirming,
				 nsecs_to_jiffies(d->pass_ns * MEMATTR_QUIET_SHARE));
}

static void memattr_pass_end(struct memattr_daemon *d)
{
	unsigned long moved = d->pass_moved[0] + d->pass_moved[1];
	unsigned long pending, unsettled, wanted = 0;
	int nid;

	for_each_node_mask(nid, d->tracked)
		wanted += d->wanted[nid];
	/* hot folios with room made for them wait for the next pass too */
	unsettled = d->pass_heating + wanted + d->pass_served;
	pending = unsettled;
	/*
	 * A new folio reaches its LRU list only when its CPU's batch fills or
	 * drains; the last few folios a task faulted can sit there for good
	 * and could never be isolated. Drain them for the next pass, which
	 * comes at once. Hot folios still off every list after a drain are
	 * not on their way to one (pages a driver maps with vm_insert_page()):
	 * they do not keep the daemon from backing off.
	 */
	if (!d->drained)
		pending += d->pass_unlisted;
	d->drained = d->pass_unlisted;
	if (d->pass_unlisted)
		lru_add_drain_all();
	memattr_seen_prune(d, false);
	/* a look a quarter interval long is too short to call the system quiet */
	if (!d->confirming)
		d->backoff = memattr_next_backoff(d->backoff, moved, pending);
	/* hot folios waiting for room wait for cold ones: age those sooner */
	d->confirming = memattr_next_confirms(d->confirming, unsettled, moved);
	d->pass_start = true;
	trace_memattr_scan_pass(d->pass_scanned, d->pass_moved[1], d->pass_moved[0],
				d->pass_failed,
				jiffies_to_msecs(jiffies - d->pass_jiffies),
				d->pass_tlb_flushes,
				div_u64(d->pass_max_hold_ns, NSEC_PER_USEC),
				pending, jiffies_to_msecs(memattr_wait(d)));
	atomic_long_inc(&memattr_passes);
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

/* Who uses a folio: where it may go and whose view ranks the nodes. */
struct memattr_user {
	/* nodes its memory policy and cpuset let it move to */
	nodemask_t allowed;
	/* node whose CPUs use it (per-initiator views), or NUMA_NO_NODE */
	int viewer;
	/* mapped by a process (else page cache no process maps) */
	bool mapped;
};

/*
 * Isolate @folio onto @list. Its history starts over: the PFN will hold
 * another folio once it moved, or, if the move fails, the folio has to
 * earn its place again rather than be retried every pass.
 */
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
	memattr_heat_set(d->heat[folio_nid(folio)], folio_pfn(folio), 0);
	node_stat_mod_folio(folio, NR_ISOLATED_ANON + folio_is_file_lru(folio), nr);
	list_add_tail(&folio->lru, list);
	d->queued += nr;
	return true;
}

static void memattr_consider_promotion(struct memattr_daemon *d,
				       struct folio *folio,
				       const struct memattr_user *user)
{
	int src = folio_nid(folio), target, best;
	long nr = folio_nr_pages(folio);
	const u32 *latency = d->latency, *bandwidth = d->bandwidth;
	nodemask_t candidates;

	if (user->viewer != NUMA_NO_NODE) {
		latency = d->view_latency[user->viewer];
		bandwidth = d->view_bandwidth[user->viewer];
	}
	nodes_and(candidates, d->tracked, user->allowed);
	/*
	 * numa_balancing=2 moves a mapped folio of a lower tier to its CPU's
	 * node itself, and again from any lower tier; folios of the top tiers
	 * it does not scan. So a folio of a lower tier whose best node has
	 * CPUs (or is itself of a lower tier) is left to it; one whose best
	 * node is a memory-only node of the top tiers moves there.
	 */
	if (user->mapped && d->nb_tiering && !node_isset(src, d->toptier)) {
		memattr_pick_faster(src, latency, bandwidth, &candidates, d->room,
				    nr, &best);
		if (best == NUMA_NO_NODE || node_isset(best, d->cpu_nodes) ||
		    !node_isset(best, d->toptier))
			return;
		nodes_and(candidates, candidates, d->toptier);
		nodes_andnot(candidates, candidates, d->cpu_nodes);
	}
	target = memattr_pick_faster(src, latency, bandwidth, &candidates,
				     d->room, nr, &best);
	if (best != NUMA_NO_NODE && best != target) {
		/*
		 * Room on @best is wanted: cold folios there that the rest of
		 * this pass finds make it, so that the next pass can promote
		 * instead of only then starting to demote.
		 */
		d->wanted[best] += nr;
		d->need[best] += nr;
		d->demoting = true;
	}
	if (target == NUMA_NO_NODE)
		return;
	if (!folio_test_lru(folio))
		d->pass_unlisted += nr;
	else if (memattr_queue(d, folio, &d->promote[target]))
		d->room[target] -= nr;
}

static void memattr_consider_demotion(struct memattr_daemon *d,
				      struct folio *folio,
				      const struct memattr_user *user)
{
	int src = folio_nid(folio);
	int target = next_demotion_node(src);
	long nr = folio_nr_pages(folio);

	if (target == NUMA_NO_NODE || !node_isset(target, d->tracked) ||
	    !node_isset(target, user->allowed) || d->room[target] < nr)
		return;
	if (memattr_queue(d, folio, &d->demote[target])) {
		d->room[target] -= nr;
		d->need[src] -= nr;
		/*
		 * The move frees room on @src before the promotions of its
		 * batch. It goes first to what earlier promotions of this
		 * pass wanted there, which the next pass serves; only the
		 * rest may be used by promotions later in this pass, or the
		 * same room would be promised twice.
		 */
		if (d->wanted[src] >= nr) {
			d->wanted[src] -= nr;
			d->pass_served += nr;
		} else {
			d->room[src] += nr - d->wanted[src];
			d->pass_served += d->wanted[src];
			d->wanted[src] = 0;
		}
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
	/* the move gives @dst @src's mapping and index, so its tag too */
	if (dst && memattr_heat_covers(heat, folio_pfn(dst))) {
		memattr_heat_catch_up(heat, folio_pfn(dst));
		memattr_heat_record(heat, folio_pfn(dst), memattr_folio_tag(src),
				    t->history);
	}
	return dst;
}

/* The move failed after the target was allocated: forget its history. */
static void memattr_free_target(struct folio *dst, unsigned long private)
{
	struct memattr_target *t = (struct memattr_target *)private;
	struct memattr_heat *heat = t->d->heat[t->nid];

	if (memattr_heat_covers(heat, folio_pfn(dst))) {
		memattr_heat_catch_up(heat, folio_pfn(dst));
		memattr_heat_set(heat, folio_pfn(dst), 0);
	}
	folio_put(dst);
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
	migrate_pages(list, memattr_alloc_target, memattr_free_target, (unsigned long)&t,
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

	/* demotions first: promotions may count on the room they make */
	for_each_node(nid)
		memattr_migrate_list(d, &d->demote[nid], nid, false);
	for_each_node(nid)
		memattr_migrate_list(d, &d->promote[nid], nid, true);
	d->queued = 0;
}

/* ---- what the users of a folio allow ---- */

/*
 * Narrow @allowed to what memory policy @pol lets the daemon do, as NUMA
 * balancing reads a policy (mpol_misplaced()): a bind or preferred policy
 * keeps a folio within its nodes (a folio elsewhere only moves toward
 * them), an interleaved placement is never undone, and the default and
 * local policies leave the choice to heat.
 */
static void memattr_policy_allows(const struct mempolicy *pol, nodemask_t *allowed)
{
	if (!pol)
		return;
	switch (pol->mode) {
	case MPOL_BIND:
	case MPOL_PREFERRED:
	case MPOL_PREFERRED_MANY:
		nodes_and(*allowed, *allowed, pol->nodes);
		break;
	case MPOL_INTERLEAVE:
	case MPOL_WEIGHTED_INTERLEAVE:
		nodes_clear(*allowed);
		break;
	default:
		break;
	}
}

/*
 * The node out of @count (threads per node) that most threads ran on last;
 * the lowest such node on a tie, NUMA_NO_NODE if there is none.
 */
static int memattr_majority_node(const unsigned int *count)
{
	int nid, best = NUMA_NO_NODE;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		if (count[nid] && (best == NUMA_NO_NODE || count[nid] > count[best]))
			best = nid;
	return best;
}

/* What the daemon concluded about a folio from its history. */
enum memattr_verdict {
	MEMATTR_STAY,
	MEMATTR_PROMOTE,
	MEMATTR_DEMOTE,
};

/*
 * What the LRU state of a page-cache folio says: reclaim counts it as used
 * lately if it is active (read again after its first read; with MGLRU, it
 * has references). A read(2) leaves its mark there (folio_mark_accessed()),
 * in no page table, whether or not some process also maps the folio. Being
 * so took two reads, and the mark stays until reclaim takes it: a second
 * pass that finds it adds a pass of delay and no evidence, so the first
 * counts as two (MEMATTR_SEEN_REUSED). Read and left as it is, so that
 * neither reclaim nor page_idle users lose what the folio's flags keep for
 * them; the price is that a folio stays hot until reclaim deactivates it.
 */
static unsigned int memattr_cache_folio_seen(struct folio *folio)
{
	bool used;

#ifdef CONFIG_LRU_GEN
	if (lru_gen_enabled())
		used = folio_lru_refs(folio) > 0;
	else
#endif
		used = folio_test_active(folio);
	return used ? MEMATTR_SEEN_REUSED : 0;
}

/*
 * Whether read(2) used a page-cache folio that a process maps: being active
 * is not enough, as a mapped folio can be active from its start (shmem
 * faulted in and written through the mapping) while only its page table
 * entries see its accesses. folio_mark_accessed() activates a folio at its
 * second use and marks an active one referenced at the third; the page
 * table walk does not change either flag. Like the mark of a folio no
 * process maps, it stays until reclaim takes it and counts as two.
 */
static bool memattr_mapped_cache_folio_read(struct folio *folio)
{
#ifdef CONFIG_LRU_GEN
	if (lru_gen_enabled())
		return folio_lru_refs(folio) > 0;
#endif
	return folio_test_active(folio) && folio_test_referenced(folio);
}

/*
 * Record what a look at @folio saw (@seen: 0, MEMATTR_SEEN_NOW or
 * MEMATTR_SEEN_REUSED); whether it is hot (on a slower node) or cold (on a
 * node short of room). A folio is counted once
 * a pass, however many PTEs or processes map it: a large folio mapped by
 * 512 PTEs is one folio wanting room, not 512. Heating up means on a node
 * slower as the CPUs of @viewer see it (NUMA_NO_NODE: by the records'
 * own values): on two sockets each socket's DRAM is the slower one for
 * the other's CPUs.
 */
static enum memattr_verdict memattr_account(struct memattr_daemon *d,
					    struct folio *folio, unsigned int seen,
					    int viewer)
{
	const nodemask_t *slower = viewer == NUMA_NO_NODE ? &d->slower :
				   &d->view_slower[viewer];
	int nid = folio_nid(folio);
	struct memattr_heat *heat = d->heat[nid];
	unsigned long pfn = folio_pfn(folio);
	unsigned int history;

	if (!memattr_heat_covers(heat, pfn))
		return MEMATTR_STAY;
	/*
	 * Most of a quiet pass: nothing to record, no room to find. The
	 * history is left to age lazily, and its owner to be checked when it
	 * is next read.
	 */
	if (!seen && d->need[nid] <= 0)
		return MEMATTR_STAY;
	memattr_heat_catch_up(heat, pfn);
	history = memattr_heat_of(heat, folio);
	if (seen) {
		if (history & MEMATTR_SEEN_NOW)
			return MEMATTR_STAY;	/* already counted this pass */
		history |= seen;
		memattr_heat_set(heat, pfn, history);
		if (memattr_heat_hot(history, READ_ONCE(memattr_hot_threshold)))
			return MEMATTR_PROMOTE;
		if (node_isset(nid, *slower))
			d->pass_heating++;
	} else if (d->need[nid] > 0 && memattr_heat_cold(history, heat->passes)) {
		return MEMATTR_DEMOTE;
	}
	return MEMATTR_STAY;
}

static void memattr_decide(struct memattr_daemon *d, struct folio *folio,
			   enum memattr_verdict verdict,
			   const struct memattr_user *user)
{
	if (verdict == MEMATTR_PROMOTE)
		memattr_consider_promotion(d, folio, user);
	else if (verdict == MEMATTR_DEMOTE)
		memattr_consider_demotion(d, folio, user);
}

/* ---- heat from page tables ---- */

/* One process's walk: who it is, and where the walk stopped. */
struct memattr_walk {
	/* the daemon */
	struct memattr_daemon *d;
	/* the policy the process (its leader) set for itself, or NULL */
	struct mempolicy *task_policy;
	/* nodes the task's cpuset allows */
	nodemask_t task_mems;
	/* the node most of its threads last ran on, or NUMA_NO_NODE */
	int viewer;
	/* its tgid, and its fault-around PTEs seen, once a VMA needs them */
	pid_t tgid;
	struct memattr_seen *seen;
	/* address to resume at, else 0 */
	unsigned long stopped_at;
	/* entries left before the walk checks for mmap_lock waiters */
	long batch_left;
	/* the walk stopped to let mmap_lock waiters in */
	bool yielded;
	/* an accessed bit was cleared: the mm's TLB entries must go */
	bool cleared_young;
};

/* The memory policy @task set for itself, with a reference; or NULL. */
static struct mempolicy *memattr_task_policy(struct task_struct *task)
{
	struct mempolicy *pol;

	task_lock(task);
	pol = task->mempolicy;
	mpol_get(pol);
	task_unlock(task);
	return pol;
}

/*
 * The node whose CPUs use @leader's memory: the one most of its threads
 * last ran on. A process whose threads are spread evenly is seen from the
 * lowest of those nodes; its hot pages still only move to a node faster
 * from there than where they are.
 */
static int memattr_task_viewer(struct memattr_daemon *d,
			       struct task_struct *leader)
{
	struct task_struct *t;

	/* in the daemon's state: MAX_NUMNODES counters are too many for a stack */
	memset(d->threads_on, 0, sizeof(d->threads_on));
	rcu_read_lock();
	for_each_thread(leader, t)
		d->threads_on[cpu_to_node(task_cpu(t))]++;
	rcu_read_unlock();
	return memattr_majority_node(d->threads_on);
}

/*
 * Nodes a folio mapped at @addr may move to: the task's cpuset, and the
 * VMA's policy (a shmem file's shared policy included), else the task's.
 */
static void memattr_vma_allowed(struct memattr_walk *w, struct vm_area_struct *vma,
				unsigned long addr, nodemask_t *allowed)
{
	struct mempolicy *pol;
	pgoff_t ilx;

	*allowed = w->task_mems;
	pol = __get_vma_policy(vma, addr, &ilx);
	memattr_policy_allows(pol ?: w->task_policy, allowed);
	mpol_cond_put(pol);
}

/*
 * A folio of a tracked node, or NULL: the only ones whose bits we take.
 * Reserved pages (the kernel image: the vDSO every process maps) are on
 * no LRU list and never move, and no one reclaims them: left alone.
 */
static struct folio *memattr_tracked_folio(struct memattr_walk *w,
					   struct folio *folio)
{
	if (!folio || folio_test_reserved(folio) ||
	    !memattr_heat_covers(w->d->heat[folio_nid(folio)], folio_pfn(folio)))
		return NULL;
	return folio;
}

/*
 * An accessed bit of @folio was cleared: keep it for reclaim and page_idle
 * as folio_referenced() and page_idle do, so that the folio stays young for
 * reclaim's next look and is no longer idle.
 */
static void memattr_keep_young(struct memattr_walk *w, struct folio *folio)
{
	folio_set_young(folio);
	folio_clear_idle(folio);
	w->cleared_young = true;
}

/* The present PTEs of the page table at @addr, if fault-around serves @vma. */
static struct memattr_seen_table *memattr_walk_seen(struct memattr_walk *w,
						    struct vm_area_struct *vma,
						    unsigned long addr)
{
	if (!vma->vm_ops || !vma->vm_ops->map_pages)
		return NULL;
	if (!w->seen)
		w->seen = memattr_seen_get(w->d, w->tgid, vma->vm_mm);
	return w->seen ? memattr_seen_table(w->seen, addr) : NULL;
}

/*
 * Account a mapped folio: @young if a task touched it through this entry;
 * a page-cache folio in a shared mapping also if read(2) uses it, which no
 * page table shows (the page-cache walk leaves mapped folios to this one).
 * Private mappings of files are programs and libraries, read(2) once when
 * loaded and used through their page tables after that.
 */
static void memattr_walk_folio(struct memattr_walk *w, struct vm_area_struct *vma,
			       unsigned long addr, struct folio *folio, bool young)
{
	struct memattr_user user = { .viewer = w->viewer, .mapped = true };
	unsigned int seen = young ? MEMATTR_SEEN_NOW : 0;
	enum memattr_verdict verdict;

	/* read(2)'s mark on the LRU stays as well: two accesses, as unmapped */
	if (!folio_test_anon(folio) && (vma->vm_flags & VM_SHARED) &&
	    memattr_mapped_cache_folio_read(folio))
		seen = MEMATTR_SEEN_REUSED;
	verdict = memattr_account(w->d, folio, seen, w->viewer);

	if (verdict == MEMATTR_STAY)
		return;
	memattr_vma_allowed(w, vma, addr, &user.allowed);
	memattr_decide(w->d, folio, verdict, &user);
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
	folio = pmd_present(*pmd) ?
		memattr_tracked_folio(w, vm_normal_folio_pmd(vma, addr, *pmd)) : NULL;
	if (folio) {
		young = pmdp_clear_young_notify(vma, addr, pmd);
		if (young)
			memattr_keep_young(w, folio);
		memattr_walk_folio(w, vma, addr, folio, young);
	}
	spin_unlock(ptl);
	w->d->budget--;
	w->batch_left--;
	count_vm_event(MEMATTR_SCANNED);
	return true;
}

/* Stop the walk here: out of budget, queues full, or mmap_lock wanted. */
static bool memattr_walk_should_stop(struct memattr_walk *w, struct mm_struct *mm)
{
	if (w->d->budget <= 0 || w->d->queued >= MEMATTR_BATCH_PAGES)
		return true;
	if (w->batch_left > 0)
		return false;
	w->batch_left = MEMATTR_LOCK_BATCH;
	w->yielded = mmap_lock_is_contended(mm) || need_resched();
	return w->yielded;
}

static int memattr_pmd_entry(pmd_t *pmd, unsigned long addr, unsigned long end,
			     struct mm_walk *walk)
{
	struct memattr_walk *w = walk->private;
	struct vm_area_struct *vma = walk->vma;
	long entries = (end - addr) >> PAGE_SHIFT;
	struct memattr_seen_table *seen;
	pte_t *start, *pte;
	spinlock_t *ptl;	/* the page table's */
	bool cold_counts;

	if (memattr_walk_should_stop(w, walk->mm)) {
		w->stopped_at = addr;
		return 1;
	}
	/* handled here, whole, so that the walk never splits a THP */
	walk->action = ACTION_CONTINUE;
	if (memattr_walk_huge(pmd, addr, walk))
		return 0;
	seen = memattr_walk_seen(w, vma, addr);
	/*
	 * An entry without the accessed bit changes nothing unless a node
	 * needs room (it may be cold enough to demote), a shared file mapping
	 * may be read(2) too, or a secondary MMU keeps its own bit: most of
	 * a steady state's walk is such entries, and skipping them before the
	 * folio is looked up keeps a quiet pass cheap.
	 */
	cold_counts = (vma->vm_flags & VM_SHARED) || mm_has_notifiers(walk->mm);
	start = pte_offset_map_lock(walk->mm, pmd, addr, &ptl);
	if (!start) {
		walk->action = ACTION_AGAIN;
		return 0;
	}
	for (pte = start; addr < end; pte++, addr += PAGE_SIZE) {
		pte_t entry = ptep_get(pte);
		bool young, made = false;
		struct folio *folio;

		if (!pte_present(entry)) {
			if (seen)
				__clear_bit(pte_index(addr), seen->present);
			continue;
		}
		if (seen)
			made = !__test_and_set_bit(pte_index(addr), seen->present);
		if (!pte_young(entry) && !cold_counts && !w->d->demoting)
			continue;
		folio = memattr_tracked_folio(w, vm_normal_folio(vma, addr, entry));
		if (!folio)
			continue;
		young = ptep_clear_young_notify(vma, addr, pte);
		if (young)
			memattr_keep_young(w, folio);
		/* made since the last look: fault-around maps young */
		memattr_walk_folio(w, vma, addr, folio, young && !made);
	}
	pte_unmap_unlock(start, ptl);
	/* every entry looked at costs budget, present or not */
	w->d->budget -= entries;
	w->batch_left -= entries;
	count_vm_events(MEMATTR_SCANNED, entries);
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
 * ones that stay cached; so the mm's TLBs are flushed once its walk in
 * this wakeup is over, if it cleared bits: at most once per process and
 * pass, plus once per wakeup that the budget ends inside its walk.
 * Counted in memattr_tlb_flush.
 */
static void memattr_flush_cleared(struct memattr_daemon *d, struct mm_struct *mm,
				  struct memattr_walk *w)
{
	if (!w->cleared_young)
		return;
	flush_tlb_mm(mm);
	count_vm_event(MEMATTR_TLB_FLUSH);
	d->pass_tlb_flushes++;
	w->cleared_young = false;
}

/*
 * Walk one process from @start, migrating what fills the queues on the way
 * and dropping mmap_lock every MEMATTR_LOCK_BATCH entries that a writer
 * waits for it; false if the budget stopped it (the cursor says where).
 */
static bool memattr_walk_process(struct memattr_daemon *d,
				 struct task_struct *task, unsigned long start)
{
	struct memattr_walk w = { .d = d, .task_mems = cpuset_mems_allowed(task) };
	struct mm_struct *mm = get_task_mm(task);

	if (!mm)
		return true;
	w.task_policy = memattr_task_policy(task);
	w.viewer = memattr_task_viewer(d, task);
	w.tgid = task->tgid;
	do {
		u64 held;

		w.stopped_at = 0;
		w.yielded = false;
		w.batch_left = MEMATTR_LOCK_BATCH;
		if (!mmap_read_trylock(mm))
			break;	/* busy: its pages wait for the next pass */
		held = ktime_get_ns();
		walk_page_range(mm, start, mm->task_size, &memattr_walk_ops, &w);
		mmap_read_unlock(mm);
		held = ktime_get_ns() - held;
		d->pass_max_hold_ns = max(d->pass_max_hold_ns, held);
		memattr_migrate_queued(d);
		cond_resched();
		start = w.stopped_at;
	} while (start && (w.yielded || d->budget > 0) && !kthread_should_stop());
	memattr_flush_cleared(d, mm, &w);
	mpol_put(w.task_policy);
	mmput(mm);
	if (!w.stopped_at) {
		if (w.seen)
			memattr_seen_trim(w.seen, false);
		return true;
	}
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

/*
 * Nodes an unmapped page-cache folio may move to: a shmem or tmpfs file's
 * shared policy (mbind() on a mapping of it, or tmpfs mpol=) decides; a
 * folio whose mapping cannot be pinned down now stays where it is.
 */
static void memattr_cache_allowed(struct folio *folio, nodemask_t *allowed)
{
	struct address_space *mapping;
	struct mempolicy *pol;

	*allowed = node_states[N_MEMORY];
	if (!folio_test_swapbacked(folio))
		return;
	if (!folio_trylock(folio)) {
		nodes_clear(*allowed);
		return;
	}
	mapping = folio->mapping;
	if (mapping && shmem_mapping(mapping)) {
		pol = mpol_shared_policy_lookup(&SHMEM_I(mapping->host)->policy,
						folio->index);
		memattr_policy_allows(pol, allowed);
		mpol_cond_put(pol);
	}
	folio_unlock(folio);
}

/*
 * Look at the PFN @pfn; *@next is set to the first PFN after what was
 * looked at: a folio, a free buddy block or an offline section.
 */
static void memattr_walk_pfn(struct memattr_daemon *d, unsigned long pfn,
			     unsigned long *next)
{
	struct memattr_user user = { .viewer = NUMA_NO_NODE, .mapped = false };
	struct page *page = pfn_to_online_page(pfn);
	enum memattr_verdict verdict;
	struct folio *folio;

	*next = pfn + 1;
	if (!page) {
#ifdef CONFIG_SPARSEMEM
		/* an offline section costs one entry */
		if (!online_section_nr(pfn_to_section_nr(pfn)))
			*next = ALIGN(pfn + 1, PAGES_PER_SECTION);
#endif
		return;
	}
	/* free memory costs one entry per block (racy read, as compaction) */
	if (PageBuddy(page)) {
		unsigned long order = buddy_order_unsafe(page);

		if (order <= MAX_PAGE_ORDER)
			*next = ALIGN(pfn + 1, 1UL << order);
		return;
	}
	folio = page_folio(page);
	if (!folio_try_get(folio))
		return;
	if (unlikely(page_folio(page) != folio))
		goto put;
	*next = folio_pfn(folio) + folio_nr_pages(folio);
	if (!folio_test_lru(folio) || folio_test_anon(folio) || folio_mapped(folio))
		goto put;
	verdict = memattr_account(d, folio, memattr_cache_folio_seen(folio), NUMA_NO_NODE);
	if (verdict != MEMATTR_STAY) {
		memattr_cache_allowed(folio, &user.allowed);
		memattr_decide(d, folio, verdict, &user);
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
	unsigned int visited = 0;

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
			if (!(++visited % 4096))
				cond_resched();
		}
		memattr_migrate_queued(d);
	}
	return true;
}

/* ---- while backed off: a look at accessed bits, changing none ---- */

/* One process's probe: where it stopped, and whether it found news. */
struct memattr_probe {
	struct memattr_daemon *d;
	/* nodes slower as the CPUs using this process's memory see them */
	const nodemask_t *slower;
	/* address to resume at, else 0 */
	unsigned long stopped_at;
	long batch_left;
	bool found;
};

/*
 * @folio, mapped young, is news to the next pass: on a tracked node slower
 * for its users, and not found hot by the last pass. Its history is caught
 * up, which the next pass would do first anyway; nothing else is written.
 */
static bool memattr_probe_folio(struct memattr_probe *p, struct folio *folio)
{
	struct memattr_heat *heat;
	unsigned long pfn;

	if (!folio || folio_test_reserved(folio) ||
	    !node_isset(folio_nid(folio), *p->slower))
		return false;
	heat = p->d->heat[folio_nid(folio)];
	pfn = folio_pfn(folio);
	if (!memattr_heat_covers(heat, pfn))
		return false;
	memattr_heat_catch_up(heat, pfn);
	return memattr_probe_news(memattr_heat_of(heat, folio),
				  READ_ONCE(memattr_hot_threshold));
}

/* Stop the probe: news found, out of budget, or mmap_lock wanted. */
static bool memattr_probe_should_stop(struct memattr_probe *p, struct mm_struct *mm)
{
	if (p->found || p->d->budget <= 0)
		return true;
	if (p->batch_left > 0)
		return false;
	p->batch_left = MEMATTR_LOCK_BATCH;
	return mmap_lock_is_contended(mm) || need_resched();
}

static int memattr_probe_pmd_entry(pmd_t *pmd, unsigned long addr,
				   unsigned long end, struct mm_walk *walk)
{
	struct memattr_probe *p = walk->private;
	struct vm_area_struct *vma = walk->vma;
	long entries = (end - addr) >> PAGE_SHIFT, looked_up = 0, cost;
	struct folio *folio;
	pte_t *start, *pte;
	spinlock_t *ptl;	/* the page table's, or the PMD's */

	if (memattr_probe_should_stop(p, walk->mm)) {
		p->stopped_at = addr;
		return 1;
	}
	walk->action = ACTION_CONTINUE;
	ptl = pmd_trans_huge_lock(pmd, vma);
	if (ptl) {
		if (pmd_present(*pmd) && pmd_young(*pmd)) {
			folio = vm_normal_folio_pmd(vma, addr, *pmd);
			p->found = memattr_probe_folio(p, folio);
			looked_up++;
		}
		spin_unlock(ptl);
		entries = 1;
		goto counted;
	}
	start = pte_offset_map_lock(walk->mm, pmd, addr, &ptl);
	if (!start) {
		walk->action = ACTION_AGAIN;
		return 0;
	}
	for (pte = start; addr < end && !p->found; pte++, addr += PAGE_SIZE) {
		pte_t entry = ptep_get(pte);

		if (!pte_present(entry) || !pte_young(entry))
			continue;
		folio = vm_normal_folio(vma, addr, entry);
		p->found = memattr_probe_folio(p, folio);
		looked_up++;
	}
	pte_unmap_unlock(start, ptl);
counted:
	cost = memattr_probe_cost(entries, looked_up);
	p->d->budget -= cost;
	p->batch_left -= cost;
	count_vm_events(MEMATTR_PROBED, entries);
	return 0;
}

/* The VMAs a pass walks (memattr_test_walk); nothing is written. */
static const struct mm_walk_ops memattr_probe_ops = {
	.pmd_entry = memattr_probe_pmd_entry,
	.test_walk = memattr_test_walk,
	.walk_lock = PGWALK_RDLOCK,
};

/*
 * Probe @task's mm from @start, letting mmap_lock waiters and the CPU's
 * other work in every MEMATTR_LOCK_BATCH entries and going on after them,
 * as the walk does; the address to resume at, else 0.
 */
static unsigned long memattr_probe_process(struct memattr_daemon *d,
					   struct task_struct *task,
					   unsigned long start, bool *found)
{
	struct memattr_probe p = { .d = d };
	struct mm_struct *mm = get_task_mm(task);
	int viewer;

	*found = false;
	if (!mm)
		return 0;
	viewer = memattr_task_viewer(d, task);
	p.slower = viewer == NUMA_NO_NODE ? &d->slower : &d->view_slower[viewer];
	do {
		if (!mmap_read_trylock(mm))
			break;	/* busy: the next probe tries again here */
		p.stopped_at = 0;
		p.batch_left = MEMATTR_LOCK_BATCH;
		walk_page_range(mm, start, mm->task_size, &memattr_probe_ops, &p);
		mmap_read_unlock(mm);
		cond_resched();
		start = p.stopped_at;
	} while (start && !p.found && d->budget > 0 && !kthread_should_stop());
	mmput(mm);
	*found = p.found;
	return p.found ? 0 : start;
}

/*
 * A backed-off thread's look, four times an interval, at the accessed bits
 * of up to memattr_probe_budget() entries of the processes, in turn from
 * where the last look stopped: has a page on a slower node been touched
 * that was not hot (memattr_probe_news())? A hot set that appears in
 * memory already mapped (a workload's next phase) then ends the back-off
 * at once instead of up to 15 intervals later. It only reads entries: no bit is cleared,
 * so neither reclaim's view nor the TLBs are touched; page cache no
 * process maps waits for the next pass.
 */
static bool memattr_probe(struct memattr_daemon *d)
{
	bool found = false, wrapped = false;
	struct task_struct *task;

	if (!d->pass_start || !d->backoff || nodes_weight(d->tracked) < 2)
		return false;
	d->budget = memattr_probe_budget(READ_ONCE(memattr_scan_budget),
					 d->pass_walked);
	while (!found && d->budget > 0 && !kthread_should_stop()) {
		task = memattr_next_process(&d->probe_pid);
		if (!task) {	/* past the last process: from the first, once */
			d->probe_pid = 1;
			d->probe_addr = 0;
			if (wrapped)
				break;
			wrapped = true;
			continue;
		}
		d->probe_addr = memattr_probe_process(d, task, d->probe_addr, &found);
		put_task_struct(task);
		if (d->probe_addr)
			break;		/* out of budget, or its mm busy */
		d->probe_pid++;
		cond_resched();
	}
	return found;
}

/* ---- the thread ---- */

/* One wakeup: continue the pass within this interval's budget. */
static void memattr_daemon_step(struct memattr_daemon *d)
{
	u64 start_ns = ktime_get_ns();
	unsigned long now = jiffies;
	long budget = memattr_step_budget(READ_ONCE(memattr_scan_budget), !d->pass_start);
	bool walked;

	d->rate.tokens = memattr_rate_refill(d->rate.tokens, now - d->rate.last,
					     READ_ONCE(memattr_rate_limit_mbps));
	d->rate.last = now;
	d->budget = budget;
	if (d->pass_start)
		memattr_pass_begin(d);
	if (nodes_weight(d->tracked) < 2) {
		d->pass_start = true;
		d->confirming = 0;	/* nothing to confirm: on time */
		return;		/* nothing is faster or slower than anything */
	}
	if (!d->pfn_phase) {
		d->pfn_phase = memattr_walk_processes(d);
		d->pass_walked += budget - d->budget;
	}
	walked = d->pfn_phase && memattr_walk_pfns(d);
	d->pass_scanned += budget - d->budget;
	d->pass_ns += ktime_get_ns() - start_ns;
	if (walked)
		memattr_pass_end(d);
}

/* Has memory of a tracked node been mapped or unmapped since the last pass? */
static bool memattr_memory_moved(const struct memattr_daemon *d)
{
	/* each counter lags by up to 125 pages per CPU (its per-CPU deltas) */
	unsigned long threshold = max(MEMATTR_WAKE_PAGES, 2 * 125 * num_online_cpus());
	int nid;

	for_each_node_mask(nid, d->tracked)
		if (memattr_mapped_moved(d->mapped_seen[nid], memattr_node_mapped(nid),
					 threshold))
			return true;
	return false;
}

/* Stop, or a knob was written: the thread works out its wait again. */
static bool memattr_daemon_woken(void)
{
	return kthread_should_stop() || atomic_xchg(&memattr_knobs_written, 0);
}

static int memattr_daemon_fn(void *data)
{
	struct memattr_daemon *d = data;
	unsigned long stepped = jiffies;
	bool step = true;

	set_freezable();
	while (!kthread_should_stop()) {
		unsigned long interval, wait, since, left;

		if (step) {
			memattr_daemon_step(d);
			stepped = jiffies;
		}
		/* counted from the last step, so a new interval applies now */
		interval = msecs_to_jiffies(READ_ONCE(memattr_scan_interval_ms));
		wait = memattr_wait(d);
		since = jiffies - stepped;
		left = wait > since ? wait - since : 0;
		/*
		 * Backed off, look at the nodes' mapped pages four times an
		 * interval: a workload that starts (or ends) then is walked a
		 * quarter interval later instead of up to 15 intervals late.
		 * Reading two counters per node, and a probe, is all such a
		 * wakeup costs.
		 */
		if (d->pass_start && d->backoff)
			left = min(left, memattr_look_wait(interval));
		if (wait_event_freezable_timeout(memattr_daemon_wait,
						 memattr_daemon_woken(), left))
			step = false;
		else
			step = jiffies - stepped >= wait || memattr_memory_moved(d) ||
			       memattr_probe(d);
	}
	return 0;
}

static struct memattr_daemon *memattr_daemon_alloc(void)
{
	struct memattr_daemon *d = kvzalloc(sizeof(*d), GFP_KERNEL);
	int nid;

	if (!d)
		return NULL;
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		INIT_LIST_HEAD(&d->promote[nid]);
		INIT_LIST_HEAD(&d->demote[nid]);
	}
	d->pass_start = true;
	d->rate.last = jiffies;
	xa_init(&d->seen);
	return d;
}

static void memattr_daemon_free(struct memattr_daemon *d)
{
	int nid;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		memattr_heat_free(d->heat[nid]);
	memattr_seen_prune(d, true);
	xa_destroy(&d->seen);
	kvfree(d);
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
	return 0;
}

static void __memattr_daemon_stop(void)
{
	lockdep_assert_held(&memattr_daemon_lock);
	if (!memattr_daemon_task)
		return;
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
	/* a new interval applies now, not after the current wait */
	atomic_set(&memattr_knobs_written, 1);
	wake_up(&memattr_daemon_wait);
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

static ssize_t passes_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&memattr_passes));
}

static struct kobj_attribute memattr_passes_attr = __ATTR_RO(passes);

static struct attribute *memattr_daemon_attrs[] = {
	&memattr_enabled_attr.attr,
	&memattr_knob_scan_interval.attr.attr,
	&memattr_knob_hot_threshold.attr.attr,
	&memattr_knob_scan_budget.attr.attr,
	&memattr_knob_rate_limit.attr.attr,
	&memattr_knob_demote_watermark.attr.attr,
	&memattr_metadata_bytes_attr.attr,
	&memattr_passes_attr.attr,
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
