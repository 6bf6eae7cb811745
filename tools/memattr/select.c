// SPDX-License-Identifier: GPL-2.0
/*
 * memattr: choose nodes by attribute. Pure functions of a topology and
 * the criteria: filter the nodes that have memory, rank them by the keys
 * in the order they were given, keep the first few.
 */
#include <stdlib.h>

#include "memattr.h"

/* Add a ranking key unless it is there already; order is priority. */
void criteria_add_key(struct memattr_criteria *crit,
		      enum memattr_rank_key key)
{
	int i;

	for (i = 0; i < crit->nr_keys; i++)
		if (crit->keys[i] == key)
			return;
	crit->keys[crit->nr_keys++] = key;
}

bool criteria_needs_local(const struct memattr_criteria *crit)
{
	int i;

	for (i = 0; i < crit->nr_keys; i++)
		if (crit->keys[i] == MEMATTR_RANK_DISTANCE)
			return true;
	return false;
}

static uint64_t node_read_latency(const struct memattr_node *node)
{
	const struct memattr_perf *perf = node_perf(node);

	return perf ? perf->read_latency : 0;
}

static uint64_t node_read_bandwidth(const struct memattr_node *node)
{
	const struct memattr_perf *perf = node_perf(node);

	return perf ? perf->read_bandwidth : 0;
}

/* A bound on an unknown value is never met. */
static bool node_matches(const struct memattr_node *node,
			 const struct memattr_criteria *crit)
{
	uint64_t latency = node_read_latency(node);
	uint64_t bandwidth = node_read_bandwidth(node);

	if (!node->has_memory)
		return false;
	if (crit->persistent && node->persistent != 1)
		return false;
	if (crit->special && node->special != 1)
		return false;
	if (crit->no_special && node->special == 1)
		return false;
	if (crit->max_latency && (!latency || latency > crit->max_latency))
		return false;
	if (crit->min_bandwidth &&
	    (!bandwidth || bandwidth < crit->min_bandwidth))
		return false;
	return true;
}

/* What ranking compares: smaller is better; known says it is not unknown. */
struct rank_value {
	bool known;			/* the node has this value */
	uint64_t value;			/* smaller ranks first */
};

static struct rank_value rank_value(const struct memattr_topology *topo,
				    int index, enum memattr_rank_key key,
				    int local_index)
{
	const struct memattr_node *node = &topo->nodes[index];
	const struct memattr_node *local;
	uint64_t val = 0;

	switch (key) {
	case MEMATTR_RANK_LATENCY:
		val = node_read_latency(node);
		return (struct rank_value){ val != 0, val };
	case MEMATTR_RANK_BANDWIDTH:
		val = node_read_bandwidth(node);
		return (struct rank_value){ val != 0, UINT64_MAX - val };
	case MEMATTR_RANK_POWER:
		return (struct rank_value){ node->power != 0, node->power };
	case MEMATTR_RANK_DISTANCE:
		if (local_index < 0)
			break;
		local = &topo->nodes[local_index];
		if (index >= local->nr_distance || local->distance[index] < 0)
			break;
		return (struct rank_value){ true, local->distance[index] };
	default:
		break;
	}
	return (struct rank_value){ false, 0 };
}

/* < 0 if node a ranks before b; unknown values rank last, then id. */
static int compare_nodes(const struct memattr_topology *topo, int a, int b,
			 const struct memattr_criteria *crit, int local_index)
{
	struct rank_value va, vb;
	int i;

	for (i = 0; i < crit->nr_keys; i++) {
		va = rank_value(topo, a, crit->keys[i], local_index);
		vb = rank_value(topo, b, crit->keys[i], local_index);
		if (va.known != vb.known)
			return va.known ? -1 : 1;
		if (va.known && va.value != vb.value)
			return va.value < vb.value ? -1 : 1;
	}
	return topo->nodes[a].id - topo->nodes[b].id;
}

/* Stable insertion sort; node counts are small. */
static void rank_nodes(const struct memattr_topology *topo, int *indexes,
		       int nr, const struct memattr_criteria *crit,
		       int local_index)
{
	int i, j, index;

	for (i = 1; i < nr; i++) {
		index = indexes[i];
		for (j = i; j > 0; j--) {
			if (compare_nodes(topo, indexes[j - 1], index, crit,
					  local_index) <= 0)
				break;
			indexes[j] = indexes[j - 1];
		}
		indexes[j] = index;
	}
}

/**
 * select_nodes() - pick and rank the nodes that match the criteria
 * @topo: every online node
 * @crit: filters, ranking keys and count
 * @local_index: index in @topo of the calling CPU's node, or -1; used by
 *		 MEMATTR_RANK_DISTANCE
 * @selected: receives indexes into topo->nodes, best first; room for
 *	      topo->nr_nodes entries
 *
 * Return: the number of nodes selected, 0 if none matches.
 */
int select_nodes(const struct memattr_topology *topo,
		 const struct memattr_criteria *crit, int local_index,
		 int *selected)
{
	int i, nr = 0;

	for (i = 0; i < topo->nr_nodes; i++)
		if (node_matches(&topo->nodes[i], crit))
			selected[nr++] = i;
	rank_nodes(topo, selected, nr, crit, local_index);
	if (crit->count && nr > crit->count)
		nr = crit->count;
	return nr;
}
