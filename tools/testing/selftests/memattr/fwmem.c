// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware-described memory into the page allocator and back, through sysfs
 * alone, as ndctl and daxctl would do it: shared by the selftests that need
 * memory to arrive at run time (firmware.c, runtime_special.c).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "fwmem.h"
#include "topology.h"

/* ---- small sysfs helpers ---- */

/* The name of the driver bound to a device ("" if none); 0 or -1. */
static int bound_driver(char *drv, size_t len, const char *devpath)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "%s/driver", devpath);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		drv[0] = '\0';
		return errno == ENOENT ? 0 : -1;
	}
	target[n] = '\0';
	snprintf(drv, len, "%s", basename(target));
	return 0;
}

/* Find the device of @bus whose @attr reads @want (decimal); 0 or -1. */
static int find_dev_by_attr(char *name, size_t len, const char *bus,
			    const char *prefix, const char *attr,
			    unsigned long long want)
{
	unsigned long long val;
	struct dirent *de;
	DIR *d;

	d = opendir(bus);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (sysfs_read_u64(&val, "%s/%s/%s", bus, de->d_name, attr) ||
		    val != want)
			continue;
		snprintf(name, len, "%s", de->d_name);
		closedir(d);
		return 0;
	}
	closedir(d);
	errno = ENODEV;
	return -1;
}

/* MemTotal of a node in bytes; 0 while the node does not exist. */
unsigned long long node_mem_total(int nid)
{
	unsigned long long kb;

	return node_meminfo_kb(nid, "MemTotal", &kb) ? 0 : kb << 10;
}

/* Write @state to every memory block of @nid not in it; blocks or -1. */
int set_node_blocks(int nid, const char *state)
{
	char path[PATH_MAX], cur[32];
	struct dirent *de;
	int nr = 0, ret = 0;
	DIR *d;

	snprintf(path, sizeof(path), NODE_DIR "/node%d", nid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "memory", 6) || !isdigit(de->d_name[6]))
			continue;
		nr++;
		if (sysfs_read_str(cur, sizeof(cur), MEMORY_DIR "/%s/state", de->d_name) < 0)
			ret = -1;
		else if (!strncmp(cur, state, strlen(cur)))
			continue;
		else if (sysfs_write_str(state, MEMORY_DIR "/%s/state", de->d_name))
			ret = -1;
	}
	closedir(d);
	return ret ? ret : nr;
}

/* ---- firmware memory into the page allocator ---- */

/* A random UUID in the form libnvdimm parses. */
static void make_uuid(char *buf, size_t len)
{
	unsigned char b[16] = { 0 };

	if (getrandom(b, sizeof(b), 0) != sizeof(b))
		b[0] = (unsigned char)getpid();
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(buf, len,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
}

/*
 * What "ndctl create-namespace -m devdax" does for a label-less NVDIMM, in
 * sysfs: free the raw namespace, point the region's dax seed at it and bind
 * the seed to dax_pmem, which writes the info block and creates a device-dax
 * instance on the dax bus. @why says which step failed.
 */
int nvdimm_to_devdax(const struct topo_fw_mem *fw, const char **why)
{
	char region[NAME_LEN], ns[NAME_LEN] = "", seed[NAME_LEN], drv[NAME_LEN];
	char path[PATH_MAX], uuid[40];
	unsigned long long size;
	struct dirent *de;
	DIR *d;

	*why = "no libnvdimm region with that target_node";
	if (find_dev_by_attr(region, sizeof(region), ND_BUS "/devices", "region",
			     "target_node", fw->node))
		return -1;
	*why = "no non-empty namespace in the region";
	snprintf(path, sizeof(path), ND_BUS "/devices/%s", region);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "namespace", 9) && strchr(de->d_name, '.') &&
		    !sysfs_read_u64(&size, "%s/%s/size", path, de->d_name) && size)
			snprintf(ns, sizeof(ns), "%s", de->d_name);
	closedir(d);
	if (!ns[0])
		return -1;

	/* A raw namespace bound to nd_pmem would keep the dax claim from probing. */
	*why = "unbinding the raw namespace";
	snprintf(path, sizeof(path), ND_BUS "/devices/%s", ns);
	if (bound_driver(drv, sizeof(drv), path) ||
	    (drv[0] && sysfs_write_str(ns, ND_BUS "/drivers/%s/unbind", drv)))
		return -1;

	*why = "reading the region's dax_seed";
	if (sysfs_read_str(seed, sizeof(seed), ND_BUS "/devices/%s/dax_seed", region) <= 0)
		return -1;
	make_uuid(uuid, sizeof(uuid));
	*why = "writing the dax seed's uuid";
	if (sysfs_write_str(uuid, ND_BUS "/devices/%s/uuid", seed))
		return -1;
	*why = "writing the dax seed's mode (pmem: page map on the NVDIMM)";
	if (sysfs_write_str("pmem", ND_BUS "/devices/%s/mode", seed))
		return -1;
	*why = "writing the dax seed's namespace";
	if (sysfs_write_str(ns, ND_BUS "/devices/%s/namespace", seed))
		return -1;
	*why = "binding the dax seed to dax_pmem";
	return sysfs_write_str(seed, ND_BUS "/drivers/dax_pmem/bind");
}

/*
 * Hand the device-dax instance of @nid to dax/kmem, as "daxctl
 * create-device" (for an idle region's empty seed) and "daxctl
 * reconfigure-device -m system-ram" do; @dev receives its name.
 */
int dax_to_kmem(int nid, char *dev, size_t len, const char **why)
{
	char path[PATH_MAX], drv[NAME_LEN], buf[32];
	unsigned long long size;

	*why = "no dax device with that target_node";
	if (find_dev_by_attr(dev, len, DAX_BUS "/devices", "dax", "target_node", nid))
		return -1;
	snprintf(path, sizeof(path), DAX_BUS "/devices/%s", dev);
	*why = "reading the dax device's size";
	if (sysfs_read_u64(&size, "%s/size", path))
		return -1;
	if (!size) {
		/* dax_hmem.region_idle=1: give the seed all of its region */
		*why = "reading the dax region's available_size";
		if (sysfs_read_u64(&size, "%s/../dax_region/available_size", path))
			return -1;
		snprintf(buf, sizeof(buf), "%llu", size);
		*why = "writing the dax device's size";
		if (sysfs_write_str(buf, "%s/size", path))
			return -1;
	}
	*why = "reading the dax device's driver";
	if (bound_driver(drv, sizeof(drv), path))
		return -1;
	if (strcmp(drv, "kmem")) {
		*why = "unbinding the dax device from its driver";
		if (drv[0] && sysfs_write_str(dev, DAX_BUS "/drivers/%s/unbind", drv))
			return -1;
		*why = "kmem/new_id";
		if (sysfs_write_str(dev, DAX_BUS "/drivers/kmem/new_id"))
			return -1;
		*why = "kmem did not bind the dax device";
		if (bound_driver(drv, sizeof(drv), path) || strcmp(drv, "kmem")) {
			errno = ENODEV;
			return -1;
		}
	}
	return 0;
}

/* Take the memory away again: offline the blocks, unbind kmem. */
int system_ram_away(int nid, const char *dev)
{
	int ret = 0;

	if (set_node_blocks(nid, "offline") < 0)
		ret = -1;
	if (sysfs_write_str(dev, DAX_BUS "/drivers/kmem/unbind"))
		ret = -1;
	sysfs_write_str(dev, DAX_BUS "/drivers/kmem/remove_id");
	return ret;
}
