/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memattr fallback policy: keeps special nodes out of implicit allocation,
 * lets explicit requests reach them, and orders fallback by attributes.
 * These are the hooks the page allocator and memory tiers call.
 */
#ifndef _LINUX_MEMATTR_POLICY_H
#define _LINUX_MEMATTR_POLICY_H

#include <linux/gfp.h>
#include <linux/jump_label.h>
#include <linux/nodemask.h>

struct alloc_context;
struct attribute_group;
struct device_attribute;
struct kobject;
struct page;
struct zonelist;

/* How implicit allocations may use special nodes. */
enum memattr_spill_mode {
	MEMATTR_SPILL_NEVER,		/* never: fail or OOM instead */
	MEMATTR_SPILL_BEFORE_OOM,	/* only when the OOM killer is next */
	MEMATTR_SPILL_ALWAYS,		/* last in every fallback list */
	MEMATTR_NR_SPILL_MODES,
};

/* What orders a node's fallback list after its explicit prefix. */
enum memattr_order_mode {
	MEMATTR_ORDER_DISTANCE,		/* SLIT distance, exactly as 6.12 */
	MEMATTR_ORDER_PERFORMANCE,	/* latency, then bandwidth, then distance */
	MEMATTR_NR_ORDER_MODES,
};

#ifdef CONFIG_MEMATTR
DECLARE_STATIC_KEY_FALSE(memattr_special_in_use);
extern struct kobject *memattr_kobj;

void memattr_build_fallback(int local, int *order, int *nr, int *explicit_order,
			    int *nr_explicit);
bool memattr_may_spill(gfp_t gfp, unsigned int order,
		       const struct alloc_context *ac);
bool memattr_spilling(gfp_t gfp, unsigned int order,
		      const struct alloc_context *ac);
void memattr_spill_context(const struct alloc_context *ac,
			   struct alloc_context *spill);
void memattr_special_mask(nodemask_t *mask);
bool memattr_is_special(int nid);
void memattr_spilled(struct page *page, unsigned int order, gfp_t gfp,
		     const struct alloc_context *ac, bool after_reclaim);
int memattr_set_fallback(int nid, const int *nodes, int nr);
void __init memattr_policy_boot_init(void);

/* nodeN/memattr/fallback and /sys/devices/system/node/special */
extern struct device_attribute memattr_fallback_attr;
extern const struct attribute_group memattr_node_root_group;

/*
 * @zl, the zonelist of @nid for @gfp, or the explicit one it stands for.
 * Explicit requests (those with a nodemask) walk the node's explicit
 * zonelist: filtered by the nodemask it gives what the fallback list gives
 * for ordinary nodes, and it also holds the special ones. While no node is
 * special the two lists hold the same zones in the same order, so a kernel
 * without special nodes allocates exactly as 6.12 does; no static key is
 * tested here, as an explicit request would pay for it and the choice
 * costs no more than the test.
 */
static inline struct zonelist *memattr_zonelist(int nid, nodemask_t *nodemask,
						gfp_t gfp, struct zonelist *zl)
{
	if (nodemask && !(gfp & __GFP_THISNODE))
		return &NODE_DATA(nid)->node_zonelists[ZONELIST_EXPLICIT];
	return zl;
}

/* Is the allocation slow path to choose between the two lists again? */
static inline bool memattr_special_active(void)
{
	return static_branch_unlikely(&memattr_special_in_use);
}

void memattr_prepare_cpuset(struct alloc_context *ac);
void memattr_choose_zonelist(gfp_t gfp, struct alloc_context *ac, bool cpuset);
struct zonelist *__memattr_cpuset_zonelist(int nid, gfp_t gfp);

/*
 * The list the current task's implicit allocations on @nid walk, for code
 * that searches it without allocating (SLUB's partial slabs): the explicit
 * one when the task's cpuset holds special nodes only.
 */
static inline struct zonelist *memattr_cpuset_zonelist(int nid, gfp_t gfp)
{
	if (memattr_special_active())
		return __memattr_cpuset_zonelist(nid, gfp);
	return node_zonelist(nid, gfp);
}

/*
 * For users that must see every node, special ones included, on their own
 * terms: reclaim that spreads pressure over all nodes, free-page totals.
 * Without special nodes the explicit list has the fallback list's content.
 */
static inline struct zonelist *memattr_every_node_zonelist(int nid, gfp_t gfp)
{
	if (gfp & __GFP_THISNODE)
		return node_zonelist(nid, gfp);
	return &NODE_DATA(nid)->node_zonelists[ZONELIST_EXPLICIT];
}
#else
static inline void memattr_build_fallback(int local, int *order, int *nr,
					  int *explicit_order, int *nr_explicit)
{
}

static inline void memattr_policy_boot_init(void)
{
}

static inline struct zonelist *memattr_zonelist(int nid, nodemask_t *nodemask,
						gfp_t gfp, struct zonelist *zl)
{
	return zl;
}

static inline struct zonelist *memattr_every_node_zonelist(int nid, gfp_t gfp)
{
	return node_zonelist(nid, gfp);
}

static inline bool memattr_special_active(void)
{
	return false;
}

static inline void memattr_prepare_cpuset(struct alloc_context *ac)
{
}

static inline void memattr_choose_zonelist(gfp_t gfp, struct alloc_context *ac,
					   bool cpuset)
{
}

static inline struct zonelist *memattr_cpuset_zonelist(int nid, gfp_t gfp)
{
	return node_zonelist(nid, gfp);
}

static inline bool memattr_may_spill(gfp_t gfp, unsigned int order,
				     const struct alloc_context *ac)
{
	return false;
}

static inline bool memattr_spilling(gfp_t gfp, unsigned int order,
				    const struct alloc_context *ac)
{
	return false;
}

/* A macro: struct alloc_context is only complete inside mm/. */
#define memattr_spill_context(ac, spill)	(*(spill) = *(ac))

static inline void memattr_special_mask(nodemask_t *mask)
{
	nodes_clear(*mask);
}

static inline bool memattr_is_special(int nid)
{
	return false;
}

static inline void memattr_spilled(struct page *page, unsigned int order,
				   gfp_t gfp, const struct alloc_context *ac,
				   bool after_reclaim)
{
}
#endif /* CONFIG_MEMATTR */

#endif /* _LINUX_MEMATTR_POLICY_H */
