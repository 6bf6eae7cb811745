// SPDX-License-Identifier: GPL-2.0
/*
 * memattr: parse the number and list formats that sysfs prints and that
 * the command line takes: decimal numbers, id lists ("0-3,8") and rows of
 * integers ("10 20 30").
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memattr.h"

/**
 * parse_u64() - parse an unsigned decimal number
 * @str: the text; surrounding white space is allowed, nothing else
 * @val: where to store the number
 *
 * Return: 0, or -EINVAL for junk, a sign or no digits, -ERANGE on overflow.
 */
int parse_u64(const char *str, uint64_t *val)
{
	unsigned long long num;
	char *end;

	while (isspace((unsigned char)*str))
		str++;
	if (!isdigit((unsigned char)*str))
		return -EINVAL;
	errno = 0;
	num = strtoull(str, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*val = num;
	return 0;
}

/* Position in an id list such as "0-3,8" and the range just parsed. */
struct id_range_iter {
	const char *pos;		/* next character to parse */
	unsigned int first;		/* first id of the current range */
	unsigned int last;		/* last id of the current range */
};

static void id_range_start(struct id_range_iter *iter, const char *str)
{
	while (isspace((unsigned char)*str))
		str++;
	iter->pos = str;
}

/* Parse the next "a" or "a-b": 1 if one was parsed, 0 at the end. */
static int id_range_next(struct id_range_iter *iter)
{
	unsigned long first, last;
	char *end;

	if (!*iter->pos || isspace((unsigned char)*iter->pos))
		return 0;
	if (!isdigit((unsigned char)*iter->pos))
		return -EINVAL;
	first = strtoul(iter->pos, &end, 10);
	last = first;
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return -EINVAL;
		last = strtoul(end + 1, &end, 10);
	}
	if (first > last || last >= 1UL << 30)
		return -EINVAL;
	if (*end == ',')
		end++;
	else if (*end && !isspace((unsigned char)*end))
		return -EINVAL;
	iter->first = first;
	iter->last = last;
	iter->pos = end;
	return 1;
}

/**
 * parse_nodemask() - parse a nodelist such as "0-3,8" into a mask
 * @str: the list; an empty string is the empty set
 * @mask: receives the set
 *
 * Return: 0, or -EINVAL / -ERANGE.
 */
int parse_nodemask(const char *str, struct nodemask *mask)
{
	struct id_range_iter iter;
	unsigned int node;
	int ret;

	memset(mask, 0, sizeof(*mask));
	id_range_start(&iter, str);
	while ((ret = id_range_next(&iter)) > 0) {
		if (iter.last >= MEMATTR_MAX_NODES)
			return -ERANGE;
		for (node = iter.first; node <= iter.last; node++)
			nodemask_set(mask, node);
	}
	return ret;
}

/* Whether a cpulist or nodelist names id; a malformed list names nothing. */
bool id_list_contains(const char *str, unsigned int id)
{
	struct id_range_iter iter;

	id_range_start(&iter, str);
	while (id_range_next(&iter) > 0)
		if (iter.first <= id && id <= iter.last)
			return true;
	return false;
}

/**
 * parse_int_row() - parse white-space separated integers
 * @str: the row, e.g. a node's distance row "10 20 20"
 * @vals: receives a malloc()ed array (NULL for an empty row)
 * @nr_vals: receives the number of entries
 *
 * Return: 0, or -EINVAL for junk, -ENOMEM.
 */
int parse_int_row(const char *str, int **vals, int *nr_vals)
{
	size_t len = strlen(str);
	int *row = NULL;
	int nr = 0;
	char *end;
	long val;

	if (len)
		row = calloc(len / 2 + 1, sizeof(*row));
	if (len && !row)
		return -ENOMEM;
	for (;;) {
		while (isspace((unsigned char)*str))
			str++;
		if (!*str)
			break;
		errno = 0;
		val = strtol(str, &end, 10);
		if (end == str || errno || val < -1 || val > 1L << 30 ||
		    (*end && !isspace((unsigned char)*end))) {
			free(row);
			return -EINVAL;
		}
		row[nr++] = val;
		str = end;
	}
	*vals = row;
	*nr_vals = nr;
	return 0;
}
