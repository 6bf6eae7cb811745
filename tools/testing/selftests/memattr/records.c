// SPDX-License-Identifier: GPL-2.0
/*
 * The memattr records as user space sees them: nodeN/memattr/ against the
 * booted topology (HMAT and memattr= values), root writes and "auto", bad and
 * unprivileged writes, memory-tier placement, the debugfs source table and
 * the warnings for malformed memattr= entries.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "topology.h"

#define NODE_DIR	"/sys/devices/system/node"
#define FILE_FMT	NODE_DIR "/node%d/memattr/%s"
#define RECORDS_FILE	"/sys/kernel/debug/memattr/records"
#define TIER_DIR	"/sys/devices/virtual/memory_tiering"
#define NOBODY		65534
#define MAX_SOURCES	16
#define NAME_LEN	16
#define READ_PASSES	15

static struct topo topo;

/* Nodes (bit per node) whose field (index) a test wrote; teardown reverts them. */
static unsigned long long touched[TOPO_NR_MEMATTR];

/* One field of one node as the debugfs records file shows it. */
struct dbg_field {
	bool present;			/* a line for the field was seen */
	unsigned long long value;	/* shown value */
	char winner[NAME_LEN];		/* winning source, "-" if none */
	char src[MAX_SOURCES][NAME_LEN];	/* each source's value as text */
};

/* The whole debugfs records file. */
struct dbg_records {
	int nr_src;				/* columns after "winner" */
	char src_name[MAX_SOURCES][NAME_LEN];	/* their source names */
	bool node[TOPO_MAX_NODES];		/* a "nodeN" block was seen */
	struct dbg_field f[TOPO_MAX_NODES][TOPO_NR_MEMATTR];
};

/* ---- what the topology says ---- */

static bool is_perf(int field)
{
	return field < TOPO_NR_PERF;
}

static bool is_flag(int field)
{
	return field == TOPO_MA_PERSISTENT || field == TOPO_MA_SPECIAL;
}

/* The value nodeN/memattr/<field> must show after boot. */
static unsigned long long expected(int nid, int field)
{
	const struct topo_node *n = &topo.node[nid];

	if (n->memattr[field] >= 0)
		return n->memattr[field];
	if (is_perf(field) && n->has_access)
		return n->access[field];
	return 0;
}

/* The source that must win for that value ("-": none). */
static const char *expected_source(int nid, int field)
{
	const struct topo_node *n = &topo.node[nid];

	if (n->memattr[field] >= 0)
		return "cmdline";
	if (is_perf(field) && n->has_access)
		return "hmat";
	return "-";
}

static bool topo_has_memattr(void)
{
	int nid, f;

	for (nid = 0; nid < topo.nr_nodes; nid++)
		for (f = 0; f < TOPO_NR_MEMATTR; f++)
			if (topo.node[nid].memattr[f] >= 0)
				return true;
	return strstr(topo.cmdline, "memattr=");
}

/* ---- the files ---- */

static int read_field(int nid, int field, unsigned long long *val)
{
	return sysfs_read_u64(val, FILE_FMT, nid, topo_memattr_names[field]);
}

/* Raw write of @len bytes (may be 0); 0 or -1 with errno. */
static int write_field_len(int nid, int field, const char *val, size_t len)
{
	char path[256];
	ssize_t n;
	int fd, err;

	touched[field] |= 1ULL << nid;
	snprintf(path, sizeof(path), FILE_FMT, nid, topo_memattr_names[field]);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	err = errno;
	close(fd);
	errno = err;
	return n < 0 ? -1 : 0;
}

static int write_field(int nid, int field, const char *val)
{
	return write_field_len(nid, field, val, strlen(val));
}

/* Parse the debugfs records file into @r; 0 or -1 with errno. */
static int read_records(struct dbg_records *r)
{
	char line[512], *tok, *save;
	struct dbg_field *df;
	int nid = -1, f, i;
	FILE *fp;

	memset(r, 0, sizeof(*r));
	fp = fopen(RECORDS_FILE, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		tok = strtok_r(line, "\n ", &save);
		if (!tok)
			continue;
		if (!strncmp(tok, "node", 4) && line[0] != ' ') {
			nid = atoi(tok + 4);
			if (nid >= 0 && nid < TOPO_MAX_NODES)
				r->node[nid] = true;
			else
				nid = -1;
			continue;
		}
		if (!strcmp(tok, "field")) {
			/* "field value winner <source>..." */
			strtok_r(NULL, "\n ", &save);
			strtok_r(NULL, "\n ", &save);
			for (r->nr_src = 0; r->nr_src < MAX_SOURCES &&
			     (tok = strtok_r(NULL, "\n ", &save)); r->nr_src++)
				snprintf(r->src_name[r->nr_src], NAME_LEN, "%s", tok);
			continue;
		}
		for (f = 0; f < TOPO_NR_MEMATTR; f++)
			if (!strcmp(tok, topo_memattr_names[f]))
				break;
		if (nid < 0 || f == TOPO_NR_MEMATTR)
			continue;
		df = &r->f[nid][f];
		df->present = true;
		tok = strtok_r(NULL, "\n ", &save);
		df->value = tok ? strtoull(tok, NULL, 10) : ~0ULL;
		tok = strtok_r(NULL, "\n ", &save);
		snprintf(df->winner, NAME_LEN, "%s", tok ? tok : "?");
		for (i = 0; i < r->nr_src; i++) {
			tok = strtok_r(NULL, "\n ", &save);
			snprintf(df->src[i], NAME_LEN, "%s", tok ? tok : "?");
		}
	}
	fclose(fp);
	return 0;
}

static int source_index(const struct dbg_records *r, const char *name)
{
	int i;

	for (i = 0; i < r->nr_src; i++)
		if (!strcmp(r->src_name[i], name))
			return i;
	return -1;
}

/*
 * The memory tier holding each node (-1: none) and how many tiers exist;
 * -1 with errno when the tiers cannot be read.
 */
static int read_tiers(int tier_of[TOPO_MAX_NODES])
{
	unsigned long long mask;
	char buf[256];
	struct dirent *de;
	int nr = 0, id, nid;
	DIR *d;

	for (nid = 0; nid < TOPO_MAX_NODES; nid++)
		tier_of[nid] = -1;
	d = opendir(TIER_DIR);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "memory_tier%d", &id) != 1)
			continue;
		if (sysfs_read_str(buf, sizeof(buf), TIER_DIR "/%s/nodelist", de->d_name) < 0 ||
		    topo_parse_list(buf, &mask))
			continue;
		nr++;
		for (nid = 0; nid < TOPO_MAX_NODES; nid++)
			if (mask >> nid & 1)
				tier_of[nid] = id;
	}
	closedir(d);
	return nr;
}

/* ---- memattr= words of the booted command line ---- */

/* One "<field>[=<value>]" item of a memattr= word. */
struct param_item {
	char word[256];			/* the word's value (after "memattr=") */
	char item[128];			/* the item as given */
	bool nodes_ok;			/* the node list parsed */
	unsigned long long nodes;	/* nodes it names */
	int field;			/* field index, -1 if unknown */
	bool expected;			/* a topology "memattr" line says the same */
};

/* Field and value of "<field>[=<decimal>]"; false if not that simple form. */
static bool parse_plain_item(const char *item, int *field, unsigned long long *val)
{
	const char *eq = strchr(item, '=');
	size_t len = eq ? (size_t)(eq - item) : strlen(item);
	char *end;
	int f;

	*field = -1;
	for (f = 0; f < TOPO_NR_MEMATTR; f++)
		if (strlen(topo_memattr_names[f]) == len &&
		    !strncmp(item, topo_memattr_names[f], len))
			*field = f;
	if (*field < 0)
		return false;
	if (!eq) {
		*val = 1;
		return is_flag(*field);
	}
	if (eq[1] < '0' || eq[1] > '9')
		return false;
	errno = 0;
	*val = strtoull(eq + 1, &end, 10);
	return !errno && !*end;
}

/*
 * Split every memattr= word of the topology's command line into items and
 * tell which ones the topology's "memattr" lines expect to be applied; the
 * rest are malformed. Returns the number of items (at most @max).
 */
static int param_items(struct param_item *it, int max)
{
	char words[sizeof(topo.cmdline)], word[256], *w, *save, *colon, *item, *isave;
	unsigned long long val;
	int nr = 0, nid;

	snprintf(words, sizeof(words), "%s", topo.cmdline);
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (strncmp(w, "memattr=", 8))
			continue;
		w += 8;
		snprintf(word, sizeof(word), "%s", w);
		colon = strchr(w, ':');
		if (colon)
			*colon = '\0';
		/* a view from initiators (T@I): the views test checks those */
		if (colon && strchr(w, '@'))
			continue;
		for (item = strtok_r(colon ? colon + 1 : w, ",", &isave);
		     item && nr < max; item = strtok_r(NULL, ",", &isave), nr++) {
			struct param_item *p = &it[nr];

			memset(p, 0, sizeof(*p));
			snprintf(p->word, sizeof(p->word), "%s", word);
			snprintf(p->item, sizeof(p->item), "%s", item);
			p->nodes_ok = colon && *w && !topo_parse_list(w, &p->nodes) &&
				      p->nodes;
			p->expected = parse_plain_item(item, &p->field, &val) &&
				      p->nodes_ok;
			for (nid = 0; p->expected && nid < TOPO_MAX_NODES; nid++)
				if (p->nodes >> nid & 1)
					p->expected = topo.node[nid].memattr[p->field] ==
						      (long long)val;
		}
	}
	return nr;
}

/* ---- the fixture: skip without the interface, revert what tests write ---- */

FIXTURE(records) {
	/* value and admin winner at setup, so teardown restores exactly that */
	unsigned long long saved[TOPO_MAX_NODES][TOPO_NR_MEMATTR];
	bool saved_admin[TOPO_MAX_NODES][TOPO_NR_MEMATTR];
};

FIXTURE_SETUP(records)
{
	struct dbg_records *r;
	char path[256];
	int nid, f;

	if (topo_load(&topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s",
		     strerror(errno));
	snprintf(path, sizeof(path), NODE_DIR "/node0/memattr");
	TOPO_NEED(&topo, !access(path, F_OK), path);
	memset(touched, 0, sizeof(touched));
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			ASSERT_EQ(0, read_field(nid, f, &self->saved[nid][f]))
				TH_LOG("node %d %s: %s", nid, topo_memattr_names[f],
				       strerror(errno));
		}
	}
	r = calloc(1, sizeof(*r));
	ASSERT_NE(NULL, r);
	if (!read_records(r))
		for (nid = 0; nid < topo.nr_nodes; nid++)
			for (f = 0; f < TOPO_NR_MEMATTR; f++)
				self->saved_admin[nid][f] = !strcmp(r->f[nid][f].winner, "admin");
	free(r);
}

FIXTURE_TEARDOWN(records)
{
	unsigned long long val;
	char buf[32];
	int nid, f;

	/* An ASSERT that ended the test left its trigger set. */
	_metadata->trigger = 0;
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			if (!(touched[f] >> nid & 1))
				continue;
			snprintf(buf, sizeof(buf), "%llu", self->saved[nid][f]);
			EXPECT_EQ(0, write_field(nid, f, self->saved_admin[nid][f] ?
						 buf : "auto"))
				TH_LOG("restoring node %d %s", nid, topo_memattr_names[f]);
			EXPECT_EQ(0, read_field(nid, f, &val));
			EXPECT_EQ(self->saved[nid][f], val)
				TH_LOG("node %d %s not restored", nid, topo_memattr_names[f]);
		}
	}
}

#define NEED_ROOT()							\
	do {								\
		if (geteuid())						\
			SKIP(return, "needs root to write memattr files"); \
	} while (0)

/* ---- the tests ---- */

/* Every file exists, is 0644 and shows HMAT access1, overridden by memattr=. */
TEST_F(records, values_match_topology)
{
	unsigned long long val;
	char path[256];
	struct stat st;
	int nid, f;

	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			snprintf(path, sizeof(path), FILE_FMT, nid, topo_memattr_names[f]);
			ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
			EXPECT_EQ(0644, st.st_mode & 07777) TH_LOG("%s", path);
			ASSERT_EQ(0, read_field(nid, f, &val))
				TH_LOG("%s: %s", path, strerror(errno));
			EXPECT_EQ(expected(nid, f), val)
				TH_LOG("node %d %s (from %s)", nid, topo_memattr_names[f],
				       expected_source(nid, f));
		}
	}
}

/* Without HMAT and memattr=, everything is unknown and tiers are 6.12's. */
TEST_F(records, nohmat_is_6_12)
{
	unsigned long long val, all = 0;
	int tier_of[TOPO_MAX_NODES], nr, nid, f;

	if (topo.hmat || topo_has_memattr())
		SKIP(return, "topology %s has HMAT or memattr= values", topo.name);
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		all |= 1ULL << nid;
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			ASSERT_EQ(0, read_field(nid, f, &val));
			EXPECT_EQ(0, val) TH_LOG("node %d %s", nid, topo_memattr_names[f]);
		}
	}
	/*
	 * 6.12 without HMAT has no abstract distance but DRAM's for any node:
	 * one tier, holding every node.
	 */
	nr = read_tiers(tier_of);
	if (nr < 0)
		SKIP(return, "no %s: %s", TIER_DIR, strerror(errno));
	EXPECT_EQ(1, nr) TH_LOG("%d memory tiers without HMAT", nr);
	for (nid = 0; nid < topo.nr_nodes; nid++)
		EXPECT_EQ(tier_of[0], tier_of[nid]) TH_LOG("node %d", nid);
	for (nid = topo.nr_nodes; nid < TOPO_MAX_NODES; nid++)
		EXPECT_EQ(-1, tier_of[nid]) TH_LOG("tiered node %d not in topology", nid);
	EXPECT_NE(0, all);
}

/* Check one field's shown value and winner, in sysfs and debugfs. */
static void check_field(struct __test_metadata *_metadata, struct dbg_records *r,
			int nid, int f, unsigned long long want, const char *winner)
{
	unsigned long long val;
	int admin;

	ASSERT_EQ(0, read_field(nid, f, &val));
	EXPECT_EQ(want, val) TH_LOG("node %d %s", nid, topo_memattr_names[f]);
	if (!r || read_records(r))
		return;
	EXPECT_EQ(want, r->f[nid][f].value) TH_LOG("debugfs node %d %s", nid,
						   topo_memattr_names[f]);
	EXPECT_STREQ(winner, r->f[nid][f].winner)
		TH_LOG("debugfs node %d %s", nid, topo_memattr_names[f]);
	admin = source_index(r, "admin");
	ASSERT_LE(0, admin);
	if (!strcmp(winner, "admin")) {
		EXPECT_EQ(want, strtoull(r->f[nid][f].src[admin], NULL, 10));
	} else {
		EXPECT_STREQ("-", r->f[nid][f].src[admin]);
	}
}

/* Root writes win as "admin"; "auto" shows the topology's value again. */
TEST_F_TIMEOUT(records, admin_write_and_auto, 180)
{
	/* accepted spellings per field: value written, value shown */
	static const struct {
		int field;
		const char *text;
		unsigned long long shown;
	} suffixed[] = {
		{ TOPO_MA_READ_LATENCY, "2us", 2000 },
		{ TOPO_MA_WRITE_LATENCY, "7ns\n", 7 },
		{ TOPO_MA_READ_BANDWIDTH, "3GB/s", 3000 },
		{ TOPO_MA_WRITE_BANDWIDTH, "1500MB/s\n", 1500 },
		{ TOPO_MA_POWER, "2W", 2000 },
		{ TOPO_MA_POWER, "250mW", 250 },
		{ TOPO_MA_PERSISTENT, "1\n", 1 },
		{ TOPO_MA_READ_LATENCY, "0", 0 },	/* admin can hide a firmware value */
	};
	unsigned long long want;
	struct dbg_records *r;
	char buf[32];
	int nid, f, i;

	NEED_ROOT();
	r = calloc(1, sizeof(*r));
	ASSERT_NE(NULL, r);
	if (access(RECORDS_FILE, R_OK)) {
		TH_LOG("no %s: checking sysfs only", RECORDS_FILE);
		free(r);
		r = NULL;
	}
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			want = is_flag(f) ? !expected(nid, f) : expected(nid, f) + 1 + f;
			snprintf(buf, sizeof(buf), "%llu", want);
			ASSERT_EQ(0, write_field(nid, f, buf))
				TH_LOG("node %d %s=%s: %s", nid, topo_memattr_names[f], buf,
				       strerror(errno));
			check_field(_metadata, r, nid, f, want, "admin");
			ASSERT_EQ(0, write_field(nid, f, "auto"))
				TH_LOG("node %d %s=auto: %s", nid, topo_memattr_names[f],
				       strerror(errno));
			check_field(_metadata, r, nid, f, expected(nid, f),
				    expected_source(nid, f));
		}
	}
	nid = topo.nr_nodes - 1;
	for (i = 0; i < ARRAY_SIZE(suffixed); i++) {
		f = suffixed[i].field;
		ASSERT_EQ(0, write_field(nid, f, suffixed[i].text))
			TH_LOG("node %d %s='%s': %s", nid, topo_memattr_names[f],
			       suffixed[i].text, strerror(errno));
		check_field(_metadata, r, nid, f, suffixed[i].shown, "admin");
		ASSERT_EQ(0, write_field(nid, f, "auto\n"));
		check_field(_metadata, r, nid, f, expected(nid, f), expected_source(nid, f));
	}
	free(r);
}

/* Bad writes fail with EINVAL and change nothing. */
TEST_F(records, bad_writes)
{
	static const char *const any[] = {
		"junk", "-1", "-0", "4294967296", "99999999999999999999", "12abc",
		"1.5", "0x10", "\n", " ", " \n", "\t", " 5", "5 ", "5 5", "auto5",
		"autox", "AUTO", "5\n\n",
	};
	/* wrong unit, or overflow only once the unit is applied */
	static const char *const by_field[TOPO_NR_MEMATTR][3] = {
		[TOPO_MA_READ_LATENCY] = { "5MB/s", "4294968us", "5ms" },
		[TOPO_MA_WRITE_LATENCY] = { "5W", "4294968us", "5 ns" },
		[TOPO_MA_READ_BANDWIDTH] = { "5ns", "4294968GB/s", "5GiB/s" },
		[TOPO_MA_WRITE_BANDWIDTH] = { "5us", "4294968GB/s", "5gb/s" },
		[TOPO_MA_POWER] = { "5us", "4294968W", "5kW" },
		[TOPO_MA_PERSISTENT] = { "2", "1ns", "4294967297" },
		[TOPO_MA_SPECIAL] = { "2", "1W", "10" },
	};
	unsigned long long before, after;
	const char *bad;
	int nid, f, i, ret;

	NEED_ROOT();
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			ASSERT_EQ(0, read_field(nid, f, &before));
			for (i = 0; i < ARRAY_SIZE(any) + 3; i++) {
				bad = i < ARRAY_SIZE(any) ? any[i] :
				      by_field[f][i - ARRAY_SIZE(any)];
				ret = write_field(nid, f, bad);
				EXPECT_EQ(-1, ret) TH_LOG("node %d %s='%s' accepted", nid,
							  topo_memattr_names[f], bad);
				if (ret) {
					EXPECT_EQ(EINVAL, errno)
						TH_LOG("node %d %s='%s': %s", nid,
						       topo_memattr_names[f], bad,
						       strerror(errno));
				}
				ASSERT_EQ(0, read_field(nid, f, &after));
				EXPECT_EQ(before, after)
					TH_LOG("node %d %s changed by '%s'", nid,
					       topo_memattr_names[f], bad);
			}
			/* sysfs completes a zero-length write without calling us */
			write_field_len(nid, f, "", 0);
			ASSERT_EQ(0, read_field(nid, f, &after));
			EXPECT_EQ(before, after) TH_LOG("node %d %s changed by an empty write",
							nid, topo_memattr_names[f]);
		}
	}
}

/* Child body: every file readable, no write accepted; returns a failure mask. */
static int try_writes(void)
{
	unsigned long long val;
	int nid, f, bad = 0;

	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			if (read_field(nid, f, &val)) {
				fprintf(stderr, "# node %d %s: read: %s\n", nid,
					topo_memattr_names[f], strerror(errno));
				bad |= 1;
			}
			if (!write_field(nid, f, is_flag(f) ? (val ? "0" : "1") : "12345")) {
				fprintf(stderr, "# node %d %s: write accepted\n", nid,
					topo_memattr_names[f]);
				bad |= 2;
			} else if (errno != EACCES && errno != EPERM) {
				fprintf(stderr, "# node %d %s: write: %s\n", nid,
					topo_memattr_names[f], strerror(errno));
				bad |= 4;
			}
			if (!write_field(nid, f, "auto")) {
				fprintf(stderr, "# node %d %s: auto accepted\n", nid,
					topo_memattr_names[f]);
				bad |= 2;
			}
		}
	}
	return bad;
}

/* Neither uid 65534 nor root without CAP_SYS_ADMIN may write; anyone may read. */
TEST_F(records, unprivileged_writes)
{
	static const char *const who[] = { "uid 65534", "uid 0 without CAP_SYS_ADMIN" };
	unsigned long long val;
	int i, nid, f, status;
	pid_t pid;

	NEED_ROOT();
	/* a write that got through is reverted by the teardown */
	for (f = 0; f < TOPO_NR_MEMATTR; f++)
		touched[f] = ~0ULL;
	for (i = 0; i < ARRAY_SIZE(who); i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			if (i == 0 && (setgid(NOBODY) || setuid(NOBODY)))
				_exit(100);
			if (i == 1 && drop_cap_sys_admin())
				_exit(101);
			_exit(try_writes());
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("%s: %d (1 unreadable, 2 accepted, 4 wrong errno, 100+ setup)",
			       who[i], WEXITSTATUS(status));
	}
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			ASSERT_EQ(0, read_field(nid, f, &val));
			EXPECT_EQ(self->saved[nid][f], val)
				TH_LOG("node %d %s changed", nid, topo_memattr_names[f]);
		}
	}
}

/*
 * Giving a slower memory-only node DRAM's latency and bandwidth moves it into
 * DRAM's tier; "auto" puts it back where HMAT placed it.
 */
TEST_F_TIMEOUT(records, admin_perf_moves_tier, 60)
{
	int before[TOPO_MAX_NODES], now[TOPO_MAX_NODES];
	int dram = -1, slow = -1, nid, f;
	char buf[32];

	NEED_ROOT();
	if (!topo.hmat)
		SKIP(return, "topology %s has no HMAT: tiers do not depend on performance",
		     topo.name);
	if (read_tiers(before) < 0)
		SKIP(return, "no %s: %s", TIER_DIR, strerror(errno));
	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (topo.node[nid].cpus[0] && topo.node[nid].has_access) {
			dram = nid;
			break;
		}
	if (dram < 0)
		SKIP(return, "topology %s has no CPU node with HMAT values", topo.name);
	/* the slowest tier's memory-only node (highest tier id) */
	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (!topo.node[nid].cpus[0] && before[nid] > before[dram] &&
		    (slow < 0 || before[nid] > before[slow]))
			slow = nid;
	if (slow < 0)
		SKIP(return, "topology %s has no memory-only node below DRAM's tier",
		     topo.name);
	ASSERT_LE(0, before[dram]);
	TH_LOG("node %d: tier %d -> DRAM node %d's tier %d", slow, before[slow], dram,
	       before[dram]);
	for (f = 0; f < TOPO_NR_PERF; f++) {
		snprintf(buf, sizeof(buf), "%llu", topo.node[dram].access[f]);
		ASSERT_EQ(0, write_field(slow, f, buf))
			TH_LOG("node %d %s: %s", slow, topo_memattr_names[f], strerror(errno));
	}
	ASSERT_LE(0, read_tiers(now));
	EXPECT_EQ(before[dram], now[slow]) TH_LOG("node %d in tier %d", slow, now[slow]);
	EXPECT_EQ(before[dram], now[dram]);
	for (f = 0; f < TOPO_NR_PERF; f++)
		ASSERT_EQ(0, write_field(slow, f, "auto"));
	ASSERT_LE(0, read_tiers(now));
	for (nid = 0; nid < TOPO_MAX_NODES; nid++)
		EXPECT_EQ(before[nid], now[nid]) TH_LOG("node %d after auto", nid);
}

/* debugfs names the topology's sources: hmat for HMAT values, cmdline for memattr=. */
TEST_F(records, debugfs_sources)
{
	struct dbg_records *r;
	const struct dbg_field *df;
	int nid, f, i, hmat, cmdline;
	char want[32];

	if (access(RECORDS_FILE, R_OK))
		SKIP(return, "no %s (debugfs not mounted, or not root)", RECORDS_FILE);
	r = calloc(1, sizeof(*r));
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, read_records(r));
	hmat = source_index(r, "hmat");
	cmdline = source_index(r, "cmdline");
	ASSERT_LE(0, hmat);
	ASSERT_LE(0, cmdline);
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_TRUE(r->node[nid]) TH_LOG("no node%d block", nid);
		for (f = 0; f < TOPO_NR_MEMATTR; f++) {
			df = &r->f[nid][f];
			ASSERT_TRUE(df->present) TH_LOG("node %d %s", nid, topo_memattr_names[f]);
			EXPECT_EQ(expected(nid, f), df->value)
				TH_LOG("node %d %s", nid, topo_memattr_names[f]);
			EXPECT_STREQ(expected_source(nid, f), df->winner)
				TH_LOG("node %d %s", nid, topo_memattr_names[f]);
			for (i = 0; i < r->nr_src; i++) {
				if (i == hmat && is_perf(f) && topo.node[nid].has_access)
					snprintf(want, sizeof(want), "%llu",
						 topo.node[nid].access[f]);
				else if (i == cmdline && topo.node[nid].memattr[f] >= 0)
					snprintf(want, sizeof(want), "%lld",
						 topo.node[nid].memattr[f]);
				else
					snprintf(want, sizeof(want), "-");
				EXPECT_STREQ(want, df->src[i])
					TH_LOG("node %d %s source %s", nid,
					       topo_memattr_names[f], r->src_name[i]);
			}
		}
	}
	free(r);
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '=';
}

/* Whether @s contains @what as a whole item (not part of a longer one). */
static bool has_item(const char *s, const char *what)
{
	size_t len = strlen(what);
	const char *p;

	for (p = strstr(s, what); p; p = strstr(p + 1, what))
		if ((p == s || !name_char(p[-1])) && !name_char(p[len]))
			return true;
	return false;
}

/* A warning-level kernel log line that names @what outside of @word's echo. */
static bool warned(const char *log, const char *word, const char *what)
{
	const char *line, *end, *w;
	char buf[1024];

	for (line = log; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (end - line >= sizeof(buf))
			continue;
		memcpy(buf, line, end - line);
		buf[end - line] = '\0';
		if (!strstr(buf, "memattr"))
			continue;
		w = strstr(buf, word);
		if (!w)
			continue;
		if (!what)
			return true;
		/* the item must appear after the echo of the whole word */
		if (has_item(w + strlen(word), what))
			return true;
	}
	return false;
}

/* Warning-level (and worse) messages of the kernel log, one per line; NULL on error. */
static char *kmsg_warnings(bool *wrapped)
{
	size_t len = 0, cap = 1 << 16;
	char rec[2048], *out, *msg;
	unsigned long long seq;
	int fd, prio, first = 1;
	ssize_t n;

	*wrapped = false;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	out = calloc(1, cap);
	while (out) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE) {
			*wrapped = true;
			continue;
		}
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (sscanf(rec, "%d,%llu,", &prio, &seq) != 2)
			continue;
		if (first && seq)
			*wrapped = true;
		first = 0;
		msg = strchr(rec, ';');
		if ((prio & 7) > 4 || !msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if (len + strlen(msg) + 2 > cap)
			break;
		len += sprintf(out + len, "%s\n", msg);
	}
	close(fd);
	return out;
}

/*
 * The topology's memattr= words may mix malformed items with good ones: the
 * good ones are applied (values_match_topology checks them against the
 * "memattr" lines), each malformed one is named by a pr_warn and changes no
 * value it names.
 */
TEST_F(records, malformed_param)
{
	struct param_item *it;
	unsigned long long val;
	int nr, i, nid, bad = 0;
	bool wrapped;
	char *log;

	it = calloc(64, sizeof(*it));
	ASSERT_NE(NULL, it);
	nr = param_items(it, 64);
	for (i = 0; i < nr; i++)
		bad += !it[i].expected;
	if (!bad)
		SKIP(return, "topology %s has no malformed memattr= entry", topo.name);
	log = kmsg_warnings(&wrapped);
	if (!log)
		SKIP(return, "cannot read /dev/kmsg: %s", strerror(errno));
	if (wrapped)
		SKIP(return, "the kernel log wrapped: boot-time warnings are gone");
	for (i = 0; i < nr; i++) {
		if (it[i].expected)
			continue;
		if (!it[i].nodes_ok) {
			EXPECT_TRUE(warned(log, it[i].word, NULL))
				TH_LOG("no warning for memattr=%s (bad node list)", it[i].word);
		} else {
			EXPECT_TRUE(warned(log, it[i].word, it[i].item))
				TH_LOG("no warning naming '%s' of memattr=%s", it[i].item,
				       it[i].word);
		}
		if (it[i].field < 0)
			continue;
		/* whatever it named, nothing shows but the topology's value */
		for (nid = 0; nid < topo.nr_nodes; nid++) {
			if (it[i].nodes_ok && !(it[i].nodes >> nid & 1))
				continue;
			ASSERT_EQ(0, read_field(nid, it[i].field, &val));
			EXPECT_EQ(expected(nid, it[i].field), val)
				TH_LOG("node %d %s after memattr=%s", nid,
				       topo_memattr_names[it[i].field], it[i].word);
		}
	}
	free(log);
	free(it);
}

/* Milliseconds to open and read @fmt (node id, file name) for each node and file. */
static double read_pass(const char *fmt, const char *const *files, int nr_files,
			int *count)
{
	struct timespec a, b;
	char buf[64], path[256];
	int nid, f, fd;

	*count = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < nr_files; f++) {
			snprintf(path, sizeof(path), fmt, nid, files[f]);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				return -1;
			if (read(fd, buf, sizeof(buf)) <= 0)
				*count = -1;
			close(fd);
			if (*count >= 0)
				(*count)++;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return *count < 0 ? -1 : (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Not a check: how long reading every memattr file takes (median of passes),
 * beside the same number of reads of a 6.12 one-value node file for scale.
 */
TEST_F(records, measure_read_cost)
{
	static const char *const cpulist[TOPO_NR_MEMATTR] = {
		"cpulist", "cpulist", "cpulist", "cpulist", "cpulist", "cpulist", "cpulist",
	};
	double ma[READ_PASSES], ref[READ_PASSES];
	int pass, files, ref_files;

	for (pass = 0; pass < READ_PASSES; pass++) {
		ma[pass] = read_pass(FILE_FMT, topo_memattr_names, TOPO_NR_MEMATTR, &files);
		ASSERT_LE(0, ma[pass]) TH_LOG("reading memattr files: %s", strerror(errno));
		ref[pass] = read_pass(NODE_DIR "/node%d/%s", cpulist, TOPO_NR_MEMATTR,
				      &ref_files);
		ASSERT_LE(0, ref[pass]) TH_LOG("reading cpulist: %s", strerror(errno));
	}
	qsort(ma, READ_PASSES, sizeof(*ma), cmp_double);
	qsort(ref, READ_PASSES, sizeof(*ref), cmp_double);
	TH_LOG("read all memattr files: %.3f ms (%d files, median of %d passes)",
	       ma[READ_PASSES / 2], files, READ_PASSES);
	TH_LOG("read all memattr files: min %.3f ms, max %.3f ms", ma[0],
	       ma[READ_PASSES - 1]);
	TH_LOG("same number of nodeN/cpulist reads: %.3f ms (min %.3f, max %.3f)",
	       ref[READ_PASSES / 2], ref[0], ref[READ_PASSES - 1]);
}

TEST_HARNESS_MAIN
