/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-node memory attribute records: what a NUMA node's memory is (latency,
 * bandwidth, persistence, power, "special"), and which source said so.
 * See Documentation/admin-guide/mm/memattr.rst.
 */
#ifndef _LINUX_MEMATTR_H
#define _LINUX_MEMATTR_H

#include <linux/init.h>
#include <linux/types.h>
#include <linux/notifier.h>

struct access_coordinate;
struct attribute_group;

/*
 * Fields of a node's record. Units: latency in nanoseconds, bandwidth in
 * MB/s (as in nodeN/accessY/initiators/), power in milliwatts per GiB,
 * persistent and special are 0 or 1. A value of 0 means "unknown" for the
 * performance fields and power.
 */
enum memattr_field {
	MEMATTR_READ_LATENCY,
	MEMATTR_WRITE_LATENCY,
	MEMATTR_READ_BANDWIDTH,
	MEMATTR_WRITE_BANDWIDTH,
	MEMATTR_PERSISTENT,
	MEMATTR_POWER,
	MEMATTR_SPECIAL,
	MEMATTR_NR_FIELDS
};

/* Largest latency (ns) and bandwidth (MB/s) a record accepts. */
#define MEMATTR_MAX_LATENCY	1000000U
#define MEMATTR_MAX_BANDWIDTH	1000000000U

/* Where a value came from, in ascending precedence: a later source wins. */
enum memattr_source {
	MEMATTR_SRC_HMAT,
	MEMATTR_SRC_CXL,
	MEMATTR_SRC_SRAT,
	MEMATTR_SRC_EFI,
	MEMATTR_SRC_CMDLINE,
	MEMATTR_SRC_DRIVER,
	MEMATTR_SRC_ADMIN,
	MEMATTR_NR_SOURCES
};

#ifdef CONFIG_MEMATTR
u32 memattr_get(int nid, enum memattr_field field);
bool memattr_node_special(int nid);
int memattr_set(int nid, enum memattr_field field, u32 value,
		enum memattr_source src);
int memattr_clear(int nid, enum memattr_field field, enum memattr_source src);
int memattr_driver_set(int nid, enum memattr_field field, u32 value);
int register_memattr_notifier(struct notifier_block *nb);
int unregister_memattr_notifier(struct notifier_block *nb);
void memattr_sync(void);

/* Firmware glue: HMAT/CXL coordinates and the SRAT non-volatile flag. */
void memattr_set_perf_attrs(int nid, const struct access_coordinate *coord,
			    unsigned int access, enum memattr_source src);
void __init memattr_srat_nonvolatile(int nid);

/*
 * Performance of a node as seen from one initiator node (HMAT's matrix);
 * the record above is what the best initiator sees.
 */
u32 memattr_get_from(int initiator, int target, enum memattr_field field);
int memattr_set_from(int initiator, int target, enum memattr_field field,
		     u32 value, enum memattr_source src);
int memattr_clear_from(int initiator, int target, enum memattr_field field,
		       enum memattr_source src);
void memattr_set_initiator_perf(int initiator, int target,
				const struct access_coordinate *coord,
				enum memattr_source src);
void memattr_set_local_initiator(int target, int initiator);
int memattr_viewer(int nid);

/* For the node device's "memattr" sysfs group (drivers/base). */
int memattr_admin_write(int nid, enum memattr_field field, const char *buf);
int memattr_admin_write_from(int target, enum memattr_field field,
			     const char *buf);
ssize_t memattr_show_from(int target, enum memattr_field field, char *buf);
extern const struct attribute_group memattr_node_group;

/**
 * struct memattr_policy_ops - what a user of the "special" value adds
 * @check_special: may an administrator mark @nid special? 0 or -errno
 * @sync: wait until the user follows every record change so far
 *
 * The special-node policy (mm/memattr_policy.c) registers these once at
 * boot, so that the records need not know about it.
 */
struct memattr_policy_ops {
	int (*check_special)(int nid);
	void (*sync)(void);
};

void __init memattr_register_policy(const struct memattr_policy_ops *ops);
bool __init memattr_boot_special(int nid, bool *special);
void __init memattr_boot_refuse_special(int nid);
#else
static inline u32 memattr_get(int nid, enum memattr_field field)
{
	return 0;
}

static inline bool memattr_node_special(int nid)
{
	return false;
}

static inline int memattr_set(int nid, enum memattr_field field, u32 value,
			      enum memattr_source src)
{
	return 0;
}

static inline int memattr_clear(int nid, enum memattr_field field,
				enum memattr_source src)
{
	return 0;
}

static inline int memattr_driver_set(int nid, enum memattr_field field,
				     u32 value)
{
	return 0;
}

static inline int register_memattr_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int unregister_memattr_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline void memattr_sync(void)
{
}

static inline void memattr_set_perf_attrs(int nid,
					  const struct access_coordinate *coord,
					  unsigned int access,
					  enum memattr_source src)
{
}

static inline void memattr_srat_nonvolatile(int nid)
{
}

static inline u32 memattr_get_from(int initiator, int target,
				   enum memattr_field field)
{
	return 0;
}

static inline void memattr_set_initiator_perf(int initiator, int target,
					      const struct access_coordinate *coord,
					      enum memattr_source src)
{
}

static inline void memattr_set_local_initiator(int target, int initiator)
{
}
#endif /* CONFIG_MEMATTR */

#endif /* _LINUX_MEMATTR_H */
