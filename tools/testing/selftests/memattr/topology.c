// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for the harness's /memattr/topology file and small sysfs helpers
 * shared by the memattr selftests.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "topology.h"

const char *const topo_perf_names[TOPO_NR_PERF] = {
	"read_latency", "write_latency", "read_bandwidth", "write_bandwidth",
};

const char *const topo_memattr_names[TOPO_NR_MEMATTR] = {
	"read_latency", "write_latency", "read_bandwidth", "write_bandwidth",
	"power", "persistent", "special",
};

static int name_index(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static struct topo_node *line_node(struct topo *t, char **save)
{
	char *tok = strtok_r(NULL, " ", save);
	int nid = tok ? atoi(tok) : -1;

	if (nid < 0 || nid >= TOPO_MAX_NODES)
		return NULL;
	return &t->node[nid];
}

static void parse_node(struct topo *t, char **save)
{
	struct topo_node *n = line_node(t, save);
	char *key, *val;

	if (!n)
		return;
	while ((key = strtok_r(NULL, " ", save)) && (val = strtok_r(NULL, " ", save))) {
		if (!strcmp(key, "cpus"))
			snprintf(n->cpus, sizeof(n->cpus), "%s", strcmp(val, "-") ? val : "");
		else if (!strcmp(key, "mem_bytes"))
			n->mem_bytes = strtoull(val, NULL, 10);
		else if (!strcmp(key, "initiator"))
			n->initiator = atoi(val);
	}
}

static void parse_distance(struct topo *t, char **save)
{
	struct topo_node *n = line_node(t, save);
	char *val;
	int i = 0;

	while (n && i < TOPO_MAX_NODES && (val = strtok_r(NULL, " ", save)))
		n->distance[i++] = atoi(val);
}

static void parse_access(struct topo *t, char **save)
{
	struct topo_node *n = line_node(t, save);
	char *key, *val;
	int i;

	if (!n)
		return;
	n->has_access = true;
	while ((key = strtok_r(NULL, " ", save)) && (val = strtok_r(NULL, " ", save))) {
		i = name_index(topo_perf_names, TOPO_NR_PERF, key);
		if (i >= 0)
			n->access[i] = strtoull(val, NULL, 10);
	}
}

static void parse_cache(struct topo *t, char **save)
{
	struct topo_node *n = line_node(t, save);
	char *key, *val;

	if (!n)
		return;
	n->cache.present = true;
	while ((key = strtok_r(NULL, " ", save)) && (val = strtok_r(NULL, " ", save))) {
		if (!strcmp(key, "level"))
			n->cache.level = atoi(val);
		else if (!strcmp(key, "size"))
			n->cache.size = strtoull(val, NULL, 10);
		else if (!strcmp(key, "line_size"))
			n->cache.line_size = atoi(val);
		else if (!strcmp(key, "indexing"))
			n->cache.indexing = atoi(val);
		else if (!strcmp(key, "write_policy"))
			n->cache.write_policy = atoi(val);
	}
}

static void parse_memattr(struct topo *t, char **save)
{
	struct topo_node *n = line_node(t, save);
	char *key, *val;
	int i;

	while (n && (key = strtok_r(NULL, " ", save)) && (val = strtok_r(NULL, " ", save))) {
		i = name_index(topo_memattr_names, TOPO_NR_MEMATTR, key);
		if (i >= 0)
			n->memattr[i] = strtoll(val, NULL, 10);
	}
}

/* The view line's slot: "I T" starts it; a new slot if none matches. */
static struct topo_view *line_view(struct topo *t, char **save)
{
	char *i = strtok_r(NULL, " ", save), *tg = strtok_r(NULL, " ", save);
	struct topo_view *v;
	int k;

	if (!i || !tg)
		return NULL;
	for (k = 0; k < t->nr_views; k++) {
		v = &t->view[k];
		if (v->initiator == atoi(i) && v->target == atoi(tg))
			return v;
	}
	if (t->nr_views == TOPO_MAX_VIEWS)
		return NULL;
	v = &t->view[t->nr_views++];
	v->initiator = atoi(i);
	v->target = atoi(tg);
	for (k = 0; k < TOPO_NR_PERF; k++)
		v->memattr[k] = -1;
	return v;
}

/* "view I T field value..." (HMAT) or "memattr_from I T field value...". */
static void parse_view(struct topo *t, char **save, bool hmat)
{
	struct topo_view *v = line_view(t, save);
	char *key, *val;
	int i;

	if (!v)
		return;
	v->hmat |= hmat;
	while ((key = strtok_r(NULL, " ", save)) && (val = strtok_r(NULL, " ", save))) {
		i = name_index(topo_perf_names, TOPO_NR_PERF, key);
		if (i < 0)
			continue;
		if (hmat)
			v->perf[i] = strtoull(val, NULL, 10);
		else
			v->memattr[i] = strtoll(val, NULL, 10);
	}
}

long long topo_view_value(const struct topo *t, int initiator, int target,
			  int perf, const char **source)
{
	const struct topo_view *v;
	int k;

	for (k = 0; k < t->nr_views; k++) {
		v = &t->view[k];
		if (v->initiator != initiator || v->target != target)
			continue;
		if (v->memattr[perf] >= 0) {
			if (source)
				*source = "cmdline";
			return v->memattr[perf];
		}
		/* memattr= for the node as a whole ranks above HMAT's pair */
		if (v->hmat && t->node[target].memattr[perf] >= 0) {
			if (source)
				*source = "hmat";
			return t->node[target].memattr[perf];
		}
		if (v->hmat) {
			if (source)
				*source = "hmat";
			return v->perf[perf];
		}
	}
	return -1;
}

static void parse_line(struct topo *t, char *line)
{
	char *save, *kw = strtok_r(line, " ", &save);
	char *rest;

	if (!kw)
		return;
	if (!strcmp(kw, "topology")) {
		rest = strtok_r(NULL, " ", &save);
		snprintf(t->name, sizeof(t->name), "%s", rest ? rest : "");
	} else if (!strcmp(kw, "nodes")) {
		while (strtok_r(NULL, " ", &save))
			t->nr_nodes++;
	} else if (!strcmp(kw, "online_empty")) {
		while ((rest = strtok_r(NULL, " ", &save)))
			if (atoi(rest) >= 0 && atoi(rest) < TOPO_MAX_NODES)
				t->online_empty |= 1ULL << atoi(rest);
	} else if (!strcmp(kw, "hmat")) {
		rest = strtok_r(NULL, " ", &save);
		t->hmat = rest && atoi(rest);
	} else if (!strcmp(kw, "node")) {
		parse_node(t, &save);
	} else if (!strcmp(kw, "distance")) {
		parse_distance(t, &save);
	} else if (!strcmp(kw, "access")) {
		parse_access(t, &save);
	} else if (!strcmp(kw, "cache")) {
		parse_cache(t, &save);
	} else if (!strcmp(kw, "memattr")) {
		parse_memattr(t, &save);
	} else if (!strcmp(kw, "view")) {
		parse_view(t, &save, true);
	} else if (!strcmp(kw, "memattr_from")) {
		parse_view(t, &save, false);
	} else if (!strcmp(kw, "kernel")) {
		rest = strtok_r(NULL, " ", &save);
		t->memattr_kernel = rest && !strcmp(rest, "memattr");
		rest = strtok_r(NULL, " ", &save);
		t->debug_kernel = rest && !strcmp(rest, "debug");
	} else if (!strcmp(kw, "cmdline")) {
		snprintf(t->cmdline, sizeof(t->cmdline), "%s", save ? save : "");
	}
}

unsigned long long topo_online_nodes(const struct topo *t)
{
	unsigned long long boot = t->nr_nodes >= 64 ? ~0ULL : (1ULL << t->nr_nodes) - 1;

	return boot | t->online_empty;
}

unsigned long long topo_min_mem_kb(const struct topo *t, int nid)
{
	unsigned long long total = 0, min = t->node[nid].mem_bytes / 1024 * 3 / 4;
	int n;

	if (!t->debug_kernel)
		return min;
	for (n = 0; n < t->nr_nodes; n++)
		total += t->node[n].mem_bytes / 1024;
	return min > total / 8 ? min - total / 8 : 0;
}

int topo_load(struct topo *t, const char *path)
{
	char line[4096];
	FILE *f;
	int i, j;

	if (!path)
		path = getenv("MEMATTR_TOPOLOGY");
	if (!path)
		path = TOPO_PATH;
	memset(t, 0, sizeof(*t));
	for (i = 0; i < TOPO_MAX_NODES; i++) {
		t->node[i].initiator = -1;
		for (j = 0; j < TOPO_NR_MEMATTR; j++)
			t->node[i].memattr[j] = -1;
	}
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		parse_line(t, line);
	}
	fclose(f);
	if (!t->nr_nodes || t->nr_nodes > TOPO_MAX_NODES) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static int vread_str(char *buf, size_t len, const char *fmt, va_list ap)
{
	char path[512];
	ssize_t n;
	int fd;

	vsnprintf(path, sizeof(path), fmt, ap);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

int sysfs_read_str(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread_str(buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

int sysfs_read_u64(unsigned long long *val, const char *fmt, ...)
{
	char buf[64], *end;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread_str(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -1;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || *end) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int sysfs_write_str(const char *val, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	ssize_t n;
	int fd, err;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	err = errno;
	close(fd);
	errno = err;
	return n < 0 ? -1 : 0;
}

int topo_parse_list(const char *list, unsigned long long *mask)
{
	unsigned long lo, hi;
	char *end;

	*mask = 0;
	while (*list) {
		lo = strtoul(list, &end, 10);
		hi = lo;
		if (end == list || lo > 63)
			goto junk;
		if (*end == '-') {
			list = end + 1;
			hi = strtoul(list, &end, 10);
			if (end == list || hi < lo || hi > 63)
				goto junk;
		}
		for (; lo <= hi; lo++)
			*mask |= 1ULL << lo;
		if (*end == ',')
			end++;
		else if (*end)
			goto junk;
		list = end;
	}
	return 0;
junk:
	errno = EINVAL;
	return -1;
}

int node_meminfo_kb(int nid, const char *field, unsigned long long *kb)
{
	char buf[4096], key[64], *p;

	if (sysfs_read_str(buf, sizeof(buf), "/sys/devices/system/node/node%d/meminfo",
			   nid) < 0)
		return -1;
	/* Lines read "Node 2 AnonPages:   123 kB": match " Field:" exactly. */
	snprintf(key, sizeof(key), " %s:", field);
	p = strstr(buf, key);
	if (!p) {
		errno = ENOENT;
		return -1;
	}
	*kb = strtoull(p + strlen(key), NULL, 10);
	return 0;
}

long long topo_cpulist_mask(const char *list)
{
	long long mask = 0;
	char *end;
	long lo, hi;

	while (*list) {
		lo = strtol(list, &end, 10);
		hi = lo;
		if (end == list || lo < 0 || lo > 62)
			return -1;
		if (*end == '-') {
			list = end + 1;
			hi = strtol(list, &end, 10);
			if (end == list || hi < lo || hi > 62)
				return -1;
		}
		for (; lo <= hi; lo++)
			mask |= 1LL << lo;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		list = end;
	}
	return mask;
}

int topo_load_fw_mem(struct topo_fw_mem *fw, int max, const char *path)
{
	unsigned long long a, b;
	char line[512], kw[16];
	int nr = 0, nid, n;
	FILE *f;

	if (!path)
		path = getenv("MEMATTR_TOPOLOGY");
	if (!path)
		path = TOPO_PATH;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (nr < max && fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%15s %d %*s %llu %*s %llu", kw, &nid, &a, &b);
		if (n < 3 || nid < 0 || nid >= TOPO_MAX_NODES)
			continue;
		if (!strcmp(kw, "nvdimm"))
			fw[nr++] = (struct topo_fw_mem){ TOPO_FW_NVDIMM, nid, 0, a };
		else if (!strcmp(kw, "efi_sp") && n == 4)
			fw[nr++] = (struct topo_fw_mem){ TOPO_FW_EFI_SP, nid, a, b };
		else if (!strcmp(kw, "dimm"))
			fw[nr++] = (struct topo_fw_mem){ TOPO_FW_DIMM, nid, 0, a };
	}
	fclose(f);
	return nr;
}

long long key_value(const char *path, const char *name)
{
	char key[64];
	long long val;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			fclose(f);
			return val;
		}
	}
	fclose(f);
	return -1;
}

int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int word = CAP_SYS_ADMIN / 32, bit = 1U << (CAP_SYS_ADMIN % 32);

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[word].effective &= ~bit;
	data[word].permitted &= ~bit;
	data[word].inheritable &= ~bit;
	return syscall(SYS_capset, &hdr, data);
}
