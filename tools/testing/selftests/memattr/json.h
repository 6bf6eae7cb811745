/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader for the memattr selftests: enough of RFC 8259 to
 * read what `memattr show --json` prints (integers only, no fractions).
 */
#ifndef MEMATTR_SELFTEST_JSON_H
#define MEMATTR_SELFTEST_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

/* One parsed value; arrays and objects own their members. */
struct json_value {
	enum json_type type;		/* which of the members below is valid */
	bool boolean;			/* JSON_BOOL */
	long long number;		/* JSON_NUMBER (integers only) */
	char *string;			/* JSON_STRING, NUL-terminated UTF-8 */
	int nr;				/* JSON_ARRAY, JSON_OBJECT: members */
	char **keys;			/* JSON_OBJECT: member names */
	struct json_value **items;	/* JSON_ARRAY, JSON_OBJECT: members */
};

/*
 * Parse a whole document. Returns NULL on malformed input and describes
 * the first problem (with its byte offset) in @err.
 */
struct json_value *json_parse(const char *text, char *err, size_t errlen);
void json_free(struct json_value *val);

/* Member @key of an object; NULL if @obj is not an object or lacks it. */
const struct json_value *json_get(const struct json_value *obj,
				  const char *key);
/* Element @i of an array; NULL if @arr is not an array or too short. */
const struct json_value *json_at(const struct json_value *arr, int i);

/* Number of elements of an array, -1 if @arr is not an array. */
int json_len(const struct json_value *arr);

/* @val is present and of @type. */
static inline bool json_is(const struct json_value *val, enum json_type type)
{
	return val && val->type == type;
}

#endif
