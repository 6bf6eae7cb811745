/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM memattr

#if !defined(_TRACE_MEMATTR_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MEMATTR_H

#include <linux/tracepoint.h>

/*
 * kmemattrd finished a pass over every process's page tables and the page
 * cache of the tracked nodes: what it looked at and what it moved, the
 * TLB flushes it asked for and the longest it held one mm's mmap_lock.
 */
TRACE_EVENT(memattr_scan_pass,
	    TP_PROTO(unsigned long scanned, unsigned long promoted,
		     unsigned long demoted, unsigned long failed,
		     unsigned int msecs, unsigned long tlb_flushes,
		     unsigned int max_hold_us, unsigned long pending,
		     unsigned int next_wait_ms),
	    TP_ARGS(scanned, promoted, demoted, failed, msecs, tlb_flushes,
		    max_hold_us, pending, next_wait_ms),
	    TP_STRUCT__entry(__field(unsigned long, scanned)
			     __field(unsigned long, promoted)
			     __field(unsigned long, demoted)
			     __field(unsigned long, failed)
			     __field(unsigned int, msecs)
			     __field(unsigned long, tlb_flushes)
			     __field(unsigned int, max_hold_us)
			     __field(unsigned long, pending)
			     __field(unsigned int, next_wait_ms)),
	    TP_fast_assign(__entry->scanned = scanned;
			   __entry->promoted = promoted;
			   __entry->demoted = demoted;
			   __entry->failed = failed;
			   __entry->msecs = msecs;
			   __entry->tlb_flushes = tlb_flushes;
			   __entry->max_hold_us = max_hold_us;
			   __entry->pending = pending;
			   __entry->next_wait_ms = next_wait_ms;),
	    TP_printk("scanned=%lu promoted=%lu demoted=%lu failed=%lu msecs=%u tlb_flushes=%lu max_hold_us=%u pending=%lu next_wait_ms=%u",
		      __entry->scanned, __entry->promoted, __entry->demoted,
		      __entry->failed, __entry->msecs, __entry->tlb_flushes,
		      __entry->max_hold_us, __entry->pending, __entry->next_wait_ms)
);

/* One batch of folios kmemattrd handed to migrate_pages() for a node. */
TRACE_EVENT(memattr_migrate_batch,
	    TP_PROTO(int nid, bool promote, unsigned long nr_pages,
		     unsigned int nr_succeeded),
	    TP_ARGS(nid, promote, nr_pages, nr_succeeded),
	    TP_STRUCT__entry(__field(int, nid)
			     __field(bool, promote)
			     __field(unsigned long, nr_pages)
			     __field(unsigned int, nr_succeeded)),
	    TP_fast_assign(__entry->nid = nid;
			   __entry->promote = promote;
			   __entry->nr_pages = nr_pages;
			   __entry->nr_succeeded = nr_succeeded;),
	    TP_printk("nid=%d %s nr_pages=%lu nr_succeeded=%u", __entry->nid,
		      __entry->promote ? "promote" : "demote", __entry->nr_pages,
		      __entry->nr_succeeded)
);

#endif /* _TRACE_MEMATTR_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
