// SPDX-License-Identifier: GPL-2.0
/*
 * Run the real memattr tool (tools/memattr) in the guest and check what it
 * shows, selects and sets against the booted topology: `show --json` values,
 * `select` order, where the pages of an `exec`uted program land (by
 * move_pages(2)), unprivileged use, usage errors, and how long `show` takes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <numaif.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "json.h"
#include "topology.h"

#define NODE_DIR	"/sys/devices/system/node"
#define TOOL_PATH	"/memattr/bin/memattr"	/* $MEMATTR_BIN overrides */
#define TOUCH_ARG	"--touch"	/* child mode: report where pages land */
#define MARK_ARG	"--mark"	/* child mode: create a file, prove it ran */
#define EXIT_ARG	"--exit"	/* child mode: exit at once (timing baseline) */
#define TOUCH_BYTES	(8UL << 20)
#define NOBODY		65534
#define SHOW_RUNS	15
#define MAX_ARGS	32

#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY	5
#endif
/* get_mempolicy() ORs MPOL_F_STATIC_NODES and friends into the mode. */
#define MPOL_MODE_MASK		0xff

/* How to start a command; NULL means as is. */
struct run_opts {
	uid_t uid;			/* drop to this uid/gid first if non-zero */
	int cpu;			/* pin to this CPU first if >= 0 */
};

/* What a finished command left behind. */
struct run_result {
	int status;			/* exit status, 128 + signal, -1: no start */
	char *out;			/* stdout, NUL-terminated */
	char *err;			/* stderr, NUL-terminated */
};

/* A NULL-terminated argument vector with room for number strings. */
struct args {
	char *v[MAX_ARGS + 1];		/* the vector */
	int n;				/* entries in @v */
	char nums[8][24];		/* storage for numeric arguments */
	int nr_nums;			/* entries used in @nums */
};

/* Ranking keys of `select`, as the tool documents them. */
enum rank_key {
	KEY_LATENCY,			/* --lowest-latency */
	KEY_BANDWIDTH,			/* --highest-bandwidth */
	KEY_DISTANCE,			/* --local */
};

/* One selection, turned both into tool options and an expected answer. */
struct criteria {
	enum rank_key keys[3];		/* ranking keys, first decides */
	int nr_keys;			/* entries in @keys */
	unsigned long long max_latency;	/* --max-latency, 0: none */
	int count;			/* --count, 0: none */
	bool persistent;		/* --persistent */
	bool special;			/* --special */
	int local;			/* node of the pinned CPU for --local */
	bool cpunodebind;		/* --cpunodebind @cpunode */
	int cpunode;			/* the node whose view ranks */
};

/* What the --touch child reported. */
struct touch_report {
	int mode;			/* its memory policy mode */
	bool in_policy[TOPO_MAX_NODES];	/* its policy nodemask */
	long bad;			/* pages move_pages() could not place */
	long pages[TOPO_MAX_NODES];	/* pages found on each node */
	long total;			/* pages found on any node */
};

FIXTURE(tool) {
	struct topo topo;		/* the booted topology */
	bool records;			/* the kernel has memattr records */
	const char *bin;		/* the memattr tool */
	char self[PATH_MAX];		/* this binary, run in child modes */
	int viewer;			/* the node whose CPUs the tool ranks for */
};

FIXTURE_SETUP(tool)
{
	ssize_t len;
	int nid;

	if (topo_load(&self->topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s",
		     strerror(errno));
	self->bin = getenv("MEMATTR_BIN") ?: TOOL_PATH;
	if (access(self->bin, X_OK))
		SKIP(return, "no memattr tool at %s: %s", self->bin, strerror(errno));
	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		char path[128];

		snprintf(path, sizeof(path), NODE_DIR "/node%d/memattr", nid);
		self->records |= !access(path, F_OK);
	}
	/* Expectations follow the kernel's identity, not what it shows. */
	ASSERT_TRUE(self->records || !self->topo.memattr_kernel)
		TH_LOG("a memattr kernel without nodeN/memattr");
	len = readlink("/proc/self/exe", self->self, sizeof(self->self) - 1);
	ASSERT_LT(0, len);
	self->self[len] = '\0';
	/* select runs pinned to a CPU of the first node with CPUs */
	for (self->viewer = 0; self->viewer < self->topo.nr_nodes &&
	     !self->topo.node[self->viewer].cpus[0]; self->viewer++)
		;
}

FIXTURE_TEARDOWN(tool)
{
}

/* ---- running commands ---- */

static void args_add(struct args *a, const char *arg)
{
	if (a->n < MAX_ARGS)
		a->v[a->n++] = (char *)arg;
	a->v[a->n] = NULL;
}

static void args_add_num(struct args *a, const char *opt, unsigned long long val)
{
	char *num = a->nums[a->nr_nums++ % 8];

	snprintf(num, sizeof(a->nums[0]), "%llu", val);
	args_add(a, opt);
	args_add(a, num);
}

/* The arguments after the program name, for messages. */
static void args_join(char *buf, size_t len, const struct args *a)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; i < a->n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i > 1 ? " " : "", a->v[i]);
}

static void child_exec(const struct run_opts *o, char *const argv[], int out, int err)
{
	cpu_set_t cpus;

	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	if (o && o->cpu >= 0) {
		CPU_ZERO(&cpus);
		CPU_SET(o->cpu, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			_exit(125);
	}
	if (o && o->uid &&
	    (setgroups(0, NULL) || setgid(o->uid) || setuid(o->uid)))
		_exit(125);
	execv(argv[0], argv);
	_exit(127);
}

/* Append what is readable on @fd to *@buf; false at end of file. */
static bool drain(int fd, char **buf, size_t *len)
{
	char chunk[4096], *grown;
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n <= 0)
		return n < 0 && errno == EINTR;
	grown = realloc(*buf, *len + n + 1);
	if (!grown)
		return false;
	memcpy(grown + *len, chunk, n);
	*len += n;
	grown[*len] = '\0';
	*buf = grown;
	return true;
}

/* Run @argv to completion, capturing stdout and stderr. */
static void run_argv(struct run_result *r, const struct run_opts *o, char *const argv[])
{
	struct pollfd fds[2];
	size_t len[2] = { 0, 0 };
	char **bufs[2] = { &r->out, &r->err };
	int out[2], err[2], status, i;
	pid_t pid;

	r->status = -1;
	r->out = strdup("");
	r->err = strdup("");
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child_exec(o, argv, out[1], err[1]);
	close(out[1]);
	close(err[1]);
	fds[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	while (pid > 0 && (fds[0].fd >= 0 || fds[1].fd >= 0)) {
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			if (!drain(fds[i].fd, bufs[i], &len[i])) {
				close(fds[i].fd);
				fds[i].fd = -1;
			}
		}
	}
	for (i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
}

/* Run the tool with the NULL-terminated arguments after @o. */
static void tool(FIXTURE_DATA(tool) *self, struct run_result *r,
		 const struct run_opts *o, ...)
{
	struct args a = { 0 };
	const char *arg;
	va_list ap;

	args_add(&a, self->bin);
	va_start(ap, o);
	while ((arg = va_arg(ap, const char *)))
		args_add(&a, arg);
	va_end(ap);
	run_argv(r, o, a.v);
}

/* ---- what the topology says the tool must report ---- */

/* Perf value @i (enum topo_perf) of @nid the tool must use, 0 if unknown. */
static unsigned long long want_perf(FIXTURE_DATA(tool) *self, int nid, int i)
{
	const struct topo_node *n = &self->topo.node[nid];

	/* A memattr= value overrides the firmware's in the record. */
	if (self->records && n->memattr[TOPO_MA_READ_LATENCY + i] > 0)
		return n->memattr[TOPO_MA_READ_LATENCY + i];
	if (self->topo.hmat && n->has_access)
		return n->access[i];
	return 0;
}

/*
 * Perf value @i of @nid as the CPUs of self->viewer see it, which select
 * ranks by: the topology's view of @nid from there, else want_perf().
 */
static unsigned long long want_perf_seen(FIXTURE_DATA(tool) *self, int nid, int i)
{
	long long v = -1;

	if (self->records)
		v = topo_view_value(&self->topo, self->viewer, nid, i, NULL);
	return v > 0 ? v : want_perf(self, nid, i);
}

static bool want_flag(FIXTURE_DATA(tool) *self, int nid, enum topo_memattr f)
{
	return self->records && self->topo.node[nid].memattr[f] > 0;
}

static bool topo_has_memattr(const struct topo *t, enum topo_memattr f, bool set)
{
	int nid;

	for (nid = 0; nid < t->nr_nodes; nid++)
		if (t->node[nid].memattr[f] >= 0 &&
		    (!set || t->node[nid].memattr[f] > 0))
			return true;
	return false;
}

/* Sort key of @nid under @key: smaller first; false if unknown. */
static bool rank_value(FIXTURE_DATA(tool) *self, const struct criteria *c,
		       enum rank_key key, int nid, long long *val)
{
	switch (key) {
	case KEY_LATENCY:
		*val = want_perf_seen(self, nid, TOPO_READ_LATENCY);
		return *val;
	case KEY_BANDWIDTH:
		*val = -(long long)want_perf_seen(self, nid, TOPO_READ_BANDWIDTH);
		return *val;
	case KEY_DISTANCE:
		*val = self->topo.node[c->local].distance[nid];
		return true;
	}
	return false;
}

/* < 0 if @a ranks before @b: known before unknown, then by id. */
static int compare_nodes(FIXTURE_DATA(tool) *self, const struct criteria *c,
			 int a, int b)
{
	long long va = 0, vb = 0;
	bool ka, kb;
	int i;

	for (i = 0; i < c->nr_keys; i++) {
		ka = rank_value(self, c, c->keys[i], a, &va);
		kb = rank_value(self, c, c->keys[i], b, &vb);
		if (ka != kb)
			return ka ? -1 : 1;
		if (ka && va != vb)
			return va < vb ? -1 : 1;
	}
	return a - b;
}

static bool node_matches(FIXTURE_DATA(tool) *self, const struct criteria *c, int nid)
{
	unsigned long long lat = want_perf_seen(self, nid, TOPO_READ_LATENCY);

	if (c->persistent && !want_flag(self, nid, TOPO_MA_PERSISTENT))
		return false;
	if (c->special && !want_flag(self, nid, TOPO_MA_SPECIAL))
		return false;
	return !c->max_latency || (lat && lat <= c->max_latency);
}

/* The nodes @c selects, best first, into @order; returns how many. */
static int want_select(FIXTURE_DATA(tool) *self, const struct criteria *c, int *order)
{
	int nid, i, nr = 0, tmp;

	for (nid = 0; nid < self->topo.nr_nodes; nid++)
		if (node_matches(self, c, nid))
			order[nr++] = nid;
	for (i = 1; i < nr; i++)
		for (nid = i; nid > 0 &&
		     compare_nodes(self, c, order[nid - 1], order[nid]) > 0; nid--) {
			tmp = order[nid];
			order[nid] = order[nid - 1];
			order[nid - 1] = tmp;
		}
	if (c->count && nr > c->count)
		nr = c->count;
	return nr;
}

static void format_list(char *buf, size_t len, const int *ids, int nr)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nr && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%d", i ? "," : "", ids[i]);
}

static void criteria_args(const struct criteria *c, struct args *a)
{
	static const char *const key_opt[] = {
		[KEY_LATENCY] = "--lowest-latency",
		[KEY_BANDWIDTH] = "--highest-bandwidth",
		[KEY_DISTANCE] = "--local",
	};
	int i;

	for (i = 0; i < c->nr_keys; i++)
		args_add(a, key_opt[c->keys[i]]);
	if (c->persistent)
		args_add(a, "--persistent");
	if (c->special)
		args_add(a, "--special");
	if (c->max_latency)
		args_add_num(a, "--max-latency", c->max_latency);
	if (c->count)
		args_add_num(a, "--count", c->count);
	if (c->cpunodebind)
		args_add_num(a, "--cpunodebind", c->cpunode);
}

/* The first CPU of @nid's cpulist, -1 for a memory-only node. */
static int first_cpu(FIXTURE_DATA(tool) *self, int nid)
{
	const char *cpus = self->topo.node[nid].cpus;

	return *cpus ? atoi(cpus) : -1;
}

/* The node whose cpulist holds @cpu. */
static int node_of_cpu(FIXTURE_DATA(tool) *self, int cpu)
{
	int nid;

	for (nid = 0; nid < self->topo.nr_nodes; nid++)
		if (topo_cpulist_mask(self->topo.node[nid].cpus) >> cpu & 1)
			return nid;
	return self->viewer;
}

/* A CPU on a node outside @sel, so a policy must move pages away; or -1. */
static int cpu_outside(FIXTURE_DATA(tool) *self, const int *sel, int nr)
{
	int nid, i;

	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		for (i = 0; i < nr && sel[i] != nid; i++)
			;
		if (i == nr && first_cpu(self, nid) >= 0)
			return first_cpu(self, nid);
	}
	return -1;
}

/* ---- show --json ---- */

/* Run `show --json` (as @o says) and parse it; NULL after a failed check. */
static struct json_value *show_json(struct __test_metadata *_metadata,
				    FIXTURE_DATA(tool) *self, const struct run_opts *o)
{
	struct json_value *doc;
	struct run_result r;
	char err[128];

	tool(self, &r, o, "show", "--json", NULL);
	EXPECT_EQ(0, r.status) TH_LOG("show --json: %s", r.err);
	doc = json_parse(r.out, err, sizeof(err));
	EXPECT_NE(NULL, doc) TH_LOG("show --json is not JSON: %s", err);
	run_free(&r);
	if (doc && !json_is(json_get(doc, "nodes"), JSON_ARRAY)) {
		EXPECT_TRUE(false) TH_LOG("show --json has no \"nodes\" array");
		json_free(doc);
		return NULL;
	}
	return doc;
}

/* The node object for @nid; fails the test if the tool left it out. */
static const struct json_value *json_node(struct __test_metadata *_metadata,
					  const struct json_value *doc, int nid)
{
	const struct json_value *node = json_at(json_get(doc, "nodes"), nid);
	const struct json_value *id = json_get(node, "id");

	EXPECT_TRUE(json_is(id, JSON_NUMBER) && id->number == nid)
		TH_LOG("nodes[%d] is not node %d", nid, nid);
	return node;
}

/* Expect member @key of @obj to be @want, or null when @want is 0. */
static void expect_measure(struct __test_metadata *_metadata, const struct json_value *obj,
			   const char *key, unsigned long long want, int nid)
{
	const struct json_value *val = json_get(obj, key);

	if (!want) {
		EXPECT_TRUE(json_is(val, JSON_NULL)) TH_LOG("node %d %s: want null", nid, key);
		return;
	}
	ASSERT_TRUE(json_is(val, JSON_NUMBER)) TH_LOG("node %d %s: not a number", nid, key);
	EXPECT_EQ(want, val->number) TH_LOG("node %d %s", nid, key);
}

static const char *const json_perf_keys[TOPO_NR_PERF] = {
	"read_latency_ns", "write_latency_ns", "read_bandwidth_mb_s", "write_bandwidth_mb_s",
};

TEST_F(tool, show_json_nodes)
{
	const struct json_value *node, *val, *row;
	struct json_value *doc;
	char path[128];
	long long kb;
	int nid, i;

	doc = show_json(_metadata, self, NULL);
	ASSERT_NE(NULL, doc);
	val = json_get(doc, "version");
	ASSERT_TRUE(json_is(val, JSON_NUMBER));
	EXPECT_EQ(1, val->number);
	val = json_get(doc, "memattr");
	ASSERT_TRUE(json_is(val, JSON_BOOL));
	EXPECT_EQ(self->records, val->boolean);
	ASSERT_EQ(__builtin_popcountll(topo_online_nodes(&self->topo)),
		  json_len(json_get(doc, "nodes")));
	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		const struct topo_node *t = &self->topo.node[nid];

		node = json_node(_metadata, doc, nid);
		snprintf(path, sizeof(path), NODE_DIR "/node%d/memattr", nid);
		val = json_get(node, "memattr");
		ASSERT_TRUE(json_is(val, JSON_BOOL)) TH_LOG("node %d memattr", nid);
		EXPECT_EQ(!access(path, F_OK), val->boolean) TH_LOG("node %d memattr", nid);
		val = json_get(node, "cpus");
		ASSERT_TRUE(json_is(val, JSON_STRING)) TH_LOG("node %d cpus", nid);
		EXPECT_EQ(topo_cpulist_mask(t->cpus), topo_cpulist_mask(val->string))
			TH_LOG("node %d: tool '%s', topology '%s'", nid, val->string, t->cpus);
		val = json_get(node, "has_memory");
		EXPECT_TRUE(json_is(val, JSON_BOOL) && val->boolean) TH_LOG("node %d", nid);
		val = json_get(node, "mem_total_kb");
		ASSERT_TRUE(json_is(val, JSON_NUMBER)) TH_LOG("node %d mem_total_kb", nid);
		kb = val->number;
		EXPECT_GE(t->mem_bytes / 1024, kb) TH_LOG("node %d", nid);
		EXPECT_LE(topo_min_mem_kb(&self->topo, nid), kb) TH_LOG("node %d", nid);
		row = json_get(node, "distance");
		/* one column per online node (a dimm's node has no memory yet) */
		ASSERT_EQ(__builtin_popcountll(topo_online_nodes(&self->topo)), json_len(row))
			TH_LOG("node %d distance", nid);
		for (i = 0; i < json_len(row); i++) {
			val = json_at(row, i);
			ASSERT_TRUE(json_is(val, JSON_NUMBER));
			EXPECT_EQ(t->distance[i], val->number)
				TH_LOG("distance %d -> %d", nid, i);
		}
	}
	json_free(doc);
}

TEST_F(tool, show_json_perf)
{
	const struct json_value *node, *val, *access1;
	const char *want_source;
	struct json_value *doc;
	int nid, i;

	doc = show_json(_metadata, self, NULL);
	ASSERT_NE(NULL, doc);
	ASSERT_EQ(__builtin_popcountll(topo_online_nodes(&self->topo)),
		  json_len(json_get(doc, "nodes")));
	want_source = self->records ? "memattr" : self->topo.hmat ? "access1" : NULL;
	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		const struct topo_node *t = &self->topo.node[nid];

		node = json_node(_metadata, doc, nid);
		for (i = 0; i < TOPO_NR_PERF; i++)
			expect_measure(_metadata, node, json_perf_keys[i],
				       want_perf(self, nid, i), nid);
		val = json_get(node, "perf_source");
		if (want_source) {
			ASSERT_TRUE(json_is(val, JSON_STRING)) TH_LOG("node %d", nid);
			EXPECT_STREQ(want_source, val->string) TH_LOG("node %d", nid);
		} else {
			EXPECT_TRUE(json_is(val, JSON_NULL)) TH_LOG("node %d", nid);
		}
		access1 = json_get(node, "access1");
		if (!self->topo.hmat) {
			EXPECT_TRUE(json_is(access1, JSON_NULL)) TH_LOG("node %d access1", nid);
			continue;
		}
		ASSERT_TRUE(json_is(access1, JSON_OBJECT)) TH_LOG("node %d access1", nid);
		for (i = 0; i < TOPO_NR_PERF; i++)
			expect_measure(_metadata, access1, json_perf_keys[i], t->access[i], nid);
	}
	json_free(doc);
}

/* Expect a record flag: true where the topology sets it, never true elsewhere. */
static void expect_flag(struct __test_metadata *_metadata, FIXTURE_DATA(tool) *self,
			const struct json_value *node, int nid, enum topo_memattr f)
{
	const char *name = topo_memattr_names[f];
	const struct json_value *val = json_get(node, name);
	long long want = self->topo.node[nid].memattr[f];

	if (want >= 0) {
		ASSERT_TRUE(json_is(val, JSON_BOOL)) TH_LOG("node %d %s", nid, name);
		EXPECT_EQ(want > 0, val->boolean) TH_LOG("node %d %s", nid, name);
		return;
	}
	EXPECT_FALSE(json_is(val, JSON_BOOL) && val->boolean)
		TH_LOG("node %d %s is true, the topology does not set it", nid, name);
}

TEST_F(tool, show_json_record)
{
	const struct json_value *node, *val;
	struct json_value *doc;
	int nid, f;

	TOPO_NEED(&self->topo, self->records, "memattr records");
	/* Without memattr= entries: nothing persistent or special, no power. */
	doc = show_json(_metadata, self, NULL);
	ASSERT_NE(NULL, doc);
	ASSERT_EQ(__builtin_popcountll(topo_online_nodes(&self->topo)),
		  json_len(json_get(doc, "nodes")));
	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		const struct topo_node *t = &self->topo.node[nid];

		node = json_node(_metadata, doc, nid);
		val = json_get(node, "memattr");
		EXPECT_TRUE(json_is(val, JSON_BOOL) && val->boolean) TH_LOG("node %d", nid);
		for (f = TOPO_MA_READ_LATENCY; f <= TOPO_MA_WRITE_BANDWIDTH; f++)
			if (t->memattr[f] > 0)
				expect_measure(_metadata, node, json_perf_keys[f],
					       t->memattr[f], nid);
		expect_measure(_metadata, node, "power_mw_per_gib",
			       t->memattr[TOPO_MA_POWER] > 0 ? t->memattr[TOPO_MA_POWER] : 0,
			       nid);
		expect_flag(_metadata, self, node, nid, TOPO_MA_PERSISTENT);
		expect_flag(_metadata, self, node, nid, TOPO_MA_SPECIAL);
	}
	json_free(doc);
}

TEST_F(tool, show_json_special_nodes)
{
	int want[TOPO_MAX_NODES], nr = 0, nid, i;
	const struct json_value *list, *val;
	struct json_value *doc;

	TOPO_NEED(&self->topo, !access(NODE_DIR "/special", F_OK), NODE_DIR "/special");
	doc = show_json(_metadata, self, NULL);
	ASSERT_NE(NULL, doc);
	/* node/special also lists nodes marked before their memory arrives */
	for (nid = 0; nid < TOPO_MAX_NODES; nid++)
		if (self->topo.node[nid].memattr[TOPO_MA_SPECIAL] > 0)
			want[nr++] = nid;
	list = json_get(doc, "special_nodes");
	ASSERT_EQ(nr, json_len(list));
	for (i = 0; i < nr; i++) {
		val = json_at(list, i);
		ASSERT_TRUE(json_is(val, JSON_NUMBER));
		EXPECT_EQ(want[i], val->number);
	}
	json_free(doc);
}

TEST_F(tool, show_json_fallback)
{
	const struct json_value *row, *val;
	bool seen[TOPO_MAX_NODES];
	struct json_value *doc;
	int nid, i;

	TOPO_NEED(&self->topo, !access(NODE_DIR "/node0/memattr/fallback", F_OK),
		  "nodeN/memattr/fallback");
	doc = show_json(_metadata, self, NULL);
	ASSERT_NE(NULL, doc);
	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		row = json_get(json_node(_metadata, doc, nid), "fallback");
		ASSERT_LT(0, json_len(row)) TH_LOG("node %d fallback", nid);
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < json_len(row); i++) {
			val = json_at(row, i);
			ASSERT_TRUE(json_is(val, JSON_NUMBER));
			ASSERT_TRUE(val->number >= 0 && val->number < self->topo.nr_nodes);
			EXPECT_FALSE(seen[val->number]) TH_LOG("node %d lists %lld twice",
							       nid, val->number);
			seen[val->number] = true;
		}
		EXPECT_EQ(nid, json_at(row, 0)->number) TH_LOG("node %d starts elsewhere", nid);
	}
	json_free(doc);
}

/* `show --from N --json`: every node's performance as node N's CPUs see it. */
TEST_F(tool, show_from_each_cpu_node)
{
	static const char *const keys[TOPO_NR_PERF] = {
		"read_latency_ns", "write_latency_ns", "read_bandwidth_mb_s", "write_bandwidth_mb_s",
	};
	const struct json_value *from;
	struct json_value *doc;
	struct run_result r;
	int viewer = self->viewer, nid, i, checked = 0;
	char id[16], err[128];

	for (self->viewer = 0; self->viewer < self->topo.nr_nodes; self->viewer++) {
		if (first_cpu(self, self->viewer) < 0)
			continue;
		snprintf(id, sizeof(id), "%d", self->viewer);
		tool(self, &r, NULL, "show", "--from", id, "--json", NULL);
		ASSERT_EQ(0, r.status) TH_LOG("show --from %s: %s", id, r.err);
		doc = json_parse(r.out, err, sizeof(err));
		run_free(&r);
		ASSERT_NE(NULL, doc) TH_LOG("show --from %s is not JSON: %s", id, err);
		from = json_get(doc, "from");
		EXPECT_TRUE(json_is(from, JSON_NUMBER) && from->number == self->viewer);
		for (nid = 0; nid < self->topo.nr_nodes; nid++)
			for (i = 0; i < TOPO_NR_PERF; i++)
				expect_measure(_metadata, json_node(_metadata, doc, nid), keys[i],
					       want_perf_seen(self, nid, i), nid);
		json_free(doc);
		checked++;
	}
	self->viewer = viewer;
	ASSERT_LT(0, checked);
}

/* ---- select ---- */

/*
 * Run `select` for @c (pinned as @o says, else to a CPU of self->viewer)
 * and compare with the topology, as seen from the node it ranks for.
 */
static void check_select(struct __test_metadata *_metadata, FIXTURE_DATA(tool) *self,
			 const struct criteria *c, const struct run_opts *o)
{
	char want[512], got[512], cmd[512];
	int order[TOPO_MAX_NODES], nr, viewer = self->viewer;
	struct run_opts pinned = { 0 };
	struct args a = { 0 };
	struct run_result r;

	if (o && o->cpu >= 0)
		self->viewer = c->local;
	if (!o || o->cpu < 0) {
		/* it ranks for the node it runs on: pin it to self->viewer's */
		if (o)
			pinned = *o;
		pinned.cpu = first_cpu(self, self->viewer);
		o = &pinned;
	}
	if (c->cpunodebind)
		self->viewer = c->cpunode;
	args_add(&a, self->bin);
	args_add(&a, "select");
	criteria_args(c, &a);
	nr = want_select(self, c, order);
	self->viewer = viewer;
	format_list(want, sizeof(want), order, nr);
	args_join(cmd, sizeof(cmd), &a);
	run_argv(&r, o, a.v);
	snprintf(got, sizeof(got), "%s", r.out);
	got[strcspn(got, "\n")] = '\0';
	if (nr) {
		EXPECT_EQ(0, r.status) TH_LOG("%s: %s", cmd, r.err);
		EXPECT_STREQ(want, got) TH_LOG("%s", cmd);
	} else {
		EXPECT_EQ(1, r.status) TH_LOG("%s: nothing matches; stdout '%s'", cmd, r.out);
		EXPECT_STREQ("", r.out) TH_LOG("%s", cmd);
		EXPECT_STRNE("", r.err) TH_LOG("%s: no message", cmd);
	}
	run_free(&r);
}

TEST_F(tool, select_lowest_latency)
{
	struct criteria c = { .keys = { KEY_LATENCY }, .nr_keys = 1 };

	check_select(_metadata, self, &c, NULL);
}

TEST_F(tool, select_highest_bandwidth)
{
	struct criteria c = { .keys = { KEY_BANDWIDTH }, .nr_keys = 1 };

	check_select(_metadata, self, &c, NULL);
}

/* The first key decides, the next breaks its ties, then the node id. */
TEST_F(tool, select_key_order)
{
	struct criteria bw_lat = { .keys = { KEY_BANDWIDTH, KEY_LATENCY }, .nr_keys = 2 };
	struct criteria lat_bw = { .keys = { KEY_LATENCY, KEY_BANDWIDTH }, .nr_keys = 2 };
	struct criteria none = { 0 };

	check_select(_metadata, self, &bw_lat, NULL);
	check_select(_metadata, self, &lat_bw, NULL);
	check_select(_metadata, self, &none, NULL);
}

TEST_F(tool, select_count)
{
	struct criteria c = { .keys = { KEY_LATENCY }, .nr_keys = 1 };
	int n = self->topo.nr_nodes;

	c.count = 1;
	check_select(_metadata, self, &c, NULL);
	c.count = (n + 1) / 2;
	check_select(_metadata, self, &c, NULL);
	c.count = n + 3;
	check_select(_metadata, self, &c, NULL);
	c.keys[0] = KEY_BANDWIDTH;
	c.count = n - 1;
	check_select(_metadata, self, &c, NULL);
}

/* Known read latencies, sorted; returns how many. */
static int known_latencies(FIXTURE_DATA(tool) *self, unsigned long long *lat)
{
	unsigned long long tmp;
	int nid, i, nr = 0;

	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		tmp = want_perf_seen(self, nid, TOPO_READ_LATENCY);
		if (!tmp)
			continue;
		for (i = nr++; i > 0 && lat[i - 1] > tmp; i--)
			lat[i] = lat[i - 1];
		lat[i] = tmp;
	}
	return nr;
}

TEST_F(tool, select_max_latency)
{
	struct criteria c = { .keys = { KEY_LATENCY }, .nr_keys = 1 };
	unsigned long long lat[TOPO_MAX_NODES];
	int nr = known_latencies(self, lat);

	if (!nr)
		SKIP(return, "topology %s gives no node a latency", self->topo.name);
	/* The lower median is a real value: "at most" must include it. */
	c.max_latency = lat[(nr - 1) / 2];
	check_select(_metadata, self, &c, NULL);
	c.nr_keys = 0;
	check_select(_metadata, self, &c, NULL);
	c.max_latency = lat[nr - 1];
	c.keys[0] = KEY_BANDWIDTH;
	c.nr_keys = 1;
	check_select(_metadata, self, &c, NULL);
}

/*
 * A --max-latency bound no node meets from any CPU (unknown latency never
 * meets one): below the lowest latency any node with CPUs sees.
 */
static unsigned long long unmet_latency(FIXTURE_DATA(tool) *self)
{
	unsigned long long lat[TOPO_MAX_NODES], min = 0;
	int viewer = self->viewer;

	for (self->viewer = 0; self->viewer < self->topo.nr_nodes; self->viewer++)
		if (first_cpu(self, self->viewer) >= 0 && known_latencies(self, lat) &&
		    (!min || lat[0] < min))
			min = lat[0];
	self->viewer = viewer;
	return min ? min - 1 : 1;
}

TEST_F(tool, select_no_match)
{
	struct criteria c = { .keys = { KEY_LATENCY }, .nr_keys = 1 };
	int order[TOPO_MAX_NODES];

	c.max_latency = unmet_latency(self);
	if (!c.max_latency)
		SKIP(return, "a node has a latency of 1 ns");
	ASSERT_EQ(0, want_select(self, &c, order));
	check_select(_metadata, self, &c, NULL);
}

TEST_F(tool, select_local)
{
	struct criteria c = { .keys = { KEY_DISTANCE }, .nr_keys = 1 };
	struct run_opts o = { 0 };
	int nid, checked = 0;

	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		o.cpu = first_cpu(self, nid);
		if (o.cpu < 0)
			continue;
		c.local = nid;
		TH_LOG("pinned to CPU %d (node %d)", o.cpu, nid);
		check_select(_metadata, self, &c, &o);
		checked++;
	}
	ASSERT_LT(0, checked);
}

/*
 * --cpunodebind ranks for that node's CPUs, wherever the tool runs: on
 * topologies whose HMAT matrix is not symmetric the order differs by node.
 */
TEST_F(tool, select_cpunodebind)
{
	struct criteria c = { .keys = { KEY_LATENCY, KEY_BANDWIDTH }, .nr_keys = 2,
			      .cpunodebind = true };
	struct run_opts anywhere = { .cpu = -1 };
	int nid, checked = 0;

	for (nid = 0; nid < self->topo.nr_nodes; nid++) {
		if (first_cpu(self, nid) < 0)
			continue;
		c.cpunode = nid;
		check_select(_metadata, self, &c, &anywhere);
		checked++;
	}
	ASSERT_LT(0, checked);
}

TEST_F(tool, select_persistent)
{
	struct criteria c = { .persistent = true, .keys = { KEY_LATENCY }, .nr_keys = 1 };

	TOPO_NEED(&self->topo, self->records, "memattr records");
	check_select(_metadata, self, &c, NULL);
	c.nr_keys = 0;
	check_select(_metadata, self, &c, NULL);
}

TEST_F(tool, select_special)
{
	struct criteria c = { .special = true, .keys = { KEY_BANDWIDTH }, .nr_keys = 1 };

	TOPO_NEED(&self->topo, self->records, "memattr records");
	check_select(_metadata, self, &c, NULL);
	c.nr_keys = 0;
	check_select(_metadata, self, &c, NULL);
}

/* ---- exec ---- */

/* Child mode: touch TOUCH_BYTES, print the policy and the pages' nodes. */
static int touch_main(void)
{
	unsigned long mask[1024 / (8 * sizeof(long))] = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	unsigned long i, nr = TOUCH_BYTES / page;
	long counts[TOPO_MAX_NODES] = { 0 }, bad = 0;
	void **pages = calloc(nr, sizeof(*pages));
	int *status = calloc(nr, sizeof(*status));
	int mode, nid;
	char *buf;

	buf = mmap(NULL, TOUCH_BYTES, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!pages || !status || buf == MAP_FAILED)
		return 1;
	/* Base pages, so interleaving is per page, not per 2 MiB. */
	madvise(buf, TOUCH_BYTES, MADV_NOHUGEPAGE);
	for (i = 0; i < nr; i++) {
		buf[i * page] = 1;
		pages[i] = buf + i * page;
		status[i] = -1;
	}
	if (move_pages(0, nr, pages, NULL, status, 0)) {
		printf("move_pages: %s\n", strerror(errno));
		return 1;
	}
	if (get_mempolicy(&mode, mask, 1024, NULL, 0)) {
		printf("get_mempolicy: %s\n", strerror(errno));
		return 1;
	}
	printf("policy %d", mode & MPOL_MODE_MASK);
	for (nid = 0; nid < 1024; nid++)
		if (mask[nid / (8 * sizeof(long))] & (1UL << (nid % (8 * sizeof(long)))))
			printf(" %d", nid);
	for (i = 0; i < nr; i++) {
		if (status[i] >= 0 && status[i] < TOPO_MAX_NODES)
			counts[status[i]]++;
		else
			bad++;
	}
	printf("\nbad %ld\n", bad);
	for (nid = 0; nid < TOPO_MAX_NODES; nid++)
		if (counts[nid])
			printf("node %d %ld\n", nid, counts[nid]);
	return 0;
}

static int parse_report(struct touch_report *rep, char *out)
{
	char *line, *save, *tok;
	int nid;
	long n;

	memset(rep, 0, sizeof(*rep));
	rep->mode = -1;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "bad %ld", &rep->bad) == 1)
			continue;
		if (sscanf(line, "node %d %ld", &nid, &n) == 2 &&
		    nid >= 0 && nid < TOPO_MAX_NODES) {
			rep->pages[nid] = n;
			rep->total += n;
			continue;
		}
		if (strncmp(line, "policy ", 7))
			return -1;
		tok = strtok(line + 7, " ");
		rep->mode = tok ? atoi(tok) : -1;
		while ((tok = strtok(NULL, " ")))
			if (atoi(tok) >= 0 && atoi(tok) < TOPO_MAX_NODES)
				rep->in_policy[atoi(tok)] = true;
	}
	return rep->mode < 0 ? -1 : 0;
}

/*
 * `memattr exec <c> @mode -- self --touch`, pinned to a CPU outside the
 * selection when the topology has one (so that the policy has to act).
 * Fills @sel with the expected selection; returns its size.
 */
static int run_touch(struct __test_metadata *_metadata, FIXTURE_DATA(tool) *self,
		     const struct criteria *c, const char *mode, uid_t uid,
		     int *sel, struct touch_report *rep)
{
	struct run_opts o = { .uid = uid };
	struct args a = { 0 };
	struct run_result r;
	char list[256];
	int nr, ret;

	nr = want_select(self, c, sel);
	o.cpu = cpu_outside(self, sel, nr);
	if (o.cpu >= 0) {
		/* the tool ranks for the node it runs on */
		int viewer = self->viewer;

		self->viewer = node_of_cpu(self, o.cpu);
		nr = want_select(self, c, sel);
		self->viewer = viewer;
	}
	format_list(list, sizeof(list), sel, nr);
	if (o.cpu < 0 && strcmp(mode, "--interleave"))
		TH_LOG("every CPU is on a selected node: only the policy mask proves %s",
		       mode);
	if (o.cpu < 0)
		o.cpu = first_cpu(self, self->viewer);
	args_add(&a, self->bin);
	args_add(&a, "exec");
	criteria_args(c, &a);
	args_add(&a, mode);
	args_add(&a, "--");
	args_add(&a, self->self);
	args_add(&a, TOUCH_ARG);
	run_argv(&r, &o, a.v);
	TH_LOG("%s over %s from CPU %d", mode, list, o.cpu);
	EXPECT_EQ(0, r.status) TH_LOG("stdout: %s stderr: %s", r.out, r.err);
	ret = parse_report(rep, r.out);
	run_free(&r);
	ASSERT_EQ(0, ret) TH_LOG("unreadable report from the --touch child");
	return nr;
}

/* The policy has exactly the nodes @sel and every page is on one of them. */
static void expect_on(struct __test_metadata *_metadata, FIXTURE_DATA(tool) *self,
		      const struct touch_report *rep, const int *sel, int nr)
{
	bool selected[TOPO_MAX_NODES] = { false };
	int nid, i;

	for (i = 0; i < nr; i++)
		selected[sel[i]] = true;
	EXPECT_EQ(0, rep->bad) TH_LOG("pages move_pages() could not place");
	EXPECT_EQ(TOUCH_BYTES / sysconf(_SC_PAGESIZE), rep->total);
	for (nid = 0; nid < TOPO_MAX_NODES; nid++) {
		EXPECT_EQ(selected[nid], rep->in_policy[nid]) TH_LOG("policy node %d", nid);
		EXPECT_TRUE(selected[nid] || !rep->pages[nid])
			TH_LOG("%ld pages on unselected node %d", rep->pages[nid], nid);
	}
}

TEST_F(tool, exec_bind)
{
	struct criteria c = { .keys = { KEY_LATENCY }, .nr_keys = 1, .count = 1 };
	int sel[TOPO_MAX_NODES], nr;
	struct touch_report rep;

	nr = run_touch(_metadata, self, &c, "--bind", 0, sel, &rep);
	ASSERT_EQ(1, nr);
	EXPECT_EQ(MPOL_BIND, rep.mode);
	expect_on(_metadata, self, &rep, sel, nr);
}

TEST_F(tool, exec_bind_special)
{
	struct criteria c = { .special = true };
	int sel[TOPO_MAX_NODES], nr;
	struct touch_report rep;

	TOPO_NEED(&self->topo, self->records, "memattr records");
	if (!topo_has_memattr(&self->topo, TOPO_MA_SPECIAL, true))
		SKIP(return, "topology %s has no special node", self->topo.name);
	nr = run_touch(_metadata, self, &c, "--bind", 0, sel, &rep);
	ASSERT_LT(0, nr);
	EXPECT_EQ(MPOL_BIND, rep.mode);
	expect_on(_metadata, self, &rep, sel, nr);
}

TEST_F(tool, exec_preferred)
{
	struct criteria c = { .keys = { KEY_BANDWIDTH }, .nr_keys = 1, .count = 1 };
	int sel[TOPO_MAX_NODES], nr;
	struct touch_report rep;

	nr = run_touch(_metadata, self, &c, "--preferred", 0, sel, &rep);
	ASSERT_EQ(1, nr);
	EXPECT_EQ(MPOL_PREFERRED_MANY, rep.mode);
	expect_on(_metadata, self, &rep, sel, nr);
}

TEST_F(tool, exec_interleave)
{
	struct criteria c = { .keys = { KEY_LATENCY }, .nr_keys = 1, .count = 3 };
	int sel[TOPO_MAX_NODES], nr, i;
	struct touch_report rep;

	if (self->topo.nr_nodes < 2)
		SKIP(return, "topology %s has one node", self->topo.name);
	nr = run_touch(_metadata, self, &c, "--interleave", 0, sel, &rep);
	ASSERT_LE(2, nr);
	EXPECT_EQ(MPOL_INTERLEAVE, rep.mode);
	expect_on(_metadata, self, &rep, sel, nr);
	/* Round-robin per page: each node gets about total / nr. */
	for (i = 0; i < nr; i++)
		EXPECT_LE(rep.total / nr / 2, rep.pages[sel[i]])
			TH_LOG("node %d got %ld of %ld pages", sel[i],
			       rep.pages[sel[i]], rep.total);
}

/* ---- unprivileged use ---- */

TEST_F(tool, unprivileged)
{
	struct criteria c = { .keys = { KEY_LATENCY }, .nr_keys = 1 };
	struct run_opts nobody = { .uid = NOBODY, .cpu = -1 };
	int sel[TOPO_MAX_NODES], nr;
	struct touch_report rep;
	struct json_value *doc;

	if (geteuid())
		SKIP(return, "not root: cannot switch to uid %d", NOBODY);
	doc = show_json(_metadata, self, &nobody);
	ASSERT_NE(NULL, doc);
	EXPECT_EQ(__builtin_popcountll(topo_online_nodes(&self->topo)),
		  json_len(json_get(doc, "nodes")));
	json_free(doc);
	check_select(_metadata, self, &c, &nobody);
	c.count = 1;
	nr = run_touch(_metadata, self, &c, "--bind", NOBODY, sel, &rep);
	expect_on(_metadata, self, &rep, sel, nr);
}

/* ---- usage errors ---- */

/* Child mode: create @path, so the parent can tell that a command ran. */
static int mark_main(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	return fd < 0;
}

TEST_F(tool, bad_usage)
{
	char dir[] = "/tmp/memattr_tool.XXXXXX", mark[64], lat[24], cmd[512];
	const char *const cases[][8] = {
		{ "select", "--count", "abc" },
		{ "select", "--count" },
		{ "select", "--count", "0" },
		{ "select", "--count=-1" },
		{ "select", "--max-latency", "12x" },
		{ "select", "--no-such-option" },
		{ "select", "--lowest-latency", "extra" },
		{ "no-such-command" },
		{ "show", "--lowest-latency" },
		{ "exec", "--lowest-latency", "--bind" },
		{ "exec", "--count", "abc", "--bind", "--", self->self, MARK_ARG, mark },
		{ "exec", "--bind", "--interleave", "--", self->self, MARK_ARG, mark },
		{ "exec", "--special", "--no-special", "--", self->self, MARK_ARG, mark },
		{ "exec", "--max-latency", lat, "--bind", "--", self->self, MARK_ARG, mark },
	};
	struct args a;
	struct run_result r;
	size_t i, j;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(mark, sizeof(mark), "%s/ran", dir);
	snprintf(lat, sizeof(lat), "%llu", unmet_latency(self));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&a, 0, sizeof(a));
		args_add(&a, self->bin);
		for (j = 0; j < 8 && cases[i][j]; j++)
			args_add(&a, cases[i][j]);
		args_join(cmd, sizeof(cmd), &a);
		run_argv(&r, NULL, a.v);
		EXPECT_EQ(2, r.status) TH_LOG("%s: %s", cmd, r.err);
		EXPECT_STREQ("", r.out) TH_LOG("%s", cmd);
		EXPECT_NE(NULL, strchr(r.err, '\n')) TH_LOG("%s: no message", cmd);
		EXPECT_NE(0, access(mark, F_OK)) TH_LOG("%s ran the command", cmd);
		unlink(mark);
		run_free(&r);
	}
	/* The mark child works: a passing exec does create the file. */
	memset(&a, 0, sizeof(a));
	args_add(&a, self->bin);
	args_add(&a, "exec");
	args_add(&a, "--");
	args_add(&a, self->self);
	args_add(&a, MARK_ARG);
	args_add(&a, mark);
	run_argv(&r, NULL, a.v);
	EXPECT_EQ(0, r.status) TH_LOG("exec with no criteria: %s", r.err);
	EXPECT_EQ(0, access(mark, F_OK));
	run_free(&r);
	unlink(mark);
	rmdir(dir);
}

/* ---- speed (reported, not asserted) ---- */

static double run_ms(char *const argv[])
{
	struct timespec t0, t1;
	int null, status;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The issue asks for `show` on wide in <= 20 ms; under TCG that depends on
 * the host, so print it, next to the cost of starting a static binary that
 * does nothing, for a person to judge.
 */
TEST_F(tool, measure_show_time)
{
	char *argv[][4] = {
		{ (char *)self->bin, "show", NULL },
		{ (char *)self->bin, "show", "--json", NULL },
		{ self->self, EXIT_ARG, NULL },
	};
	static const char *const what[] = {
		"show", "show --json", "exec of a static no-op (baseline)",
	};
	double ms[SHOW_RUNS];
	int i, k;

	for (k = 0; k < 3; k++) {
		/* One unmeasured run to fault the binary in. */
		ASSERT_LE(0, run_ms(argv[k])) TH_LOG("%s failed", what[k]);
		for (i = 0; i < SHOW_RUNS; i++) {
			ms[i] = run_ms(argv[k]);
			ASSERT_LE(0, ms[i]) TH_LOG("%s failed", what[k]);
		}
		qsort(ms, SHOW_RUNS, sizeof(ms[0]), cmp_double);
		ksft_print_msg("%s took %.2f ms (median of %d on %s; min %.2f, max %.2f)\n",
			       what[k], ms[SHOW_RUNS / 2], SHOW_RUNS, self->topo.name,
			       ms[0], ms[SHOW_RUNS - 1]);
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], TOUCH_ARG))
		return touch_main();
	if (argc == 3 && !strcmp(argv[1], MARK_ARG))
		return mark_main(argv[2]);
	if (argc == 2 && !strcmp(argv[1], EXIT_ARG))
		return 0;
	return test_harness_run(argc, argv);
}
