// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/devices/system/node/nodeN/memattr/: one file per field of the node's
 * memory attribute record (mm/memattr.c), and one per latency or bandwidth
 * field with the node's view from each initiator (<field>_from); root
 * writes set the "admin" source.
 */

#define pr_fmt(fmt) "memattr: " fmt

#include <linux/capability.h>
#include <linux/device.h>
#include <linux/memattr.h>
#include <linux/memattr_policy.h>
#include <linux/sysfs.h>

/* A node device file showing one field of the node's record. */
struct memattr_node_attr {
	/* the sysfs file */
	struct device_attribute attr;
	/* the field it shows */
	enum memattr_field field;
};

#define to_memattr_node_attr(a) container_of(a, struct memattr_node_attr, attr)

static ssize_t memattr_node_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	enum memattr_field field = to_memattr_node_attr(attr)->field;

	return sysfs_emit(buf, "%u\n", memattr_get(dev->id, field));
}

/* Checks and locking shared by the writes; @write applies the value. */
static ssize_t memattr_node_write(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count,
				  int (*write)(int nid, enum memattr_field field,
					       const char *buf))
{
	enum memattr_field field = to_memattr_node_attr(attr)->field;
	int ret;

	/*
	 * The file mode keeps other users out; a root task that dropped
	 * CAP_SYS_ADMIN must not change what the kernel believes either.
	 */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/* A NUL byte would hide what follows it from the parser. */
	if (strnlen(buf, count) != count)
		return -EINVAL;

	/*
	 * memattr_admin_write() waits for memory tiers to follow, which takes
	 * mem_hotplug_lock; node hot-remove holds that while it waits for this
	 * file to be released. The device hotplug lock keeps hot-remove out.
	 */
	ret = lock_device_hotplug_sysfs();
	if (ret)
		return ret;
	ret = write(dev->id, field, buf);
	unlock_device_hotplug();

	return ret ? ret : count;
}

static ssize_t memattr_node_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	return memattr_node_write(dev, attr, buf, count, memattr_admin_write);
}

static ssize_t memattr_from_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return memattr_show_from(dev->id, to_memattr_node_attr(attr)->field,
				 buf);
}

static ssize_t memattr_from_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	return memattr_node_write(dev, attr, buf, count,
				  memattr_admin_write_from);
}

#define MEMATTR_NODE_ATTR(_name, _field)				\
	{ __ATTR(_name, 0644, memattr_node_show, memattr_node_store), _field }

#define MEMATTR_FROM_ATTR(_name, _field)				\
	{ __ATTR(_name, 0644, memattr_from_show, memattr_from_store), _field }

static struct memattr_node_attr memattr_node_attr_list[] = {
	MEMATTR_NODE_ATTR(read_latency, MEMATTR_READ_LATENCY),
	MEMATTR_NODE_ATTR(write_latency, MEMATTR_WRITE_LATENCY),
	MEMATTR_NODE_ATTR(read_bandwidth, MEMATTR_READ_BANDWIDTH),
	MEMATTR_NODE_ATTR(write_bandwidth, MEMATTR_WRITE_BANDWIDTH),
	MEMATTR_NODE_ATTR(persistent, MEMATTR_PERSISTENT),
	MEMATTR_NODE_ATTR(power, MEMATTR_POWER),
	MEMATTR_NODE_ATTR(special, MEMATTR_SPECIAL),
};

/*
 * A row of HMAT's initiator x target matrix per file, "<initiator>:<value>"
 * pairs, as nodeN/distance holds a row of SLIT: one value per file would
 * take a directory per pair, made and removed as initiators come and go,
 * and a row is what a user compares (which CPUs see this node as near).
 */
static struct memattr_node_attr memattr_from_attr_list[] = {
	MEMATTR_FROM_ATTR(read_latency_from, MEMATTR_READ_LATENCY),
	MEMATTR_FROM_ATTR(write_latency_from, MEMATTR_WRITE_LATENCY),
	MEMATTR_FROM_ATTR(read_bandwidth_from, MEMATTR_READ_BANDWIDTH),
	MEMATTR_FROM_ATTR(write_bandwidth_from, MEMATTR_WRITE_BANDWIDTH),
};

static struct attribute *memattr_node_attrs[] = {
	&memattr_node_attr_list[0].attr.attr,
	&memattr_node_attr_list[1].attr.attr,
	&memattr_node_attr_list[2].attr.attr,
	&memattr_node_attr_list[3].attr.attr,
	&memattr_node_attr_list[4].attr.attr,
	&memattr_node_attr_list[5].attr.attr,
	&memattr_node_attr_list[6].attr.attr,
	&memattr_from_attr_list[0].attr.attr,
	&memattr_from_attr_list[1].attr.attr,
	&memattr_from_attr_list[2].attr.attr,
	&memattr_from_attr_list[3].attr.attr,
	&memattr_fallback_attr.attr,
	NULL
};

static_assert(ARRAY_SIZE(memattr_node_attr_list) == MEMATTR_NR_FIELDS);

/* Listed in node_dev_groups, so hot-added nodes get it when registered. */
const struct attribute_group memattr_node_group = {
	.name = "memattr",
	.attrs = memattr_node_attrs,
};
