// SPDX-License-Identifier: GPL-2.0
/*
 * Page-fault throughput of a process: map fresh anonymous memory, touch
 * every page, unmap; print pages per second for each run. Default policy,
 * or MPOL_BIND to the nodes of MASK (hex) when given.
 * Used by harness/bench-cost.sh to compare the patched and base kernels.
 * Usage: fault_bench [MiB] [runs] [MASK]
 */
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Touch @bytes of fresh anonymous memory; return pages faulted per second. */
static double fault_rate(size_t bytes, long page)
{
	double start, elapsed;
	char *p;
	size_t off;

	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	madvise(p, bytes, MADV_NOHUGEPAGE);	/* count base-page faults */
	start = now();
	for (off = 0; off < bytes; off += page)
		p[off] = 1;
	elapsed = now() - start;
	munmap(p, bytes);
	return bytes / page / elapsed;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	unsigned long mask = argc > 3 ? strtoul(argv[3], NULL, 16) : 0;
	long page = sysconf(_SC_PAGESIZE);
	int i;

	if (!mib || runs <= 0) {
		fprintf(stderr, "usage: fault_bench [MiB] [runs] [MASK]\n");
		return 2;
	}
	if (mask && set_mempolicy(MPOL_BIND, &mask, sizeof(mask) * 8)) {
		perror("set_mempolicy");
		return 1;
	}
	fault_rate(64 << 20, page);	/* warm up the page allocator */
	for (i = 0; i < runs; i++)
		printf("fault_rate %.0f\n", fault_rate(mib << 20, page));
	return 0;
}
