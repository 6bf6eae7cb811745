/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memattr - list NUMA nodes with their memory attribute records, select
 * nodes by attribute and run a command with a memory policy for them.
 * Declarations shared by the files of the tool.
 */
#ifndef MEMATTR_H
#define MEMATTR_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

/* 1 << CONFIG_NODES_SHIFT is at most 1024 on every architecture. */
#define MEMATTR_MAX_NODES	1024
#define MEMATTR_BITS_PER_LONG	(8 * sizeof(unsigned long))

/* Exit statuses, documented in memattr.8. */
#define MEMATTR_EXIT_FAILURE	1	/* nothing matched, or a runtime error */
#define MEMATTR_EXIT_USAGE	2	/* bad command line */
#define MEMATTR_EXIT_CANNOT_RUN	126	/* exec: CMD found but not runnable */
#define MEMATTR_EXIT_NOT_FOUND	127	/* exec: CMD not found */

/* A set of node ids, laid out as set_mempolicy(2) expects it. */
struct nodemask {
	/* bit n set: node n is in the set */
	unsigned long bits[MEMATTR_MAX_NODES / MEMATTR_BITS_PER_LONG];
};

static inline void nodemask_set(struct nodemask *mask, unsigned int node)
{
	mask->bits[node / MEMATTR_BITS_PER_LONG] |=
		1UL << (node % MEMATTR_BITS_PER_LONG);
}

static inline bool nodemask_test(const struct nodemask *mask,
				 unsigned int node)
{
	return mask->bits[node / MEMATTR_BITS_PER_LONG] &
		(1UL << (node % MEMATTR_BITS_PER_LONG));
}

/* Performance of a node as a memory target; 0 means unknown. */
struct memattr_perf {
	uint64_t read_latency;		/* nanoseconds */
	uint64_t write_latency;		/* nanoseconds */
	uint64_t read_bandwidth;	/* MB/s */
	uint64_t write_bandwidth;	/* MB/s */
};

/* Where the performance values of a node come from. */
enum memattr_perf_source {
	MEMATTR_PERF_NONE,		/* nothing known */
	MEMATTR_PERF_RECORD,		/* nodeN/memattr/ */
	MEMATTR_PERF_ACCESS1,		/* nodeN/access1/initiators/ (HMAT) */
};

/* One initiator's view of a node: nodeN/memattr/<field>_from. */
struct memattr_view {
	int initiator;			/* node id of the initiator */
	struct memattr_perf perf;	/* 0 where the file lists no pair */
};

/* What sysfs says about one online node. */
struct memattr_node {
	int id;				/* node id */
	char *cpus;			/* cpulist as sysfs prints it, or "" */
	bool has_memory;		/* in node/has_memory */
	long long mem_total_kb;		/* MemTotal, -1 if unreadable */
	long long mem_free_kb;		/* MemFree, -1 if unreadable */
	bool has_record;		/* nodeN/memattr/ exists */
	struct memattr_perf record;	/* nodeN/memattr/ performance */
	uint64_t power;			/* mW per GiB, 0 if unknown */
	int persistent;			/* 1, 0, or -1 if unknown */
	int special;			/* 1, 0, or -1 if unknown */
	bool has_access1;		/* nodeN/access1/initiators/ exists */
	struct memattr_perf access1;	/* best CPU initiator (HMAT) */
	int memory_tier;		/* T of memory_tierT, or -1 */
	int *distance;			/* distance row, one per online node */
	int nr_distance;		/* entries in @distance */
	int *fallback;			/* effective fallback order */
	int nr_fallback;		/* entries in @fallback, -1: no file */
	struct memattr_view *views;	/* the node seen from each initiator */
	int nr_views;			/* entries in @views */
};

/* Every online node, as read from sysfs once. */
struct memattr_topology {
	struct memattr_node *nodes;	/* online nodes, ascending id */
	int nr_nodes;			/* entries in @nodes */
	bool has_records;		/* some node has a memattr/ directory */
	bool has_special_list;		/* node/special exists */
	struct nodemask special;	/* node/special */
	int from;			/* record values are the view from this
					 * node (topology_apply_view()), or -1 */
};

/* sysfs.c: reading files under $MEMATTR_SYSFS_ROOT */
void sysfs_set_root(const char *root);
char *sysfs_read(const char *fmt, ...) __printf(1, 2);
int sysfs_read_u64(uint64_t *val, const char *fmt, ...) __printf(2, 3);
bool sysfs_exists(const char *fmt, ...) __printf(1, 2);
DIR *sysfs_opendir(const char *fmt, ...) __printf(1, 2);

/* list.c: the list and number formats of sysfs and of the command line */
int parse_u64(const char *str, uint64_t *val);
int parse_nodemask(const char *str, struct nodemask *mask);
bool id_list_contains(const char *str, unsigned int id);
int parse_int_row(const char *str, int **vals, int *nr_vals);

/* topology.c: gathering struct memattr_topology */
int topology_load(struct memattr_topology *topo);
void topology_free(struct memattr_topology *topo);
int topology_index(const struct memattr_topology *topo, int id);
int topology_node_of_cpu(const struct memattr_topology *topo, int cpu);
void topology_apply_view(struct memattr_topology *topo, int initiator);
enum memattr_perf_source node_perf_source(const struct memattr_node *node);
const struct memattr_perf *node_perf(const struct memattr_node *node);

/* table.c: aligned text tables */
struct table {
	const char *align;		/* per column: 'l' or 'r' */
	int nr_cols;			/* cells per row */
	int nr_cells;			/* cells added so far */
	int capacity;			/* entries allocated in @cells */
	char **cells;			/* row-major, malloc()ed strings */
};

void table_init(struct table *table, const char *align);
void table_add(struct table *table, const char *fmt, ...) __printf(2, 3);
void table_print(const struct table *table, FILE *out);
void table_free(struct table *table);

/* show.c: the table and the JSON document */
void show_table(const struct memattr_topology *topo, FILE *out);
void show_json(const struct memattr_topology *topo, FILE *out);

/* select.c: filtering and ranking nodes */
enum memattr_rank_key {
	MEMATTR_RANK_LATENCY,		/* lower read latency first */
	MEMATTR_RANK_BANDWIDTH,		/* higher read bandwidth first */
	MEMATTR_RANK_POWER,		/* lower power first */
	MEMATTR_RANK_DISTANCE,		/* closer to the calling CPU first */
	MEMATTR_NR_RANK_KEYS
};

/* What `select` and `exec` were asked for. */
struct memattr_criteria {
	bool persistent;		/* only persistent nodes */
	bool special;			/* only special nodes */
	bool no_special;		/* no special nodes */
	uint64_t max_latency;		/* read latency bound, 0: none */
	uint64_t min_bandwidth;		/* read bandwidth bound, 0: none */
	enum memattr_rank_key keys[MEMATTR_NR_RANK_KEYS]; /* sort order */
	int nr_keys;			/* entries in @keys */
	int count;			/* keep the first @count, 0: all */
};

void criteria_add_key(struct memattr_criteria *crit,
		      enum memattr_rank_key key);
bool criteria_needs_local(const struct memattr_criteria *crit);
int select_nodes(const struct memattr_topology *topo,
		 const struct memattr_criteria *crit, int local_index,
		 int *selected);

#endif /* MEMATTR_H */
