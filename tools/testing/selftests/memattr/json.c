// SPDX-License-Identifier: GPL-2.0
/*
 * A small recursive-descent JSON reader for the memattr selftests. It
 * rejects anything it does not understand instead of guessing: trailing
 * garbage, fractions and exponents, unpaired surrogates, deep nesting.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define JSON_MAX_DEPTH	32

/* Where the parser is and the first error it met. */
struct json_parser {
	const char *text;		/* the whole document */
	const char *pos;		/* next character to read */
	int depth;			/* arrays/objects currently open */
	char *err;			/* message buffer, never NULL */
	size_t errlen;			/* size of @err */
	bool failed;			/* @err holds a message */
};

static struct json_value *parse_value(struct json_parser *p);

static void fail(struct json_parser *p, const char *fmt, ...)
{
	size_t off;
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	off = snprintf(p->err, p->errlen, "offset %td: ",
		       p->pos - p->text);
	if (off >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + off, p->errlen - off, fmt, ap);
	va_end(ap);
}

static void skip_space(struct json_parser *p)
{
	while (*p->pos == ' ' || *p->pos == '\t' || *p->pos == '\n' ||
	       *p->pos == '\r')
		p->pos++;
}

static struct json_value *new_value(struct json_parser *p,
				    enum json_type type)
{
	struct json_value *val = calloc(1, sizeof(*val));

	if (!val)
		fail(p, "out of memory");
	else
		val->type = type;
	return val;
}

static struct json_value *new_bool(struct json_parser *p, bool boolean)
{
	struct json_value *val = new_value(p, JSON_BOOL);

	if (val)
		val->boolean = boolean;
	return val;
}

void json_free(struct json_value *val)
{
	int i;

	if (!val)
		return;
	for (i = 0; i < val->nr; i++) {
		if (val->keys)
			free(val->keys[i]);
		json_free(val->items[i]);
	}
	free(val->keys);
	free(val->items);
	free(val->string);
	free(val);
}

static bool literal(struct json_parser *p, const char *word)
{
	size_t len = strlen(word);

	if (strncmp(p->pos, word, len))
		return false;
	p->pos += len;
	return true;
}

static int hex4(struct json_parser *p, unsigned int *cp)
{
	int i, c;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		c = *p->pos++;
		if (c >= '0' && c <= '9')
			*cp = *cp << 4 | (c - '0');
		else if (c >= 'a' && c <= 'f')
			*cp = *cp << 4 | (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*cp = *cp << 4 | (c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* The code point of a \u escape (after "\u"), pairing surrogates. */
static int unicode_escape(struct json_parser *p, unsigned int *cp)
{
	unsigned int low;

	if (hex4(p, cp))
		return -1;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return -1;
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (!literal(p, "\\u") || hex4(p, &low) || low < 0xdc00 || low > 0xdfff)
		return -1;
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
	return 0;
}

static char *put_utf8(char *out, unsigned int cp)
{
	if (cp < 0x80) {
		*out++ = cp;
	} else if (cp < 0x800) {
		*out++ = 0xc0 | cp >> 6;
		*out++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*out++ = 0xe0 | cp >> 12;
		*out++ = 0x80 | (cp >> 6 & 0x3f);
		*out++ = 0x80 | (cp & 0x3f);
	} else {
		*out++ = 0xf0 | cp >> 18;
		*out++ = 0x80 | (cp >> 12 & 0x3f);
		*out++ = 0x80 | (cp >> 6 & 0x3f);
		*out++ = 0x80 | (cp & 0x3f);
	}
	return out;
}

static char escaped_char(char c)
{
	switch (c) {
	case '"': return '"';
	case '\\': return '\\';
	case '/': return '/';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	default: return 0;
	}
}

/* A string at p->pos (the opening quote); malloc()ed, NULL on error. */
static char *parse_string(struct json_parser *p)
{
	/* The decoded string is never longer than the encoded one. */
	char *str = malloc(strlen(p->pos) + 1);
	char *out = str;
	unsigned int cp;
	char c;

	if (!str) {
		fail(p, "out of memory");
		return NULL;
	}
	p->pos++;
	while ((c = *p->pos++) != '"') {
		if ((unsigned char)c < 0x20) {
			p->pos--;
			fail(p, c ? "control character in string" :
				    "unterminated string");
			goto err;
		}
		if (c != '\\') {
			*out++ = c;
			continue;
		}
		c = *p->pos++;
		if (c == 'u') {
			if (unicode_escape(p, &cp) || !cp) {
				fail(p, "bad \\u escape");
				goto err;
			}
			out = put_utf8(out, cp);
		} else if (escaped_char(c)) {
			*out++ = escaped_char(c);
		} else {
			fail(p, "bad escape '\\%c'", c);
			goto err;
		}
	}
	*out = '\0';
	return str;
err:
	free(str);
	return NULL;
}

static struct json_value *parse_number(struct json_parser *p)
{
	const char *start = p->pos;
	struct json_value *val;
	long long num;
	char *end;

	if (*start == '-')
		start++;
	if (*start < '0' || *start > '9' ||
	    (*start == '0' && start[1] >= '0' && start[1] <= '9')) {
		fail(p, "bad number");
		return NULL;
	}
	errno = 0;
	num = strtoll(p->pos, &end, 10);
	if (errno == ERANGE) {
		fail(p, "number out of range");
		return NULL;
	}
	if (*end == '.' || *end == 'e' || *end == 'E') {
		fail(p, "non-integer number");
		return NULL;
	}
	val = new_value(p, JSON_NUMBER);
	if (val)
		val->number = num;
	p->pos = end;
	return val;
}

/* Append @item (and @key for an object) to @val; false on failure. */
static bool add_member(struct json_parser *p, struct json_value *val,
		       char *key, struct json_value *item)
{
	struct json_value **items;
	char **keys;

	items = realloc(val->items, (val->nr + 1) * sizeof(*items));
	if (!items)
		goto oom;
	val->items = items;
	if (val->type == JSON_OBJECT) {
		keys = realloc(val->keys, (val->nr + 1) * sizeof(*keys));
		if (!keys)
			goto oom;
		val->keys = keys;
		keys[val->nr] = key;
	}
	items[val->nr++] = item;
	return true;
oom:
	fail(p, "out of memory");
	free(key);
	json_free(item);
	return false;
}

/* One member: for an object "key": value, for an array a value. */
static bool parse_member(struct json_parser *p, struct json_value *val)
{
	struct json_value *item;
	char *key = NULL;

	skip_space(p);
	if (val->type == JSON_OBJECT) {
		if (*p->pos != '"') {
			fail(p, "expected a member name");
			return false;
		}
		key = parse_string(p);
		if (!key)
			return false;
		skip_space(p);
		if (*p->pos++ != ':') {
			p->pos--;
			fail(p, "expected ':'");
			free(key);
			return false;
		}
	}
	item = parse_value(p);
	if (!item) {
		free(key);
		return false;
	}
	return add_member(p, val, key, item);
}

/* An array or object at p->pos ('[' or '{'). */
static struct json_value *parse_container(struct json_parser *p,
					  enum json_type type)
{
	char close = type == JSON_ARRAY ? ']' : '}';
	struct json_value *val;

	if (++p->depth > JSON_MAX_DEPTH) {
		fail(p, "nested too deeply");
		return NULL;
	}
	val = new_value(p, type);
	if (!val)
		return NULL;
	p->pos++;
	skip_space(p);
	if (*p->pos == close) {
		p->pos++;
		p->depth--;
		return val;
	}
	for (;;) {
		if (!parse_member(p, val))
			goto err;
		skip_space(p);
		if (*p->pos == close)
			break;
		if (*p->pos != ',') {
			fail(p, "expected ',' or '%c'", close);
			goto err;
		}
		p->pos++;
	}
	p->pos++;
	p->depth--;
	return val;
err:
	json_free(val);
	return NULL;
}

static struct json_value *parse_value(struct json_parser *p)
{
	struct json_value *val;
	char *str;

	skip_space(p);
	switch (*p->pos) {
	case '{':
		return parse_container(p, JSON_OBJECT);
	case '[':
		return parse_container(p, JSON_ARRAY);
	case '"':
		str = parse_string(p);
		if (!str)
			return NULL;
		val = new_value(p, JSON_STRING);
		if (val)
			val->string = str;
		else
			free(str);
		return val;
	case '-':
	case '0' ... '9':
		return parse_number(p);
	}
	if (literal(p, "null"))
		return new_value(p, JSON_NULL);
	if (literal(p, "true"))
		return new_bool(p, true);
	if (literal(p, "false"))
		return new_bool(p, false);
	fail(p, *p->pos ? "unexpected character '%c'" : "unexpected end",
	     *p->pos);
	return NULL;
}

struct json_value *json_parse(const char *text, char *err, size_t errlen)
{
	static char dummy[1];
	struct json_parser p = {
		.text = text,
		.pos = text,
		.err = errlen ? err : dummy,
		.errlen = errlen ? errlen : sizeof(dummy),
	};
	struct json_value *val;

	p.err[0] = '\0';
	val = parse_value(&p);
	if (!val)
		return NULL;
	skip_space(&p);
	if (*p.pos) {
		fail(&p, "trailing characters after the document");
		json_free(val);
		return NULL;
	}
	return val;
}

const struct json_value *json_get(const struct json_value *obj,
				  const char *key)
{
	int i;

	if (!json_is(obj, JSON_OBJECT))
		return NULL;
	for (i = 0; i < obj->nr; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const struct json_value *json_at(const struct json_value *arr, int i)
{
	if (!json_is(arr, JSON_ARRAY) || i < 0 || i >= arr->nr)
		return NULL;
	return arr->items[i];
}

int json_len(const struct json_value *arr)
{
	return json_is(arr, JSON_ARRAY) ? arr->nr : -1;
}
