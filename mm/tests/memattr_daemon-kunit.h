/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests for kmemattrd's decisions: heat history and its lazy aging,
 * hot and cold, the promotion target from the records, the rate limit,
 * what a memory policy allows and whose view a process gets. Included at
 * the end of mm/memattr_daemon.c; expected values are worked out by hand.
 */

#ifdef CONFIG_MEMATTR_KUNIT_TEST

#ifndef _MEMATTR_DAEMON_KUNIT_H
#define _MEMATTR_DAEMON_KUNIT_H

#include <kunit/test.h>

/*
 * Node ids the cases use. The per-node arrays are sized by it, not by
 * MAX_NUMNODES, so that the file builds with any NODES_SHIFT; a case that
 * needs more node ids than a node mask holds is skipped.
 */
#define DAEMON_TEST_NODES 4

/* The "default" topology: DRAM, CXL-like, HBM-like (no CPUs), slow node 3. */
static const u32 daemon_latency[DAEMON_TEST_NODES] = { 100, 300, 80, 600 };
static const u32 daemon_bandwidth[DAEMON_TEST_NODES] = { 20480, 5120, 102400, 2048 };

/* Skip @test unless node ids up to @nr - 1 fit in a node mask. */
static void daemon_needs_nodes(struct kunit *test, int nr)
{
	if (nr > MAX_NUMNODES)
		kunit_skip(test, "needs %d node ids, MAX_NUMNODES is %d", nr,
			   MAX_NUMNODES);
}

static void memattr_daemon_test_age(struct kunit *test)
{
	/* page 0 hot in the newest pass, page 1 in all four, page 2 oldest */
	u64 word = 0x1 | (0xfULL << 4) | (0x8ULL << 8) | (0x5ULL << 60);

	word = memattr_heat_age_word(word);
	KUNIT_EXPECT_EQ(test, word & 0xf, 0x2);
	KUNIT_EXPECT_EQ(test, (word >> 4) & 0xf, 0xe);	/* the oldest pass falls off */
	KUNIT_EXPECT_EQ(test, (word >> 8) & 0xf, 0x0);	/* not into page 3 either */
	KUNIT_EXPECT_EQ(test, (word >> 12) & 0xf, 0x0);
	KUNIT_EXPECT_EQ(test, word >> 60, 0xa);
	/* four passes without access forget everything */
	word = memattr_heat_age_word(memattr_heat_age_word(memattr_heat_age_word(word)));
	KUNIT_EXPECT_EQ(test, word, 0);
}

static void memattr_daemon_test_get_set(struct kunit *test)
{
	struct memattr_heat *heat;
	unsigned long pfn;

	heat = kunit_kzalloc(test, struct_size(heat, words, 2), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, heat);
	heat->start_pfn = 1000;
	heat->nr_pages = 20;
	memattr_heat_set(heat, 1015, 0x9);
	memattr_heat_set(heat, 1016, 0x3);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(heat, 1015), 0x9);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(heat, 1016), 0x3);
	for (pfn = 1000; pfn < 1020; pfn++)
		if (pfn != 1015 && pfn != 1016)
			KUNIT_EXPECT_EQ(test, memattr_heat_get(heat, pfn), 0);
	memattr_heat_set(heat, 1015, 0);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(heat, 1015), 0);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(heat, 1016), 0x3);
	KUNIT_EXPECT_TRUE(test, memattr_heat_covers(heat, 1019));
	KUNIT_EXPECT_FALSE(test, memattr_heat_covers(heat, 1020));
	KUNIT_EXPECT_FALSE(test, memattr_heat_covers(heat, 999));
	KUNIT_EXPECT_FALSE(test, memattr_heat_covers(NULL, 1000));
}

static void memattr_daemon_test_hot_cold(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, memattr_heat_hot(0x5, 2));
	KUNIT_EXPECT_FALSE(test, memattr_heat_hot(0x5, 3));
	KUNIT_EXPECT_TRUE(test, memattr_heat_hot(0x1, 1));
	KUNIT_EXPECT_FALSE(test, memattr_heat_hot(0x0, 1));
	KUNIT_EXPECT_TRUE(test, memattr_heat_hot(0xf, 4));
	/* cold only once the history spans four passes */
	KUNIT_EXPECT_FALSE(test, memattr_heat_cold(0x0, 3));
	KUNIT_EXPECT_TRUE(test, memattr_heat_cold(0x0, 4));
	KUNIT_EXPECT_FALSE(test, memattr_heat_cold(0x8, 10));
}

static void memattr_daemon_test_faster(struct kunit *test)
{
	u32 latency[DAEMON_TEST_NODES] = { 100, 100, 0 };
	u32 bandwidth[DAEMON_TEST_NODES] = { 1000, 2000, 9000 };

	KUNIT_EXPECT_TRUE(test, memattr_faster(daemon_latency, daemon_bandwidth, 2, 0));
	KUNIT_EXPECT_FALSE(test, memattr_faster(daemon_latency, daemon_bandwidth, 0, 2));
	/* equal latency: bandwidth decides; equal both: neither */
	KUNIT_EXPECT_TRUE(test, memattr_faster(latency, bandwidth, 1, 0));
	KUNIT_EXPECT_FALSE(test, memattr_faster(latency, bandwidth, 0, 0));
	/* an unknown latency is never faster or slower */
	KUNIT_EXPECT_FALSE(test, memattr_faster(latency, bandwidth, 2, 0));
	KUNIT_EXPECT_FALSE(test, memattr_faster(latency, bandwidth, 0, 2));
}

static void memattr_daemon_test_pick(struct kunit *test)
{
	long room[DAEMON_TEST_NODES] = { 1000, 1000, 1000, 1000 };
	nodemask_t all = NODE_MASK_NONE, mask;
	int best, nid;

	daemon_needs_nodes(test, DAEMON_TEST_NODES);
	for (nid = 0; nid < 4; nid++)
		node_set(nid, all);
	/* slow node 3: the CPU-less HBM node 2 is fastest */
	KUNIT_EXPECT_EQ(test, memattr_pick_faster(3, daemon_latency, daemon_bandwidth,
						  &all, room, 1, &best), 2);
	KUNIT_EXPECT_EQ(test, best, 2);
	/* nothing is faster than the fastest */
	KUNIT_EXPECT_EQ(test, memattr_pick_faster(2, daemon_latency, daemon_bandwidth,
						  &all, room, 1, &best), NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, best, NUMA_NO_NODE);
	/* node 2 special (not a candidate): DRAM */
	mask = all;
	node_clear(2, mask);
	KUNIT_EXPECT_EQ(test, memattr_pick_faster(3, daemon_latency, daemon_bandwidth,
						  &mask, room, 1, &best), 0);
	/* node 2 full: the next fastest now, and node 2 wanted */
	room[2] = 511;
	KUNIT_EXPECT_EQ(test, memattr_pick_faster(1, daemon_latency, daemon_bandwidth,
						  &all, room, 512, &best), 0);
	KUNIT_EXPECT_EQ(test, best, 2);
	/* bound to the slow nodes 1 and 3: from 3 only 1 is allowed */
	nodes_clear(mask);
	node_set(1, mask);
	node_set(3, mask);
	KUNIT_EXPECT_EQ(test, memattr_pick_faster(3, daemon_latency, daemon_bandwidth,
						  &mask, room, 1, &best), 1);
	/* bound to node 3 alone: nowhere */
	node_clear(1, mask);
	KUNIT_EXPECT_EQ(test, memattr_pick_faster(3, daemon_latency, daemon_bandwidth,
						  &mask, room, 1, &best), NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, best, NUMA_NO_NODE);
}

static void memattr_daemon_test_rate(struct kunit *test)
{
	struct memattr_rate rate = { .tokens = 0 };
	long per_second = 256L << (20 - PAGE_SHIFT);

	/* half a second of 256 MB/s */
	rate.tokens = memattr_rate_refill(0, HZ / 2, 256);
	KUNIT_EXPECT_EQ(test, rate.tokens, per_second * (HZ / 2) / HZ);
	/* never more than a second's worth, however long it slept */
	KUNIT_EXPECT_EQ(test, memattr_rate_refill(rate.tokens, 10 * HZ, 256), per_second);
	KUNIT_EXPECT_EQ(test, memattr_rate_refill(per_second, HZ / 2, 256), per_second);
	/* a take the bucket cannot cover takes nothing */
	rate.tokens = 100;
	KUNIT_EXPECT_FALSE(test, memattr_rate_take(&rate, 512));
	KUNIT_EXPECT_EQ(test, rate.tokens, 100);
	KUNIT_EXPECT_TRUE(test, memattr_rate_take(&rate, 100));
	KUNIT_EXPECT_EQ(test, rate.tokens, 0);
}

static void memattr_daemon_test_backoff(struct kunit *test)
{
	unsigned int backoff = 0;
	int i;

	/* quiet passes double the wait, up to 16 intervals */
	for (i = 1; i <= MEMATTR_BACKOFF_MAX; i++) {
		backoff = memattr_next_backoff(backoff, 0, 0);
		KUNIT_EXPECT_EQ(test, backoff, i);
	}
	KUNIT_EXPECT_EQ(test, memattr_next_backoff(backoff, 0, 0), MEMATTR_BACKOFF_MAX);
	KUNIT_EXPECT_EQ(test, 1U << MEMATTR_BACKOFF_MAX, 16);
	/* one page moved, or one pending (heating up, waiting for room): on time */
	KUNIT_EXPECT_EQ(test, memattr_next_backoff(backoff, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, memattr_next_backoff(backoff, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, memattr_next_backoff(0, 512, 7), 0);
}

static void memattr_daemon_test_confirm(struct kunit *test)
{
	unsigned int confirm = 0;
	unsigned long waited;
	int i;

	/* a pass that saw folios heating is confirmed early */
	confirm = memattr_next_confirms(confirm, 3, 0);
	KUNIT_EXPECT_EQ(test, confirm, 1);
	/* a confirming pass that moved nothing: the next one on time */
	KUNIT_EXPECT_EQ(test, memattr_next_confirms(confirm, 3, 0), 0);
	/* one that moved folios and left others unsettled: a second, not a third */
	confirm = memattr_next_confirms(confirm, 3, 5);
	KUNIT_EXPECT_EQ(test, confirm, 2);
	confirm = memattr_next_confirms(confirm, 3, 5);
	KUNIT_EXPECT_EQ(test, confirm, 0);
	KUNIT_EXPECT_EQ(test, memattr_next_confirms(confirm, 1, 0), 1);
	/* nothing unsettled: no early pass, whatever moved and came before */
	KUNIT_EXPECT_EQ(test, memattr_next_confirms(0, 0, 9), 0);
	KUNIT_EXPECT_EQ(test, memattr_next_confirms(1, 0, 9), 0);
	/*
	 * Every pass moving folios and leaving others unsettled: the passes and
	 * their waits keep the walk within twice the budget an interval.
	 */
	for (i = 0, confirm = 0, waited = 0; i < 30; i++) {
		confirm = memattr_next_confirms(confirm, 1, 1);
		waited += memattr_pass_wait(100, 0, confirm, 0);
	}
	KUNIT_EXPECT_LE(test, 30 * 100, 2 * waited);
	/* a quarter interval before a confirming pass, rounded up: never 0 */
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(100, 0, true, 0), 25);
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(10, 0, true, 0), 3);
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(1, 0, true, 0), 1);
	/* else 1 << backoff intervals */
	for (i = 0; i <= MEMATTR_BACKOFF_MAX; i++)
		KUNIT_EXPECT_EQ(test, memattr_pass_wait(100, i, false, 0), 100UL << i);
	/* a costly quiet pass waits longer, never past the longest back-off */
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(100, 1, false, 350), 350);
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(100, 3, false, 350), 800);
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(100, 1, false, 5000),
			100UL << MEMATTR_BACKOFF_MAX);
	/* the cost of a pass never slows one that found work or confirms */
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(100, 0, false, 5000), 100);
	KUNIT_EXPECT_EQ(test, memattr_pass_wait(100, 0, true, 5000), 25);
}

static void memattr_daemon_test_mapped_moved(struct kunit *test)
{
	unsigned long t = MEMATTR_WAKE_PAGES;

	/* the threshold mapped or unmapped ends a back-off; less is noise */
	KUNIT_EXPECT_EQ(test, MEMATTR_WAKE_PAGES << PAGE_SHIFT, SZ_4M);
	KUNIT_EXPECT_FALSE(test, memattr_mapped_moved(100000, 100000, t));
	KUNIT_EXPECT_FALSE(test, memattr_mapped_moved(100000, 100000 - t + 1, t));
	KUNIT_EXPECT_FALSE(test, memattr_mapped_moved(100000, 100000 + t - 1, t));
	KUNIT_EXPECT_TRUE(test, memattr_mapped_moved(100000, 100000 - t, t));
	KUNIT_EXPECT_TRUE(test, memattr_mapped_moved(100000, 100000 + t, t));
	KUNIT_EXPECT_TRUE(test, memattr_mapped_moved(ULONG_MAX, 0, t));
	KUNIT_EXPECT_TRUE(test, memattr_mapped_moved(0, ULONG_MAX, t));
}

static void memattr_daemon_test_probe(struct kunit *test)
{
	/* an access the last pass did not explain: a new or cooling folio */
	KUNIT_EXPECT_TRUE(test, memattr_probe_news(0x0, 2));
	KUNIT_EXPECT_TRUE(test, memattr_probe_news(0x1, 2));
	KUNIT_EXPECT_TRUE(test, memattr_probe_news(0x8, 2));
	/* at threshold 1 a folio with no access yet is news too: it is promoted */
	KUNIT_EXPECT_TRUE(test, memattr_probe_news(0x0, 1));
	/* hot already (a bound hot set): what the last pass decided stands */
	KUNIT_EXPECT_FALSE(test, memattr_probe_news(0x3, 2));
	KUNIT_EXPECT_FALSE(test, memattr_probe_news(0xf, 4));
	KUNIT_EXPECT_FALSE(test, memattr_probe_news(0x1, 1));
	KUNIT_EXPECT_TRUE(test, memattr_probe_news(0x7, 4));
	/* a quarter of the last walk per look: four looks read it all */
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(262144, 100000), 25000L);
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(262144, 100001), 25001L);
	/* at least a pass's walk at the longest wait, never nothing */
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(262144, 0), 16384L);
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(262144, 30000), 16384L);
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(1, 0), 1L);
	/* at most a quarter of scan_budget: no more than a pass on time */
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(262144, 297574), 65536L);
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(262144, ULONG_MAX), 65536L);
	KUNIT_EXPECT_EQ(test, memattr_probe_budget(1, 1000), 1L);
	/* an accessed entry's folio looked up costs 16 entries read */
	KUNIT_EXPECT_EQ(test, memattr_probe_cost(512, 0), 512L);
	KUNIT_EXPECT_EQ(test, memattr_probe_cost(512, 512), 512L * 17);
	KUNIT_EXPECT_EQ(test, memattr_probe_cost(1, 1), 17L);
	/* four looks an interval, rounded up: never 0 */
	KUNIT_EXPECT_EQ(test, memattr_look_wait(125), 32UL);
	KUNIT_EXPECT_EQ(test, memattr_look_wait(1), 1UL);
}

static void memattr_daemon_test_step(struct kunit *test)
{
	unsigned long interval;

	/* a pass's first wakeup walks the whole budget, the next a quarter */
	KUNIT_EXPECT_EQ(test, memattr_step_budget(262144, false), 262144L);
	KUNIT_EXPECT_EQ(test, memattr_step_budget(262144, true), 65536L);
	KUNIT_EXPECT_EQ(test, memattr_step_budget(2, true), 1L);
	/* a quarter interval apart, never 0 */
	KUNIT_EXPECT_EQ(test, memattr_step_wait(125), 32UL);
	KUNIT_EXPECT_EQ(test, memattr_step_wait(1), 1UL);
	/* the steps walk no faster than whole budgets an interval apart */
	for (interval = 1; interval <= 1000; interval++)
		KUNIT_EXPECT_LE(test, memattr_step_budget(262144, true) * interval,
				262144L * memattr_step_wait(interval));
}

static void memattr_daemon_test_age_by(struct kunit *test)
{
	u64 word = 0x123456789abcdef0ULL;

	KUNIT_EXPECT_EQ(test, memattr_heat_age_word_by(word, 0), word);
	KUNIT_EXPECT_EQ(test, memattr_heat_age_word_by(word, 2),
			memattr_heat_age_word(memattr_heat_age_word(word)));
	KUNIT_EXPECT_EQ(test, memattr_heat_age_word_by(word, 3),
			memattr_heat_age_word(memattr_heat_age_word_by(word, 2)));
	/* page 0's 0x0 stays, page 1's 0xf keeps only the access 3 passes ago */
	KUNIT_EXPECT_EQ(test, memattr_heat_age_word_by(0xf0, 3), 0x80);
	KUNIT_EXPECT_EQ(test, memattr_heat_age_word_by(word, 4), 0);
	KUNIT_EXPECT_EQ(test, memattr_heat_age_word_by(word, 200), 0);
}

/* 2.5 chunks of histories: three chunks, the last one partial. */
#define DAEMON_TEST_PAGES	(2 * MEMATTR_CHUNK_PAGES + MEMATTR_CHUNK_PAGES / 2)

/*
 * Lazy aging gives what aging every word each pass would: whether a chunk
 * is caught up by the walk or only by the sweep, after a few passes or
 * after hundreds (the per-chunk byte must not wrap).
 */
static void memattr_daemon_test_lazy_age(struct kunit *test)
{
	unsigned long nr_words = DIV_ROUND_UP(DAEMON_TEST_PAGES, 16), w, pass;
	struct memattr_heat *heat;
	u64 *eager;

	heat = kunit_kzalloc(test, memattr_heat_bytes(DAEMON_TEST_PAGES), GFP_KERNEL);
	eager = kunit_kcalloc(test, nr_words, sizeof(*eager), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, heat);
	KUNIT_ASSERT_NOT_NULL(test, eager);
	memattr_heat_init(heat, 4096, DAEMON_TEST_PAGES);
	for (pass = 1; pass <= 300; pass++) {
		unsigned long pfn = 4096 + (pass * 97) % DAEMON_TEST_PAGES;

		memattr_heat_age(heat);
		for (w = 0; w < nr_words; w++)
			eager[w] = memattr_heat_age_word(eager[w]);
		/* the first 20 passes, an access to one page each */
		if (pass <= 20) {
			unsigned long i = pfn - heat->start_pfn;

			memattr_heat_catch_up(heat, pfn);
			memattr_heat_set(heat, pfn, memattr_heat_get(heat, pfn) | 1);
			eager[i / 16] |= 1ULL << (4 * (i % 16));
		}
		if (pass == 22 || pass == 300) {
			for (w = 0; w < DIV_ROUND_UP(DAEMON_TEST_PAGES, MEMATTR_CHUNK_PAGES); w++)
				memattr_heat_catch_up_chunk(heat, w);
			for (w = 0; w < nr_words; w++)
				KUNIT_EXPECT_EQ_MSG(test, heat->words[w], eager[w],
						    "word %lu after pass %lu", w, pass);
		}
	}
	/* nothing accessed for 280 passes: everything forgotten */
	for (w = 0; w < nr_words; w++)
		KUNIT_EXPECT_EQ(test, heat->words[w], 0);
}

static void memattr_daemon_test_policy_allows(struct kunit *test)
{
	struct mempolicy pol = {};
	nodemask_t allowed, all;

	daemon_needs_nodes(test, DAEMON_TEST_NODES);
	nodes_clear(all);
	for (int nid = 0; nid < DAEMON_TEST_NODES; nid++)
		node_set(nid, all);
	/* no policy, default or local: heat decides */
	allowed = all;
	memattr_policy_allows(NULL, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_equal(allowed, all));
	pol.mode = MPOL_LOCAL;
	memattr_policy_allows(&pol, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_equal(allowed, all));
	/* bind, preferred (many): only within the nodes named */
	nodes_clear(pol.nodes);
	node_set(1, pol.nodes);
	node_set(3, pol.nodes);
	pol.mode = MPOL_BIND;
	memattr_policy_allows(&pol, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_equal(allowed, pol.nodes));
	nodes_clear(pol.nodes);
	node_set(3, pol.nodes);
	pol.mode = MPOL_PREFERRED;
	allowed = all;
	memattr_policy_allows(&pol, &allowed);
	KUNIT_EXPECT_EQ(test, nodes_weight(allowed), 1);
	KUNIT_EXPECT_TRUE(test, node_isset(3, allowed));
	pol.mode = MPOL_PREFERRED_MANY;
	allowed = all;
	memattr_policy_allows(&pol, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_equal(allowed, pol.nodes));
	/* interleaving: never undone */
	pol.mode = MPOL_INTERLEAVE;
	allowed = all;
	memattr_policy_allows(&pol, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_empty(allowed));
	pol.mode = MPOL_WEIGHTED_INTERLEAVE;
	allowed = all;
	memattr_policy_allows(&pol, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_empty(allowed));
}

static void memattr_daemon_test_majority(struct kunit *test)
{
	unsigned int *count = kunit_kcalloc(test, MAX_NUMNODES, sizeof(*count),
					    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, count);
	KUNIT_EXPECT_EQ(test, memattr_majority_node(count), NUMA_NO_NODE);
	count[0] = 1;
	KUNIT_EXPECT_EQ(test, memattr_majority_node(count), 0);
	if (MAX_NUMNODES < DAEMON_TEST_NODES)
		return;
	count[3] = 3;
	count[1] = 2;
	KUNIT_EXPECT_EQ(test, memattr_majority_node(count), 3);
	/* a tie goes to the lowest node */
	count[1] = 3;
	KUNIT_EXPECT_EQ(test, memattr_majority_node(count), 1);
}

/*
 * A daemon whose only tracked node is that of a real @order folio, the
 * folio's history at @history: what memattr_account() and the migration
 * callbacks read and write. NULL if memory is short.
 */
static struct memattr_daemon *daemon_with_folio(struct kunit *test,
						unsigned int order,
						unsigned int history,
						struct folio **folio)
{
	struct memattr_daemon *d;
	struct memattr_heat *heat;
	unsigned long nr = 64;

	*folio = folio_alloc(GFP_KERNEL, order);
	d = kvzalloc(sizeof(*d), GFP_KERNEL);
	heat = kunit_kzalloc(test, memattr_heat_bytes(nr), GFP_KERNEL);
	if (!*folio || !d || !heat) {
		if (*folio)
			folio_put(*folio);
		kvfree(d);
		return NULL;
	}
	memattr_heat_init(heat, folio_pfn(*folio), nr);
	heat->passes = MEMATTR_HEAT_BITS;
	/* aged up to now: the history set below is this pass's */
	memset(heat->aged, heat->passes, DIV_ROUND_UP(nr, MEMATTR_CHUNK_PAGES));
	memattr_heat_record(heat, folio_pfn(*folio), memattr_folio_tag(*folio),
			    history);
	d->heat[folio_nid(*folio)] = heat;
	return d;
}

/* A large folio seen through its 512 PTEs (or 512 processes) counts once a pass. */
static void memattr_daemon_test_account_once(struct kunit *test)
{
	struct memattr_daemon *d;
	struct folio *folio;
	int i, promote = 0;

	d = daemon_with_folio(test, 2, 0x2, &folio);
	KUNIT_ASSERT_NOT_NULL(test, d);
	for (i = 0; i < 512; i++)
		promote += memattr_account(d, folio, MEMATTR_SEEN_NOW,
					   NUMA_NO_NODE) == MEMATTR_PROMOTE;
	KUNIT_EXPECT_EQ(test, promote, 1);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(d->heat[folio_nid(folio)], folio_pfn(folio)), 0x3);
	/* the next pass counts it again, once */
	memattr_heat_age(d->heat[folio_nid(folio)]);
	for (i = 0, promote = 0; i < 512; i++)
		promote += memattr_account(d, folio, MEMATTR_SEEN_NOW,
					   NUMA_NO_NODE) == MEMATTR_PROMOTE;
	KUNIT_EXPECT_EQ(test, promote, 1);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(d->heat[folio_nid(folio)], folio_pfn(folio)), 0x7);
	folio_put(folio);
	kvfree(d);
}

/*
 * A page-cache folio the LRU counts as used took two reads to become so:
 * hot at its first look at the default threshold, where one young entry
 * only starts heating up; counted once a pass all the same.
 */
static void memattr_daemon_test_reused(struct kunit *test)
{
	struct memattr_daemon *d;
	struct folio *folio;
	unsigned long pfn;
	int nid;

	d = daemon_with_folio(test, 0, 0, &folio);
	KUNIT_ASSERT_NOT_NULL(test, d);
	nid = folio_nid(folio);
	pfn = folio_pfn(folio);
	KUNIT_EXPECT_EQ(test, memattr_account(d, folio, MEMATTR_SEEN_NOW, NUMA_NO_NODE),
			MEMATTR_STAY);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(d->heat[nid], pfn), 0x1);
	memattr_heat_set(d->heat[nid], pfn, 0);
	KUNIT_EXPECT_EQ(test, memattr_account(d, folio, MEMATTR_SEEN_REUSED, NUMA_NO_NODE),
			MEMATTR_PROMOTE);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(d->heat[nid], pfn), 0x3);
	KUNIT_EXPECT_EQ(test, memattr_account(d, folio, MEMATTR_SEEN_REUSED, NUMA_NO_NODE),
			MEMATTR_STAY);
	/* no access: nothing recorded */
	memattr_heat_age(d->heat[nid]);
	KUNIT_EXPECT_EQ(test, memattr_account(d, folio, 0, NUMA_NO_NODE), MEMATTR_STAY);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(d->heat[nid], pfn), 0x6);
	folio_put(folio);
	kvfree(d);
}

/* A target dropped after a failed move does not keep the history it was given. */
static void memattr_daemon_test_failed_target_forgotten(struct kunit *test)
{
	struct memattr_target t;
	struct memattr_heat *heat;
	struct memattr_daemon *d;
	struct folio *folio;
	unsigned long pfn;

	d = daemon_with_folio(test, 0, MEMATTR_HEAT_FULL, &folio);
	KUNIT_ASSERT_NOT_NULL(test, d);
	heat = d->heat[folio_nid(folio)];
	pfn = folio_pfn(folio);
	t = (struct memattr_target){ .d = d, .nid = folio_nid(folio),
				     .history = MEMATTR_HEAT_FULL };
	KUNIT_ASSERT_EQ(test, memattr_heat_get(heat, pfn), MEMATTR_HEAT_FULL);
	folio_get(folio);
	memattr_free_target(folio, (unsigned long)&t);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(heat, pfn), 0);
	folio_put(folio);
	kvfree(d);
}

/*
 * A page frame freed by its folio's owner and reused by another folio: the
 * new folio does not inherit the history. Two pages of a file, as the page
 * cache would give them (the test owns the pages, so it may name them).
 */
static void memattr_daemon_test_freed_folio_forgotten(struct kunit *test)
{
	struct memattr_heat *heat;
	struct memattr_daemon *d;
	struct folio *folio, *next;
	unsigned long pfn;

	d = daemon_with_folio(test, 0, 0, &folio);
	KUNIT_ASSERT_NOT_NULL(test, d);
	heat = d->heat[folio_nid(folio)];
	pfn = folio_pfn(folio);
	folio->index = 1;
	/* accessed in one pass: one more makes it hot at the default threshold */
	KUNIT_EXPECT_EQ(test, memattr_account(d, folio, MEMATTR_SEEN_NOW, NUMA_NO_NODE),
			MEMATTR_STAY);
	memattr_heat_age(heat);
	folio->index = 0;
	folio_put(folio);
	/* this CPU's per-CPU list gives the frame back first */
	next = folio_alloc(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, next);
	if (folio_pfn(next) != pfn) {
		folio_put(next);
		kvfree(d);
		kunit_skip(test, "the allocator gave another page frame");
	}
	next->index = 2;
	KUNIT_EXPECT_EQ(test, memattr_account(d, next, MEMATTR_SEEN_NOW, NUMA_NO_NODE),
			MEMATTR_STAY);
	KUNIT_EXPECT_EQ(test, memattr_heat_get(heat, pfn), 0x1);
	/* the same folio seen again keeps what it earned: hot now */
	memattr_heat_age(heat);
	KUNIT_EXPECT_EQ(test, memattr_account(d, next, MEMATTR_SEEN_NOW, NUMA_NO_NODE),
			MEMATTR_PROMOTE);
	next->index = 0;
	folio_put(next);
	kvfree(d);
}

/*
 * Heating up is judged as the CPUs that use the folio see its node: on two
 * sockets neither DRAM is slower by its own record, yet each is slower for
 * the other socket's CPUs, and a pass seeing such folios is not quiet.
 */
static void memattr_daemon_test_heating_as_seen(struct kunit *test)
{
	struct memattr_daemon *d;
	struct folio *folio;
	int nid, viewer = 1;

	d = daemon_with_folio(test, 0, 0, &folio);
	KUNIT_ASSERT_NOT_NULL(test, d);
	nid = folio_nid(folio);
	if (nid == viewer)
		viewer = 0;
	node_set(nid, d->view_slower[viewer]);
	KUNIT_EXPECT_EQ(test, memattr_account(d, folio, MEMATTR_SEEN_NOW, NUMA_NO_NODE),
			MEMATTR_STAY);
	KUNIT_EXPECT_EQ(test, d->pass_heating, 0);
	/* the same access again, by a task of the other socket */
	memattr_heat_set(d->heat[nid], folio_pfn(folio), 0);
	KUNIT_EXPECT_EQ(test, memattr_account(d, folio, MEMATTR_SEEN_NOW, viewer), MEMATTR_STAY);
	KUNIT_EXPECT_EQ(test, d->pass_heating, 1);
	folio_put(folio);
	kvfree(d);
}

static struct kunit_case memattr_daemon_test_cases[] = {
	KUNIT_CASE(memattr_daemon_test_age),
	KUNIT_CASE(memattr_daemon_test_age_by),
	KUNIT_CASE(memattr_daemon_test_lazy_age),
	KUNIT_CASE(memattr_daemon_test_get_set),
	KUNIT_CASE(memattr_daemon_test_hot_cold),
	KUNIT_CASE(memattr_daemon_test_faster),
	KUNIT_CASE(memattr_daemon_test_pick),
	KUNIT_CASE(memattr_daemon_test_rate),
	KUNIT_CASE(memattr_daemon_test_backoff),
	KUNIT_CASE(memattr_daemon_test_confirm),
	KUNIT_CASE(memattr_daemon_test_mapped_moved),
	KUNIT_CASE(memattr_daemon_test_probe),
	KUNIT_CASE(memattr_daemon_test_step),
	KUNIT_CASE(memattr_daemon_test_policy_allows),
	KUNIT_CASE(memattr_daemon_test_majority),
	KUNIT_CASE(memattr_daemon_test_account_once),
	KUNIT_CASE(memattr_daemon_test_reused),
	KUNIT_CASE(memattr_daemon_test_failed_target_forgotten),
	KUNIT_CASE(memattr_daemon_test_freed_folio_forgotten),
	KUNIT_CASE(memattr_daemon_test_heating_as_seen),
	{}
};

static struct kunit_suite memattr_daemon_test_suite = {
	.name = "memattr_daemon",
	.test_cases = memattr_daemon_test_cases,
};

kunit_test_suite(memattr_daemon_test_suite);

#endif /* _MEMATTR_DAEMON_KUNIT_H */
#endif /* CONFIG_MEMATTR_KUNIT_TEST */
