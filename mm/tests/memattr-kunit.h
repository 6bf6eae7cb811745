/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests for mm/memattr.c: memattr= parsing, value validation and
 * units, source precedence and the administrator's "auto" reset. Included
 * at the end of memattr.c so that the pure static helpers are tested as is.
 */

#ifdef CONFIG_MEMATTR_KUNIT_TEST

#ifndef _MEMATTR_KUNIT_H
#define _MEMATTR_KUNIT_H

#include <kunit/test.h>

static void memattr_test_value_units(struct kunit *test)
{
	u32 v = 0;

	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_READ_LATENCY, "120", 3, &v));
	KUNIT_EXPECT_EQ(test, 120u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_READ_LATENCY, "120\n", 4, &v));
	KUNIT_EXPECT_EQ(test, 120u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_WRITE_LATENCY, "95ns", 4, &v));
	KUNIT_EXPECT_EQ(test, 95u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_WRITE_LATENCY, "3us", 3, &v));
	KUNIT_EXPECT_EQ(test, 3000u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_READ_BANDWIDTH, "100MB/s", 7, &v));
	KUNIT_EXPECT_EQ(test, 100u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_WRITE_BANDWIDTH, "25GB/s", 6, &v));
	KUNIT_EXPECT_EQ(test, 25000u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_POWER, "150mW", 5, &v));
	KUNIT_EXPECT_EQ(test, 150u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_POWER, "2W", 2, &v));
	KUNIT_EXPECT_EQ(test, 2000u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_POWER, "007", 3, &v));
	KUNIT_EXPECT_EQ(test, 7u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_POWER, "4294967295", 10, &v));
	KUNIT_EXPECT_EQ(test, 4294967295u, v);

	/* a unit of another field is junk */
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_READ_LATENCY, "1GB/s", 5, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_READ_BANDWIDTH, "1us", 3, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_READ_BANDWIDTH, "1gb/s", 5, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_PERSISTENT, "1ns", 3, &v));
}

static void memattr_test_value_invalid(struct kunit *test)
{
	u32 v = 42;

	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "", 0, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "\n", 1, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "abc", 3, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "-1", 2, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "+5", 2, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "12x", 3, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "12 mW", 5, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "1\n\n", 3, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_POWER, "auto", 4, &v));

	/* 2^32 and beyond: in digits, or only after the unit's factor */
	KUNIT_EXPECT_EQ(test, -ERANGE, memattr_parse_value(MEMATTR_POWER, "4294967296", 10, &v));
	KUNIT_EXPECT_EQ(test, -ERANGE,
			memattr_parse_value(MEMATTR_POWER, "99999999999999999999", 20, &v));
	KUNIT_EXPECT_EQ(test, -ERANGE, memattr_parse_value(MEMATTR_READ_BANDWIDTH, "4294968GB/s",
							   11, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_READ_BANDWIDTH, "4294967GB/s",
							   11, &v));

	/* the documented maxima: 1 ms of latency, 1 PB/s of bandwidth */
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_READ_LATENCY, "1000us", 6, &v));
	KUNIT_EXPECT_EQ(test, MEMATTR_MAX_LATENCY, v);
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_READ_LATENCY, "1000001", 7, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_WRITE_LATENCY, "1001us", 6, &v));
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_WRITE_BANDWIDTH, "1000000GB/s",
						     11, &v));
	KUNIT_EXPECT_EQ(test, MEMATTR_MAX_BANDWIDTH, v);
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_READ_BANDWIDTH, "1000000001",
							   10, &v));

	/* flags are 0 or 1 */
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_SPECIAL, "0", 1, &v));
	KUNIT_EXPECT_EQ(test, 0u, v);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_value(MEMATTR_SPECIAL, "1\n", 2, &v));
	KUNIT_EXPECT_EQ(test, 1u, v);
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_SPECIAL, "2", 1, &v));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_value(MEMATTR_PERSISTENT, "10", 2, &v));
	KUNIT_EXPECT_EQ(test, 1u, v);

	KUNIT_EXPECT_EQ(test, 0, memattr_check_value(MEMATTR_PERSISTENT, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_check_value(MEMATTR_PERSISTENT, 2));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_check_value(MEMATTR_READ_LATENCY, 4294967295u));
	KUNIT_EXPECT_EQ(test, 0, memattr_check_value(MEMATTR_POWER, 4294967295u));
}

static void memattr_test_field_names(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_READ_LATENCY, memattr_parse_field("read_latency", 12));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_WRITE_LATENCY, memattr_parse_field("write_latency", 13));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_READ_BANDWIDTH,
			memattr_parse_field("read_bandwidth", 14));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_WRITE_BANDWIDTH,
			memattr_parse_field("write_bandwidth", 15));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_PERSISTENT, memattr_parse_field("persistent", 10));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_POWER, memattr_parse_field("power", 5));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SPECIAL, memattr_parse_field("special", 7));
	/* prefixes, extensions and case do not match */
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_field("read_lat", 8));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_field("powers", 6));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_field("Special", 7));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_field("", 0));
}

static void memattr_test_param_valid(struct kunit *test)
{
	const char *all_units =
		"0:read_latency=80,write_latency=1us,read_bandwidth=20GB/s,special=0";
	struct memattr_param p;

	/* node ids 0 and 1 only: any NODES_SHIFT has them */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("1:persistent,special,power=120", &p));
	KUNIT_EXPECT_EQ(test, 1, nodes_weight(p.nodes));
	KUNIT_EXPECT_TRUE(test, node_isset(1, p.nodes));
	KUNIT_EXPECT_EQ(test, BIT(MEMATTR_PERSISTENT) | BIT(MEMATTR_SPECIAL) | BIT(MEMATTR_POWER),
			p.fields);
	KUNIT_EXPECT_EQ(test, 1u, p.value[MEMATTR_PERSISTENT]);
	KUNIT_EXPECT_EQ(test, 1u, p.value[MEMATTR_SPECIAL]);
	KUNIT_EXPECT_EQ(test, 120u, p.value[MEMATTR_POWER]);
	KUNIT_EXPECT_EQ(test, 0u, p.nr_bad);

	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0-1:power=300", &p));
	KUNIT_EXPECT_EQ(test, 2, nodes_weight(p.nodes));
	KUNIT_EXPECT_TRUE(test, node_isset(0, p.nodes));
	KUNIT_EXPECT_TRUE(test, node_isset(1, p.nodes));
	KUNIT_EXPECT_EQ(test, BIT(MEMATTR_POWER), p.fields);
	KUNIT_EXPECT_EQ(test, 300u, p.value[MEMATTR_POWER]);

	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param(all_units, &p));
	KUNIT_EXPECT_EQ(test, 80u, p.value[MEMATTR_READ_LATENCY]);
	KUNIT_EXPECT_EQ(test, 1000u, p.value[MEMATTR_WRITE_LATENCY]);
	KUNIT_EXPECT_EQ(test, 20000u, p.value[MEMATTR_READ_BANDWIDTH]);
	KUNIT_EXPECT_EQ(test, 0u, p.value[MEMATTR_SPECIAL]);
	KUNIT_EXPECT_TRUE(test, p.fields & BIT(MEMATTR_SPECIAL));
	KUNIT_EXPECT_FALSE(test, p.fields & BIT(MEMATTR_WRITE_BANDWIDTH));

	/* the same field twice: the later one counts */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0:power=1,power=2", &p));
	KUNIT_EXPECT_EQ(test, 2u, p.value[MEMATTR_POWER]);

	if (MAX_NUMNODES < 6)
		kunit_skip(test, "node list test needs 6 node ids");
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("1-3,5:special", &p));
	KUNIT_EXPECT_EQ(test, 4, nodes_weight(p.nodes));
	KUNIT_EXPECT_FALSE(test, node_isset(0, p.nodes));
	KUNIT_EXPECT_TRUE(test, node_isset(1, p.nodes));
	KUNIT_EXPECT_TRUE(test, node_isset(3, p.nodes));
	KUNIT_EXPECT_FALSE(test, node_isset(4, p.nodes));
	KUNIT_EXPECT_TRUE(test, node_isset(5, p.nodes));
}

static void memattr_test_param_bad_items(struct kunit *test)
{
	struct memattr_param p;

	/* a bad number spoils only its own item */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0:power=abc,persistent", &p));
	KUNIT_EXPECT_EQ(test, BIT(MEMATTR_PERSISTENT), p.fields);
	KUNIT_EXPECT_EQ(test, 1u, p.nr_bad);

	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0:colour=3,special", &p));
	KUNIT_EXPECT_EQ(test, BIT(MEMATTR_SPECIAL), p.fields);
	KUNIT_EXPECT_EQ(test, 1u, p.nr_bad);

	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0:read_bandwidth=4294967296", &p));
	KUNIT_EXPECT_EQ(test, 0ul, p.fields);
	KUNIT_EXPECT_EQ(test, 1u, p.nr_bad);

	/* bare words only for flags; flags only 0 or 1 */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0:power,special=2,persistent=", &p));
	KUNIT_EXPECT_EQ(test, 0ul, p.fields);
	KUNIT_EXPECT_EQ(test, 3u, p.nr_bad);

	/* empty items */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0:special,", &p));
	KUNIT_EXPECT_EQ(test, BIT(MEMATTR_SPECIAL), p.fields);
	KUNIT_EXPECT_EQ(test, 1u, p.nr_bad);
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0:", &p));
	KUNIT_EXPECT_EQ(test, 0ul, p.fields);
	KUNIT_EXPECT_EQ(test, 1u, p.nr_bad);
}

static void memattr_test_param_bad_nodes(struct kunit *test)
{
	struct memattr_param p;
	char buf[32];

	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("power=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param(":power=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("x:power=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("-1:power=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("1-:power=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("99999999999:power=1", &p));

	/* the first id past the last possible one */
	snprintf(buf, sizeof(buf), "%d:power=1", MAX_NUMNODES);
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param(buf, &p));
	snprintf(buf, sizeof(buf), "0-%d:power=1", MAX_NUMNODES);
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param(buf, &p));
	snprintf(buf, sizeof(buf), "%d:power=1", MAX_NUMNODES - 1);
	KUNIT_EXPECT_EQ(test, 0, memattr_parse_param(buf, &p));
	KUNIT_EXPECT_TRUE(test, node_isset(MAX_NUMNODES - 1, p.nodes));
}

static void memattr_test_precedence(struct kunit *test)
{
	struct memattr_field_rec fr = {};
	u32 v;

	KUNIT_EXPECT_EQ(test, (int)MEMATTR_NR_SOURCES, (int)memattr_pick(fr.set));
	KUNIT_EXPECT_EQ(test, 0u, memattr_field_value(&fr));

	v = 150;
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_HMAT, &v));
	KUNIT_EXPECT_EQ(test, 150u, memattr_field_value(&fr));
	v = 200;
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_CMDLINE, &v));
	KUNIT_EXPECT_EQ(test, 200u, memattr_field_value(&fr));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_CMDLINE, (int)memattr_pick(fr.set));

	/* a lower source changing does not change the winner */
	v = 160;
	KUNIT_EXPECT_FALSE(test, memattr_field_update(&fr, MEMATTR_SRC_HMAT, &v));
	KUNIT_EXPECT_EQ(test, 200u, memattr_field_value(&fr));
	/* neither does writing the winning value again */
	v = 200;
	KUNIT_EXPECT_FALSE(test, memattr_field_update(&fr, MEMATTR_SRC_CMDLINE, &v));

	v = 90;
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_ADMIN, &v));
	KUNIT_EXPECT_EQ(test, 90u, memattr_field_value(&fr));
	v = 70;
	KUNIT_EXPECT_FALSE(test, memattr_field_update(&fr, MEMATTR_SRC_DRIVER, &v));
	KUNIT_EXPECT_EQ(test, 90u, memattr_field_value(&fr));

	/* clearing reveals the next source down, one at a time */
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_ADMIN, NULL));
	KUNIT_EXPECT_EQ(test, 70u, memattr_field_value(&fr));
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_DRIVER, NULL));
	KUNIT_EXPECT_EQ(test, 200u, memattr_field_value(&fr));
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_CMDLINE, NULL));
	KUNIT_EXPECT_EQ(test, 160u, memattr_field_value(&fr));
	KUNIT_EXPECT_FALSE(test, memattr_field_update(&fr, MEMATTR_SRC_EFI, NULL));
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_HMAT, NULL));
	KUNIT_EXPECT_EQ(test, 0u, memattr_field_value(&fr));
	KUNIT_EXPECT_EQ(test, 0, (int)fr.set);

	/* a higher source saying 0 hides firmware's value */
	v = 150;
	memattr_field_update(&fr, MEMATTR_SRC_HMAT, &v);
	v = 0;
	KUNIT_EXPECT_TRUE(test, memattr_field_update(&fr, MEMATTR_SRC_ADMIN, &v));
	KUNIT_EXPECT_EQ(test, 0u, memattr_field_value(&fr));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_ADMIN, (int)memattr_pick(fr.set));

	/* the documented order: hmat < srat < efi < cmdline < driver < admin */
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_EFI,
			(int)memattr_pick(BIT(MEMATTR_SRC_SRAT) | BIT(MEMATTR_SRC_EFI)));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_CMDLINE,
			(int)memattr_pick(BIT(MEMATTR_SRC_EFI) | BIT(MEMATTR_SRC_CMDLINE)));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_ADMIN,
			(int)memattr_pick(BIT(MEMATTR_SRC_HMAT) | BIT(MEMATTR_SRC_ADMIN)));
}

/*
 * The administrator's path end to end on the last node id, which test
 * machines do not have, through power (no memory-tier side effects).
 */
static void memattr_test_admin_auto(struct kunit *test)
{
	int nid = MAX_NUMNODES - 1;

	if (node_online(nid) || memattr_records[nid])
		kunit_skip(test, "node %d is in use", nid);

	KUNIT_EXPECT_EQ(test, 0, memattr_set(nid, MEMATTR_POWER, 300, MEMATTR_SRC_CMDLINE));
	KUNIT_EXPECT_EQ(test, 0, memattr_admin_write(nid, MEMATTR_POWER, "120\n"));
	KUNIT_EXPECT_EQ(test, 120u, memattr_get(nid, MEMATTR_POWER));

	/* bad writes change nothing */
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write(nid, MEMATTR_POWER, "junk"));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write(nid, MEMATTR_POWER, "-1"));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write(nid, MEMATTR_POWER, "4294967296"));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write(nid, MEMATTR_POWER, "autox"));
	KUNIT_EXPECT_EQ(test, 120u, memattr_get(nid, MEMATTR_POWER));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write(nid, MEMATTR_SPECIAL, "2"));
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(nid, MEMATTR_SPECIAL));

	/* "auto" drops the administrator's value: the boot parameter shows */
	KUNIT_EXPECT_EQ(test, 0, memattr_admin_write(nid, MEMATTR_POWER, "auto\n"));
	KUNIT_EXPECT_EQ(test, 300u, memattr_get(nid, MEMATTR_POWER));
	KUNIT_EXPECT_EQ(test, 0, memattr_admin_write(nid, MEMATTR_POWER, "auto"));
	KUNIT_EXPECT_EQ(test, 300u, memattr_get(nid, MEMATTR_POWER));

	KUNIT_EXPECT_EQ(test, 0, memattr_clear(nid, MEMATTR_POWER, MEMATTR_SRC_CMDLINE));
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(nid, MEMATTR_POWER));

	scoped_guard(mutex, &memattr_lock) {
		kfree(memattr_records[nid]);
		memattr_records[nid] = NULL;
	}
}

/*
 * HMAT and CXL hand over the same kind of coordinates; each is kept under its
 * own source, CDAT's values win over HMAT's, and dropping one (a zero value)
 * shows the other again. Only the CPU access class is recorded.
 */
static void memattr_test_firmware_sources(struct kunit *test)
{
	struct access_coordinate hmat = {
		.read_latency = 150, .write_latency = 160,
		.read_bandwidth = 9000, .write_bandwidth = 8000,
	};
	struct access_coordinate cxl = {
		.read_latency = 300, .write_latency = 0,
		.read_bandwidth = 4000, .write_bandwidth = 3000,
	};
	int nid = MAX_NUMNODES - 1;

	if (node_online(nid) || memattr_records[nid])
		kunit_skip(test, "node %d is in use", nid);

	memattr_set_perf_attrs(nid, &cxl, ACCESS_COORDINATE_LOCAL, MEMATTR_SRC_CXL);
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(nid, MEMATTR_READ_LATENCY));

	memattr_set_perf_attrs(nid, &hmat, ACCESS_COORDINATE_CPU, MEMATTR_SRC_HMAT);
	KUNIT_EXPECT_EQ(test, 150u, memattr_get(nid, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_HMAT,
			(int)memattr_get_source(nid, MEMATTR_READ_LATENCY));

	memattr_set_perf_attrs(nid, &cxl, ACCESS_COORDINATE_CPU, MEMATTR_SRC_CXL);
	KUNIT_EXPECT_EQ(test, 300u, memattr_get(nid, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_CXL,
			(int)memattr_get_source(nid, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 3000u, memattr_get(nid, MEMATTR_WRITE_BANDWIDTH));
	/* CXL gave no write latency: HMAT's shows */
	KUNIT_EXPECT_EQ(test, 160u, memattr_get(nid, MEMATTR_WRITE_LATENCY));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_HMAT,
			(int)memattr_get_source(nid, MEMATTR_WRITE_LATENCY));

	/* HMAT again (a later online) does not hide the CDAT values */
	memattr_set_perf_attrs(nid, &hmat, ACCESS_COORDINATE_CPU, MEMATTR_SRC_HMAT);
	KUNIT_EXPECT_EQ(test, 4000u, memattr_get(nid, MEMATTR_READ_BANDWIDTH));

	/* the region goes: HMAT's values are back */
	memattr_set_perf_attrs(nid, &(struct access_coordinate){},
			       ACCESS_COORDINATE_CPU, MEMATTR_SRC_CXL);
	KUNIT_EXPECT_EQ(test, 150u, memattr_get(nid, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 8000u, memattr_get(nid, MEMATTR_WRITE_BANDWIDTH));

	memattr_set_perf_attrs(nid, &(struct access_coordinate){},
			       ACCESS_COORDINATE_CPU, MEMATTR_SRC_HMAT);
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(nid, MEMATTR_READ_LATENCY));
	scoped_guard(mutex, &memattr_lock) {
		kfree(memattr_records[nid]);
		memattr_records[nid] = NULL;
	}
}

/*
 * No source may make the last ordinary node with memory special: on the
 * booted machine, every node with memory but this CPU's is marked by a
 * driver, then each source in turn tries to mark this one too. Runs only
 * with the special-node policy registered; leaves the records as found.
 */
static void memattr_test_special_keeps_ordinary(struct kunit *test)
{
	nodemask_t marked = NODE_MASK_NONE;
	int nid, keep = numa_node_id(), src;

	if (!memattr_policy)
		kunit_skip(test, "no special-node policy");
	if (!node_state(keep, N_MEMORY) || memattr_node_special(keep))
		kunit_skip(test, "this CPU's node %d has no ordinary memory", keep);
	for_each_node_state(nid, N_MEMORY) {
		if (nid == keep || memattr_node_special(nid))
			continue;
		/* no ASSERT: the marks made so far must be dropped below */
		KUNIT_EXPECT_EQ(test, 0, memattr_set(nid, MEMATTR_SPECIAL, 1,
						     MEMATTR_SRC_DRIVER));
		node_set(nid, marked);
	}

	for (src = 0; src < MEMATTR_NR_SOURCES; src++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    memattr_set(keep, MEMATTR_SPECIAL, 1, src),
				    "source %s", memattr_source_names[src]);
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write(keep, MEMATTR_SPECIAL, "1"));
	KUNIT_EXPECT_FALSE(test, memattr_node_special(keep));
	/* an explicit 0 is no mark, and stays possible */
	KUNIT_EXPECT_EQ(test, 0, memattr_set(keep, MEMATTR_SPECIAL, 0, MEMATTR_SRC_DRIVER));
	KUNIT_EXPECT_EQ(test, 0, memattr_clear(keep, MEMATTR_SPECIAL, MEMATTR_SRC_DRIVER));

	for_each_node_mask(nid, marked)
		KUNIT_EXPECT_EQ(test, 0, memattr_clear(nid, MEMATTR_SPECIAL,
						       MEMATTR_SRC_DRIVER));
	memattr_sync();
}

/* memattr=<nodes>@<initiators>: a view, latency and bandwidth only. */
static void memattr_test_param_from(struct kunit *test)
{
	struct memattr_param p;

	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("1@0:read_latency=120,write_bandwidth=5GB/s",
						     &p));
	KUNIT_EXPECT_TRUE(test, p.from);
	KUNIT_EXPECT_EQ(test, 1, nodes_weight(p.nodes));
	KUNIT_EXPECT_TRUE(test, node_isset(1, p.nodes));
	KUNIT_EXPECT_EQ(test, 1, nodes_weight(p.initiators));
	KUNIT_EXPECT_TRUE(test, node_isset(0, p.initiators));
	KUNIT_EXPECT_EQ(test, BIT(MEMATTR_READ_LATENCY) | BIT(MEMATTR_WRITE_BANDWIDTH), p.fields);
	KUNIT_EXPECT_EQ(test, 120u, p.value[MEMATTR_READ_LATENCY]);
	KUNIT_EXPECT_EQ(test, 5000u, p.value[MEMATTR_WRITE_BANDWIDTH]);
	KUNIT_EXPECT_EQ(test, 0u, p.nr_bad);

	/* without "@" it is the node's own record */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("1:read_latency=120", &p));
	KUNIT_EXPECT_FALSE(test, p.from);

	/* a view has no power, persistence or special flag */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("0@1:power=3,special,read_bandwidth=9", &p));
	KUNIT_EXPECT_EQ(test, BIT(MEMATTR_READ_BANDWIDTH), p.fields);
	KUNIT_EXPECT_EQ(test, 2u, p.nr_bad);

	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("1@:read_latency=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("@0:read_latency=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("1@x:read_latency=1", &p));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_param("1@0@1:read_latency=1", &p));
	/* "@" after the colon is no initiator list */
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_param("1:read_latency=1@0", &p));
	KUNIT_EXPECT_FALSE(test, p.from);
	KUNIT_EXPECT_EQ(test, 0ul, p.fields);
}

/* An administrator's "<initiator>:<value>". */
static void memattr_test_parse_pair(struct kunit *test)
{
	unsigned int initiator = 7;
	const char *value = NULL;
	char buf[32];

	KUNIT_ASSERT_EQ(test, 0, memattr_parse_pair("1:120ns\n", &initiator, &value));
	KUNIT_EXPECT_EQ(test, 1u, initiator);
	KUNIT_EXPECT_STREQ(test, "120ns\n", value);
	KUNIT_ASSERT_EQ(test, 0, memattr_parse_pair("0:auto", &initiator, &value));
	KUNIT_EXPECT_EQ(test, 0u, initiator);
	KUNIT_EXPECT_STREQ(test, "auto", value);

	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_pair("120", &initiator, &value));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_pair(":120", &initiator, &value));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_pair("x:120", &initiator, &value));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_pair("-1:120", &initiator, &value));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_pair("1 :120", &initiator, &value));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_pair("123456789:120", &initiator, &value));
	snprintf(buf, sizeof(buf), "%d:1", MAX_NUMNODES);
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_parse_pair(buf, &initiator, &value));
}

/* A pair's value against the node's record: the higher source, else the pair. */
static void memattr_test_pair_wins(struct kunit *test)
{
	/* firmware's pair beats firmware's best-initiator value */
	KUNIT_EXPECT_TRUE(test, memattr_pair_wins(MEMATTR_SRC_HMAT, 150, MEMATTR_SRC_HMAT));
	KUNIT_EXPECT_TRUE(test, memattr_pair_wins(MEMATTR_SRC_HMAT, 150, MEMATTR_NR_SOURCES));
	/* memattr= or the administrator for the whole node beat firmware's pair */
	KUNIT_EXPECT_FALSE(test, memattr_pair_wins(MEMATTR_SRC_HMAT, 150, MEMATTR_SRC_CMDLINE));
	KUNIT_EXPECT_FALSE(test, memattr_pair_wins(MEMATTR_SRC_HMAT, 150, MEMATTR_SRC_ADMIN));
	KUNIT_EXPECT_FALSE(test, memattr_pair_wins(MEMATTR_SRC_HMAT, 150, MEMATTR_SRC_CXL));
	/* ...and an administrator's pair beats them again */
	KUNIT_EXPECT_TRUE(test, memattr_pair_wins(MEMATTR_SRC_ADMIN, 150, MEMATTR_SRC_ADMIN));
	KUNIT_EXPECT_TRUE(test, memattr_pair_wins(MEMATTR_SRC_CMDLINE, 150, MEMATTR_SRC_HMAT));
	/* no pair value, or an unknown one: the record */
	KUNIT_EXPECT_FALSE(test, memattr_pair_wins(MEMATTR_NR_SOURCES, 0, MEMATTR_SRC_HMAT));
	KUNIT_EXPECT_FALSE(test, memattr_pair_wins(MEMATTR_SRC_ADMIN, 0, MEMATTR_SRC_HMAT));
}

/* Distances of a machine of four nodes, for memattr_pick_viewer(). */
static int memattr_test_distance(int from, int to)
{
	static const int slit[4][4] = {
		{ 10, 21, 17, 28 },
		{ 21, 10, 28, 17 },
		{ 17, 28, 10, 28 },
		{ 28, 17, 28, 10 },
	};

	return slit[from][to];
}

static void memattr_test_pick_viewer(struct kunit *test)
{
	nodemask_t initiators = NODE_MASK_NONE;

	if (MAX_NUMNODES < 4)
		kunit_skip(test, "needs 4 node ids");
	node_set(0, initiators);
	node_set(1, initiators);

	/* HMAT's local initiator first, for any node */
	KUNIT_EXPECT_EQ(test, 1, memattr_pick_viewer(2, &initiators, 1,
						     memattr_test_distance));
	KUNIT_EXPECT_EQ(test, 0, memattr_pick_viewer(1, &initiators, 0,
						     memattr_test_distance));
	/* without it, an initiator sees for itself... */
	KUNIT_EXPECT_EQ(test, 1, memattr_pick_viewer(1, &initiators, NUMA_NO_NODE,
						     memattr_test_distance));
	/* ...and a memory-only node through the nearest initiator */
	KUNIT_EXPECT_EQ(test, 0, memattr_pick_viewer(2, &initiators, NUMA_NO_NODE,
						     memattr_test_distance));
	KUNIT_EXPECT_EQ(test, 1, memattr_pick_viewer(3, &initiators, NUMA_NO_NODE,
						     memattr_test_distance));
	/* equal distances: the lower id */
	node_clear(0, initiators);
	node_set(3, initiators);
	KUNIT_EXPECT_EQ(test, 1, memattr_pick_viewer(2, &initiators, NUMA_NO_NODE,
						     memattr_test_distance));
	/* no initiator at all: the node itself */
	nodes_clear(initiators);
	KUNIT_EXPECT_EQ(test, 2, memattr_pick_viewer(2, &initiators, NUMA_NO_NODE,
						     memattr_test_distance));
}

/* Winning source of a view's field, MEMATTR_NR_SOURCES if none; lock-free. */
static enum memattr_source memattr_get_source_from(int initiator, int target,
						   enum memattr_field field)
{
	enum memattr_source src = MEMATTR_NR_SOURCES;
	struct memattr_view *view;

	rcu_read_lock();
	view = xa_load(&memattr_views, memattr_view_index(initiator, target));
	if (view)
		src = READ_ONCE(view->winner[field]);
	rcu_read_unlock();
	return src;
}

/*
 * Drop what memattr_test_views() recorded for @target (views from 0 and 1,
 * the record), published values included, so that a rerun finds it unused.
 */
static void memattr_test_drop_views(int target)
{
	unsigned long first = memattr_view_index(0, target);
	struct memattr_view *views[2];
	int field, src, i;

	for (i = 0; i < 2; i++)
		for (field = 0; field < MEMATTR_NR_PERF_FIELDS; field++)
			for (src = 0; src < MEMATTR_NR_SOURCES; src++)
				memattr_clear_from(i, target, field, src);
	for (field = 0; field < MEMATTR_NR_FIELDS; field++)
		for (src = 0; src < MEMATTR_NR_SOURCES; src++)
			memattr_clear(target, field, src);
	scoped_guard(mutex, &memattr_lock) {
		views[0] = xa_erase(&memattr_views, first);
		views[1] = xa_erase(&memattr_views, first + 1);
		kfree(memattr_records[target]);
		memattr_records[target] = NULL;
	}
	/* lockless readers may still hold the views */
	synchronize_rcu();
	kfree(views[0]);
	kfree(views[1]);
}

/*
 * The matrix end to end on the last node id as a target, seen from
 * initiators 0 and 1: each pair has its own value and source, a pair no
 * source describes shows the node's own value, and the usual precedence
 * and "auto" hold per pair.
 */
static void memattr_test_views(struct kunit *test)
{
	struct access_coordinate hmat = {
		.read_latency = 150, .write_latency = 160,
		.read_bandwidth = 9000, .write_bandwidth = 8000,
	};
	int target = MAX_NUMNODES - 1;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (MAX_NUMNODES < 4 || !node_possible(1))
		kunit_skip(test, "needs 4 node ids and a possible node 1");
	if (node_online(target) || memattr_records[target] ||
	    xa_load(&memattr_views, memattr_view_index(0, target)) ||
	    xa_load(&memattr_views, memattr_view_index(1, target)))
		kunit_skip(test, "node %d is in use", target);

	/* nothing known: 0, from anywhere */
	KUNIT_EXPECT_EQ(test, 0u, memattr_get_from(0, target, MEMATTR_READ_LATENCY));
	memattr_show_from(target, MEMATTR_READ_LATENCY, buf);
	KUNIT_EXPECT_STREQ(test, "\n", buf);

	memattr_set_initiator_perf(0, target, &hmat, MEMATTR_SRC_HMAT);
	KUNIT_EXPECT_EQ(test, 150u, memattr_get_from(0, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 8000u, memattr_get_from(0, target, MEMATTR_WRITE_BANDWIDTH));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_HMAT,
			(int)memattr_get_source_from(0, target, MEMATTR_READ_LATENCY));
	/* the view is not the record */
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(target, MEMATTR_READ_LATENCY));
	/* initiator 1's view is unknown: the record's value stands in */
	KUNIT_EXPECT_EQ(test, 0u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 0, memattr_set(target, MEMATTR_READ_LATENCY, 120,
					     MEMATTR_SRC_HMAT));
	KUNIT_EXPECT_EQ(test, 120u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 150u, memattr_get_from(0, target, MEMATTR_READ_LATENCY));
	/* and so it does for the fields a view does not have */
	KUNIT_EXPECT_EQ(test, 0, memattr_set(target, MEMATTR_POWER, 42, MEMATTR_SRC_DRIVER));
	KUNIT_EXPECT_EQ(test, 42u, memattr_get_from(0, target, MEMATTR_POWER));

	hmat.read_latency = 250;
	memattr_set_initiator_perf(1, target, &hmat, MEMATTR_SRC_HMAT);
	KUNIT_EXPECT_EQ(test, 250u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 150u, memattr_get_from(0, target, MEMATTR_READ_LATENCY));
	memattr_show_from(target, MEMATTR_READ_LATENCY, buf);
	KUNIT_EXPECT_STREQ(test, "0:150 1:250\n", buf);

	/* memattr= over HMAT, the administrator over both, per pair */
	KUNIT_EXPECT_EQ(test, 0, memattr_set_from(1, target, MEMATTR_READ_LATENCY, 300,
						  MEMATTR_SRC_CMDLINE));
	KUNIT_EXPECT_EQ(test, 0, memattr_admin_write_from(target, MEMATTR_READ_LATENCY,
							  "1:1us\n"));
	KUNIT_EXPECT_EQ(test, 1000u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_ADMIN,
			(int)memattr_get_source_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 150u, memattr_get_from(0, target, MEMATTR_READ_LATENCY));

	/* bad writes change nothing */
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write_from(target, MEMATTR_READ_LATENCY,
								"1:junk"));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write_from(target, MEMATTR_READ_LATENCY,
								"1:2000000"));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write_from(target, MEMATTR_READ_LATENCY,
								"1000"));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_admin_write_from(target, MEMATTR_POWER,
								"1:5"));
	KUNIT_EXPECT_EQ(test, 1000u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));

	/* "auto" drops the administrator's value of that pair only */
	KUNIT_EXPECT_EQ(test, 0, memattr_admin_write_from(target, MEMATTR_READ_LATENCY,
							  "1:auto"));
	KUNIT_EXPECT_EQ(test, 300u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_SRC_CMDLINE,
			(int)memattr_get_source_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, 0, memattr_clear_from(1, target, MEMATTR_READ_LATENCY,
						    MEMATTR_SRC_CMDLINE));
	KUNIT_EXPECT_EQ(test, 250u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));

	/* HMAT giving 0 (unknown) drops its value of the pair */
	memattr_set_initiator_perf(1, target, &(struct access_coordinate){},
				   MEMATTR_SRC_HMAT);
	KUNIT_EXPECT_EQ(test, 120u, memattr_get_from(1, target, MEMATTR_READ_LATENCY));
	KUNIT_EXPECT_EQ(test, (int)MEMATTR_NR_SOURCES,
			(int)memattr_get_source_from(1, target, MEMATTR_READ_LATENCY));
	memattr_show_from(target, MEMATTR_READ_LATENCY, buf);
	KUNIT_EXPECT_STREQ(test, "0:150\n", buf);

	/* bounds */
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_set_from(-1, target, MEMATTR_READ_LATENCY, 1,
							MEMATTR_SRC_ADMIN));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_set_from(MAX_NUMNODES, target,
							MEMATTR_READ_LATENCY, 1,
							MEMATTR_SRC_ADMIN));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_set_from(0, target, MEMATTR_SPECIAL, 1,
							MEMATTR_SRC_ADMIN));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_set_from(0, target, MEMATTR_READ_LATENCY,
							MEMATTR_MAX_LATENCY + 1,
							MEMATTR_SRC_ADMIN));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_clear_from(0, target, MEMATTR_READ_LATENCY,
							  MEMATTR_NR_SOURCES));
	KUNIT_EXPECT_EQ(test, -EINVAL, (int)memattr_show_from(target, MEMATTR_POWER, buf));

	memattr_test_drop_views(target);
}

static void memattr_test_api_bounds(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(-1, MEMATTR_POWER));
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(MAX_NUMNODES, MEMATTR_POWER));
	KUNIT_EXPECT_EQ(test, 0u, memattr_get(0, MEMATTR_NR_FIELDS));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_set(-1, MEMATTR_POWER, 1, MEMATTR_SRC_DRIVER));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			memattr_set(MAX_NUMNODES, MEMATTR_POWER, 1, MEMATTR_SRC_DRIVER));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_set(0, MEMATTR_NR_FIELDS, 1, MEMATTR_SRC_DRIVER));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_set(0, MEMATTR_POWER, 1, MEMATTR_NR_SOURCES));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_driver_set(0, MEMATTR_PERSISTENT, 2));
	KUNIT_EXPECT_EQ(test, -EINVAL, memattr_clear(0, MEMATTR_POWER, MEMATTR_NR_SOURCES));
}

static struct kunit_case memattr_parse_test_cases[] = {
	KUNIT_CASE(memattr_test_value_units),
	KUNIT_CASE(memattr_test_value_invalid),
	KUNIT_CASE(memattr_test_field_names),
	KUNIT_CASE(memattr_test_param_valid),
	KUNIT_CASE(memattr_test_param_bad_items),
	KUNIT_CASE(memattr_test_param_bad_nodes),
	KUNIT_CASE(memattr_test_param_from),
	KUNIT_CASE(memattr_test_parse_pair),
	KUNIT_CASE(memattr_test_pick_viewer),
	KUNIT_CASE(memattr_test_pair_wins),
	{}
};

static struct kunit_suite memattr_parse_test_suite = {
	.name = "memattr_parse",
	.test_cases = memattr_parse_test_cases,
};

static struct kunit_case memattr_record_test_cases[] = {
	KUNIT_CASE(memattr_test_precedence),
	KUNIT_CASE(memattr_test_admin_auto),
	KUNIT_CASE(memattr_test_firmware_sources),
	KUNIT_CASE(memattr_test_special_keeps_ordinary),
	KUNIT_CASE(memattr_test_views),
	KUNIT_CASE(memattr_test_api_bounds),
	{}
};

static struct kunit_suite memattr_record_test_suite = {
	.name = "memattr_record",
	.test_cases = memattr_record_test_cases,
};

kunit_test_suites(&memattr_parse_test_suite, &memattr_record_test_suite);

#endif /* _MEMATTR_KUNIT_H */

#endif /* CONFIG_MEMATTR_KUNIT_TEST */
