/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the rest of mm needs to know about kmemattrd (mm/memattr_daemon.c).
 */
#ifndef _LINUX_MEMATTR_DAEMON_H
#define _LINUX_MEMATTR_DAEMON_H

#include <linux/jump_label.h>
#include <linux/types.h>

#ifdef CONFIG_MEMATTR_DAEMON
DECLARE_STATIC_KEY_FALSE(memattr_daemon_sampling);

/*
 * While kmemattrd runs, an accessed bit is its evidence that a task touched
 * the page. A PTE that fault-around maps ahead of the faulting address has
 * not been touched: map it old, as architectures that ask for it
 * (arch_wants_old_prefaulted_pte()) always do, or every process that maps a
 * shared file makes its neighbours of hot pages look accessed once.
 */
static inline bool memattr_wants_old_prefaulted_pte(void)
{
	return static_branch_unlikely(&memattr_daemon_sampling);
}
#else
static inline bool memattr_wants_old_prefaulted_pte(void)
{
	return false;
}
#endif

#endif /* _LINUX_MEMATTR_DAEMON_H */
