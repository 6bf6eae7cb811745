// SPDX-License-Identifier: GPL-2.0
/*
 * memattr: print the topology as a table for people or as a JSON
 * document for programs. The JSON schema is documented in memattr.8;
 * change it only by adding members, or bump "version".
 */
#include <stdlib.h>
#include <string.h>

#include "memattr.h"

#define MEMATTR_JSON_VERSION	1

/* ---- table ---- */

/* A performance value: "-" if unknown, marked '*' if it is from HMAT. */
static void add_perf_cell(struct table *table, uint64_t val,
			  enum memattr_perf_source source)
{
	if (!val)
		table_add(table, "-");
	else
		table_add(table, "%llu%s", (unsigned long long)val,
			  source == MEMATTR_PERF_ACCESS1 ? "*" : "");
}

static void add_flag_cell(struct table *table, int flag)
{
	table_add(table, "%s", flag < 0 ? "-" : flag ? "yes" : "no");
}

static void add_mib_cell(struct table *table, long long kb)
{
	if (kb < 0)
		table_add(table, "-");
	else
		table_add(table, "%lld", kb / 1024);
}

static void add_attribute_row(struct table *table,
			      const struct memattr_node *node)
{
	enum memattr_perf_source source = node_perf_source(node);
	const struct memattr_perf *perf = node_perf(node);
	const struct memattr_perf none = { 0 };

	if (!perf)
		perf = &none;
	table_add(table, "%d", node->id);
	table_add(table, "%s", *node->cpus ? node->cpus : "-");
	add_mib_cell(table, node->mem_total_kb);
	add_mib_cell(table, node->mem_free_kb);
	add_perf_cell(table, perf->read_latency, source);
	add_perf_cell(table, perf->write_latency, source);
	add_perf_cell(table, perf->read_bandwidth, source);
	add_perf_cell(table, perf->write_bandwidth, source);
	add_perf_cell(table, node->power, MEMATTR_PERF_RECORD);
	add_flag_cell(table, node->persistent);
	add_flag_cell(table, node->special);
	if (node->memory_tier < 0)
		table_add(table, "-");
	else
		table_add(table, "%d", node->memory_tier);
}

static void print_attribute_table(const struct memattr_topology *topo,
				  FILE *out)
{
	struct table table;
	int i;

	table_init(&table, "rlrrrrrrrllr");
	table_add(&table, "NODE");
	table_add(&table, "CPUS");
	table_add(&table, "TOTAL(MiB)");
	table_add(&table, "FREE(MiB)");
	table_add(&table, "RLAT(ns)");
	table_add(&table, "WLAT(ns)");
	table_add(&table, "RBW(MB/s)");
	table_add(&table, "WBW(MB/s)");
	table_add(&table, "POWER(mW/GiB)");
	table_add(&table, "PERSIST");
	table_add(&table, "SPECIAL");
	table_add(&table, "TIER");
	for (i = 0; i < topo->nr_nodes; i++)
		add_attribute_row(&table, &topo->nodes[i]);
	table_print(&table, out);
	table_free(&table);
}

/* "1 3" for the nodes without a record, and whether any uses access1. */
static char *nodes_without_record(const struct memattr_topology *topo,
				  bool *uses_access1)
{
	char *list = calloc(topo->nr_nodes, 12);
	size_t len = 0;
	int i;

	*uses_access1 = false;
	for (i = 0; list && i < topo->nr_nodes; i++) {
		if (topo->nodes[i].has_record)
			continue;
		len += sprintf(list + len, "%s%d", len ? " " : "",
			       topo->nodes[i].id);
		*uses_access1 |= topo->nodes[i].has_access1;
	}
	return list;
}

/* The one line that says which nodes lack a memattr record. */
static void print_record_note(const struct memattr_topology *topo,
			      FILE *out)
{
	bool uses_access1;
	char *missing = nodes_without_record(topo, &uses_access1);

	if (!missing || !*missing)
		goto out;
	if (topo->has_records)
		fprintf(out, "memattr: no attribute record for node %s", missing);
	else
		fprintf(out,
			"memattr: attribute records unavailable (kernel without memattr)");
	if (uses_access1)
		fputs("; values marked * are HMAT access class 1", out);
	fputc('\n', out);
out:
	free(missing);
}

static void add_distance_row(struct table *table,
			     const struct memattr_topology *topo,
			     const struct memattr_node *node)
{
	char *fallback = calloc(node->nr_fallback > 0 ? node->nr_fallback : 1,
				12);
	size_t len = 0;
	int i;

	table_add(table, "%d:", node->id);
	for (i = 0; i < topo->nr_nodes; i++) {
		if (i < node->nr_distance)
			table_add(table, "%d", node->distance[i]);
		else
			table_add(table, "-");
	}
	for (i = 0; fallback && i < node->nr_fallback; i++)
		len += sprintf(fallback + len, "%s%d", i ? " " : "",
			       node->fallback[i]);
	table_add(table, "%s", fallback && len ? fallback : "-");
	free(fallback);
}

static void print_distance_table(const struct memattr_topology *topo,
				 FILE *out)
{
	char *align = malloc(topo->nr_nodes + 3);
	struct table table;
	int i;

	if (!align)
		return;
	memset(align, 'r', topo->nr_nodes + 1);
	align[topo->nr_nodes + 1] = 'l';
	align[topo->nr_nodes + 2] = '\0';
	table_init(&table, align);
	table_add(&table, "NODE");
	for (i = 0; i < topo->nr_nodes; i++)
		table_add(&table, "%d", topo->nodes[i].id);
	table_add(&table, "FALLBACK");
	for (i = 0; i < topo->nr_nodes; i++)
		add_distance_row(&table, topo, &topo->nodes[i]);
	table_print(&table, out);
	table_free(&table);
	free(align);
}

/**
 * show_table() - print every online node for people
 * @topo: the nodes
 * @out: where to print
 *
 * First the attribute table, then one note line if records are missing,
 * then the distance matrix with each node's fallback order.
 */
void show_table(const struct memattr_topology *topo, FILE *out)
{
	if (topo->from >= 0)
		fprintf(out, "latency and bandwidth as seen from node %d:\n",
			topo->from);
	print_attribute_table(topo, out);
	print_record_note(topo, out);
	fputs("\nnode distances and fallback order:\n", out);
	print_distance_table(topo, out);
}

/* ---- JSON ---- */

/* Writer state: where the next member goes. */
struct json {
	FILE *out;			/* destination */
	int indent;			/* spaces before the next member */
	bool first;			/* no member yet in this container */
};

static void json_next(struct json *json)
{
	fprintf(json->out, "%s\n%*s", json->first ? "" : ",", json->indent,
		"");
	json->first = false;
}

static void json_key(struct json *json, const char *key)
{
	json_next(json);
	fprintf(json->out, "\"%s\": ", key);
}

static void json_open(struct json *json, char bracket)
{
	fputc(bracket, json->out);
	json->indent += 2;
	json->first = true;
}

static void json_close(struct json *json, char bracket)
{
	json->indent -= 2;
	fprintf(json->out, "\n%*s%c", json->indent, "", bracket);
	json->first = false;
}

static void json_string(struct json *json, const char *key, const char *str)
{
	json_key(json, key);
	fputc('"', json->out);
	for (; *str; str++) {
		if (*str == '"' || *str == '\\')
			fprintf(json->out, "\\%c", *str);
		else if ((unsigned char)*str < 0x20)
			fprintf(json->out, "\\u%04x", *str);
		else
			fputc(*str, json->out);
	}
	fputc('"', json->out);
}

static void json_bool(struct json *json, const char *key, bool val)
{
	json_key(json, key);
	fputs(val ? "true" : "false", json->out);
}

/* flag: 1 true, 0 false, < 0 null */
static void json_flag(struct json *json, const char *key, int flag)
{
	json_key(json, key);
	fputs(flag < 0 ? "null" : flag ? "true" : "false", json->out);
}

static void json_number(struct json *json, const char *key, long long val,
			bool known)
{
	json_key(json, key);
	if (known)
		fprintf(json->out, "%lld", val);
	else
		fputs("null", json->out);
}

/* 0 means unknown and becomes null. */
static void json_measure(struct json *json, const char *key, uint64_t val)
{
	json_key(json, key);
	if (val)
		fprintf(json->out, "%llu", (unsigned long long)val);
	else
		fputs("null", json->out);
}

/* A flat array of integers on one line; nr < 0 is null. */
static void json_int_array(struct json *json, const char *key,
			   const int *vals, int nr)
{
	int i;

	json_key(json, key);
	if (nr < 0) {
		fputs("null", json->out);
		return;
	}
	fputc('[', json->out);
	for (i = 0; i < nr; i++)
		fprintf(json->out, "%s%d", i ? ", " : "", vals[i]);
	fputc(']', json->out);
}

static void json_perf_members(struct json *json,
			      const struct memattr_perf *perf)
{
	const struct memattr_perf none = { 0 };

	if (!perf)
		perf = &none;
	json_measure(json, "read_latency_ns", perf->read_latency);
	json_measure(json, "write_latency_ns", perf->write_latency);
	json_measure(json, "read_bandwidth_mb_s", perf->read_bandwidth);
	json_measure(json, "write_bandwidth_mb_s", perf->write_bandwidth);
}

static const char *perf_source_name(enum memattr_perf_source source)
{
	switch (source) {
	case MEMATTR_PERF_RECORD:
		return "memattr";
	case MEMATTR_PERF_ACCESS1:
		return "access1";
	default:
		return NULL;
	}
}

static void json_access1(struct json *json, const struct memattr_node *node)
{
	json_key(json, "access1");
	if (!node->has_access1) {
		fputs("null", json->out);
		return;
	}
	json_open(json, '{');
	json_perf_members(json, &node->access1);
	json_close(json, '}');
}

static void json_node(struct json *json, const struct memattr_node *node)
{
	const char *source = perf_source_name(node_perf_source(node));

	json_next(json);
	json_open(json, '{');
	json_number(json, "id", node->id, true);
	json_string(json, "cpus", node->cpus);
	json_bool(json, "has_memory", node->has_memory);
	json_number(json, "mem_total_kb", node->mem_total_kb,
		    node->mem_total_kb >= 0);
	json_number(json, "mem_free_kb", node->mem_free_kb,
		    node->mem_free_kb >= 0);
	json_bool(json, "memattr", node->has_record);
	if (source) {
		json_string(json, "perf_source", source);
	} else {
		json_key(json, "perf_source");
		fputs("null", json->out);
	}
	json_perf_members(json, node_perf(node));
	json_measure(json, "power_mw_per_gib", node->power);
	json_flag(json, "persistent", node->persistent);
	json_flag(json, "special", node->special);
	json_access1(json, node);
	json_number(json, "memory_tier", node->memory_tier,
		    node->memory_tier >= 0);
	json_int_array(json, "distance", node->distance, node->nr_distance);
	json_int_array(json, "fallback", node->fallback, node->nr_fallback);
	json_close(json, '}');
}

static void json_special_nodes(struct json *json,
			       const struct memattr_topology *topo)
{
	int node, nr = 0;
	int *ids;

	if (!topo->has_special_list) {
		json_int_array(json, "special_nodes", NULL, -1);
		return;
	}
	ids = calloc(MEMATTR_MAX_NODES, sizeof(*ids));
	for (node = 0; ids && node < MEMATTR_MAX_NODES; node++)
		if (nodemask_test(&topo->special, node))
			ids[nr++] = node;
	json_int_array(json, "special_nodes", ids, ids ? nr : -1);
	free(ids);
}

/**
 * show_json() - print every online node as a JSON document
 * @topo: the nodes
 * @out: where to print
 */
void show_json(const struct memattr_topology *topo, FILE *out)
{
	struct json json = { .out = out };
	int i;

	json_open(&json, '{');
	json_number(&json, "version", MEMATTR_JSON_VERSION, true);
	json_bool(&json, "memattr", topo->has_records);
	json_number(&json, "from", topo->from, topo->from >= 0);
	json_special_nodes(&json, topo);
	json_key(&json, "nodes");
	json_open(&json, '[');
	for (i = 0; i < topo->nr_nodes; i++)
		json_node(&json, &topo->nodes[i]);
	json_close(&json, ']');
	json_close(&json, '}');
	fputc('\n', out);
}
