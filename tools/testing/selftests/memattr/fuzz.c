// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input at volume: every writable memattr file, kmemattrd's knobs
 * included, gets thousands of random, mutated and edge-case writes. Each
 * is judged by a model of the grammar the ABI documents (written from
 * Documentation/ABI, not from the kernel's parser): a write the model
 * rejects must fail with EINVAL and leave the file as it was, one it
 * accepts must read back as documented.
 * Then writers on every CPU race each other while a task allocates with a
 * bound policy, and the state must be consistent afterwards. Last, a root
 * task without CAP_SYS_ADMIN, and a task of another user, must change
 * nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "topology.h"

#define NODE_DIR	"/sys/devices/system/node"
#define POLICY_DIR	"/sys/kernel/mm/memattr"
#define DAEMON_DIR	POLICY_DIR "/daemon"
/*
 * Writes per file: make check runs the full 10,000 once, on "default"
 * (MEMATTR_FUZZ_WRITES); every other run does a tenth, within MAX_WRITES.
 */
#define WRITES_PER_FILE	1000
#define MAX_WRITES	100000
/*
 * Accepted writes rebuild zonelists (30-40 ms each under TCG, most of a run's
 * time): the full-volume run takes 40 per file, every other run 8.
 */
#define MAX_ACCEPTED		40
#define MAX_ACCEPTED_TENTH	8
#define MAX_WRITE	4000		/* below a page: sysfs passes it whole */
#define RACE_SECONDS	10
#define U32_MAX_VAL	4294967295ULL

/* How a file's value is written, per the ABI. */
enum kind { K_LATENCY, K_BANDWIDTH, K_POWER, K_FLAG, K_FALLBACK, K_CHOICE, K_RANGE, K_PAIR };

struct target {
	char path[160];			/* the sysfs file */
	enum kind kind;			/* its grammar */
	int nid;			/* its node, -1 for global knobs */
	const char *const *choices;	/* K_CHOICE: the words */
	int nr_choices;
	unsigned int min, max, def;	/* K_RANGE: bounds and default */
};

static const char *const spill_words[] = { "never", "before_oom", "always" };
static const char *const order_words[] = { "distance", "performance" };
static const char *const field_files[] = {
	"read_latency", "write_latency", "read_bandwidth", "write_bandwidth",
	"persistent", "power", "special",
};

static const enum kind field_kinds[] = {
	K_LATENCY, K_LATENCY, K_BANDWIDTH, K_BANDWIDTH, K_FLAG, K_POWER, K_FLAG,
};

/* kmemattrd's knobs with the range and default each ABI entry states. */
static const struct {
	const char *file;
	unsigned int min, max, def;
} daemon_knobs[] = {
	{ "enabled", 0, 1, 0 },
	{ "scan_interval_ms", 10, 60000, 500 },
	{ "scan_budget", 512, 16777216, 262144 },
	{ "hot_threshold", 1, 4, 2 },
	{ "rate_limit_MBps", 1, 100000, 256 },
	{ "demote_watermark", 0, 50, 2 },
};

/* ---- the documented grammar ---- */

/* Largest value of each kind, as Documentation/ABI states it. */
static unsigned long long kind_max(enum kind k)
{
	switch (k) {
	case K_LATENCY:
		return 1000000;
	case K_BANDWIDTH:
		return 1000000000;
	case K_FLAG:
		return 1;
	default:
		return U32_MAX_VAL;
	}
}

/* Unit suffixes the ABI lists, and their factors; 0 if @s is none of them. */
static unsigned long long unit_factor(enum kind k, const char *s, size_t len)
{
	static const struct {
		enum kind kind;
		const char *suffix;
		unsigned long long factor;
	} units[] = {
		{ K_LATENCY, "ns", 1 }, { K_LATENCY, "us", 1000 },
		{ K_BANDWIDTH, "MB/s", 1 }, { K_BANDWIDTH, "GB/s", 1000 },
		{ K_POWER, "mW", 1 }, { K_POWER, "W", 1000 },
	};
	size_t i;

	if (!len)
		return 1;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (units[i].kind == k && strlen(units[i].suffix) == len &&
		    !memcmp(units[i].suffix, s, len))
			return units[i].factor;
	return 0;
}

/* "word" or "word\n", nothing else (how sysfs compares words). */
static bool is_word(const char *buf, size_t len, const char *word)
{
	size_t wl = strlen(word);

	return (len == wl || (len == wl + 1 && buf[wl] == '\n')) && !memcmp(buf, word, wl);
}

/* A value file: 1 and *@v for a number, 2 for "auto", 0 for a reject. */
static int model_value(enum kind k, const char *buf, size_t len, unsigned long long *v)
{
	unsigned long long f;
	size_t i;

	if (memchr(buf, '\0', len))
		return 0;
	if (is_word(buf, len, "auto"))
		return 2;
	if (len && buf[len - 1] == '\n')
		len--;
	*v = 0;
	for (i = 0; i < len && buf[i] >= '0' && buf[i] <= '9'; i++) {
		*v = *v * 10 + (buf[i] - '0');
		if (*v > U32_MAX_VAL)
			return 0;
	}
	if (!i)
		return 0;
	f = k == K_FLAG ? (i == len) : unit_factor(k, buf + i, len - i);
	if (!f)
		return 0;
	*v *= f;
	return *v <= kind_max(k);
}

/* The kernel's isspace(): Latin-1's no-break space counts too. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' ||
	       (unsigned char)c == 0xa0;
}

/* One decimal node id as the ABI's "node ids" (sign allowed, one newline). */
static bool parse_id(const char *s, size_t len, long long *id)
{
	bool neg = false;
	size_t i = 0;

	if (len && s[len - 1] == '\n')
		len--;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == len)
		return false;
	for (*id = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*id = *id * 10 + (s[i] - '0');
		if (*id > 0x7fffffffLL)
			return false;
	}
	if (neg)
		*id = -*id;
	return true;
}

/*
 * nodeN/memattr/fallback: "auto", or node ids separated by spaces or tabs,
 * optionally starting with N; each a node with memory, none twice, N only
 * first. 1 with the prefix in @prefix/@nr, 2 for "auto", 0 for a reject.
 */
static int model_fallback(int nid, unsigned long long memory, const char *buf,
			  size_t len, int *prefix, int *nr)
{
	unsigned long long seen = 1ULL << nid;
	size_t start, end;
	bool first = true;
	long long id;

	if (memchr(buf, '\0', len))
		return 0;
	if (is_word(buf, len, "auto"))
		return 2;
	while (len && is_space(buf[len - 1]))
		len--;
	for (start = 0; start < len && is_space(buf[start]); start++)
		;
	*nr = 0;
	for (; start < len; start = end + 1) {
		for (end = start; end < len && buf[end] != ' ' && buf[end] != '\t'; end++)
			;
		if (end == start)
			continue;
		if (!parse_id(buf + start, end - start, &id))
			return 0;
		if (first && id == nid) {
			first = false;
			continue;
		}
		first = false;
		if (id < 0 || id >= 64 || !(memory >> id & 1) || (seen >> id & 1) || *nr >= 64)
			return 0;
		seen |= 1ULL << id;
		prefix[(*nr)++] = id;
	}
	return first ? 0 : 1;
}

/*
 * A daemon knob: "a decimal number within the file's range"; like every
 * kernel number parser it takes one leading '+' and one trailing newline.
 */
static bool model_range(const struct target *t, const char *buf, size_t len,
			unsigned long long *v)
{
	size_t i = 0;

	if (memchr(buf, '\0', len))
		return false;
	if (len && buf[len - 1] == '\n')
		len--;
	if (i < len && buf[i] == '+')
		i++;
	if (i == len)
		return false;
	for (*v = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return false;
		*v = *v * 10 + (buf[i] - '0');
		if (*v > U32_MAX_VAL)
			return false;
	}
	return *v >= t->min && *v <= t->max;
}

/* Possible nodes (node/possible), the initiators a pair may name. */
static unsigned long long possible_nodes;

/*
 * nodeN/memattr/read_latency_from: "<initiator>:<value>" or
 * "<initiator>:auto", the initiator a possible node written as the
 * kernel's kstrtouint() takes it (one leading '+', one trailing newline,
 * at most 7 characters), the value as for read_latency. 1 with *@init and
 * *@v for a value, 2 for "auto", 0 for a reject.
 */
static int model_pair(const char *buf, size_t len, long long *init, unsigned long long *v)
{
	const char *colon = memchr(buf, ':', len);
	size_t i = 0, idlen, digits;

	if (!colon || memchr(buf, '\0', len))
		return 0;
	idlen = colon - buf;
	if (!idlen || idlen >= 8)
		return 0;
	digits = buf[idlen - 1] == '\n' ? idlen - 1 : idlen;
	if (buf[0] == '+')
		i++;
	if (i >= digits)
		return 0;
	for (*init = 0; i < digits; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return 0;
		*init = *init * 10 + (buf[i] - '0');
	}
	if (*init >= 64 || !(possible_nodes >> *init & 1))
		return 0;
	return model_value(K_LATENCY, colon + 1, len - idlen - 1, v);
}

/* The value "<init>:" shows in a _from file's line, -1 if it lists none. */
static long long pair_shown(const char *line, long long init)
{
	char key[24];
	const char *at;

	snprintf(key, sizeof(key), "%lld:", init);
	for (at = line; (at = strstr(at, key)); at++)
		if (at == line || at[-1] == ' ')
			return strtoll(at + strlen(key), NULL, 10);
	return -1;
}

/* A knob of words: the index of the word, or -1 for a reject. */
static int model_choice(const struct target *t, const char *buf, size_t len)
{
	int i;

	if (memchr(buf, '\0', len))
		return -1;
	for (i = 0; i < t->nr_choices; i++)
		if (is_word(buf, len, t->choices[i]))
			return i;
	return -1;
}

/* ---- input ---- */

static unsigned long long rng_state;

static unsigned long long rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static const char *const corpus[] = {
	"", "\n", " ", "\t", "auto", "auto\n", "auto ", " auto", "AUTO", "auto\n\n",
	"0", "1", "2", "0\n", "1\n", "1\n\n", "-1", "-0", "+1", "00", "007", "1 ",
	" 1", "\t1", "1\t", "1.5", "1e3", "0x10", "1,2", "1-2",
	"4294967295", "4294967296", "18446744073709551616", "99999999999999999999999",
	"1000000", "1000001", "1000us", "1001us", "1000000000", "1000000001",
	"1000000GB/s", "1000001GB/s", "5GB/s", "5gb/s", "5 GB/s", "1ns", "1ns\n", "1 ns",
	"3us\n", "7mW", "2W", "4294967W", "4294968W", "1MB/s", "MB/s", "ns",
	"\xef\xbc\x91", "\xff", "\xc3\xa9", "1\xff", "never", "never\n", "always",
	"before_oom", "distance", "performance", "performance\n", "perf", " never",
	"never ", "Never", "0 1", "1 0", "0\t1", "0  1", "0,1", "0 0", "1 1", "0 1 0",
	"2 2", "63", "64", "65", "-1 0", "+0", "0\n1", "1 2 3", "3 2 1", "0 1 2 3",
	"\v0", "0\r", "\f", "2147483647", "2147483648",
	"+", "+5", "++5", "5+", "9", "10", "49", "50", "51", "256", "511", "512",
	"60000", "60001", "100000", "100001", "16777216", "16777217", "1000\n",
	"0:5", "1:5", "0:auto", "1:auto\n", "0:1us", "0:1000001", ":5", "0:", "0: 5",
	"+1:5", "-1:5", "0 :5", "63:5", "1024:5", "0:5:6", "0:5\n", "00000000:1",
};

/* Fill @buf with one test input; its length. */
static size_t make_input(char *buf, int nr_nodes)
{
	size_t len, i, n;
	const char *base;

	switch (rnd() % 10) {
	case 0 ... 3:		/* a corpus entry */
		base = corpus[rnd() % (ARRAY_SIZE(corpus))];
		len = strlen(base);
		memcpy(buf, base, len);
		return len;
	case 4:			/* a node list that may run out of bounds */
		n = 1 + rnd() % 6;
		for (len = 0, i = 0; i < n; i++)
			len += sprintf(buf + len, "%s%d", i ? " " : "",
				       (int)(rnd() % (nr_nodes + 3)) - 1);
		return len;
	case 5:			/* something huge */
		len = 64 + rnd() % (MAX_WRITE - 64);
		memset(buf, "1 a\n"[rnd() % 4], len);
		return len;
	case 6 ... 7:		/* a corpus entry, mutated */
		base = corpus[rnd() % (ARRAY_SIZE(corpus))];
		len = strlen(base);
		memcpy(buf, base, len);
		for (n = 1 + rnd() % 3; n; n--) {
			i = len ? rnd() % (len + 1) : 0;
			switch (rnd() % 3) {
			case 0:	/* insert */
				memmove(buf + i + 1, buf + i, len - i);
				buf[i] = rnd();
				len++;
				break;
			case 1:	/* replace */
				if (i < len)
					buf[i] = rnd();
				break;
			default: /* delete */
				if (i < len) {
					memmove(buf + i, buf + i + 1, len - i - 1);
					len--;
				}
			}
		}
		return len;
	default:		/* random bytes, NUL included */
		len = rnd() % 24;
		for (i = 0; i < len; i++)
			buf[i] = rnd();
		return len;
	}
}

/* ---- the files ---- */

/* Per node: seven values, a pair file, a fallback list; then the global knobs. */
#define MAX_TARGETS	(TOPO_MAX_NODES * 9 + 2 + ARRAY_SIZE(daemon_knobs))

static struct topo topo;

/* Nodes that have memory now, by per-node MemTotal. */
static unsigned long long memory_nodes(void)
{
	unsigned long long mask = 0, kb;
	int nid;

	for (nid = 0; nid < topo.nr_nodes; nid++)
		if (!node_meminfo_kb(nid, "MemTotal", &kb) && kb)
			mask |= 1ULL << nid;
	return mask;
}

/* Every writable memattr file of the booted machine; how many. */
static int list_targets(struct target *t, int max)
{
	unsigned long long memory = memory_nodes();
	int nr = 0, nid, f;

	for (nid = 0; nid < topo.nr_nodes; nid++) {
		for (f = 0; f < 7 && nr < max; f++, nr++) {
			snprintf(t[nr].path, sizeof(t[nr].path), NODE_DIR "/node%d/memattr/%s",
				 nid, field_files[f]);
			t[nr].kind = field_kinds[f];
			t[nr].nid = nid;
		}
		snprintf(t[nr].path, sizeof(t[nr].path), NODE_DIR "/node%d/memattr/read_latency_from",
			 nid);
		if (nr < max && !access(t[nr].path, F_OK)) {
			t[nr].kind = K_PAIR;
			t[nr++].nid = nid;
		}
		if (!(memory >> nid & 1) || nr >= max)
			continue;
		snprintf(t[nr].path, sizeof(t[nr].path), NODE_DIR "/node%d/memattr/fallback", nid);
		t[nr].kind = K_FALLBACK;
		t[nr++].nid = nid;
	}
	if (nr + 2 > max)
		return nr;
	t[nr] = (struct target){ .kind = K_CHOICE, .nid = -1, .choices = spill_words,
				 .nr_choices = 3 };
	snprintf(t[nr++].path, sizeof(t[0].path), POLICY_DIR "/spill");
	t[nr] = (struct target){ .kind = K_CHOICE, .nid = -1, .choices = order_words,
				 .nr_choices = 2 };
	snprintf(t[nr++].path, sizeof(t[0].path), POLICY_DIR "/fallback_order");
	/* kmemattrd's knobs, on kernels built with it */
	if (access(DAEMON_DIR, F_OK))
		return nr;
	for (f = 0; f < (int)ARRAY_SIZE(daemon_knobs) && nr < max; f++, nr++) {
		t[nr] = (struct target){ .kind = K_RANGE, .nid = -1,
					 .min = daemon_knobs[f].min, .max = daemon_knobs[f].max,
					 .def = daemon_knobs[f].def };
		snprintf(t[nr].path, sizeof(t[0].path), DAEMON_DIR "/%s", daemon_knobs[f].file);
	}
	return nr;
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* write(2) of exactly @len bytes; 0, or -1 with errno. */
static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY), err;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	err = errno;
	close(fd);
	errno = err;
	if (n >= 0 && (size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return n < 0 ? -1 : 0;
}

/*
 * One descriptor per file for the whole run: a sysfs store sees each
 * write(2) whole, and a read at offset 0 shows the value afresh.
 */
static int read_fd(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int write_fd(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	if (n >= 0 && (size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return n < 0 ? -1 : 0;
}

/* The word in brackets of a choice file. */
static int bracketed(const char *buf, char *word, size_t len)
{
	const char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close)
		return -1;
	snprintf(word, len, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

/* A readable rendering of @len bytes for the log. */
static const char *show(const char *buf, size_t len)
{
	static char out[200];
	size_t i, o = 0;

	for (i = 0; i < len && o < sizeof(out) - 8; i++)
		o += snprintf(out + o, sizeof(out) - o,
			      buf[i] >= 0x20 && buf[i] < 0x7f && buf[i] != '\\' ? "%c" : "\\x%02x",
			      (unsigned char)buf[i]);
	if (i < len)
		snprintf(out + o, sizeof(out) - o, "...(%zu bytes)", len);
	return out;
}

/* Put @t back to its default: "auto", or the knob's documented value. */
static int reset_target(const struct target *t)
{
	char val[16];
	int i;

	switch (t->kind) {
	case K_CHOICE:
		return 0;	/* the tests name the word they leave */
	case K_RANGE:
		snprintf(val, sizeof(val), "%u", t->def);
		return write_file(t->path, val, strlen(val));
	case K_PAIR:
		for (i = 0; i < 64; i++) {
			if (!(possible_nodes >> i & 1))
				continue;
			snprintf(val, sizeof(val), "%d:auto", i);
			if (write_file(t->path, val, strlen(val)))
				return -1;
		}
		return 0;
	default:
		return write_file(t->path, "auto", 4);
	}
}

FIXTURE(fuzz) {
	struct target t[MAX_TARGETS];	/* the writable files */
	int nr;						/* how many */
};

FIXTURE_SETUP(fuzz)
{
	if (topo_load(&topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s", strerror(errno));
	TOPO_NEED(&topo, !access(POLICY_DIR "/spill", F_OK), POLICY_DIR "/spill");
	TOPO_NEED(&topo, !access(NODE_DIR "/node0/memattr", F_OK), "nodeN/memattr");
	if (geteuid())
		SKIP(return, "needs root to write memattr files");
	{
		char buf[256];

		ASSERT_LE(0, sysfs_read_str(buf, sizeof(buf), NODE_DIR "/possible"));
		ASSERT_EQ(0, topo_parse_list(buf, &possible_nodes));
	}
	self->nr = list_targets(self->t, ARRAY_SIZE(self->t));
	/* The writes below race nothing: keep NUMA balancing off them. */
	sysfs_write_str("0", "/proc/sys/kernel/numa_balancing");
}

FIXTURE_TEARDOWN(fuzz)
{
	int i;

	_metadata->trigger = 0;
	/* special=auto could be refused only while all else is special */
	for (i = 0; i < self->nr; i++)
		reset_target(&self->t[i]);
	write_file(POLICY_DIR "/spill", "before_oom", 10);
	write_file(POLICY_DIR "/fallback_order", "distance", 8);
}

/* Whether the ABI accepts @buf for @t. */
static bool model_accepts(const struct target *t, const char *buf, size_t len,
			  unsigned long long memory)
{
	unsigned long long v;
	int prefix[64], nr;
	long long init;

	switch (t->kind) {
	case K_FALLBACK:
		return model_fallback(t->nid, memory, buf, len, prefix, &nr);
	case K_CHOICE:
		return model_choice(t, buf, len) >= 0;
	case K_RANGE:
		return model_range(t, buf, len, &v);
	case K_PAIR:
		return model_pair(buf, len, &init, &v);
	default:
		return model_value(t->kind, buf, len, &v);
	}
}

/* Judge one write to @t of @buf, against what the file held before. */
static void judge(struct __test_metadata *_metadata, const struct target *t, int fd,
		  const char *buf, size_t len, const char *before, const char *auto_value,
		  unsigned long long memory, int *accepted)
{
	int prefix[64], nr = 0, want, rc, i, err, choice = -1;
	char after[4096], word[64], *tok, *save;
	unsigned long long v = 0;
	long long init = -1;

	switch (t->kind) {
	case K_FALLBACK:
		want = model_fallback(t->nid, memory, buf, len, prefix, &nr);
		break;
	case K_PAIR:
		want = model_pair(buf, len, &init, &v);
		break;
	case K_CHOICE:
		choice = model_choice(t, buf, len);
		want = choice >= 0;
		break;
	case K_RANGE:
		want = model_range(t, buf, len, &v);
		break;
	default:
		want = model_value(t->kind, buf, len, &v);
	}
	rc = write_fd(fd, buf, len);
	err = errno;
	ASSERT_EQ(0, read_fd(fd, after, sizeof(after)));
	if (!want) {
		EXPECT_EQ(-1, rc) TH_LOG("%s accepted \"%s\", which the ABI rejects",
					 t->path, show(buf, len));
		if (rc) {
			EXPECT_EQ(EINVAL, err) TH_LOG("%s: \"%s\": %s, not EINVAL", t->path,
						      show(buf, len), strerror(err));
		}
		EXPECT_STREQ(before, after) TH_LOG("%s changed by rejected \"%s\"", t->path,
						   show(buf, len));
		return;
	}
	EXPECT_EQ(0, rc) TH_LOG("%s rejected \"%s\" (%s), which the ABI accepts",
				t->path, show(buf, len), strerror(err));
	if (rc)
		return;
	(*accepted)++;
	switch (t->kind) {
	case K_CHOICE:
		ASSERT_EQ(0, bracketed(after, word, sizeof(word)));
		EXPECT_STREQ(t->choices[choice], word);
		ASSERT_EQ(0, bracketed(before, word, sizeof(word)));
		ASSERT_EQ(0, write_fd(fd, word, strlen(word)));
		return;
	case K_RANGE:
		EXPECT_EQ(v, strtoull(after, NULL, 10))
			TH_LOG("%s after \"%s\": %s", t->path, show(buf, len), after);
		ASSERT_EQ(0, write_fd(fd, before, strlen(before)));
		return;
	case K_PAIR:
		/* the administrator's pair wins over every other source */
		if (want == 1) {
			unsigned long long own = 0;

			/* 0 is unknown: the node's own value shows for the pair */
			if (!v)
				ASSERT_EQ(0, sysfs_read_u64(&own, NODE_DIR "/node%d/memattr/read_latency",
							    t->nid));
			EXPECT_EQ((long long)(v ?: own), pair_shown(after, init))
				TH_LOG("%s after \"%s\": %s", t->path, show(buf, len), after);
		} else {
			EXPECT_STREQ(before, after) TH_LOG("%s after \"%s\"", t->path,
							   show(buf, len));
		}
		snprintf(word, sizeof(word), "%lld:auto", init);
		ASSERT_EQ(0, write_fd(fd, word, strlen(word)));
		return;
	case K_FALLBACK:
		tok = strtok_r(after, " \n", &save);
		EXPECT_TRUE(tok && atoi(tok) == t->nid) TH_LOG("%s: node first", t->path);
		for (i = 0; i < nr; i++) {
			tok = strtok_r(NULL, " \n", &save);
			EXPECT_TRUE(tok && atoi(tok) == prefix[i])
				TH_LOG("%s after \"%s\": entry %d is %s, not %d", t->path,
				       show(buf, len), i + 1, tok ? tok : "missing", prefix[i]);
		}
		break;
	default:
		if (want == 2) {
			EXPECT_STREQ(auto_value, after) TH_LOG("%s after auto", t->path);
		} else {
			EXPECT_EQ(v, strtoull(after, NULL, 10))
				TH_LOG("%s after \"%s\": %s", t->path, show(buf, len), after);
		}
	}
	ASSERT_EQ(0, write_fd(fd, "auto", 4));
}

/* WRITES_PER_FILE writes to every writable file, each judged by the model. */
TEST_F_TIMEOUT(fuzz, every_file, 900)
{
	unsigned long long memory = memory_nodes();
	char buf[MAX_WRITE + 8], before[4096], auto_value[4096];
	int i, n, accepted, total_accepted = 0, writes = WRITES_PER_FILE;
	int max_accepted = MAX_ACCEPTED_TENTH;
	struct timespec t0, t1;
	size_t len;

	ASSERT_LT(0, self->nr);
	/* wide machines have many files: spread the same budget over them */
	if (writes * self->nr > MAX_WRITES)
		writes = MAX_WRITES / self->nr;
	if (getenv("MEMATTR_FUZZ_WRITES")) {
		writes = atoi(getenv("MEMATTR_FUZZ_WRITES"));
		max_accepted = MAX_ACCEPTED;
	}
	rng_state = 0x6d656d61747472ULL;	/* fixed: a failure repeats */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < self->nr; i++) {
		const struct target *t = &self->t[i];
		int fd;

		ASSERT_EQ(0, reset_target(t)) TH_LOG("%s", t->path);
		ASSERT_EQ(0, read_file(t->path, before, sizeof(before)));
		memcpy(auto_value, before, sizeof(before));
		fd = open(t->path, O_RDWR);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", t->path, strerror(errno));
		for (n = accepted = 0; n < writes && !_metadata->exit_code; n++) {
			/*
			 * A zero-length write never reaches the file's store;
			 * past max_accepted only inputs the ABI rejects.
			 */
			do
				len = make_input(buf, topo.nr_nodes);
			while (!len || (accepted >= max_accepted &&
					model_accepts(t, buf, len, memory)));
			judge(_metadata, t, fd, buf, len, before, auto_value, memory, &accepted);
		}
		close(fd);
		if (_metadata->exit_code)
			return;
		total_accepted += accepted;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# fuzzed %d files with %d writes each, %d accepted, in %.1f s\n", self->nr,
	       writes, total_accepted, t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/* ---- writers racing each other and a bound allocation ---- */

struct racer {
	int cpu;			/* where it runs */
	int s;				/* the node it marks special */
	const struct target *t;		/* every file */
	int nr;
	volatile bool *stop;
	unsigned long writes;		/* how many it made */
};

static void *race(void *arg)
{
	struct racer *r = arg;
	char buf[MAX_WRITE + 8], path[160];
	unsigned long long seed = 0x9e3779b97f4a7c15ULL * (r->cpu + 1);
	cpu_set_t set;
	size_t len;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!*r->stop) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		if (seed % 3 == 0) {
			/* the file both racers fight over */
			snprintf(path, sizeof(path), NODE_DIR "/node%d/memattr/special", r->s);
			write_file(path, seed & 8 ? "1" : "0", 1);
		} else {
			/* any file, with a value that is sometimes valid */
			const struct target *t = &r->t[seed % r->nr];
			const char *word;

			if (t->kind == K_CHOICE)
				word = t->choices[(seed >> 8) % t->nr_choices];
			else if ((seed >> 8) % 4)
				word = t->kind == K_RANGE ? "" : "auto";
			else
				word = corpus[(seed >> 16) % ARRAY_SIZE(corpus)];
			len = snprintf(buf, sizeof(buf), "%s", word);
			if (!len)	/* a daemon knob: its default, or 1 */
				len = snprintf(buf, sizeof(buf), "%u",
					       seed & 16 ? t->def : 1);
			write_file(t->path, buf, len);
		}
		r->writes++;
	}
	return NULL;
}

/* A child that allocates bound to @s until killed; exits 1 on a misplaced page. */
static void __attribute__((noreturn)) bound_allocator(int s)
{
	unsigned long mask = 1UL << s;
	long i, npages = (4 << 20) / getpagesize();
	void **pages = calloc(npages, sizeof(*pages));
	int *status = calloc(npages, sizeof(*status));
	char *p;

	for (;;) {
		p = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || mbind(p, 4 << 20, MPOL_BIND, &mask, 64, 0))
			_exit(2);
		memset(p, 1, 4 << 20);
		for (i = 0; i < npages; i++)
			pages[i] = p + i * getpagesize();
		if (move_pages(0, npages, pages, NULL, status, 0))
			_exit(3);
		for (i = 0; i < npages; i++)
			if (status[i] != s)
				_exit(1);
		munmap(p, 4 << 20);
	}
}

/* After the race: node/special, the per-node files and debugfs agree. */
static void check_consistent(struct __test_metadata *_metadata, unsigned long long memory)
{
	unsigned long long special, v;
	char buf[512], *tok, *save;
	int nid, m;

	ASSERT_EQ(0, read_file(NODE_DIR "/special", buf, sizeof(buf)));
	buf[strcspn(buf, "\n")] = '\0';
	special = 0;
	if (buf[0])
		ASSERT_EQ(0, topo_parse_list(buf, &special)) TH_LOG("node/special: %s", buf);
	for (nid = 0; nid < topo.nr_nodes; nid++) {
		ASSERT_EQ(0, sysfs_read_u64(&v, NODE_DIR "/node%d/memattr/special", nid));
		EXPECT_EQ(v, special >> nid & 1)
			TH_LOG("node%d/memattr/special %llu, node/special %#llx", nid, v, special);
	}
	for (m = 0; m < topo.nr_nodes; m++) {
		if (!(memory >> m & 1))
			continue;
		ASSERT_LT(0, sysfs_read_str(buf, sizeof(buf), NODE_DIR "/node%d/memattr/fallback",
					    m));
		for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			nid = atoi(tok);
			/* spill=before_oom and no prefix (teardown state) */
			EXPECT_TRUE(nid == m || !(special >> nid & 1))
				TH_LOG("special node %d in node %d's fallback list", nid, m);
		}
	}
}

TEST_F_TIMEOUT(fuzz, concurrent_writers, 120)
{
	unsigned long long memory = memory_nodes();
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), i, s = -1, status;
	struct racer r[8];
	pthread_t th[8];
	volatile bool stop = false;
	unsigned long total = 0;
	pid_t child;

	/* the racers mark a memory-only node; its CPUs would allocate there */
	for (i = topo.nr_nodes - 1; i >= 0 && s < 0; i--)
		if (!topo.node[i].cpus[0] && (memory >> i & 1))
			s = i;
	if (s < 0)
		SKIP(return, "topology %s has no memory-only node", topo.name);
	if (ncpu > 8)
		ncpu = 8;
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		bound_allocator(s);
	for (i = 0; i < ncpu; i++) {
		r[i] = (struct racer){ .cpu = i, .s = s, .t = self->t, .nr = self->nr,
				       .stop = &stop };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, race, &r[i]));
	}
	sleep(RACE_SECONDS);
	stop = true;
	for (i = 0; i < ncpu; i++) {
		pthread_join(th[i], NULL);
		total += r[i].writes;
	}
	ASSERT_EQ(0, waitpid(child, &status, WNOHANG))
		TH_LOG("the bound allocator ended: %#x", status);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	printf("# %d writers for %d s: %lu writes; bound allocation to node %d never misplaced\n",
	       ncpu, RACE_SECONDS, total, s);

	/* a known state, then every view of it must agree */
	for (i = 0; i < self->nr; i++)
		ASSERT_EQ(0, reset_target(&self->t[i])) TH_LOG("%s", self->t[i].path);
	ASSERT_EQ(0, write_file(POLICY_DIR "/spill", "before_oom", 10));
	ASSERT_EQ(0, sysfs_write_str("1", NODE_DIR "/node%d/memattr/special", s));
	check_consistent(_metadata, memory);
	ASSERT_EQ(0, sysfs_write_str("auto", NODE_DIR "/node%d/memattr/special", s));
	check_consistent(_metadata, memory);
}

/* A value the ABI accepts for @t (what root would write), in @buf. */
static void valid_value(const struct target *t, char *buf, size_t len)
{
	switch (t->kind) {
	case K_CHOICE:
		snprintf(buf, len, "%s", t->choices[0]);
		break;
	case K_FALLBACK:
		snprintf(buf, len, "%d", t->nid);	/* its own node first */
		break;
	case K_RANGE:
		snprintf(buf, len, "%u", t->def);
		break;
	case K_PAIR:
		snprintf(buf, len, "0:auto");
		break;
	default:
		snprintf(buf, len, "auto");
		break;
	}
}

/*
 * In a child: open every file for writing (as @uid if not root) and write
 * a valid value; count the attempts not refused with @want. The exit
 * status is that count (capped), 100 + a step that failed otherwise.
 */
static int unprivileged_child(const struct target *t, int nr, uid_t uid, int want)
{
	char val[32];
	int i, fd, wrong = 0;

	if (drop_cap_sys_admin())
		return 101;
	/* The drop is real: sethostname(2) needs CAP_SYS_ADMIN too. */
	if (!sethostname("memattr", 7) || errno != EPERM)
		return 102;
	if (uid && setuid(uid))
		return 103;
	for (i = 0; i < nr; i++) {
		valid_value(&t[i], val, sizeof(val));
		fd = open(t[i].path, O_WRONLY);
		if (fd >= 0 && write(fd, val, strlen(val)) >= 0)
			errno = 0;
		if (errno != want) {
			printf("# %s: writing \"%s\" got \"%s\", not \"%s\"\n", t[i].path, val,
			       strerror(errno), strerror(want));
			wrong++;
		}
		if (fd >= 0)
			close(fd);
	}
	return wrong > 99 ? 99 : wrong;
}

/* Run unprivileged_child(); the files must read as before it. */
static void check_refused(struct __test_metadata *_metadata, FIXTURE_DATA(fuzz) *self,
			  uid_t uid, int want)
{
	static char before[MAX_TARGETS][256];
	char after[256];
	int i, status;
	pid_t pid;

	for (i = 0; i < self->nr; i++)
		ASSERT_EQ(0, read_file(self->t[i].path, before[i], sizeof(before[i])));
	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(unprivileged_child(self->t, self->nr, uid, want));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("uid %d without CAP_SYS_ADMIN: %d writes not refused with %s %s",
		       uid, WEXITSTATUS(status), strerror(want), "(100+: setup step)");
	for (i = 0; i < self->nr; i++) {
		ASSERT_EQ(0, read_file(self->t[i].path, after, sizeof(after)));
		EXPECT_STREQ(before[i], after) TH_LOG("%s changed", self->t[i].path);
	}
}

/*
 * The file mode keeps other users out (EACCES at open); a root task that
 * dropped CAP_SYS_ADMIN gets past the mode and must get EPERM from every
 * store, with nothing changed. Debugfs, which shows the records' sources,
 * is root's alone.
 */
TEST_F_TIMEOUT(fuzz, without_cap_sys_admin, 60)
{
	struct stat st;

	check_refused(_metadata, self, 0, EPERM);
	check_refused(_metadata, self, 65534, EACCES);
	ASSERT_EQ(0, stat("/sys/kernel/debug", &st));
	EXPECT_EQ(0, st.st_mode & 0077) TH_LOG("debugfs mode %o", st.st_mode & 07777);
}

TEST_HARNESS_MAIN
