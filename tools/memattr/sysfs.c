// SPDX-License-Identifier: GPL-2.0
/*
 * memattr: read sysfs files. Every path is relative to the sysfs root,
 * normally "/", which $MEMATTR_SYSFS_ROOT may move to a fake tree so the
 * tool can be tested on any host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memattr.h"

/* sysfs files hold at most one page; 64 KiB covers every page size. */
#define SYSFS_FILE_MAX	65536

static const char *sysfs_root = "";

void sysfs_set_root(const char *root)
{
	sysfs_root = root ? root : "";
}

/* Build root + formatted path; false if it does not fit. */
static __printf(3, 0) bool sysfs_vpath(char *path, size_t size,
				       const char *fmt, va_list ap)
{
	int len = snprintf(path, size, "%s", sysfs_root);
	int more;

	if (len < 0 || (size_t)len >= size)
		return false;
	more = vsnprintf(path + len, size - len, fmt, ap);
	return more >= 0 && (size_t)more < size - len;
}

/* Read a whole file into buf, NUL-terminated; returns length or -errno. */
static ssize_t read_whole_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t ret = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		ret = read(fd, buf + len, size - 1 - len);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			break;
		len += ret;
	}
	if (ret < 0)
		ret = -errno;
	close(fd);
	if (ret < 0)
		return ret;
	buf[len] = '\0';
	return len;
}

static __printf(1, 0) char *sysfs_vread(const char *fmt, va_list ap)
{
	char path[4096];
	char *buf, *copy;
	ssize_t len;

	if (!sysfs_vpath(path, sizeof(path), fmt, ap)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	buf = malloc(SYSFS_FILE_MAX);
	if (!buf)
		return NULL;
	len = read_whole_file(path, buf, SYSFS_FILE_MAX);
	if (len < 0) {
		free(buf);
		errno = -len;
		return NULL;
	}
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	copy = strdup(buf);
	free(buf);
	return copy;
}

/**
 * sysfs_read() - read a sysfs file
 * @fmt: printf format of the path, relative to the sysfs root
 *
 * Return: the contents without trailing newline (free() it), or NULL with
 * errno set.
 */
char *sysfs_read(const char *fmt, ...)
{
	va_list ap;
	char *str;

	va_start(ap, fmt);
	str = sysfs_vread(fmt, ap);
	va_end(ap);
	return str;
}

/**
 * sysfs_read_u64() - read a sysfs file that holds one decimal number
 * @val: where to store the number
 * @fmt: printf format of the path, relative to the sysfs root
 *
 * Return: 0, or -errno (-EINVAL if the file is not one number).
 */
int sysfs_read_u64(uint64_t *val, const char *fmt, ...)
{
	va_list ap;
	char *str;
	int ret;

	va_start(ap, fmt);
	str = sysfs_vread(fmt, ap);
	va_end(ap);
	if (!str)
		return -errno;
	ret = parse_u64(str, val);
	free(str);
	return ret;
}

bool sysfs_exists(const char *fmt, ...)
{
	char path[4096];
	struct stat st;
	va_list ap;
	bool fits;

	va_start(ap, fmt);
	fits = sysfs_vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	return fits && stat(path, &st) == 0;
}

DIR *sysfs_opendir(const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	bool fits;

	va_start(ap, fmt);
	fits = sysfs_vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (!fits) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return opendir(path);
}
