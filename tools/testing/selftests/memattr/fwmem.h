/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Firmware-described memory into the page allocator and back (fwmem.c).
 */
#ifndef MEMATTR_SELFTEST_FWMEM_H
#define MEMATTR_SELFTEST_FWMEM_H

#include <stddef.h>

#include "topology.h"

#define NODE_DIR	"/sys/devices/system/node"
#define MEMORY_DIR	"/sys/devices/system/memory"
#define DAX_BUS		"/sys/bus/dax"
#define ND_BUS		"/sys/bus/nd"
#define NAME_LEN	256	/* a sysfs directory entry name */

/* MemTotal of a node in bytes; 0 while the node does not exist. */
unsigned long long node_mem_total(int nid);

/* Write @state to every memory block of @nid not in it; blocks or -1. */
int set_node_blocks(int nid, const char *state);

/* An NVDIMM's raw namespace made a device-dax instance; @why on failure. */
int nvdimm_to_devdax(const struct topo_fw_mem *fw, const char **why);

/* The device-dax instance of @nid handed to kmem; @dev gets its name. */
int dax_to_kmem(int nid, char *dev, size_t len, const char **why);

/* Take the memory away again: offline the blocks, unbind kmem. */
int system_ram_away(int nid, const char *dev);

#endif
