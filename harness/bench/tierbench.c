// SPDX-License-Identifier: GPL-2.0
/*
 * Tiering workload and sampler (harness/bench-tier.sh, make bench).
 *
 * Places a region's pages on a start node, then hammers a hot subset of its
 * pages (the rest is never touched again) while the main thread samples,
 * every interval, where every page is (move_pages(2) status: it neither
 * faults nor marks pages accessed) and how many operations the workers
 * did. Whatever moves the pages (nothing, NUMA balancing, DAMON, memattr's
 * daemon) is set up by the caller; this program only measures.
 *
 * Usage: tierbench -b BEST -n START [-s MiB] [-p HOT%] [-c] [-z] [-t SECONDS]
 *                  [-i MS] [-o] [-x SHIFT_S] [-w WORKERS] [-f] [-L MiB] [-P PROCS] [-B]
 *        tierbench -W PID -b BEST -n START [-p HOT%] [-t SECONDS] [-i MS]
 *   -b  the node the hot set belongs on (residency is counted there)
 *   -n  the node every page starts on
 *   -s  region size (256 MiB)        -p  hot share in percent (10)
 *   -c  contiguous hot set (default: scattered over the region)
 *   -z  Zipf-like skew inside the hot set (default: uniform)
 *   -t  run time (30 s)              -i  sample interval (1000 ms)
 *   -o  oracle: move the hot set to BEST before the start
 *   -x  at SHIFT_S seconds the hot set moves to other pages
 *   -w  worker threads per process (1)
 *   -f  the region is a tmpfs file's page cache, read with pread(2)
 *   -L  fill BEST with cold anonymous memory until MiB are left free
 *   -P  processes sharing the region (1; MAP_SHARED when more)
 *   -B  the task stays bound (MPOL_BIND) to START after placing the region,
 *       as under numactl --membind: what a mechanism does with pages whose
 *       task policy forbids every other node
 *   -W  watch another program instead: its largest anonymous mapping is the
 *       region, whose first HOT% of pages are the hot set (a program whose
 *       skew favours low offsets, such as sysbench memory --rand-type=pareto)
 * Output, one line each: "# ..." header, "sample t=S ops=N hot=N hot_best=N
 * hot_start=N cold_moved=N pingpong=N kcpu=S stime=S nodes=a:N,b:N hot_nodes=a:N",
 * "shift t=S pgmigrate_success=N" (-x: the counter when the hot set moved),
 * "end ...". Counts are pages; hot is the current hot set's size, cold_moved
 * counts pages of neither hot set that left the start node, pingpong the
 * pages so far that went back to the node they had left within 10 s, kcpu
 * the CPU seconds so far of the kernel threads that move pages (kmemattrd,
 * kdamond.N) that existed at the start, stime the workload's system time so
 * far (all its processes and threads: NUMA balancing's scanning and hint
 * faults land there).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES	64
#define MAX_WORKERS	8
#define MAX_KTHREADS	8

static struct {
	int best, start, hot_pct, seconds, interval_ms, shift_s, workers, procs;
	size_t bytes, leave;
	bool contiguous, zipf, oracle, page_cache, bound;
	int watch;	/* -W: the pid whose memory is sampled, 0 for our own */
} opt = { -1, -1, 10, 30, 1000, -1, 1, 1, 256UL << 20, 0, false, false, false, false, false, 0 };

static char *region;
static int file_fd = -1;	/* -f: the tmpfs file the region maps */
static unsigned long mapped_sum;	/* -f: the loads that map the file, kept */
static long page_size, npages;
static int kthread_pid[MAX_KTHREADS];	/* kmemattrd and kdamonds */
static int nr_kthreads;
static long *hot[2];		/* page indices of the hot set before/after a shift */
static long nr_hot[2];		/* their sizes */
static pid_t procs[MAX_WORKERS];	/* -P: the workload's processes, this one first */
/* What every worker of every process (-P) shares. */
static struct control {
	atomic_int phase;	/* which hot set the workers use */
	atomic_long ops;	/* operations done */
	atomic_bool stop;
} *ctl;

/* A page's membership in hot set @set: a hash, so scattered sets are fixed. */
static bool is_hot(long page, int set)
{
	unsigned long long h = (unsigned long long)page * 0x9e3779b97f4a7c15ULL +
			       set * 0x632be59bd9b4e019ULL;

	if (opt.contiguous) {
		long start = set ? npages / 2 : 0;

		return page >= start && page < start + npages * opt.hot_pct / 100;
	}
	h ^= h >> 29;
	return (long)(h % 100) < opt.hot_pct;
}

static void pick_hot_sets(void)
{
	long i, n[2] = { 0, 0 };
	int s;

	for (s = 0; s < 2; s++) {
		hot[s] = malloc(npages * sizeof(long));
		if (!hot[s])
			exit(1);
		for (i = 0; i < npages; i++)
			if (is_hot(i, s))
				hot[s][n[s]++] = i;
	}
	nr_hot[0] = n[0];
	nr_hot[1] = n[1];
}

static unsigned long long xorshift(unsigned long long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Read and write one word of a hot page, over and over. */
static void *worker(void *arg)
{
	unsigned long long x = 88172645463325252ULL + (uintptr_t)arg;
	long done = 0, i;
	double u;

	while (!atomic_load_explicit(&ctl->stop, memory_order_relaxed)) {
		int p = atomic_load_explicit(&ctl->phase, memory_order_relaxed);
		const long *set = hot[p];

		u = (xorshift(&x) >> 11) * (1.0 / 9007199254740992.0);
		i = opt.zipf ? (long)(nr_hot[p] * u * u * u) : (long)(nr_hot[p] * u);
		if (file_fd >= 0) {
			long word;

			/* page cache read through the file, never through the mapping */
			if (pread(file_fd, &word, sizeof(word), set[i] * page_size) != sizeof(word))
				break;
		} else {
			/* volatile: the access is the work; the compiler must not drop it */
			((volatile long *)(region + set[i] * page_size))[(x >> 3) & 7]++;
		}
		if (++done == 4096) {
			atomic_fetch_add_explicit(&ctl->ops, done, memory_order_relaxed);
			done = 0;
		}
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Every page of the region allocated on opt.start, under a bound policy:
 * anonymous memory (shared between the processes with -P), or with -f the
 * page cache of a tmpfs file written with write(2). The file's mapping
 * exists only for move_pages(2): one load per page maps it once, and
 * nothing touches it through the mapping again. Not MAP_POPULATE: that
 * marks each page accessed (FOLL_TOUCH), a second access right after the
 * write, which activates every page of the file on the LRU as if all of
 * it had been read again.
 */
static int place(void)
{
	unsigned long mask = 1UL << opt.start;
	static char page[1 << 16];
	size_t off;
	long i;

	if (set_mempolicy(MPOL_BIND, &mask, MAX_NODES))
		return -1;
	if (opt.page_cache) {
		file_fd = open("/tmp/tierbench.data", O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (file_fd < 0)
			return -1;
		unlink("/tmp/tierbench.data");
		memset(page, 1, sizeof(page));
		if (ftruncate(file_fd, opt.bytes))
			return -1;
		region = mmap(NULL, opt.bytes, PROT_READ, MAP_SHARED, file_fd, 0);
		if (region == MAP_FAILED)
			return -1;
		for (off = 0; off < opt.bytes; off += sizeof(page))
			if (pwrite(file_fd, page, sizeof(page), off) != sizeof(page))
				return -1;
		for (off = 0; off < opt.bytes; off += page_size)
			mapped_sum += __atomic_load_n(region + off, __ATOMIC_RELAXED);
	} else {
		region = mmap(NULL, opt.bytes, PROT_READ | PROT_WRITE,
			      (opt.procs > 1 ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED)
			return -1;
		for (i = 0; i < npages; i++)
			region[i * page_size] = 1;
	}
	/* -B: the policy stays, as numactl --membind leaves it */
	return opt.bound ? 0 : set_mempolicy(MPOL_DEFAULT, NULL, 0);
}

/* MemFree of @nid in MiB, from its meminfo; -1 on error. */
static long node_free_mb(int nid)
{
	char path[96], line[128];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", nid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Node %*d MemFree: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb >> 10;
}

/* A /proc/vmstat counter, or -1 when it cannot be read. */
static long vmstat_counter(const char *name)
{
	char key[64];
	long val, found = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2)
		if (!strcmp(key, name)) {
			found = val;
			break;
		}
	fclose(f);
	return found;
}

/*
 * -L: fill the best node with cold anonymous memory (bound, touched once,
 * never again) until only opt.leave MiB are free, so that promotion there
 * has to make room first.
 */
static int fill_best(void)
{
	unsigned long mask = 1UL << opt.best;
	const size_t chunk = 4UL << 20;
	size_t off;
	char *p;

	if (!opt.leave)
		return 0;
	if (set_mempolicy(MPOL_BIND, &mask, MAX_NODES))
		return -1;
	while (node_free_mb(opt.best) > (long)(opt.leave + (chunk >> 20))) {
		p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		for (off = 0; off < chunk; off += page_size)
			p[off] = 1;
	}
	return set_mempolicy(MPOL_DEFAULT, NULL, 0);
}

/* The oracle: the hot set on opt.best before the clock starts. */
static int move_hot(void)
{
	void **pages = malloc(nr_hot[0] * sizeof(*pages));
	int *nodes = malloc(nr_hot[0] * sizeof(*nodes));
	int *status = malloc(nr_hot[0] * sizeof(*status));
	long i, ret;

	if (!pages || !nodes || !status)
		return -1;
	for (i = 0; i < nr_hot[0]; i++) {
		pages[i] = region + hot[0][i] * page_size;
		nodes[i] = opt.best;
	}
	ret = move_pages(0, nr_hot[0], pages, nodes, status, MPOL_MF_MOVE);
	free(pages);
	free(nodes);
	free(status);
	return ret < 0 ? -1 : 0;
}

/*
 * Ping-pong: a page that returns to the node it left within PINGPONG_S of
 * leaving it. Per page: the node before the last move, and when it moved.
 */
#define PINGPONG_S	10.0
static signed char *left_node;
static float *moved_at;
static int *last_node;
static long pingpong;

static void track_moves(double t, const int *status)
{
	long i;

	if (!last_node) {
		last_node = malloc(npages * sizeof(*last_node));
		left_node = malloc(npages);
		moved_at = malloc(npages * sizeof(*moved_at));
		if (!last_node || !left_node || !moved_at)
			exit(1);
		for (i = 0; i < npages; i++) {
			last_node[i] = status[i];
			left_node[i] = -1;
		}
		return;
	}
	for (i = 0; i < npages; i++) {
		if (status[i] < 0 || status[i] == last_node[i])
			continue;
		if (status[i] == left_node[i] && t - moved_at[i] <= PINGPONG_S)
			pingpong++;
		left_node[i] = last_node[i];
		last_node[i] = status[i];
		moved_at[i] = t;
	}
}

/* One sample of every page's node; prints a "sample" line. */
/* The page-moving kernel threads: their CPU time is the management cost. */
static void find_kthreads(void)
{
	char path[300], comm[32];
	DIR *proc = opendir("/proc");
	struct dirent *de;
	FILE *f;

	while (proc && (de = readdir(proc)) && nr_kthreads < MAX_KTHREADS) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    (!strcmp(comm, "kmemattrd\n") || !strncmp(comm, "kdamond", 7)))
			kthread_pid[nr_kthreads++] = atoi(de->d_name);
		fclose(f);
	}
	if (proc)
		closedir(proc);
}

/* Clock ticks of @pid so far, user + system, or system only. */
static unsigned long long proc_ticks(int pid, bool system_only)
{
	unsigned long long utime, stime, ticks = 0;
	char path[64], buf[1024], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	/* after the comm: state and 10 fields, then utime and stime */
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			&utime, &stime) == 2)
		ticks = system_only ? stime : utime + stime;
	fclose(f);
	return ticks;
}

/* CPU seconds (user + system) of the page-moving threads so far. */
static double kthread_cpu(void)
{
	unsigned long long ticks = 0;
	int i;

	for (i = 0; i < nr_kthreads; i++)
		ticks += proc_ticks(kthread_pid[i], false);
	return (double)ticks / sysconf(_SC_CLK_TCK);
}

/* System seconds of the workload's processes so far (all their threads). */
static double workload_stime(void)
{
	unsigned long long ticks = 0;
	int p;

	for (p = 0; p < opt.procs; p++)
		ticks += procs[p] ? proc_ticks(procs[p], true) : 0;
	return (double)ticks / sysconf(_SC_CLK_TCK);
}

static void sample(double t, long nops, void **pages, int *status)
{
	long per_node[MAX_NODES] = { 0 }, hot_node[MAX_NODES] = { 0 }, cold_moved = 0, i;
	int set = atomic_load(&ctl->phase), n;
	char nodes[512], hot_nodes[512];
	size_t off = 0, hoff = 0;

	if (move_pages(opt.watch, npages, pages, NULL, status, 0)) {
		printf("%s t=%.2f error=%d\n", "sample", t, errno);
		return;
	}
	track_moves(t, status);
	for (i = 0; i < npages; i++) {
		if (status[i] < 0 || status[i] >= MAX_NODES)
			continue;
		per_node[status[i]]++;
		if (is_hot(i, set))
			hot_node[status[i]]++;
		else if (!is_hot(i, 0) && !is_hot(i, 1))
			cold_moved += status[i] != opt.start;
	}
	nodes[0] = '\0';
	hot_nodes[0] = '\0';
	for (n = 0; n < MAX_NODES; n++) {
		if (per_node[n] && off < sizeof(nodes))
			off += snprintf(nodes + off, sizeof(nodes) - off, "%s%d:%ld",
					off ? "," : "", n, per_node[n]);
		if (hot_node[n] && hoff < sizeof(hot_nodes))
			hoff += snprintf(hot_nodes + hoff, sizeof(hot_nodes) - hoff, "%s%d:%ld",
					 hoff ? "," : "", n, hot_node[n]);
	}
	printf("%s t=%.2f ops=%ld hot=%ld hot_best=%ld hot_start=%ld cold_moved=%ld",
	       "sample", t, nops, nr_hot[set], hot_node[opt.best], hot_node[opt.start], cold_moved);
	printf(" pingpong=%ld kcpu=%.2f stime=%.2f nodes=%s hot_nodes=%s\n", pingpong,
	       kthread_cpu(), workload_stime(), nodes, hot_nodes[0] ? hot_nodes : "-");
	fflush(stdout);
}

static int parse(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "b:n:s:p:czt:i:ox:w:fL:P:BW:")) != -1) {
		switch (c) {
		case 'b':
			opt.best = atoi(optarg);
			break;
		case 'n':
			opt.start = atoi(optarg);
			break;
		case 's':
			opt.bytes = strtoul(optarg, NULL, 10) << 20;
			break;
		case 'p':
			opt.hot_pct = atoi(optarg);
			break;
		case 'c':
			opt.contiguous = true;
			break;
		case 'z':
			opt.zipf = true;
			break;
		case 't':
			opt.seconds = atoi(optarg);
			break;
		case 'i':
			opt.interval_ms = atoi(optarg);
			break;
		case 'o':
			opt.oracle = true;
			break;
		case 'x':
			opt.shift_s = atoi(optarg);
			break;
		case 'w':
			opt.workers = atoi(optarg);
			break;
		case 'f':
			opt.page_cache = true;
			break;
		case 'L':
			opt.leave = strtoul(optarg, NULL, 10);
			break;
		case 'P':
			opt.procs = atoi(optarg);
			break;
		case 'B':
			opt.bound = true;
			break;
		case 'W':
			opt.watch = atoi(optarg);
			opt.contiguous = true;
			break;
		default: return -1;
		}
	}
	if (opt.best < 0 || opt.best >= MAX_NODES || opt.start < 0 ||
	    opt.start >= MAX_NODES || opt.hot_pct < 1 || opt.hot_pct > 50 || !opt.bytes ||
	    opt.interval_ms < 10 || opt.workers < 1 || opt.workers > MAX_WORKERS ||
	    opt.procs < 1 || opt.procs > MAX_WORKERS || (opt.procs > 1 && opt.page_cache))
		return -1;
	return 0;
}

/* -W: the largest anonymous read-write mapping of opt.watch is the region. */
static int find_watched_region(void)
{
	unsigned long lo, hi, best_lo = 0, best_hi = 0;
	char path[64], line[512], perms[8];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/maps", opt.watch);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* anonymous: no path after the inode */
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &n) < 3 ||
		    strncmp(perms, "rw", 2) || (line[n] && line[n] != '\n'))
			continue;
		if (hi - lo > best_hi - best_lo) {
			best_lo = lo;
			best_hi = hi;
		}
	}
	fclose(f);
	if (!best_hi)
		return -1;
	region = (char *)best_lo;
	opt.bytes = best_hi - best_lo;
	return 0;
}

/* -W: sample the watched program's region until it exits or time is up. */
static int watch(void)
{
	double t0 = now(), next, t;
	void **pages;
	int *status;
	long i;

	if (find_watched_region())
		return 1;
	npages = opt.bytes / page_size;
	pick_hot_sets();
	pages = malloc(npages * sizeof(*pages));
	status = malloc(npages * sizeof(*status));
	if (!pages || !status)
		return 1;
	for (i = 0; i < npages; i++)
		pages[i] = region + i * page_size;
	procs[0] = opt.watch;
	printf("# tierbench pages=%ld hot=%ld cold=%ld start=%d best=%d watched=%d\n",
	       npages, nr_hot[0], npages - nr_hot[0], opt.start, opt.best, opt.watch);
	find_kthreads();
	sample(0, 0, pages, status);
	for (next = t0 + opt.interval_ms / 1e3; (t = now()) - t0 < opt.seconds;
	     next += opt.interval_ms / 1e3) {
		if (next > t)
			usleep((next - t) * 1e6);
		if (kill(opt.watch, 0))
			break;
		sample(now() - t0, 0, pages, status);
	}
	printf("end t=%.2f ops_total=0 utime=0 stime=%.2f\n", now() - t0, workload_stime());
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t tid[MAX_WORKERS];
	long last = 0, cur, i, nr_cold = 0;
	pid_t child[MAX_WORKERS];
	struct rusage ru, kids;
	int p;
	double t0, next, t;
	void **pages;
	int *status;

	if (parse(argc, argv)) {
		fprintf(stderr, "usage: see the comment at the top of tierbench.c\n");
		return 2;
	}
	page_size = getpagesize();
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctl == MAP_FAILED)
		return 1;
	if (opt.watch)
		return watch();
	npages = opt.bytes / page_size;
	if (fill_best())
		return 1;
	pick_hot_sets();
	pages = malloc(npages * sizeof(*pages));
	status = malloc(npages * sizeof(*status));
	if (!pages || !status || place()) {
		perror("tierbench: placing the region");
		return 1;
	}
	for (i = 0; i < npages; i++)
		pages[i] = region + i * page_size;
	if (opt.oracle && move_hot()) {
		perror("tierbench: oracle placement");
		return 1;
	}
	for (i = 0; i < npages; i++)
		nr_cold += !is_hot(i, 0) && !is_hot(i, 1);
	printf("# tierbench pages=%ld hot=%ld cold=%ld start=%d best=%d ", npages, nr_hot[0],
	       nr_cold, opt.start, opt.best);
	printf("%s %s %s oracle=%d shift_s=%d procs=%d leave_mb=%zu bound=%d\n",
	       opt.contiguous ? "contiguous" : "scattered", opt.zipf ? "zipf" : "uniform",
	       opt.page_cache ? "page-cache" : "anonymous", opt.oracle, opt.shift_s, opt.procs,
	       opt.leave, opt.bound);
	find_kthreads();
	procs[0] = getpid();
	t0 = now();
	sample(0, 0, pages, status);
	for (p = 1; p < opt.procs; p++) {
		child[p] = fork();
		procs[p] = child[p] > 0 ? child[p] : 0;
		if (child[p] == 0) {
			for (i = 0; i < opt.workers; i++)
				pthread_create(&tid[i], NULL, worker, (void *)(p * 100 + i));
			for (i = 0; i < opt.workers; i++)
				pthread_join(tid[i], NULL);
			_exit(0);
		}
	}
	for (i = 0; i < opt.workers; i++)
		pthread_create(&tid[i], NULL, worker, (void *)i);
	for (next = t0 + opt.interval_ms / 1e3; (t = now()) - t0 < opt.seconds;
	     next += opt.interval_ms / 1e3) {
		if (next > t)
			usleep((next - t) * 1e6);
		if (opt.shift_s >= 0 && now() - t0 >= opt.shift_s &&
		    !atomic_exchange(&ctl->phase, 1))
			/* what moves after this is what the shift costs */
			printf("shift t=%.2f pgmigrate_success=%ld\n", now() - t0,
			       vmstat_counter("pgmigrate_success"));
		cur = atomic_load(&ctl->ops);
		sample(now() - t0, (cur - last) * 1000 / opt.interval_ms, pages, status);
		last = cur;
	}
	atomic_store(&ctl->stop, true);
	for (i = 0; i < opt.workers; i++)
		pthread_join(tid[i], NULL);
	for (p = 1; p < opt.procs; p++)
		waitpid(child[p], NULL, 0);
	getrusage(RUSAGE_SELF, &ru);
	getrusage(RUSAGE_CHILDREN, &kids);	/* -P: the other processes */
	printf("end t=%.2f ops_total=%ld utime=%.2f stime=%.2f\n", now() - t0,
	       atomic_load(&ctl->ops),
	       ru.ru_utime.tv_sec + kids.ru_utime.tv_sec +
	       (ru.ru_utime.tv_usec + kids.ru_utime.tv_usec) / 1e6,
	       ru.ru_stime.tv_sec + kids.ru_stime.tv_sec +
	       (ru.ru_stime.tv_usec + kids.ru_stime.tv_usec) / 1e6);
	return 0;
}
