/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The booted topology as the harness describes it in /memattr/topology:
 * the independent truth memattr selftests compare the kernel against.
 */
#ifndef MEMATTR_SELFTEST_TOPOLOGY_H
#define MEMATTR_SELFTEST_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#define TOPO_MAX_NODES	64
#define TOPO_PATH	"/memattr/topology"

/* Index of a performance value, in the order 6.12's sysfs names them. */
enum topo_perf {
	TOPO_READ_LATENCY,
	TOPO_WRITE_LATENCY,
	TOPO_READ_BANDWIDTH,
	TOPO_WRITE_BANDWIDTH,
	TOPO_NR_PERF,
};

/* Fields a topology may set through the memattr= boot parameter. */
enum topo_memattr {
	TOPO_MA_READ_LATENCY,
	TOPO_MA_WRITE_LATENCY,
	TOPO_MA_READ_BANDWIDTH,
	TOPO_MA_WRITE_BANDWIDTH,
	TOPO_MA_POWER,
	TOPO_MA_PERSISTENT,
	TOPO_MA_SPECIAL,
	TOPO_NR_MEMATTR,
};

extern const char *const topo_perf_names[TOPO_NR_PERF];
extern const char *const topo_memattr_names[TOPO_NR_MEMATTR];

struct topo_cache {
	bool present;			/* a memory-side cache was emulated */
	int level;			/* cache level (indexN) */
	unsigned long long size;	/* bytes */
	unsigned int line_size;		/* bytes */
	unsigned int indexing;		/* 6.12's enum cache_indexing */
	unsigned int write_policy;	/* 6.12's enum cache_write_policy */
};

struct topo_node {
	char cpus[64];			/* cpulist, empty for memory-only */
	unsigned long long mem_bytes;	/* size of the node's memory backend */
	int initiator;			/* HMAT initiator node, -1 if none */
	int distance[TOPO_MAX_NODES];	/* SLIT row */
	bool has_access;		/* HMAT values exist for the initiator */
	unsigned long long access[TOPO_NR_PERF];	/* ns and MB/s */
	struct topo_cache cache;	/* memory-side cache, if any */
	long long memattr[TOPO_NR_MEMATTR];	/* memattr= value, -1 if unset */
};

#define TOPO_MAX_VIEWS	64

/* One target as seen from one initiator: HMAT's pair and memattr=T@I. */
struct topo_view {
	int initiator;			/* the node with the CPUs */
	int target;			/* the node with the memory */
	bool hmat;			/* HMAT gives the pair */
	unsigned long long perf[TOPO_NR_PERF];	/* HMAT's values, ns and MB/s */
	long long memattr[TOPO_NR_PERF];	/* memattr=T@I value, -1 if unset */
};

struct topo {
	char name[32];			/* topology name */
	int nr_nodes;			/* nodes 0 .. nr_nodes - 1 */
	unsigned long long online_empty;	/* also online at boot, no memory */
	bool hmat;			/* the machine has an HMAT */
	bool memattr_kernel;		/* the harness booted a memattr kernel */
	bool debug_kernel;		/* ... its debug build (KASAN and more) */
	struct topo_node node[TOPO_MAX_NODES];
	int nr_views;			/* entries in view[] */
	struct topo_view view[TOPO_MAX_VIEWS];	/* HMAT's matrix, memattr=T@I */
	char cmdline[1024];		/* extra kernel command-line words */
};

/*
 * What nodeT/memattr/<field>_from must show for initiator I after boot:
 * the memattr=T@I value, else memattr=T's for the whole node if HMAT gives
 * the pair (a higher source than HMAT's), else HMAT's; -1 if the topology
 * gives no pair. @source is set to the pair's own winning source
 * ("cmdline" or "hmat", as debugfs memattr/views shows it) when not NULL.
 */
long long topo_view_value(const struct topo *t, int initiator, int target,
			  int perf, const char **source);

/*
 * A memattr interface is missing (@ok false): a failure on a kernel the
 * harness booted as memattr's, a reason to skip on the base kernel or
 * outside the harness. For kselftest_harness tests and fixture setups.
 */
#define TOPO_NEED(_topo, _ok, _what)					\
	do {								\
		if (_ok)						\
			break;						\
		const char *__what = (_what);				\
		ASSERT_FALSE((_topo)->memattr_kernel)			\
			TH_LOG("memattr kernel without %s", __what);	\
		SKIP(return, "kernel without %s", __what);		\
	} while (0)

/*
 * The least MemTotal (KiB) node @nid may show: 3/4 of its memory (the rest
 * is the kernel's own), less KASAN's shadow (an eighth of all memory, taken
 * from the first node) on the debug kernel.
 */
unsigned long long topo_min_mem_kb(const struct topo *t, int nid);

/* Nodes online at boot: 0 .. nr_nodes - 1 and online_empty. */
unsigned long long topo_online_nodes(const struct topo *t);

/* Parse @path (NULL: $MEMATTR_TOPOLOGY or TOPO_PATH); 0 or -1 with errno. */
int topo_load(struct topo *t, const char *path);

/* Read one unsigned decimal sysfs value; 0 or -1 with errno set. */
int sysfs_read_u64(unsigned long long *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Read a whole small file into @buf (trailing newline removed); length or -1. */
int sysfs_read_str(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Write @val to a sysfs file; 0 or -1 with errno from write(2). */
int sysfs_write_str(const char *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parse a node or CPU list ("0-1,3", "" = none) into a bitmask; 0 or -1. */
int topo_parse_list(const char *list, unsigned long long *mask);

/* One field of /sys/devices/system/node/nodeN/meminfo in kB; 0 or -1. */
int node_meminfo_kb(int nid, const char *field, unsigned long long *kb);

/* Parse a cpulist ("0-1,3") into a bitmask of CPUs 0..62; -1 on junk. */
long long topo_cpulist_mask(const char *list);

/* The value of @name in a file of "key value" lines (/proc/vmstat); -1 if missing. */
long long key_value(const char *path, const char *name);

/* Drop CAP_SYS_ADMIN from this task, staying uid 0; 0 or -1. */
int drop_cap_sys_admin(void);

/* Memory that firmware describes and that comes online only at run time. */
enum topo_fw_kind {
	TOPO_FW_NVDIMM,			/* "nvdimm": SRAT flags it non-volatile */
	TOPO_FW_EFI_SP,			/* "efi_sp": EFI specific-purpose RAM */
	TOPO_FW_DIMM,			/* "dimm": RAM that ACPI hotplug added */
};

#define TOPO_MAX_FW_MEM	8

struct topo_fw_mem {
	enum topo_fw_kind kind;		/* what firmware says it is */
	int node;			/* the node it belongs to */
	unsigned long long start;	/* guest-physical start, 0 if not fixed */
	unsigned long long size;	/* bytes */
};

/*
 * Read the "nvdimm", "efi_sp" and "dimm" lines of @path (NULL as for topo_load())
 * into @fw; the number found (at most @max), or -1 with errno.
 */
int topo_load_fw_mem(struct topo_fw_mem *fw, int max, const char *path);

#endif
