// SPDX-License-Identifier: GPL-2.0
/*
 * Read every file of every /sys/devices/system/node/nodeN/memattr/ once per
 * pass and print the median time per pass in microseconds, and how many
 * files a pass read. Exits 1 if any file cannot be read.
 * Usage: read_time [PASSES]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NODE_DIR	"/sys/devices/system/node"
#define MAX_FILES	4096
#define MAX_PASSES	101

static char *files[MAX_FILES];
static int nr_files;

/* Every regular file under nodeN/memattr/, for every node N. */
static void list_files(void)
{
	struct dirent *n, *f;
	char dir[512];
	DIR *nodes, *d;

	nodes = opendir(NODE_DIR);
	if (!nodes) {
		perror(NODE_DIR);
		exit(1);
	}
	while ((n = readdir(nodes))) {
		if (strncmp(n->d_name, "node", 4) || !n->d_name[4])
			continue;
		snprintf(dir, sizeof(dir), NODE_DIR "/%s/memattr", n->d_name);
		d = opendir(dir);
		if (!d)
			continue;	/* a kernel without memattr: nothing to time */
		while ((f = readdir(d)) && nr_files < MAX_FILES) {
			if (f->d_name[0] == '.')
				continue;
			if (asprintf(&files[nr_files], "%s/%s", dir, f->d_name) < 0)
				exit(1);
			nr_files++;
		}
		closedir(d);
	}
	closedir(nodes);
}

/* One pass over every file; microseconds. */
static double read_pass(void)
{
	struct timespec a, b;
	char buf[4096];
	int i, fd;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < nr_files; i++) {
		fd = open(files[i], O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0) {
			perror(files[i]);
			exit(1);
		}
		close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int passes = argc > 1 ? atoi(argv[1]) : 21, i;
	double t[MAX_PASSES];

	if (passes < 1 || passes > MAX_PASSES) {
		fprintf(stderr, "read_time: 1..%d passes\n", MAX_PASSES);
		return 2;
	}
	list_files();
	if (!nr_files) {
		fprintf(stderr, "read_time: no memattr files\n");
		return 1;
	}
	for (i = 0; i < passes; i++)
		t[i] = read_pass();
	qsort(t, passes, sizeof(t[0]), cmp_double);
	printf("%.0f %d\n", t[passes / 2], nr_files);
	return 0;
}
