// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log as tests read it: /dev/kmsg records after a sequence
 * number, and the demotion targets mm/memory-tiers.c logs when it
 * recomputes them (shared by fallback_policy.c and runtime_special.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"

int kmsg_each(unsigned long long after, unsigned long long *last_seq,
	      void (*fn)(char *msg, void *ctx), void *ctx)
{
	unsigned long long seq;
	char rec[2048], *msg;
	ssize_t n;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	*last_seq = after;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: skip ahead */
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg || sscanf(rec, "%*u,%llu,", &seq) != 1)
			continue;
		*last_seq = seq;
		if (seq > after) {
			msg[strcspn(msg, "\n")] = '\0';
			fn(msg + 1, ctx);
		}
	}
	close(fd);
	return 0;
}

static void demotion_line(char *msg, void *ctx)
{
	const char *key = "Demotion targets for Node ";
	struct demotion_lines *d = ctx;
	unsigned long long pref, fall;
	char *p = strstr(msg, key), *f;
	int nid;

	if (!p)
		return;
	nid = atoi(p + strlen(key));
	if (nid < 0 || nid >= TOPO_MAX_NODES)
		return;
	d->lines++;
	d->targets[nid] = 0;
	p = strstr(p, "preferred: ");
	f = p ? strstr(p, ", fallback: ") : NULL;
	if (!f)
		return;		/* "null" */
	*f = '\0';
	if (!topo_parse_list(p + strlen("preferred: "), &pref) &&
	    !topo_parse_list(f + strlen(", fallback: "), &fall))
		d->targets[nid] = pref | fall;
}

int kmsg_demotion(unsigned long long after, struct demotion_lines *d,
		  unsigned long long *last_seq)
{
	memset(d, 0, sizeof(*d));
	return kmsg_each(after, last_seq, demotion_line, d);
}
