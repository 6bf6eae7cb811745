// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware-described memory, onlined at run time through sysfs alone: an
 * NVDIMM whose SRAT range is non-volatile (libnvdimm devdax, then dax/kmem)
 * must give its node persistent=1 from srat; EFI specific-purpose memory
 * (dax_hmem, then dax/kmem) must give its node special=1 from efi. Teardown
 * takes the memory away again, so later tests see the machine as booted.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fwmem.h"
#include "topology.h"

#define RECORDS_FILE	"/sys/kernel/debug/memattr/records"
#define ORDER_FILE	"/sys/kernel/mm/memattr/fallback_order"

/* ---- debugfs records ---- */

/* One field of one node in the debugfs records file. */
struct record_field {
	unsigned long long value;	/* the value that won */
	char winner[NAME_LEN];		/* the winning source, "-" if none */
	char from[NAME_LEN];		/* the column of the source asked for */
};

/* Read @field of node @nid and the column of source @src; 0 or -1. */
static int read_record(struct record_field *rf, int nid, const char *field,
		       const char *src)
{
	char line[512], want[16], *tok, *save;
	int col = -1, i, in_node = 0;
	FILE *f;

	f = fopen(RECORDS_FILE, "r");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "node%d", nid);
	while (fgets(line, sizeof(line), f)) {
		tok = strtok_r(line, "\n ", &save);
		if (!tok)
			continue;
		if (line[0] != ' ') {
			in_node = !strcmp(tok, want);
			continue;
		}
		if (!in_node)
			continue;
		if (!strcmp(tok, "field")) {
			/* "field value winner <source>...": find @src's column */
			for (i = 0; (tok = strtok_r(NULL, "\n ", &save)); i++)
				if (!strcmp(tok, src))
					col = i;
			continue;
		}
		if (strcmp(tok, field) || col < 2)
			continue;
		tok = strtok_r(NULL, "\n ", &save);
		rf->value = tok ? strtoull(tok, NULL, 10) : ~0ULL;
		tok = strtok_r(NULL, "\n ", &save);
		snprintf(rf->winner, sizeof(rf->winner), "%s", tok ? tok : "?");
		for (i = 2; i <= col && (tok = strtok_r(NULL, "\n ", &save)); i++)
			;
		snprintf(rf->from, sizeof(rf->from), "%s", tok ? tok : "?");
		fclose(f);
		return 0;
	}
	fclose(f);
	errno = ENOENT;
	return -1;
}

/* ---- the fixture ---- */

FIXTURE(firmware) {
	struct topo topo;			/* the booted topology */
	struct topo_fw_mem fw[TOPO_MAX_FW_MEM];	/* its nvdimm and efi_sp lines */
	int nr_fw;				/* how many */
	char onlined[TOPO_MAX_FW_MEM][NAME_LEN];	/* dax devices teardown removes */
};

FIXTURE_SETUP(firmware)
{
	if (topo_load(&self->topo, NULL))
		SKIP(return, "no topology file (not booted by harness/vm): %s",
		     strerror(errno));
	self->nr_fw = topo_load_fw_mem(self->fw, TOPO_MAX_FW_MEM, NULL);
	ASSERT_LE(0, self->nr_fw);
	memset(self->onlined, 0, sizeof(self->onlined));
	if (geteuid())
		SKIP(return, "needs root to online memory");
}

FIXTURE_TEARDOWN(firmware)
{
	int i;

	_metadata->trigger = 0;
	for (i = 0; i < self->nr_fw; i++) {
		if (!self->onlined[i][0])
			continue;
		EXPECT_EQ(0, system_ram_away(self->fw[i].node, self->onlined[i]))
			TH_LOG("taking %s (node %d) away again: %s", self->onlined[i],
			       self->fw[i].node, strerror(errno));
	}
}

/*
 * Online every @kind range of the topology through dax/kmem and check that
 * its node's record shows @field = 1 from @source, and that the node's
 * memory really grew.
 */
static void online_and_check(struct __test_metadata *_metadata,
			     FIXTURE_DATA(firmware) *self, enum topo_fw_kind kind,
			     const char *field, const char *source)
{
	unsigned long long before, after, block, val, start;
	struct record_field rf;
	const char *why;
	char res[64], dev[NAME_LEN];
	int i, nid, found = 0;

	ASSERT_LT(0, sysfs_read_str(res, sizeof(res), MEMORY_DIR "/block_size_bytes"));
	block = strtoull(res, NULL, 16);
	for (i = 0; i < self->nr_fw; i++) {
		const struct topo_fw_mem *fw = &self->fw[i];

		if (fw->kind != kind)
			continue;
		found++;
		nid = fw->node;
		before = node_mem_total(nid);
		EXPECT_EQ(0, before) TH_LOG("node %d has memory before onlining", nid);

		if (kind == TOPO_FW_NVDIMM)
			ASSERT_EQ(0, nvdimm_to_devdax(fw, &why))
				TH_LOG("node %d nvdimm to devdax: %s: %s", nid, why,
				       strerror(errno));
		ASSERT_EQ(0, dax_to_kmem(nid, dev, sizeof(dev), &why))
			TH_LOG("node %d: %s: %s", nid, why, strerror(errno));
		memcpy(self->onlined[i], dev, NAME_LEN);
		ASSERT_LT(0, set_node_blocks(nid, "online_movable"))
			TH_LOG("node %d: onlining its memory blocks: %s", nid, strerror(errno));
		if (kind == TOPO_FW_EFI_SP) {
			/* the dax device is the firmware's range, nothing else */
			ASSERT_LT(0, sysfs_read_str(res, sizeof(res),
						    DAX_BUS "/devices/%s/resource", dev));
			start = strtoull(res, NULL, 16);
			EXPECT_EQ(fw->start, start) TH_LOG("%s starts at %s", dev, res);
		}

		after = node_mem_total(nid);
		EXPECT_LE(before + block, after)
			TH_LOG("node %d MemTotal %llu -> %llu bytes", nid, before, after);
		EXPECT_GE(before + fw->size, after)
			TH_LOG("node %d MemTotal %llu -> %llu bytes, device %llu", nid,
			       before, after, fw->size);

		ASSERT_EQ(0, sysfs_read_u64(&val, NODE_DIR "/node%d/memattr/%s", nid, field))
			TH_LOG("node %d memattr/%s: %s", nid, field, strerror(errno));
		EXPECT_EQ(1, val) TH_LOG("node %d %s", nid, field);
		ASSERT_EQ(0, read_record(&rf, nid, field, source))
			TH_LOG("%s: node %d %s: %s", RECORDS_FILE, nid, field, strerror(errno));
		EXPECT_EQ(1, rf.value) TH_LOG("debugfs node %d %s", nid, field);
		EXPECT_STREQ(source, rf.winner) TH_LOG("debugfs node %d %s winner", nid, field);
		EXPECT_STREQ("1", rf.from) TH_LOG("debugfs node %d %s, %s column", nid, field,
						  source);
	}
	if (!found)
		SKIP(return, "topology %s has no %s memory", self->topo.name,
		     kind == TOPO_FW_NVDIMM ? "nvdimm" : "efi_sp");
}

/* SRAT non-volatile + libnvdimm devdax + kmem: persistent=1 from srat. */
TEST_F(firmware, nvdimm_persistent_from_srat)
{
	online_and_check(_metadata, self, TOPO_FW_NVDIMM, "persistent", "srat");
}

/* EFI specific-purpose + dax_hmem + kmem: special=1 from efi. */
TEST_F(firmware, efi_sp_special_from_efi)
{
	online_and_check(_metadata, self, TOPO_FW_EFI_SP, "special", "efi");
}

/* ---- sysfs readers while memory comes and goes ---- */

/* What the reader of the fallback files saw, in shared memory. */
struct fallback_reader {
	volatile int stop;	/* set by the test */
	volatile long reads;	/* files read whole */
	volatile long gone;	/* opens or reads of a node that just left */
	volatile int err;	/* any other errno, 0 */
};

/*
 * Read every node's memattr/fallback until told to stop, and above all
 * @nid's: its removal must find a reader inside the file (kernfs skips
 * the wait, and lockdep the dependency, when nobody is).
 */
static void read_fallbacks(struct fallback_reader *r, int nid)
{
	char path[PATH_MAX], buf[4096];
	struct dirent *de;
	int fd, i;
	DIR *d;

	while (!r->stop) {
		snprintf(path, sizeof(path), NODE_DIR "/node%d/memattr/fallback", nid);
		fd = open(path, O_RDONLY);
		for (i = 0; fd >= 0 && i < 1000 && !r->stop; i++) {
			if (pread(fd, buf, sizeof(buf), 0) <= 0)
				break;
			r->reads++;
		}
		if (fd < 0 || i < 1000) {
			if (errno == ENOENT || errno == ENODEV)
				r->gone++;
			else if (!r->stop)
				r->err = errno;
		}
		if (fd >= 0)
			close(fd);
		d = opendir(NODE_DIR);
		if (!d) {
			r->err = errno;
			_exit(1);
		}
		while ((de = readdir(d))) {
			if (strncmp(de->d_name, "node", 4) || !isdigit(de->d_name[4]))
				continue;
			snprintf(path, sizeof(path), NODE_DIR "/%s/memattr/fallback",
				 de->d_name);
			fd = open(path, O_RDONLY);
			if (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
				r->reads++;
			else if (errno == ENOENT || errno == ENODEV)
				r->gone++;
			else
				r->err = errno;
			if (fd >= 0)
				close(fd);
		}
		closedir(d);
	}
	_exit(0);
}

/*
 * Memory hot-remove holds mem_hotplug_lock while it removes a node's
 * device, which waits for every reader of the node's sysfs files; the
 * fallback file's reader must never wait for anything that waits for the
 * hotplug lock. Read every fallback file in a loop while firmware memory
 * is onlined (the EFI range marks its node special, the NVDIMM brings
 * HMAT values that the performance order follows: both rebuild the
 * zonelists from a work item) and taken away again, which removes their
 * nodes. Under lockdep (make check-debug) the old order reported a
 * circular dependency; here the removal must finish and the reader must
 * read throughout.
 */
/* Bring every firmware range online through dax/kmem; how many, or -1. */
static int online_all(struct __test_metadata *_metadata,
		      FIXTURE_DATA(firmware) *self)
{
	char dev[NAME_LEN];
	const char *why;
	int i, nodes = 0;

	for (i = 0; i < self->nr_fw; i++) {
		const struct topo_fw_mem *fw = &self->fw[i];

		if (fw->kind == TOPO_FW_DIMM)
			continue;
		/* an earlier test or round may have made the NVDIMM devdax */
		if (fw->kind == TOPO_FW_NVDIMM &&
		    dax_to_kmem(fw->node, dev, sizeof(dev), &why) &&
		    nvdimm_to_devdax(fw, &why))
			goto fail;
		if (dax_to_kmem(fw->node, dev, sizeof(dev), &why))
			goto fail;
		memcpy(self->onlined[i], dev, NAME_LEN);
		why = "onlining its memory blocks";
		if (set_node_blocks(fw->node, "online_movable") <= 0)
			goto fail;
		nodes++;
		continue;
fail:
		TH_LOG("node %d: %s: %s", fw->node, why, strerror(errno));
		return -1;
	}
	return nodes;
}

/* Take every range away again; its node's device goes with it. */
static void remove_all(struct __test_metadata *_metadata,
		       FIXTURE_DATA(firmware) *self)
{
	char path[PATH_MAX];
	int i;

	for (i = 0; i < self->nr_fw; i++) {
		if (!self->onlined[i][0])
			continue;
		EXPECT_EQ(0, system_ram_away(self->fw[i].node, self->onlined[i]))
			TH_LOG("taking %s away: %s", self->onlined[i], strerror(errno));
		self->onlined[i][0] = '\0';
		snprintf(path, sizeof(path), NODE_DIR "/node%d", self->fw[i].node);
		EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s still there", path);
	}
}

#define HOT_REMOVE_ROUNDS	5

/*
 * Memory hot-remove holds mem_hotplug_lock while it removes a node's
 * device, which waits for every reader of the node's sysfs files; the
 * fallback file's reader must never wait for anything that waits for the
 * hotplug lock. Read the fallback files in a loop while firmware memory is
 * onlined (the EFI range marks its node special, the NVDIMM brings HMAT
 * values that the performance order follows: both rebuild the zonelists
 * from a work item) and taken away again, which removes their nodes, a
 * few rounds. Under lockdep (make check-debug) the old order was reported
 * as a circular dependency (kernfs records it only when a reader is inside
 * the file as the node goes, hence the rounds and two readers a node);
 * here the removals must finish and the readers read throughout.
 */
TEST_F_TIMEOUT(firmware, fallback_reads_during_hot_remove, 300)
{
	int i, st, round, nodes = 0, nr_pids = 0;
	pid_t pids[2 * TOPO_MAX_FW_MEM];
	struct fallback_reader *r;
	long during = 0, before;
	char order[64];

	TOPO_NEED(&self->topo, !access(ORDER_FILE, W_OK), "memattr/fallback_order");
	/* "[distance] performance": the word in brackets is the active one */
	ASSERT_LT(0, sysfs_read_str(order, sizeof(order), ORDER_FILE));
	ASSERT_NE(NULL, strchr(order, '['));
	ASSERT_NE(NULL, strchr(order, ']'));
	*strchr(order, ']') = '\0';
	memmove(order, strchr(order, '[') + 1, strlen(strchr(order, '[')));
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	memset(r, 0, sizeof(*r));
	for (i = 0; i < 2 * self->nr_fw; i++) {
		if (self->fw[i / 2].kind == TOPO_FW_DIMM)
			continue;
		pids[nr_pids] = fork();
		ASSERT_LE(0, pids[nr_pids]);
		if (!pids[nr_pids])
			read_fallbacks(r, self->fw[i / 2].node);
		nr_pids++;
	}

	for (round = 0; round < HOT_REMOVE_ROUNDS && nr_pids; round++) {
		EXPECT_EQ(0, sysfs_write_str("performance", ORDER_FILE));
		st = online_all(_metadata, self);
		EXPECT_LE(0, st);
		nodes += st > 0 ? st : 0;
		before = r->reads;
		remove_all(_metadata, self);
		during += r->reads - before;
		EXPECT_EQ(0, sysfs_write_str(order, ORDER_FILE));
	}
	r->stop = 1;
	for (i = 0; i < nr_pids; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
		EXPECT_EQ(0, st) TH_LOG("reader %d exited with %#x", i, st);
	}
	if (!nr_pids)
		SKIP(return, "topology %s has no firmware memory to online", self->topo.name);
	TH_LOG("%d onlinings and removals in %d rounds; %ld fallback reads (%ld during removals), %ld of nodes leaving",
	       nodes, HOT_REMOVE_ROUNDS, r->reads, during, r->gone);
	EXPECT_EQ(0, r->err) TH_LOG("reader: %s", strerror(r->err));
	EXPECT_LT(0, during);
	munmap(r, sizeof(*r));
}

TEST_HARNESS_MAIN
