/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests for memattr's fallback ordering: the pure function that turns
 * 6.12's distance order into what implicit and explicit allocations walk.
 * Included at the end of mm/memattr_policy.c; expected orders are worked
 * out by hand from the "default" and "gpu-peers" topologies.
 */

#ifdef CONFIG_MEMATTR_KUNIT_TEST

#ifndef _MEMATTR_POLICY_KUNIT_H
#define _MEMATTR_POLICY_KUNIT_H

#include <kunit/test.h>

/*
 * Node ids the cases use. The per-node arrays are sized by it, not by
 * MAX_NUMNODES, so that the file builds with any NODES_SHIFT; a case that
 * needs more nodes than the kernel has is skipped (node masks are only
 * MAX_NUMNODES bits wide).
 */
#define NR_TEST_NODES 4

/* The "default" topology: DRAM, CXL-like, HBM-like, slow node 3. */
static const u32 test_latency[NR_TEST_NODES] = { 100, 300, 80, 600 };
static const u32 test_bandwidth[NR_TEST_NODES] = { 20480, 5120, 102400, 2048 };
static const u32 no_values[NR_TEST_NODES];

struct order_case {
	nodemask_t special;
	nodemask_t kernel_memory;
	struct memattr_order_input in;
	int order[NR_TEST_NODES];
	int nr;
};

/* Skip @test unless node ids up to @nr - 1 fit in a node mask. */
#define needs_nodes(test, nr)						\
	do {								\
		int __nr = (nr);					\
									\
		if (__nr > MAX_NUMNODES)				\
			kunit_skip(test, "needs %d node ids, MAX_NUMNODES is %d", \
				   __nr, MAX_NUMNODES);			\
	} while (0)

/* Every node in @order has memory unless the case says otherwise. */
static void init_case(struct order_case *c, int local, const int *order, int nr)
{
	int i;

	nodes_clear(c->special);
	nodes_clear(c->kernel_memory);
	for (i = 0; i < nr; i++)
		node_set(order[i], c->kernel_memory);
	c->in = (struct memattr_order_input) {
		.local = local,
		.special = &c->special,
		.spill = MEMATTR_SPILL_BEFORE_OOM,
		.mode = MEMATTR_ORDER_DISTANCE,
		.latency = no_values,
		.bandwidth = no_values,
		.kernel_memory = &c->kernel_memory,
	};
	memcpy(c->order, order, nr * sizeof(*order));
	c->nr = nr;
}

static void expect_order(struct kunit *test, struct order_case *c, bool implicit,
			 const int *want, int nr_want)
{
	int nr = memattr_order_fallback(c->order, c->nr, &c->in, implicit, NULL);
	int i;

	KUNIT_ASSERT_EQ(test, nr, nr_want);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->order[i], want[i], "position %d", i);
}

static void nothing_configured_keeps_distance_order(struct kunit *test)
{
	static const int order[] = { 0, 2, 1, 3 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 0, order, 4);
	expect_order(test, &c, true, order, 4);
	init_case(&c, 0, order, 4);
	expect_order(test, &c, false, order, 4);
}

static void special_left_out_of_implicit_only(struct kunit *test)
{
	static const int order[] = { 0, 2, 1, 3 };
	static const int implicit[] = { 0, 2, 1 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 0, order, 4);
	node_set(2, c.special);
	node_set(3, c.special);
	expect_order(test, &c, true, (const int[]){ 0, 1 }, 2);

	init_case(&c, 0, order, 4);
	node_set(3, c.special);
	expect_order(test, &c, true, implicit, 3);

	init_case(&c, 0, order, 4);
	node_set(3, c.special);
	expect_order(test, &c, false, order, 4);
}

static void spill_always_puts_special_last(struct kunit *test)
{
	static const int order[] = { 0, 2, 1, 3 };
	static const int want[] = { 0, 1, 2, 3 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 0, order, 4);
	c.in.spill = MEMATTR_SPILL_ALWAYS;
	node_set(2, c.special);
	node_set(3, c.special);
	expect_order(test, &c, true, want, 4);
}

static void special_local_node_keeps_itself_first(struct kunit *test)
{
	static const int order[] = { 3, 0, 1, 2 };
	static const int want[] = { 3, 0, 1 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 3, order, 4);
	node_set(3, c.special);
	node_set(2, c.special);
	expect_order(test, &c, true, want, 3);
}

static void prefix_comes_right_after_local(struct kunit *test)
{
	static const int order[] = { 1, 0, 2, 3 };
	static const int prefix[] = { 3, 0 };
	static const int want[] = { 1, 3, 0, 2 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 1, order, 4);
	c.in.prefix = prefix;
	c.in.nr_prefix = 2;
	expect_order(test, &c, true, want, 4);
}

/* gpu-peers: accelerator 1 falls back to its special peer 2 before DRAM. */
static void prefix_reaches_special_peer(struct kunit *test)
{
	static const int order[] = { 1, 0, 2 };
	static const int prefix[] = { 2 };
	static const int want[] = { 1, 2, 0 };
	struct order_case c;

	needs_nodes(test, 3);
	init_case(&c, 1, order, 3);
	node_set(1, c.special);
	node_set(2, c.special);
	c.in.spill = MEMATTR_SPILL_NEVER;
	c.in.prefix = prefix;
	c.in.nr_prefix = 1;
	expect_order(test, &c, true, want, 3);
}

static void prefix_ignores_local_and_absent_nodes(struct kunit *test)
{
	static const int order[] = { 0, 2, 1 };
	static const int prefix[] = { 0, 3, 1 };
	static const int want[] = { 0, 1, 2 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 0, order, 3);
	c.in.prefix = prefix;
	c.in.nr_prefix = 3;
	expect_order(test, &c, true, want, 3);
}

static void performance_orders_by_latency(struct kunit *test)
{
	static const int order[] = { 0, 2, 1, 3 };
	static const int want[] = { 0, 2, 1, 3 };
	static const int from_slow[] = { 3, 0, 1, 2 };
	static const int want_slow[] = { 3, 2, 0, 1 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 0, order, 4);
	c.in.mode = MEMATTR_ORDER_PERFORMANCE;
	c.in.latency = test_latency;
	c.in.bandwidth = test_bandwidth;
	expect_order(test, &c, true, want, 4);

	init_case(&c, 3, from_slow, 4);
	c.in.mode = MEMATTR_ORDER_PERFORMANCE;
	c.in.latency = test_latency;
	c.in.bandwidth = test_bandwidth;
	expect_order(test, &c, true, want_slow, 4);
}

static void performance_ties_and_unknowns(struct kunit *test)
{
	/* Node 1 unknown; 2 and 3 tie on latency, 3 has more bandwidth. */
	static const u32 lat[NR_TEST_NODES] = { 100, 0, 200, 200 };
	static const u32 bw[NR_TEST_NODES] = { 0, 0, 1000, 2000 };
	static const int order[] = { 0, 1, 2, 3 };
	static const int want[] = { 0, 3, 2, 1 };
	/* Full tie between 2 and 3: the distance order (input) decides. */
	static const u32 same_bw[NR_TEST_NODES] = { 0, 0, 1000, 1000 };
	static const int order_b[] = { 0, 3, 1, 2 };
	static const int want_b[] = { 0, 3, 2, 1 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 0, order, 4);
	c.in.mode = MEMATTR_ORDER_PERFORMANCE;
	c.in.latency = lat;
	c.in.bandwidth = bw;
	expect_order(test, &c, true, want, 4);

	init_case(&c, 0, order_b, 4);
	c.in.mode = MEMATTR_ORDER_PERFORMANCE;
	c.in.latency = lat;
	c.in.bandwidth = same_bw;
	expect_order(test, &c, true, want_b, 4);
}

/*
 * HMAT's matrix, on the last four node ids: sockets A and B, a CXL-like
 * node behind A (near for A, far for B) and an HBM-like node near B. Each
 * socket's list follows what that socket sees (the best initiator's values,
 * 90 ns for the HBM-like node, would put it right after A in A's list).
 * Leaves empty views behind: views are never freed.
 */
static void performance_follows_each_initiators_view(struct kunit *test)
{
	static const u32 from_a[] = { 100, 180, 150, 220 };
	static const u32 from_b[] = { 180, 100, 250, 90 };
	int a = MAX_NUMNODES - 4, b = a + 1, cxl = a + 2, hbm = a + 3, i;
	nodemask_t nodes = NODE_MASK_NONE;
	u32 *latency, *bandwidth;
	struct order_case c;

	needs_nodes(test, 8);
	for (i = a; i < a + 4; i++) {
		if (node_online(i))
			kunit_skip(test, "node %d is in use", i);
		node_set(i, nodes);
	}
	latency = kunit_kcalloc(test, MAX_NUMNODES, sizeof(*latency), GFP_KERNEL);
	bandwidth = kunit_kcalloc(test, MAX_NUMNODES, sizeof(*bandwidth), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, latency);
	KUNIT_ASSERT_NOT_NULL(test, bandwidth);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, 0, memattr_set_from(a, a + i, MEMATTR_READ_LATENCY,
							  from_a[i], MEMATTR_SRC_HMAT));
		KUNIT_EXPECT_EQ(test, 0, memattr_set_from(b, a + i, MEMATTR_READ_LATENCY,
							  from_b[i], MEMATTR_SRC_HMAT));
	}

	memattr_view_perf(a, &nodes, latency, bandwidth);
	init_case(&c, a, (int[]){ a, b, cxl, hbm }, 4);
	c.in.mode = MEMATTR_ORDER_PERFORMANCE;
	c.in.latency = latency;
	c.in.bandwidth = bandwidth;
	expect_order(test, &c, true, (int[]){ a, cxl, b, hbm }, 4);

	memattr_view_perf(b, &nodes, latency, bandwidth);
	init_case(&c, b, (int[]){ b, a, hbm, cxl }, 4);
	c.in.mode = MEMATTR_ORDER_PERFORMANCE;
	c.in.latency = latency;
	c.in.bandwidth = bandwidth;
	expect_order(test, &c, true, (int[]){ b, hbm, a, cxl }, 4);

	for (i = 0; i < 4; i++) {
		memattr_clear_from(a, a + i, MEMATTR_READ_LATENCY, MEMATTR_SRC_HMAT);
		memattr_clear_from(b, a + i, MEMATTR_READ_LATENCY, MEMATTR_SRC_HMAT);
	}
}

/* A memoryless CPU node is not in its own list: nothing is pinned first. */
static void memoryless_local_sorts_everything(struct kunit *test)
{
	static const int order[] = { 1, 2, 0 };
	static const int want[] = { 2, 0, 1 };
	struct order_case c;

	needs_nodes(test, 4);
	init_case(&c, 3, order, 3);
	c.in.mode = MEMATTR_ORDER_PERFORMANCE;
	c.in.latency = test_latency;
	c.in.bandwidth = test_bandwidth;
	expect_order(test, &c, true, want, 3);
}

/* The smallest machine: runs with any NODES_SHIFT. */
static void two_nodes_special_left_out(struct kunit *test)
{
	static const int order[] = { 0, 1 };
	struct order_case c;

	init_case(&c, 0, order, 2);
	node_set(1, c.special);
	expect_order(test, &c, true, order, 1);
	init_case(&c, 0, order, 2);
	node_set(1, c.special);
	expect_order(test, &c, false, order, 2);
}

/*
 * Memory left and only special nodes have any: the list keeps them, last,
 * and says it did; with ordinary memory anywhere in the list it does not.
 */
static void no_ordinary_memory_keeps_special_last(struct kunit *test)
{
	static const int order[] = { 2, 0, 1, 3 };
	static const int want[] = { 2, 3, 0, 1 };
	struct order_case c;
	bool starved;
	int nr;

	needs_nodes(test, 4);
	init_case(&c, 2, order, 4);
	node_set(0, c.special);
	node_set(1, c.special);
	node_clear(2, c.kernel_memory);
	nr = memattr_order_fallback(c.order, c.nr, &c.in, true, &starved);
	KUNIT_EXPECT_EQ(test, nr, 2);
	KUNIT_EXPECT_FALSE(test, starved);

	init_case(&c, 2, order, 4);
	node_set(0, c.special);
	node_set(1, c.special);
	node_clear(2, c.kernel_memory);
	node_clear(3, c.kernel_memory);
	nr = memattr_order_fallback(c.order, c.nr, &c.in, true, &starved);
	KUNIT_EXPECT_TRUE(test, starved);
	KUNIT_ASSERT_EQ(test, nr, 4);
	KUNIT_EXPECT_EQ(test, 0, memcmp(c.order, want, sizeof(want)));

	/* A local node with memory serves its CPUs, special or not. */
	init_case(&c, 0, (const int[]){ 0, 1 }, 2);
	node_set(0, c.special);
	node_set(1, c.special);
	nr = memattr_order_fallback(c.order, c.nr, &c.in, true, &starved);
	KUNIT_EXPECT_EQ(test, nr, 1);
	KUNIT_EXPECT_FALSE(test, starved);
}

/* Only requests that would reach the OOM killer may spill. */
static void spill_only_instead_of_oom(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, memattr_would_oom(GFP_KERNEL, 0, ZONE_NORMAL));
	KUNIT_EXPECT_TRUE(test, memattr_would_oom(GFP_HIGHUSER_MOVABLE, 0,
						  ZONE_MOVABLE));
	KUNIT_EXPECT_TRUE(test, memattr_would_oom(GFP_KERNEL, PAGE_ALLOC_COSTLY_ORDER,
						  ZONE_NORMAL));
	KUNIT_EXPECT_TRUE(test, memattr_would_oom(GFP_KERNEL | __GFP_NOFAIL, 0,
						  ZONE_NORMAL));

	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_ATOMIC, 0, ZONE_NORMAL));
	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_NOWAIT, 0, ZONE_NORMAL));
	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_KERNEL | __GFP_NORETRY, 0,
						   ZONE_NORMAL));
	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_KERNEL | __GFP_RETRY_MAYFAIL, 0,
						   ZONE_NORMAL));
	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_KERNEL | __GFP_THISNODE, 0,
						   ZONE_NORMAL));
	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_KERNEL, PAGE_ALLOC_COSTLY_ORDER + 1,
						   ZONE_NORMAL));
	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_NOFS, 0, ZONE_NORMAL));
	KUNIT_EXPECT_FALSE(test, memattr_would_oom(GFP_KERNEL, 0, ZONE_DMA32));
}

/* The window lasts MEMATTR_SPILL_WINDOW, also across a jiffies wrap. */
static void spill_window_bounds_and_wrap(struct kunit *test)
{
	unsigned long opened = 1000;

	KUNIT_EXPECT_TRUE(test, memattr_in_spill_window(opened, opened));
	KUNIT_EXPECT_TRUE(test, memattr_in_spill_window(opened + MEMATTR_SPILL_WINDOW,
							opened));
	KUNIT_EXPECT_FALSE(test, memattr_in_spill_window(opened + MEMATTR_SPILL_WINDOW + 1,
							 opened));
	KUNIT_EXPECT_FALSE(test, memattr_in_spill_window(opened - 1, opened));

	/* opened just before the counter wraps: still open just after it */
	opened = ULONG_MAX - 2;
	KUNIT_EXPECT_TRUE(test, memattr_in_spill_window(1, opened));
	KUNIT_EXPECT_FALSE(test, memattr_in_spill_window(opened + MEMATTR_SPILL_WINDOW + 1,
							 opened));
	/* jiffies starts 5 minutes before the wrap: 0 is no open window */
	KUNIT_EXPECT_FALSE(test, memattr_in_spill_window((unsigned long)INITIAL_JIFFIES, 0));
}

/* No write may leave implicit allocations without ordinary memory. */
static void special_never_takes_all_memory(struct kunit *test)
{
	nodemask_t memory = NODE_MASK_NONE, special = NODE_MASK_NONE;

	needs_nodes(test, 4);
	node_set(0, memory);
	node_set(2, memory);
	node_set(2, special);
	node_set(3, special);	/* special, but no memory yet */
	KUNIT_EXPECT_FALSE(test, memattr_leaves_no_ordinary(&memory, &special,
							    MEMATTR_SPILL_NEVER));
	node_set(0, special);
	KUNIT_EXPECT_TRUE(test, memattr_leaves_no_ordinary(&memory, &special,
							   MEMATTR_SPILL_NEVER));
	KUNIT_EXPECT_TRUE(test, memattr_leaves_no_ordinary(&memory, &special,
							   MEMATTR_SPILL_BEFORE_OOM));
	/* spill=always keeps special nodes last in every list */
	KUNIT_EXPECT_FALSE(test, memattr_leaves_no_ordinary(&memory, &special,
							    MEMATTR_SPILL_ALWAYS));
}

static struct kunit_case memattr_policy_cases[] = {
	KUNIT_CASE(nothing_configured_keeps_distance_order),
	KUNIT_CASE(special_left_out_of_implicit_only),
	KUNIT_CASE(spill_always_puts_special_last),
	KUNIT_CASE(special_local_node_keeps_itself_first),
	KUNIT_CASE(prefix_comes_right_after_local),
	KUNIT_CASE(prefix_reaches_special_peer),
	KUNIT_CASE(prefix_ignores_local_and_absent_nodes),
	KUNIT_CASE(performance_orders_by_latency),
	KUNIT_CASE(performance_ties_and_unknowns),
	KUNIT_CASE(performance_follows_each_initiators_view),
	KUNIT_CASE(memoryless_local_sorts_everything),
	KUNIT_CASE(two_nodes_special_left_out),
	KUNIT_CASE(no_ordinary_memory_keeps_special_last),
	KUNIT_CASE(spill_only_instead_of_oom),
	KUNIT_CASE(spill_window_bounds_and_wrap),
	KUNIT_CASE(special_never_takes_all_memory),
	{}
};

static struct kunit_suite memattr_policy_suite = {
	.name = "memattr_policy",
	.test_cases = memattr_policy_cases,
};

kunit_test_suite(memattr_policy_suite);

#endif /* _MEMATTR_POLICY_KUNIT_H */

#endif /* CONFIG_MEMATTR_KUNIT_TEST */
