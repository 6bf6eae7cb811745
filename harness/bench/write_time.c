// SPDX-License-Identifier: GPL-2.0
/*
 * Time sysfs writes that trigger a rebuild: alternately write two values to
 * one file and print the median time per write in microseconds.
 * Usage: write_time FILE VALUE_A VALUE_B [ROUNDS]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double write_us(const char *path, const char *val)
{
	struct timespec a, b;
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	n = write(fd, val, strlen(val));
	clock_gettime(CLOCK_MONOTONIC, &b);
	close(fd);
	if (n < 0) {
		perror(val);
		exit(1);
	}
	return (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 4 ? atoi(argv[4]) : 20, i;
	double *t;

	if (argc < 4 || rounds <= 0) {
		fprintf(stderr, "usage: write_time FILE VALUE_A VALUE_B [ROUNDS]\n");
		return 2;
	}
	t = calloc(2 * rounds, sizeof(*t));
	for (i = 0; i < 2 * rounds; i++)
		t[i] = write_us(argv[1], argv[2 + i % 2]);
	qsort(t, 2 * rounds, sizeof(*t), cmp_double);
	printf("write_us median %.0f min %.0f max %.0f\n", t[rounds], t[0],
	       t[2 * rounds - 1]);
	return 0;
}
