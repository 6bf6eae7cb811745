// SPDX-License-Identifier: GPL-2.0
/*
 * memattr: gather what sysfs says about every online node into a
 * struct memattr_topology. Each file is read at most once; files that a
 * kernel does not have (no HMAT, no memattr patches) are simply unknown.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "memattr.h"

#define NODE_DIR	"/sys/devices/system/node"
#define TIER_DIR	"/sys/devices/virtual/memory_tiering"

static int read_nodemask(struct nodemask *mask, const char *path)
{
	char *str = sysfs_read("%s", path);
	int ret;

	if (!str)
		return -errno;
	ret = parse_nodemask(str, mask);
	free(str);
	return ret;
}

/* The value after "name" in a nodeN/meminfo text, or -1. */
static long long meminfo_field(const char *meminfo, const char *name)
{
	const char *pos = strstr(meminfo, name);
	char *end;
	long long val;

	if (!pos)
		return -1;
	val = strtoll(pos + strlen(name), &end, 10);
	return end == pos + strlen(name) ? -1 : val;
}

static void load_meminfo(struct memattr_node *node)
{
	char *meminfo = sysfs_read(NODE_DIR "/node%d/meminfo", node->id);

	node->mem_total_kb = -1;
	node->mem_free_kb = -1;
	if (!meminfo)
		return;
	node->mem_total_kb = meminfo_field(meminfo, " MemTotal:");
	node->mem_free_kb = meminfo_field(meminfo, " MemFree:");
	free(meminfo);
}

/* Unreadable files leave their field at 0, which means unknown. */
static void load_perf(struct memattr_perf *perf, int id, const char *dir)
{
	sysfs_read_u64(&perf->read_latency, NODE_DIR "/node%d/%s/read_latency",
		       id, dir);
	sysfs_read_u64(&perf->write_latency,
		       NODE_DIR "/node%d/%s/write_latency", id, dir);
	sysfs_read_u64(&perf->read_bandwidth,
		       NODE_DIR "/node%d/%s/read_bandwidth", id, dir);
	sysfs_read_u64(&perf->write_bandwidth,
		       NODE_DIR "/node%d/%s/write_bandwidth", id, dir);
}

/* A 0/1 file of the record: 1, 0, or -1 if unreadable. */
static int read_record_flag(int id, const char *name)
{
	uint64_t val;

	if (sysfs_read_u64(&val, NODE_DIR "/node%d/memattr/%s", id, name))
		return -1;
	return val != 0;
}

static void load_record(struct memattr_node *node,
			const struct memattr_topology *topo)
{
	node->persistent = -1;
	node->special = -1;
	node->has_record = sysfs_exists(NODE_DIR "/node%d/memattr", node->id);
	if (node->has_record) {
		load_perf(&node->record, node->id, "memattr");
		sysfs_read_u64(&node->power, NODE_DIR "/node%d/memattr/power",
			       node->id);
		node->persistent = read_record_flag(node->id, "persistent");
		node->special = read_record_flag(node->id, "special");
	}
	if (node->special < 0 && topo->has_special_list)
		node->special = nodemask_test(&topo->special, node->id);
}

static void load_access1(struct memattr_node *node)
{
	node->has_access1 = sysfs_exists(NODE_DIR "/node%d/access1/initiators",
					 node->id);
	if (node->has_access1)
		load_perf(&node->access1, node->id, "access1/initiators");
}

/* The view of @node from @initiator, added if it is not there yet. */
static struct memattr_view *node_view(struct memattr_node *node, int initiator)
{
	struct memattr_view *views;
	int i;

	for (i = 0; i < node->nr_views; i++)
		if (node->views[i].initiator == initiator)
			return &node->views[i];
	views = realloc(node->views, (node->nr_views + 1) * sizeof(*views));
	if (!views)
		return NULL;
	node->views = views;
	views += node->nr_views++;
	memset(views, 0, sizeof(*views));
	views->initiator = initiator;
	return views;
}

/*
 * Read nodeN/memattr/<field>_from ("0:150 1:250") into the node's views;
 * a kernel without the files leaves none, a malformed pair is skipped.
 */
static void load_views(struct memattr_node *node)
{
	static const struct {
		const char *file;
		size_t offset;
	} fields[] = {
		{ "read_latency_from", offsetof(struct memattr_perf, read_latency) },
		{ "write_latency_from", offsetof(struct memattr_perf, write_latency) },
		{ "read_bandwidth_from", offsetof(struct memattr_perf, read_bandwidth) },
		{ "write_bandwidth_from", offsetof(struct memattr_perf, write_bandwidth) },
	};
	struct memattr_view *view;
	char *str, *tok, *save, *colon;
	uint64_t initiator, val;
	size_t f;

	for (f = 0; f < ARRAY_SIZE(fields); f++) {
		str = sysfs_read(NODE_DIR "/node%d/memattr/%s", node->id,
				 fields[f].file);
		for (tok = str ? strtok_r(str, " \n", &save) : NULL; tok;
		     tok = strtok_r(NULL, " \n", &save)) {
			colon = strchr(tok, ':');
			if (!colon)
				continue;
			*colon = '\0';
			if (parse_u64(tok, &initiator) || parse_u64(colon + 1, &val) ||
			    initiator >= MEMATTR_MAX_NODES)
				continue;
			view = node_view(node, initiator);
			if (view)
				*(uint64_t *)((char *)&view->perf + fields[f].offset) = val;
		}
		free(str);
	}
}

/* Parse a row file into an array; -1 entries if the file is absent. */
static void load_row(int id, const char *name, int **row, int *nr)
{
	char *str = sysfs_read(NODE_DIR "/node%d/%s", id, name);

	*row = NULL;
	*nr = -1;
	if (str && parse_int_row(str, row, nr))
		*nr = -1;
	free(str);
}

static void load_node(struct memattr_node *node, int id,
		      const struct memattr_topology *topo,
		      const struct nodemask *has_memory)
{
	node->id = id;
	node->memory_tier = -1;
	node->cpus = sysfs_read(NODE_DIR "/node%d/cpulist", id);
	if (!node->cpus)
		node->cpus = strdup("");
	load_meminfo(node);
	if (has_memory)
		node->has_memory = nodemask_test(has_memory, id);
	else
		node->has_memory = node->mem_total_kb > 0;
	load_record(node, topo);
	load_access1(node);
	load_row(id, "distance", &node->distance, &node->nr_distance);
	if (node->nr_distance < 0)
		node->nr_distance = 0;
	load_row(id, "memattr/fallback", &node->fallback, &node->nr_fallback);
	load_views(node);
}

/* Set memory_tier of the nodes that memory_tierT/nodelist names. */
static void assign_memory_tier(struct memattr_topology *topo, int tier)
{
	char *list = sysfs_read(TIER_DIR "/memory_tier%d/nodelist", tier);
	struct nodemask members;
	int i, ret;

	if (!list)
		return;
	ret = parse_nodemask(list, &members);
	free(list);
	for (i = 0; !ret && i < topo->nr_nodes; i++)
		if (nodemask_test(&members, topo->nodes[i].id))
			topo->nodes[i].memory_tier = tier;
}

static void load_memory_tiers(struct memattr_topology *topo)
{
	DIR *dir = sysfs_opendir(TIER_DIR);
	struct dirent *entry;
	int tier, len;

	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		len = 0;
		if (sscanf(entry->d_name, "memory_tier%d%n", &tier, &len) == 1 &&
		    len == (int)strlen(entry->d_name) && tier >= 0)
			assign_memory_tier(topo, tier);
	}
	closedir(dir);
}

static int count_nodes(const struct nodemask *mask)
{
	int node, nr = 0;

	for (node = 0; node < MEMATTR_MAX_NODES; node++)
		nr += nodemask_test(mask, node);
	return nr;
}

/**
 * topology_load() - read every online node from sysfs
 * @topo: filled in; release it with topology_free()
 *
 * Return: 0, or -errno if node/online cannot be read (no NUMA sysfs).
 */
int topology_load(struct memattr_topology *topo)
{
	struct nodemask online, has_memory;
	bool has_memory_known;
	int node, nr = 0, ret;

	memset(topo, 0, sizeof(*topo));
	topo->from = -1;
	ret = read_nodemask(&online, NODE_DIR "/online");
	if (ret)
		return ret;
	has_memory_known = !read_nodemask(&has_memory, NODE_DIR "/has_memory");
	topo->has_special_list = !read_nodemask(&topo->special,
						NODE_DIR "/special");
	topo->nodes = calloc(count_nodes(&online) + 1, sizeof(*topo->nodes));
	if (!topo->nodes)
		return -ENOMEM;
	for (node = 0; node < MEMATTR_MAX_NODES; node++) {
		if (!nodemask_test(&online, node))
			continue;
		load_node(&topo->nodes[nr], node, topo,
			  has_memory_known ? &has_memory : NULL);
		topo->has_records |= topo->nodes[nr].has_record;
		nr++;
	}
	topo->nr_nodes = nr;
	load_memory_tiers(topo);
	return 0;
}

void topology_free(struct memattr_topology *topo)
{
	int i;

	for (i = 0; i < topo->nr_nodes; i++) {
		free(topo->nodes[i].cpus);
		free(topo->nodes[i].distance);
		free(topo->nodes[i].fallback);
		free(topo->nodes[i].views);
	}
	free(topo->nodes);
	memset(topo, 0, sizeof(*topo));
}

/* Index of node id in topo->nodes, or -1 if it is not online. */
int topology_index(const struct memattr_topology *topo, int id)
{
	int i;

	for (i = 0; i < topo->nr_nodes; i++)
		if (topo->nodes[i].id == id)
			return i;
	return -1;
}

/* Index of the node whose cpulist holds cpu, or -1. */
int topology_node_of_cpu(const struct memattr_topology *topo, int cpu)
{
	int i;

	for (i = 0; i < topo->nr_nodes; i++)
		if (id_list_contains(topo->nodes[i].cpus, cpu))
			return i;
	return -1;
}

/* Replace the known values of @perf with those @view gives. */
static void perf_overlay(struct memattr_perf *perf,
			 const struct memattr_perf *view)
{
	if (view->read_latency)
		perf->read_latency = view->read_latency;
	if (view->write_latency)
		perf->write_latency = view->write_latency;
	if (view->read_bandwidth)
		perf->read_bandwidth = view->read_bandwidth;
	if (view->write_bandwidth)
		perf->write_bandwidth = view->write_bandwidth;
}

/**
 * topology_apply_view() - make every record show what one node's CPUs see
 * @topo: the nodes, as loaded
 * @initiator: node id of the initiator
 *
 * Each node's record performance becomes its view from @initiator where
 * the kernel gives one (a pair of HMAT's matrix, memattr=, the
 * administrator), as the kernel's performance fallback order sees it;
 * pairs it does not give keep the node's own values.
 */
void topology_apply_view(struct memattr_topology *topo, int initiator)
{
	struct memattr_node *node;
	int i, v;

	topo->from = initiator;
	for (i = 0; i < topo->nr_nodes; i++) {
		node = &topo->nodes[i];
		for (v = 0; node->has_record && v < node->nr_views; v++)
			if (node->views[v].initiator == initiator)
				perf_overlay(&node->record, &node->views[v].perf);
	}
}

/*
 * A node's memattr record, when it has one, is authoritative, even for
 * fields it says are unknown; only a node without a record (a kernel
 * without memattr) falls back to the HMAT access class 1 values.
 */
enum memattr_perf_source node_perf_source(const struct memattr_node *node)
{
	if (node->has_record)
		return MEMATTR_PERF_RECORD;
	if (node->has_access1)
		return MEMATTR_PERF_ACCESS1;
	return MEMATTR_PERF_NONE;
}

/* The performance values that show and select use, or NULL. */
const struct memattr_perf *node_perf(const struct memattr_node *node)
{
	switch (node_perf_source(node)) {
	case MEMATTR_PERF_RECORD:
		return &node->record;
	case MEMATTR_PERF_ACCESS1:
		return &node->access1;
	default:
		return NULL;
	}
}
