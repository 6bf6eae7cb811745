/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log as tests read it (/dev/kmsg), and the demotion targets
 * mm/memory-tiers.c prints there each time it recomputes them (kmsg.c).
 */
#ifndef MEMATTR_SELFTEST_KMSG_H
#define MEMATTR_SELFTEST_KMSG_H

#include "topology.h"

/*
 * Call @fn for the text of every /dev/kmsg record after sequence number
 * @after; *@last_seq gets the last sequence number seen. 0 or -1.
 */
int kmsg_each(unsigned long long after, unsigned long long *last_seq,
	      void (*fn)(char *msg, void *ctx), void *ctx);

/* Demotion targets by node (preferred | fallback), from the last lines seen. */
struct demotion_lines {
	int lines;				/* "Demotion targets" lines seen */
	unsigned long long targets[TOPO_MAX_NODES];	/* per source node */
};

/* The demotion lines after @after into @d; 0 or -1. */
int kmsg_demotion(unsigned long long after, struct demotion_lines *d,
		  unsigned long long *last_seq);

#endif
