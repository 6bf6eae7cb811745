// SPDX-License-Identifier: GPL-2.0
/*
 * Per-node memory attribute records: merge what firmware, the memattr= boot
 * parameter, drivers and the administrator say about each node's memory, and
 * publish the winning values for lock-free readers and memory tiering.
 */

#define pr_fmt(fmt) "memattr: " fmt

#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/memattr.h>
#include <linux/memory-tiers.h>
#include <linux/mutex.h>
#include <linux/node.h>
#include <linux/nodemask.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

/*
 * Each field's value comes from up to MEMATTR_NR_SOURCES sources; the set
 * source with the highest enum value wins. Worked example for one field:
 *
 *	source:  hmat  cxl  srat  efi  cmdline  driver  admin   winner
 *	boot      150    -     -    -      200       -      -   cmdline 200
 *	admin     150    -     -    -      200       -     90   admin    90
 *	"auto"    150    -     -    -      200       -      -   cmdline 200
 *
 * Memory per node id (MAX_NUMNODES of them, static): 28 bytes of published
 * values, 7 bytes of winning sources and an 8 byte record pointer. A node
 * that any source describes also gets a 224 byte struct memattr_record
 * (kmalloc-256), allocated on first use and never freed, so that ids named
 * by memattr= keep their values until the node comes online. Values staged
 * before slab is up (memattr=, SRAT) live in __initdata and are freed.
 *
 * The view of a node from each initiator (HMAT's matrix) is kept apart, in
 * struct memattr_view, one for each (initiator, target) pair a source
 * describes, 148 bytes (kmalloc-192) plus the xarray's nodes. HMAT names
 * as initiators the nodes with CPUs or generic initiators, so the memory
 * grows with targets x initiators: at 64 nodes that are all initiators,
 * 4096 pairs, about 800 KiB; at 64 nodes of which 8 are initiators, 512
 * pairs, about 100 KiB. Views are never freed either.
 */

/* How values of a field are written and checked. */
enum memattr_kind {
	MEMATTR_KIND_LATENCY,
	MEMATTR_KIND_BANDWIDTH,
	MEMATTR_KIND_POWER,
	MEMATTR_KIND_FLAG,
	MEMATTR_NR_KINDS
};

/* Optional unit suffix of a written value and what it multiplies by. */
struct memattr_unit {
	/* suffix as typed after the number */
	const char *suffix;
	/* factor to the field's base unit */
	u32 scale;
};

#define MEMATTR_MAX_UNITS	2

static const struct memattr_unit memattr_units[MEMATTR_NR_KINDS][MEMATTR_MAX_UNITS] = {
	[MEMATTR_KIND_LATENCY]   = { { "ns", 1 },   { "us", 1000 } },
	[MEMATTR_KIND_BANDWIDTH] = { { "MB/s", 1 }, { "GB/s", 1000 } },
	[MEMATTR_KIND_POWER]     = { { "mW", 1 },   { "W", 1000 } },
};

/* Name (sysfs file, memattr= word) and kind of every field. */
static const struct {
	/* name used in sysfs, memattr= and debugfs */
	const char *name;
	/* how values are written and checked */
	enum memattr_kind kind;
} memattr_fields[MEMATTR_NR_FIELDS] = {
	[MEMATTR_READ_LATENCY]    = { "read_latency",    MEMATTR_KIND_LATENCY },
	[MEMATTR_WRITE_LATENCY]   = { "write_latency",   MEMATTR_KIND_LATENCY },
	[MEMATTR_READ_BANDWIDTH]  = { "read_bandwidth",  MEMATTR_KIND_BANDWIDTH },
	[MEMATTR_WRITE_BANDWIDTH] = { "write_bandwidth", MEMATTR_KIND_BANDWIDTH },
	[MEMATTR_PERSISTENT]      = { "persistent",      MEMATTR_KIND_FLAG },
	[MEMATTR_POWER]           = { "power",           MEMATTR_KIND_POWER },
	[MEMATTR_SPECIAL]         = { "special",         MEMATTR_KIND_FLAG },
};

static const char * const memattr_source_names[MEMATTR_NR_SOURCES] = {
	[MEMATTR_SRC_HMAT]    = "hmat",
	[MEMATTR_SRC_CXL]     = "cxl",
	[MEMATTR_SRC_SRAT]    = "srat",
	[MEMATTR_SRC_EFI]     = "efi",
	[MEMATTR_SRC_CMDLINE] = "cmdline",
	[MEMATTR_SRC_DRIVER]  = "driver",
	[MEMATTR_SRC_ADMIN]   = "admin",
};

/* One field of one node, as each source sees it. */
struct memattr_field_rec {
	/* value given by each source; 0 where the source's bit is clear */
	u32 value[MEMATTR_NR_SOURCES];
	/* BIT(source) for every source currently giving a value */
	u8 set;
};

/* Everything the sources say about one node. */
struct memattr_record {
	/* per-source values of each field, indexed by enum memattr_field */
	struct memattr_field_rec field[MEMATTR_NR_FIELDS];
};

/* Latency and bandwidth: the fields that differ between initiators. */
#define MEMATTR_NR_PERF_FIELDS	(MEMATTR_WRITE_BANDWIDTH + 1)

/* What the sources say about one node as seen from one initiator node. */
struct memattr_view {
	/* per-source values, indexed by enum memattr_field */
	struct memattr_field_rec field[MEMATTR_NR_PERF_FIELDS];
	/* winning values: written under memattr_lock, read locklessly */
	u32 value[MEMATTR_NR_PERF_FIELDS];
	/* winning sources, MEMATTR_NR_SOURCES for none; same rules */
	u8 winner[MEMATTR_NR_PERF_FIELDS];
};

/* Serialises writers: protects the records and the state below them. */
static DEFINE_MUTEX(memattr_lock);
/* Per-source records, allocated on first use; protected by memattr_lock. */
static struct memattr_record *memattr_records[MAX_NUMNODES];
/* Winning values: written under memattr_lock with WRITE_ONCE(), read locklessly. */
static u32 memattr_value[MAX_NUMNODES][MEMATTR_NR_FIELDS];
/* Winning sources (MEMATTR_NR_SOURCES: none); same rules as memattr_value. */
static u8 memattr_winner[MAX_NUMNODES][MEMATTR_NR_FIELDS] = {
	[0 ... MAX_NUMNODES - 1] = {
		[0 ... MEMATTR_NR_FIELDS - 1] = MEMATTR_NR_SOURCES
	}
};

/*
 * Views, at memattr_view_index(): stored under memattr_lock, looked up
 * locklessly (the xarray's RCU), never removed.
 */
static DEFINE_XARRAY(memattr_views);
/* The initiator HMAT names local to each memory node; NUMA_NO_NODE if none. */
static int memattr_local_initiator[MAX_NUMNODES] = {
	[0 ... MAX_NUMNODES - 1] = NUMA_NO_NODE
};

/* Nodes waiting to be re-placed in memory tiers; protected by memattr_lock. */
static nodemask_t memattr_tier_pending;
/* Nodes whose missing HMAT values were already logged; atomic bit ops. */
static nodemask_t memattr_hmat_logged;

static BLOCKING_NOTIFIER_HEAD(memattr_chain);
/* The special-node policy's callbacks, once it registered them. */
static const struct memattr_policy_ops *memattr_policy __ro_after_init;

/* memattr= values seen before slab is up, applied by memattr_init(). */
static struct {
	/* value of each field given for this node */
	u32 value[MEMATTR_NR_FIELDS];
	/* BIT(field) for each field given */
	u8 fields;
} memattr_cmdline[MAX_NUMNODES] __initdata;
/* Nodes with a memory range that SRAT flags non-volatile. */
static nodemask_t memattr_srat_nv __initdata;

/* ---- pure logic, tested by tests/memattr-kunit.h ---- */

static bool memattr_field_is_perf(enum memattr_field field)
{
	return field <= MEMATTR_WRITE_BANDWIDTH;
}

/* The winning source among those in @set, or MEMATTR_NR_SOURCES if none. */
static enum memattr_source memattr_pick(unsigned long set)
{
	return set ? __fls(set) : MEMATTR_NR_SOURCES;
}

static u32 memattr_field_value(const struct memattr_field_rec *fr)
{
	enum memattr_source src = memattr_pick(fr->set);

	return src < MEMATTR_NR_SOURCES ? fr->value[src] : 0;
}

/*
 * Record @src's @value in @fr, or drop @src's value when @value is NULL.
 * Returns true when the winning source or the winning value changed.
 */
static bool memattr_field_update(struct memattr_field_rec *fr,
				 enum memattr_source src, const u32 *value)
{
	enum memattr_source old_src = memattr_pick(fr->set);
	u32 old_value = memattr_field_value(fr);

	if (value) {
		fr->value[src] = *value;
		fr->set |= BIT(src);
	} else {
		fr->value[src] = 0;
		fr->set &= ~BIT(src);
	}

	return memattr_pick(fr->set) != old_src ||
	       memattr_field_value(fr) != old_value;
}

/*
 * Largest value of each kind. Latency and bandwidth feed the abstract
 * distance of memory tiers (mt_perf_to_adistance()); these bounds keep
 * its arithmetic far from wrapping, and no memory is slower than 1 ms
 * or faster than 1 PB/s.
 */
static const u32 memattr_max[MEMATTR_NR_KINDS] = {
	[MEMATTR_KIND_LATENCY]   = MEMATTR_MAX_LATENCY,
	[MEMATTR_KIND_BANDWIDTH] = MEMATTR_MAX_BANDWIDTH,
	[MEMATTR_KIND_POWER]     = U32_MAX,
	[MEMATTR_KIND_FLAG]      = 1,
};

static int memattr_check_value(enum memattr_field field, u32 value)
{
	if (value > memattr_max[memattr_fields[field].kind])
		return -EINVAL;
	return 0;
}

/* Factor for unit suffix @s (@len bytes) of @field, 1 if empty, 0 if bad. */
static u32 memattr_unit_scale(enum memattr_field field, const char *s,
			      size_t len)
{
	const struct memattr_unit *unit = memattr_units[memattr_fields[field].kind];
	int i;

	if (!len)
		return 1;
	for (i = 0; i < MEMATTR_MAX_UNITS && unit[i].suffix; i++) {
		if (strlen(unit[i].suffix) == len &&
		    !memcmp(unit[i].suffix, s, len))
			return unit[i].scale;
	}
	return 0;
}

/*
 * Parse a value for @field from @s (@len bytes, one trailing newline allowed):
 * decimal digits and an optional unit suffix of the field. Returns 0,
 * -ERANGE if it does not fit in u32, or -EINVAL.
 */
static int memattr_parse_value(enum memattr_field field, const char *s,
			       size_t len, u32 *value)
{
	u64 v = 0;
	size_t i;
	u32 scale;

	if (len && s[len - 1] == '\n')
		len--;
	for (i = 0; i < len && isdigit(s[i]); i++) {
		v = v * 10 + (s[i] - '0');
		if (v > U32_MAX)
			return -ERANGE;
	}
	if (!i)
		return -EINVAL;

	scale = memattr_unit_scale(field, s + i, len - i);
	if (!scale)
		return -EINVAL;
	v *= scale;
	if (v > U32_MAX)
		return -ERANGE;
	if (memattr_check_value(field, v))
		return -EINVAL;

	*value = v;
	return 0;
}

static int memattr_parse_field(const char *name, size_t len)
{
	int field;

	for (field = 0; field < MEMATTR_NR_FIELDS; field++) {
		if (strlen(memattr_fields[field].name) == len &&
		    !memcmp(memattr_fields[field].name, name, len))
			return field;
	}
	return -EINVAL;
}

/*
 * One memattr= occurrence: "<nodelist>[@<initiators>]:<field>[=<value>][,...]".
 * With "@", the values are the nodes' performance as seen from each of the
 * initiator nodes, not the nodes' own.
 */
struct memattr_param {
	/* nodes named before the colon (or before "@") */
	nodemask_t nodes;
	/* initiator nodes named after "@", if @from */
	nodemask_t initiators;
	/* "@" was given: only latency and bandwidth fields are accepted */
	bool from;
	/* value of each field given, indexed by enum memattr_field */
	u32 value[MEMATTR_NR_FIELDS];
	/* BIT(field) for each well-formed field given */
	unsigned long fields;
	/* malformed items that were ignored */
	unsigned int nr_bad;
};

/* memattr=<nodes>@<initiators>:... occurrences, applied by memattr_init(). */
#define MEMATTR_MAX_VIEW_PARAMS	8
static struct memattr_param memattr_cmdline_views[MEMATTR_MAX_VIEW_PARAMS] __initdata;
static int memattr_nr_cmdline_views __initdata;

/* Longest nodelist accepted before the colon, including the NUL. */
#define MEMATTR_NODELIST_MAX	128

/* Parse the non-empty node list of @len bytes at @s into @nodes. */
static int memattr_parse_nodes(const char *s, size_t len, nodemask_t *nodes)
{
	char list[MEMATTR_NODELIST_MAX];

	if (!len || len >= sizeof(list))
		return -EINVAL;
	memcpy(list, s, len);
	list[len] = '\0';
	if (nodelist_parse(list, *nodes) || nodes_empty(*nodes))
		return -EINVAL;
	return 0;
}

/* Parse one "<field>[=<value>]" item of @len bytes at @s into @p. */
static int memattr_parse_item(const char *s, size_t len,
			      struct memattr_param *p)
{
	const char *eq = memchr(s, '=', len);
	size_t name_len = eq ? eq - s : len;
	int field = memattr_parse_field(s, name_len);
	u32 value = 1;
	int ret;

	if (field < 0)
		return field;
	if (p->from && !memattr_field_is_perf(field))
		return -EINVAL;
	if (eq) {
		ret = memattr_parse_value(field, eq + 1, len - name_len - 1,
					  &value);
		if (ret)
			return ret;
	} else if (memattr_fields[field].kind != MEMATTR_KIND_FLAG) {
		return -EINVAL;
	}

	p->value[field] = value;
	p->fields |= BIT(field);
	return 0;
}

/*
 * Parse one memattr= occurrence @str into @p. A bad nodelist makes the whole
 * occurrence unusable (-EINVAL); a bad item is reported, counted in
 * @p->nr_bad and skipped, and the other items still count.
 */
static int memattr_parse_param(const char *str, struct memattr_param *p)
{
	const char *colon = strchr(str, ':');
	const char *item, *end, *at;

	memset(p, 0, sizeof(*p));
	if (!colon)
		goto bad_nodes;
	at = memchr(str, '@', colon - str);
	p->from = at;
	if (memattr_parse_nodes(str, (at ?: colon) - str, &p->nodes) ||
	    (at && memattr_parse_nodes(at + 1, colon - at - 1, &p->initiators)))
		goto bad_nodes;

	for (item = colon + 1; ; item = end + 1) {
		end = strchrnul(item, ',');
		if (memattr_parse_item(item, end - item, p)) {
			pr_warn("memattr=%s: ignoring malformed '%.*s'\n",
				str, (int)(end - item), item);
			p->nr_bad++;
		}
		if (!*end)
			break;
	}
	return 0;

bad_nodes:
	pr_warn("memattr=%s: malformed node list, entry ignored\n", str);
	return -EINVAL;
}

/*
 * Parse an administrator's "<initiator>:<value>" (or "<initiator>:auto")
 * for a node's view from one initiator: the initiator into @initiator, and
 * @value to the text after the colon. Returns 0 or -EINVAL.
 */
static int memattr_parse_pair(const char *buf, unsigned int *initiator,
			      const char **value)
{
	const char *colon = strchr(buf, ':');
	char id[8];

	if (!colon || colon == buf || (size_t)(colon - buf) >= sizeof(id))
		return -EINVAL;
	memcpy(id, buf, colon - buf);
	id[colon - buf] = '\0';
	if (kstrtouint(id, 10, initiator) || *initiator >= MAX_NUMNODES)
		return -EINVAL;
	*value = colon + 1;
	return 0;
}

/*
 * Does a pair's @value from @pair_src stand, against the target's record
 * whose winning source is @node_src? A known pair value does unless the
 * record's source ranks above it (MEMATTR_NR_SOURCES: none).
 */
static bool memattr_pair_wins(enum memattr_source pair_src, u32 value,
			      enum memattr_source node_src)
{
	if (pair_src == MEMATTR_NR_SOURCES || !value)
		return false;
	return node_src == MEMATTR_NR_SOURCES || pair_src >= node_src;
}

/* Key of the view of @target from @initiator in memattr_views. */
static unsigned long memattr_view_index(int initiator, int target)
{
	return (unsigned long)target * MAX_NUMNODES + initiator;
}

/*
 * The node whose view of the others orders @nid's fallback list: the
 * initiator HMAT names local to @nid (@local, NUMA_NO_NODE if none: for a
 * node with CPUs that is the node itself); without one, @nid if it is an
 * initiator (in @initiators: CPUs or a generic initiator), else the
 * nearest initiator by distance (the lowest id of equals), else @nid.
 * HMAT's answer comes first because it does not change when CPUs go
 * offline, and zonelists are not rebuilt when they do.
 */
static int memattr_pick_viewer(int nid, const nodemask_t *initiators,
			       int local, int (*distance)(int from, int to))
{
	int best = NUMA_NO_NODE, cand;

	if (local != NUMA_NO_NODE)
		return local;
	if (node_isset(nid, *initiators))
		return nid;
	for_each_node_mask(cand, *initiators) {
		if (best == NUMA_NO_NODE ||
		    distance(nid, cand) < distance(nid, best))
			best = cand;
	}
	return best == NUMA_NO_NODE ? nid : best;
}

/* ---- records ---- */

static bool memattr_valid(int nid, enum memattr_field field)
{
	return (unsigned int)nid < MAX_NUMNODES &&
	       (unsigned int)field < MEMATTR_NR_FIELDS;
}

/**
 * memattr_get - Winning value of one field of a node's record
 * @nid: node id
 * @field: the field
 *
 * Lock-free; a concurrent writer may be seen just before or after its write.
 *
 * Return: the value (latency in ns, bandwidth in MB/s, power in mW/GiB,
 * flags 0/1); 0 when no source gives one or @nid/@field is out of range.
 */
u32 memattr_get(int nid, enum memattr_field field)
{
	if (!memattr_valid(nid, field))
		return 0;
	return READ_ONCE(memattr_value[nid][field]);
}

/**
 * memattr_node_special - Whether a node's memory is for explicit use only
 * @nid: node id
 *
 * Return: true if the winning value of the special field is 1.
 */
bool memattr_node_special(int nid)
{
	return memattr_get(nid, MEMATTR_SPECIAL);
}

/* Winning source of @field of @nid, MEMATTR_NR_SOURCES if none; lock-free. */
static enum memattr_source memattr_get_source(int nid,
					      enum memattr_field field)
{
	return READ_ONCE(memattr_winner[nid][field]);
}

/* Whether a source above firmware gives a latency or bandwidth of @nid. */
static bool memattr_perf_overridden(int nid)
{
	enum memattr_source src;
	int field;

	for (field = 0; field <= MEMATTR_WRITE_BANDWIDTH; field++) {
		src = memattr_get_source(nid, field);
		if (src >= MEMATTR_SRC_CMDLINE && src < MEMATTR_NR_SOURCES)
			return true;
	}
	return false;
}

static void memattr_tier_workfn(struct work_struct *work)
{
	nodemask_t todo;
	int nid;

	scoped_guard(mutex, &memattr_lock) {
		todo = memattr_tier_pending;
		nodes_clear(memattr_tier_pending);
	}
	for_each_node_mask(nid, todo)
		mt_node_adistance_changed(nid);
}

/* Tiers are re-placed from a work item: writers may hold hotplug locks. */
static DECLARE_WORK(memattr_tier_work, memattr_tier_workfn);

static struct memattr_record *__memattr_record(int nid, bool alloc)
{
	lockdep_assert_held(&memattr_lock);

	if (!memattr_records[nid] && alloc) {
		memattr_records[nid] = kzalloc(sizeof(*memattr_records[nid]),
					       GFP_KERNEL);
		if (!memattr_records[nid])
			return ERR_PTR(-ENOMEM);
	}
	return memattr_records[nid];
}

/*
 * Would setting (@value) or dropping (NULL) @src's value make @nid special?
 * Then the policy must agree: a node may not become special when that
 * leaves no ordinary memory. Called under memattr_lock, so that two marks
 * cannot both pass. Administrators get -EINVAL; other sources a log line.
 */
static int memattr_vet_special(int nid, const struct memattr_field_rec *fr,
			       enum memattr_source src, const u32 *value)
{
	struct memattr_field_rec next = *fr;
	int ret;

	lockdep_assert_held(&memattr_lock);
	if (!memattr_policy || memattr_field_value(fr))
		return 0;
	memattr_field_update(&next, src, value);
	if (!memattr_field_value(&next))
		return 0;
	ret = memattr_policy->check_special(nid);
	if (ret && src != MEMATTR_SRC_ADMIN)
		pr_warn("node %d: special from %s refused: no ordinary memory would be left\n",
			nid, memattr_source_names[src]);
	return ret;
}

/* Set (@value) or drop (NULL) @src's value, publish and notify on change. */
static int memattr_update(int nid, enum memattr_field field,
			  enum memattr_source src, const u32 *value)
{
	struct memattr_field_rec *fr;
	struct memattr_record *rec;
	unsigned long changed = BIT(field);
	int ret;

	might_sleep();
	scoped_guard(mutex, &memattr_lock) {
		rec = __memattr_record(nid, !!value);
		if (IS_ERR_OR_NULL(rec))
			return PTR_ERR_OR_ZERO(rec);
		fr = &rec->field[field];
		if (field == MEMATTR_SPECIAL) {
			ret = memattr_vet_special(nid, fr, src, value);
			if (ret)
				return ret;
		}
		if (!memattr_field_update(fr, src, value))
			return 0;

		WRITE_ONCE(memattr_value[nid][field], memattr_field_value(fr));
		WRITE_ONCE(memattr_winner[nid][field], memattr_pick(fr->set));
		if (memattr_field_is_perf(field) &&
		    (src >= MEMATTR_SRC_CMDLINE || memattr_perf_overridden(nid))) {
			node_set(nid, memattr_tier_pending);
			schedule_work(&memattr_tier_work);
		}
	}

	blocking_notifier_call_chain(&memattr_chain, nid, &changed);
	return 0;
}

/**
 * memattr_set - Record what one source says about one field of a node
 * @nid: node id; the node need not be online
 * @field: the field
 * @value: latency in ns, bandwidth in MB/s, power in mW/GiB, flags 0 or 1
 * @src: who says so
 *
 * The highest-precedence source giving a value wins (see enum
 * memattr_source). Memory-tier placement follows changes of latency or
 * bandwidth made by sources above firmware. May sleep.
 *
 * Return: 0, -EINVAL for a bad @nid, @field, @src or @value, or -ENOMEM.
 */
int memattr_set(int nid, enum memattr_field field, u32 value,
		enum memattr_source src)
{
	if (!memattr_valid(nid, field) ||
	    (unsigned int)src >= MEMATTR_NR_SOURCES ||
	    memattr_check_value(field, value))
		return -EINVAL;
	return memattr_update(nid, field, src, &value);
}
EXPORT_SYMBOL_GPL(memattr_set);

/**
 * memattr_clear - Drop one source's value of one field of a node
 * @nid: node id
 * @field: the field
 * @src: the source whose value goes; the next source's value shows again
 *
 * May sleep.
 *
 * Return: 0, or -EINVAL for a bad @nid, @field or @src.
 */
int memattr_clear(int nid, enum memattr_field field, enum memattr_source src)
{
	if (!memattr_valid(nid, field) ||
	    (unsigned int)src >= MEMATTR_NR_SOURCES)
		return -EINVAL;
	return memattr_update(nid, field, src, NULL);
}
EXPORT_SYMBOL_GPL(memattr_clear);

/**
 * memattr_driver_set - Let a driver say what a node's memory is
 * @nid: node id
 * @field: the field
 * @value: latency in ns, bandwidth in MB/s, power in mW/GiB, flags 0 or 1
 *
 * For drivers that know their memory (dax/kmem, accelerator drivers). The
 * value is recorded with source "driver": it overrides firmware and the
 * memattr= boot parameter, and is overridden by the administrator. May sleep.
 *
 * Return: 0, -EINVAL for a bad @nid, @field or @value, or -ENOMEM.
 */
int memattr_driver_set(int nid, enum memattr_field field, u32 value)
{
	return memattr_set(nid, field, value, MEMATTR_SRC_DRIVER);
}

/* ---- the view from each initiator ---- */

static bool memattr_pair_valid(int initiator, int target,
			       enum memattr_field field)
{
	return (unsigned int)initiator < MAX_NUMNODES &&
	       memattr_valid(target, field) && memattr_field_is_perf(field);
}

static struct memattr_view *__memattr_view(int initiator, int target,
					   bool alloc)
{
	unsigned long index = memattr_view_index(initiator, target);
	struct memattr_view *view;
	int field, ret;

	lockdep_assert_held(&memattr_lock);
	view = xa_load(&memattr_views, index);
	if (view || !alloc)
		return view;

	view = kzalloc(sizeof(*view), GFP_KERNEL);
	if (!view)
		return ERR_PTR(-ENOMEM);
	for (field = 0; field < MEMATTR_NR_PERF_FIELDS; field++)
		view->winner[field] = MEMATTR_NR_SOURCES;
	/* Stored whole: lockless readers never see a half-made view. */
	ret = xa_err(xa_store(&memattr_views, index, view, GFP_KERNEL));
	if (ret) {
		kfree(view);
		return ERR_PTR(ret);
	}
	return view;
}

/* Set (@value) or drop (NULL) @src's value of a view, publish, notify. */
static int memattr_update_from(int initiator, int target,
			       enum memattr_field field,
			       enum memattr_source src, const u32 *value)
{
	unsigned long changed = BIT(field);
	struct memattr_field_rec *fr;
	struct memattr_view *view;

	might_sleep();
	scoped_guard(mutex, &memattr_lock) {
		view = __memattr_view(initiator, target, !!value);
		if (IS_ERR_OR_NULL(view))
			return PTR_ERR_OR_ZERO(view);
		fr = &view->field[field];
		if (!memattr_field_update(fr, src, value))
			return 0;
		WRITE_ONCE(view->value[field], memattr_field_value(fr));
		WRITE_ONCE(view->winner[field], memattr_pick(fr->set));
	}

	/* The view orders fallback lists; memory tiers use the record only. */
	blocking_notifier_call_chain(&memattr_chain, target, &changed);
	return 0;
}

/**
 * memattr_get_from - A node's performance as seen from one initiator node
 * @initiator: the node whose CPUs (or generic initiator) access the memory
 * @target: the node whose memory is accessed
 * @field: a latency or bandwidth field
 *
 * Lock-free, also with interrupts off. The pair's value wins unless the
 * target's own record has it from a higher-precedence source (memattr= or
 * the administrator overriding firmware for the node as a whole); between
 * equal sources the pair, the more specific, wins. Pairs that no source
 * describes (or whose value is 0, unknown), and fields other than latency
 * and bandwidth, give the target's record value: what its best initiator
 * sees.
 *
 * Return: latency in ns or bandwidth in MB/s; 0 when unknown.
 */
u32 memattr_get_from(int initiator, int target, enum memattr_field field)
{
	enum memattr_source src = MEMATTR_NR_SOURCES;
	struct memattr_view *view;
	u32 value = 0;

	if (!memattr_pair_valid(initiator, target, field))
		return memattr_get(target, field);

	rcu_read_lock();
	view = xa_load(&memattr_views, memattr_view_index(initiator, target));
	if (view) {
		src = READ_ONCE(view->winner[field]);
		value = READ_ONCE(view->value[field]);
	}
	rcu_read_unlock();
	if (!memattr_pair_wins(src, value, memattr_get_source(target, field)))
		return memattr_get(target, field);
	return value;
}
EXPORT_SYMBOL_GPL(memattr_get_from);

/**
 * memattr_set_from - Record one source's view of a node from one initiator
 * @initiator: initiator node id; need not be online
 * @target: target node id; need not be online
 * @field: a latency or bandwidth field
 * @value: latency in ns, bandwidth in MB/s
 * @src: who says so; precedence as for memattr_set()
 *
 * May sleep.
 *
 * Return: 0, -EINVAL for a bad node id, field, source or value, or -ENOMEM.
 */
int memattr_set_from(int initiator, int target, enum memattr_field field,
		     u32 value, enum memattr_source src)
{
	if (!memattr_pair_valid(initiator, target, field) ||
	    (unsigned int)src >= MEMATTR_NR_SOURCES ||
	    memattr_check_value(field, value))
		return -EINVAL;
	return memattr_update_from(initiator, target, field, src, &value);
}
EXPORT_SYMBOL_GPL(memattr_set_from);

/**
 * memattr_clear_from - Drop one source's view of a node from one initiator
 * @initiator: initiator node id
 * @target: target node id
 * @field: a latency or bandwidth field
 * @src: the source whose value goes; the next source's value shows again
 *
 * May sleep.
 *
 * Return: 0, or -EINVAL for a bad node id, field or source.
 */
int memattr_clear_from(int initiator, int target, enum memattr_field field,
		       enum memattr_source src)
{
	if (!memattr_pair_valid(initiator, target, field) ||
	    (unsigned int)src >= MEMATTR_NR_SOURCES)
		return -EINVAL;
	return memattr_update_from(initiator, target, field, src, NULL);
}
EXPORT_SYMBOL_GPL(memattr_clear_from);

/**
 * memattr_set_local_initiator - Note the initiator HMAT names local to a node
 * @target: a memory node
 * @initiator: the initiator of its Memory Proximity Domain Attributes
 *
 * The node's fallback list follows the view of that initiator
 * (memattr_viewer()).
 */
void memattr_set_local_initiator(int target, int initiator)
{
	if ((unsigned int)target < MAX_NUMNODES &&
	    (unsigned int)initiator < MAX_NUMNODES)
		WRITE_ONCE(memattr_local_initiator[target], initiator);
}

static int memattr_node_distance(int from, int to)
{
	return node_distance(from, to);
}

/**
 * memattr_viewer - The node whose view orders a node's fallback list
 * @nid: node id
 *
 * Return: the initiator HMAT names local to @nid; without one, @nid if it
 * is an initiator (CPUs or a generic initiator), else the nearest
 * initiator by distance; @nid if there is none.
 */
int memattr_viewer(int nid)
{
	nodemask_t initiators;

	if ((unsigned int)nid >= MAX_NUMNODES)
		return nid;
	nodes_or(initiators, node_states[N_CPU],
		 node_states[N_GENERIC_INITIATOR]);
	return memattr_pick_viewer(nid, &initiators,
				   READ_ONCE(memattr_local_initiator[nid]),
				   memattr_node_distance);
}

/**
 * register_memattr_notifier - Get told when a node's winning values change
 * @nb: notifier block; called in process context with the node id as
 *	action and a pointer to an unsigned long mask of BIT(field) as data
 *
 * Return: 0 on success, -EEXIST if @nb is already registered.
 */
int register_memattr_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&memattr_chain, nb);
}

/**
 * unregister_memattr_notifier - Stop being told about record changes
 * @nb: notifier block passed to register_memattr_notifier()
 *
 * Return: 0 on success, -ENOENT if @nb was not registered.
 */
int unregister_memattr_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&memattr_chain, nb);
}

/* The fields of @coord, indexed by enum memattr_field. */
static void memattr_coord_values(const struct access_coordinate *coord,
				 u32 value[MEMATTR_NR_PERF_FIELDS])
{
	value[MEMATTR_READ_LATENCY] = coord->read_latency;
	value[MEMATTR_WRITE_LATENCY] = coord->write_latency;
	value[MEMATTR_READ_BANDWIDTH] = coord->read_bandwidth;
	value[MEMATTR_WRITE_BANDWIDTH] = coord->write_bandwidth;
}

/**
 * memattr_set_perf_attrs - Take firmware performance of a node
 * @nid: node id
 * @coord: latency (ns) and bandwidth (MB/s) from the node's initiators
 * @access: access class; only the best CPU initiator's (access1) is kept
 * @src: MEMATTR_SRC_HMAT for the ACPI table, MEMATTR_SRC_CXL for what the
 *	CXL driver computed from the devices' CDAT and the links
 *
 * HMAT hands over a node's performance when its memory goes online; CXL
 * does when a region's memory goes online, either directly (a node HMAT
 * does not describe) or by replacing HMAT's values for the target. The
 * callers know which it is, so each value keeps its real source, and CDAT
 * values (the more specific ones) win over HMAT's. This may run with the
 * memory hotplug locks held: nothing below takes them, the policy and tier
 * updates are deferred. A zero value is unknown: it drops the source's value
 * rather than recording a 0, and is logged once per node.
 */
void memattr_set_perf_attrs(int nid, const struct access_coordinate *coord,
			    unsigned int access, enum memattr_source src)
{
	u32 value[MEMATTR_NR_PERF_FIELDS];
	bool missing = false;
	int field;

	memattr_coord_values(coord, value);

	if (access != ACCESS_COORDINATE_CPU ||
	    WARN_ON_ONCE(src != MEMATTR_SRC_HMAT && src != MEMATTR_SRC_CXL))
		return;

	for (field = 0; field < ARRAY_SIZE(value); field++) {
		if (value[field]) {
			if (memattr_set(nid, field, value[field], src) == -EINVAL)
				pr_notice("node %d: %s %s %u is out of range, ignored\n",
					  nid, memattr_source_names[src],
					  memattr_fields[field].name, value[field]);
		} else {
			memattr_clear(nid, field, src);
			missing = true;
		}
	}

	if (missing && (unsigned int)nid < MAX_NUMNODES &&
	    !node_test_and_set(nid, memattr_hmat_logged))
		pr_notice("node %d: firmware gives no latency or bandwidth for some accesses, shown as 0 (unknown)\n",
			  nid);
}
EXPORT_SYMBOL_GPL(memattr_set_perf_attrs);

/**
 * memattr_set_initiator_perf - Take firmware's view of a node from an initiator
 * @initiator: the initiator node (CPUs or a generic initiator)
 * @target: the memory node
 * @coord: latency (ns) and bandwidth (MB/s) of the pair; 0 is unknown
 * @src: MEMATTR_SRC_HMAT (CDAT gives no per-initiator values)
 *
 * HMAT hands over its whole initiator x target matrix when a target's
 * memory goes online, beside the best initiator's values that
 * memattr_set_perf_attrs() records. May run with memory hotplug locks held,
 * as that does. A zero value drops the source's value of the pair.
 */
void memattr_set_initiator_perf(int initiator, int target,
				const struct access_coordinate *coord,
				enum memattr_source src)
{
	u32 value[MEMATTR_NR_PERF_FIELDS];
	int field, ret;

	if (WARN_ON_ONCE(src != MEMATTR_SRC_HMAT) ||
	    !memattr_pair_valid(initiator, target, MEMATTR_READ_LATENCY))
		return;
	memattr_coord_values(coord, value);
	for (field = 0; field < MEMATTR_NR_PERF_FIELDS; field++) {
		if (!value[field]) {
			memattr_clear_from(initiator, target, field, src);
			continue;
		}
		ret = memattr_set_from(initiator, target, field, value[field], src);
		if (ret == -EINVAL)
			pr_notice("node %d from node %d: %s %s %u is out of range, ignored\n",
				  target, initiator, memattr_source_names[src],
				  memattr_fields[field].name, value[field]);
		else if (ret)
			pr_warn("node %d from node %d: %s %s not recorded: %d\n",
				target, initiator, memattr_source_names[src],
				memattr_fields[field].name, ret);
	}
}
EXPORT_SYMBOL_GPL(memattr_set_initiator_perf);

/**
 * memattr_srat_nonvolatile - Note that SRAT flags memory of a node non-volatile
 * @nid: node id
 *
 * Called while SRAT is parsed, before slab is up; applied by memattr_init().
 */
void __init memattr_srat_nonvolatile(int nid)
{
	if ((unsigned int)nid < MAX_NUMNODES)
		node_set(nid, memattr_srat_nv);
}

/**
 * memattr_admin_write - Apply an administrator's write to a sysfs file
 * @nid: node id
 * @field: the file's field
 * @buf: "auto" to drop the administrator's value, or a value
 *
 * Validates fully before changing anything. Returns once memory tiers
 * reflect the change; the caller must keep node hot-remove out (device
 * hotplug lock), since that waits for sysfs writers with mem_hotplug_lock
 * held.
 *
 * Return: 0, -EINVAL for a bad value, or -ENOMEM.
 */
int memattr_admin_write(int nid, enum memattr_field field, const char *buf)
{
	u32 value;
	int ret;

	if (sysfs_streq(buf, "auto")) {
		ret = memattr_clear(nid, field, MEMATTR_SRC_ADMIN);
	} else {
		if (memattr_parse_value(field, buf, strlen(buf), &value))
			return -EINVAL;
		ret = memattr_set(nid, field, value, MEMATTR_SRC_ADMIN);
	}

	if (!ret)
		memattr_sync();
	return ret;
}

/**
 * memattr_admin_write_from - Apply an administrator's write of a node's view
 * @target: node id of the sysfs file
 * @field: the file's latency or bandwidth field
 * @buf: "<initiator>:<value>", or "<initiator>:auto" to drop the
 *	administrator's value of the pair
 *
 * Validates fully before changing anything; the initiator must be a
 * possible node. Returns once the fallback lists follow; the caller keeps
 * node hot-remove out, as for memattr_admin_write().
 *
 * Return: 0, -EINVAL for a bad pair or value, or -ENOMEM.
 */
int memattr_admin_write_from(int target, enum memattr_field field,
			     const char *buf)
{
	unsigned int initiator;
	const char *text;
	u32 value;
	int ret;

	if (memattr_parse_pair(buf, &initiator, &text) ||
	    !node_possible(initiator) ||
	    !memattr_pair_valid(initiator, target, field))
		return -EINVAL;

	if (sysfs_streq(text, "auto")) {
		ret = memattr_clear_from(initiator, target, field,
					 MEMATTR_SRC_ADMIN);
	} else {
		if (memattr_parse_value(field, text, strlen(text), &value))
			return -EINVAL;
		ret = memattr_set_from(initiator, target, field, value,
				       MEMATTR_SRC_ADMIN);
	}

	if (!ret)
		memattr_sync();
	return ret;
}

/**
 * memattr_show_from - Show a node's view from every initiator a source names
 * @target: node id of the sysfs file
 * @field: the file's latency or bandwidth field
 * @buf: the sysfs page
 *
 * One line of "<initiator>:<value>" pairs, by ascending initiator, for the
 * initiators a source describes the pair of, with the value
 * memattr_get_from() gives (what fallback order uses); a row of HMAT's
 * matrix, as nodeN/distance holds a row of SLIT. Lock-free: a pair written
 * meanwhile may show its old or its new value. More than about 250
 * initiators do not fit in the page: the list is cut, and that is logged.
 *
 * Return: bytes written, or -EINVAL for a bad @target or @field.
 */
ssize_t memattr_show_from(int target, enum memattr_field field, char *buf)
{
	unsigned long first, index;
	struct memattr_view *view;
	int len = 0;

	if (!memattr_valid(target, field) || !memattr_field_is_perf(field))
		return -EINVAL;

	first = memattr_view_index(0, target);
	xa_for_each_range(&memattr_views, index, view, first,
			  first + MAX_NUMNODES - 1) {
		char pair[24];
		int n;

		if (READ_ONCE(view->winner[field]) == MEMATTR_NR_SOURCES)
			continue;
		n = scnprintf(pair, sizeof(pair), "%s%lu:%u", len ? " " : "",
			      index - first,
			      memattr_get_from(index - first, target, field));
		/* whole pairs only, and room for the newline */
		if (len + n + 1 >= PAGE_SIZE) {
			pr_warn_once("node %d: too many initiators for one sysfs page, list cut\n",
				     target);
			break;
		}
		len += sysfs_emit_at(buf, len, "%s", pair);
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

/**
 * memattr_sync - Wait until memory tiers and the fallback policy follow
 *
 * Record changes reach memory tiers and zonelists through work items, as
 * their writers may hold memory hotplug locks. Callers that hold none (a
 * sysfs write, a driver's probe) call this to return only once the change
 * is in effect. Must not be called with CPU or memory hotplug locks held.
 */
void memattr_sync(void)
{
	flush_work(&memattr_tier_work);
	if (memattr_policy)
		memattr_policy->sync();
}
EXPORT_SYMBOL_GPL(memattr_sync);

/**
 * memattr_register_policy - let the special-node policy vet and follow records
 * @ops: its callbacks; registered once, before user space runs
 */
void __init memattr_register_policy(const struct memattr_policy_ops *ops)
{
	memattr_policy = ops;
}

/* ---- boot parameter ---- */

static int __init memattr_early_param(char *str)
{
	struct memattr_param p;
	int nid, field;

	if (!str) {
		pr_warn("memattr= needs <nodelist>:<field>[=<value>],...\n");
		return 0;
	}
	if (memattr_parse_param(str, &p))
		return 0;

	if (p.from) {
		if (memattr_nr_cmdline_views == MEMATTR_MAX_VIEW_PARAMS)
			pr_warn("memattr=%s: more than %d entries with '@', entry ignored\n",
				str, MEMATTR_MAX_VIEW_PARAMS);
		else
			memattr_cmdline_views[memattr_nr_cmdline_views++] = p;
		return 0;
	}

	for_each_node_mask(nid, p.nodes) {
		for_each_set_bit(field, &p.fields, MEMATTR_NR_FIELDS) {
			memattr_cmdline[nid].value[field] = p.value[field];
			memattr_cmdline[nid].fields |= BIT(field);
		}
	}
	return 0;
}
early_param("memattr", memattr_early_param);

/**
 * memattr_boot_special - what memattr= said about a node being special
 * @nid: node id
 * @special: set to the parameter's value if it named @nid
 *
 * For the first zonelist build, which comes before memattr_init() puts the
 * parameter's values into the records.
 *
 * Return: true if memattr= gave @nid a special value.
 */
bool __init memattr_boot_special(int nid, bool *special)
{
	if (!(memattr_cmdline[nid].fields & BIT(MEMATTR_SPECIAL)))
		return false;
	*special = memattr_cmdline[nid].value[MEMATTR_SPECIAL];
	return true;
}

/**
 * memattr_boot_refuse_special - drop memattr=<nid>:special before it applies
 * @nid: a node the parameter makes special
 *
 * For the first zonelist build, when the parameter would make every node
 * with memory special: the node's mark is logged and never recorded.
 */
void __init memattr_boot_refuse_special(int nid)
{
	memattr_cmdline[nid].fields &= ~BIT(MEMATTR_SPECIAL);
	pr_warn("memattr=%d:special ignored: no node with memory would be left for implicit allocations\n",
		nid);
}

/* ---- memory tiers ---- */

/*
 * Answer only for nodes whose latency or bandwidth a source above firmware
 * gives, so that every other node is placed exactly as without memattr.
 */
static int memattr_calc_adistance(struct notifier_block *nb,
				  unsigned long nid, void *data)
{
	struct access_coordinate perf;

	if (nid >= MAX_NUMNODES || !memattr_perf_overridden(nid))
		return NOTIFY_DONE;

	perf.read_latency = memattr_get(nid, MEMATTR_READ_LATENCY);
	perf.write_latency = memattr_get(nid, MEMATTR_WRITE_LATENCY);
	perf.read_bandwidth = memattr_get(nid, MEMATTR_READ_BANDWIDTH);
	perf.write_bandwidth = memattr_get(nid, MEMATTR_WRITE_BANDWIDTH);
	if (mt_perf_to_adistance(&perf, data))
		return NOTIFY_DONE;

	return NOTIFY_STOP;
}

/* Ahead of HMAT's algorithm (priority 100). */
static struct notifier_block memattr_adist_nb = {
	.notifier_call = memattr_calc_adistance,
	.priority = 200,
};

/* ---- debugfs ---- */

static void memattr_show_node(struct seq_file *m, int nid,
			      const struct memattr_record *rec)
{
	const struct memattr_field_rec *fr;
	enum memattr_source winner;
	int field, src;

	seq_printf(m, "node%d\n  %-16s %10s %-8s", nid, "field", "value",
		   "winner");
	for (src = 0; src < MEMATTR_NR_SOURCES; src++)
		seq_printf(m, " %10s", memattr_source_names[src]);
	seq_putc(m, '\n');

	for (field = 0; field < MEMATTR_NR_FIELDS; field++) {
		fr = rec ? &rec->field[field] : NULL;
		winner = fr ? memattr_pick(fr->set) : MEMATTR_NR_SOURCES;
		seq_printf(m, "  %-16s %10u %-8s", memattr_fields[field].name,
			   fr ? memattr_field_value(fr) : 0,
			   winner < MEMATTR_NR_SOURCES ?
			   memattr_source_names[winner] : "-");
		for (src = 0; src < MEMATTR_NR_SOURCES; src++) {
			if (fr && (fr->set & BIT(src)))
				seq_printf(m, " %10u", fr->value[src]);
			else
				seq_printf(m, " %10s", "-");
		}
		seq_putc(m, '\n');
	}
}

static int memattr_records_show(struct seq_file *m, void *v)
{
	int nid;

	guard(mutex)(&memattr_lock);
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		if (memattr_records[nid] || node_online(nid))
			memattr_show_node(m, nid, memattr_records[nid]);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(memattr_records);

/* One line per field of each view a source describes. */
static int memattr_views_show(struct seq_file *m, void *v)
{
	const struct memattr_field_rec *fr;
	struct memattr_view *view;
	unsigned long index;
	int field, src;

	seq_printf(m, "%-6s %-9s %-16s %10s %-8s", "target", "initiator",
		   "field", "value", "winner");
	for (src = 0; src < MEMATTR_NR_SOURCES; src++)
		seq_printf(m, " %10s", memattr_source_names[src]);
	seq_putc(m, '\n');

	guard(mutex)(&memattr_lock);
	xa_for_each(&memattr_views, index, view) {
		for (field = 0; field < MEMATTR_NR_PERF_FIELDS; field++) {
			fr = &view->field[field];
			if (!fr->set)
				continue;
			seq_printf(m, "%-6lu %-9lu %-16s %10u %-8s",
				   index / MAX_NUMNODES, index % MAX_NUMNODES,
				   memattr_fields[field].name,
				   memattr_field_value(fr),
				   memattr_source_names[memattr_pick(fr->set)]);
			for (src = 0; src < MEMATTR_NR_SOURCES; src++) {
				if (fr->set & BIT(src))
					seq_printf(m, " %10u", fr->value[src]);
				else
					seq_printf(m, " %10s", "-");
			}
			seq_putc(m, '\n');
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(memattr_views);

/* ---- init ---- */

/*
 * Record the memattr= entries with '@', in the order given. Only possible
 * nodes count: a view costs memory, and "0-1023@0-1023" would ask for a
 * million of them.
 */
static void __init memattr_apply_cmdline_views(void)
{
	struct memattr_param *p;
	int i, target, initiator, field;

	for (i = 0; i < memattr_nr_cmdline_views; i++) {
		p = &memattr_cmdline_views[i];
		nodes_and(p->nodes, p->nodes, node_possible_map);
		nodes_and(p->initiators, p->initiators, node_possible_map);
		if (nodes_empty(p->nodes) || nodes_empty(p->initiators)) {
			pr_warn("memattr= entry %d with '@' names no possible node, ignored\n",
				i + 1);
			continue;
		}
		for_each_node_mask(target, p->nodes)
			for_each_node_mask(initiator, p->initiators)
				for_each_set_bit(field, &p->fields, MEMATTR_NR_PERF_FIELDS)
					memattr_set_from(initiator, target, field,
							 p->value[field],
							 MEMATTR_SRC_CMDLINE);
	}
}

/*
 * Structure before firmware and devices: runs before HMAT (subsys_initcall),
 * dax/kmem (device_initcall) and memory_tier_late_init() (late_initcall), so
 * the first tier placement already sees memattr= values.
 */
static int __init memattr_init(void)
{
	struct dentry *dir;
	unsigned long fields;
	int nid, field;

	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		fields = memattr_cmdline[nid].fields;
		for_each_set_bit(field, &fields, MEMATTR_NR_FIELDS)
			memattr_set(nid, field, memattr_cmdline[nid].value[field],
				    MEMATTR_SRC_CMDLINE);
		if (node_isset(nid, memattr_srat_nv))
			memattr_set(nid, MEMATTR_PERSISTENT, 1, MEMATTR_SRC_SRAT);
	}
	memattr_apply_cmdline_views();

	register_mt_adistance_algorithm(&memattr_adist_nb);
	dir = debugfs_create_dir("memattr", NULL);
	debugfs_create_file("records", 0444, dir, NULL, &memattr_records_fops);
	debugfs_create_file("views", 0444, dir, NULL, &memattr_views_fops);
	return 0;
}
postcore_initcall(memattr_init);

#include "tests/memattr-kunit.h"
