// SPDX-License-Identifier: GPL-2.0
/*
 * memattr - show NUMA nodes with their memory attributes (latency,
 * bandwidth, persistence, power, special), select nodes by attribute, and
 * run a command with a memory policy for the selected nodes.
 *
 * It reads only sysfs and needs no privilege and no library: the memory
 * policy is set with the raw set_mempolicy(2) system call.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mempolicy.h>

#include "memattr.h"

enum memattr_command {
	CMD_SHOW	= 1 << 0,
	CMD_SELECT	= 1 << 1,
	CMD_EXEC	= 1 << 2,
	CMD_HELP	= 1 << 3,
};

#define CMD_CHOOSE	(CMD_SELECT | CMD_EXEC)
#define CMD_ANY		(CMD_SHOW | CMD_SELECT | CMD_EXEC | CMD_HELP)

enum option_id {
	OPT_HELP,
	OPT_JSON,
	OPT_LOWEST_LATENCY,
	OPT_HIGHEST_BANDWIDTH,
	OPT_LOW_POWER,
	OPT_LOCAL,
	OPT_PERSISTENT,
	OPT_SPECIAL,
	OPT_NO_SPECIAL,
	OPT_MAX_LATENCY,
	OPT_MIN_BANDWIDTH,
	OPT_COUNT,
	OPT_BIND,
	OPT_PREFERRED,
	OPT_INTERLEAVE,
	OPT_FROM,
	OPT_CPUNODEBIND,
};

/* One command line option. */
struct option_desc {
	const char *name;		/* long name without "--" */
	enum option_id id;		/* what it sets */
	bool has_arg;			/* takes a number */
	unsigned int commands;		/* CMD_* that accept it */
};

static const struct option_desc options[] = {
	{ "help",		OPT_HELP,		false,	CMD_ANY },
	{ "json",		OPT_JSON,		false,	CMD_SHOW },
	{ "lowest-latency",	OPT_LOWEST_LATENCY,	false,	CMD_CHOOSE },
	{ "highest-bandwidth",	OPT_HIGHEST_BANDWIDTH,	false,	CMD_CHOOSE },
	{ "low-power",		OPT_LOW_POWER,		false,	CMD_CHOOSE },
	{ "local",		OPT_LOCAL,		false,	CMD_CHOOSE },
	{ "persistent",		OPT_PERSISTENT,		false,	CMD_CHOOSE },
	{ "special",		OPT_SPECIAL,		false,	CMD_CHOOSE },
	{ "no-special",		OPT_NO_SPECIAL,		false,	CMD_CHOOSE },
	{ "max-latency",	OPT_MAX_LATENCY,	true,	CMD_CHOOSE },
	{ "min-bandwidth",	OPT_MIN_BANDWIDTH,	true,	CMD_CHOOSE },
	{ "count",		OPT_COUNT,		true,	CMD_CHOOSE },
	{ "bind",		OPT_BIND,		false,	CMD_EXEC },
	{ "preferred",		OPT_PREFERRED,		false,	CMD_EXEC },
	{ "interleave",		OPT_INTERLEAVE,		false,	CMD_EXEC },
	{ "from",		OPT_FROM,		true,	CMD_SHOW },
	{ "cpunodebind",	OPT_CPUNODEBIND,	true,	CMD_CHOOSE },
};

/* The parsed command line. */
struct invocation {
	enum memattr_command command;	/* what to do */
	bool json;			/* show: JSON instead of a table */
	struct memattr_criteria crit;	/* select, exec: what to pick */
	int mode;			/* exec: MPOL_* */
	int nr_modes;			/* exec: policy options given */
	char **cmd_argv;		/* exec: CMD ARGS..., NULL-terminated */
	int from;			/* show: the initiator's view, or -1 */
	int cpunode;			/* select, exec: the CPUs' node, or -1 */
};

static const char help_text[] =
"Usage: memattr [show] [--json] [--from NODE]\n"
"       memattr select CRITERIA...\n"
"       memattr exec CRITERIA... [--bind|--preferred|--interleave]\n"
"                    -- CMD [ARGS...]\n"
"       memattr help | --help\n"
"\n"
"Show NUMA nodes with their memory attributes, pick nodes by attribute, or\n"
"run a command with a memory policy for the nodes picked.\n"
"\n"
"Commands:\n"
"  show            table of every online node (the default command):\n"
"                  CPUs, memory, read/write latency (ns) and bandwidth\n"
"                  (MB/s), power (mW per GiB), persistent, special, memory\n"
"                  tier, then the distance matrix and each node's fallback\n"
"                  order; '-' means unknown, '*' marks HMAT access class 1\n"
"                  values shown for a node without a memattr record\n"
"    --json        print a JSON document instead (schema: memattr(8))\n"
"    --from NODE   latency and bandwidth as NODE's CPUs see them (the\n"
"                  kernel's nodeN/memattr/<field>_from), not the best\n"
"                  initiator's\n"
"  select          print the matching nodes that have memory, best first,\n"
"                  as comma-separated node ids in rank order, e.g. \"2,0\"\n"
"  exec            set the memory policy for the matching nodes with\n"
"                  set_mempolicy(2), then execute CMD with ARGS\n"
"    --bind        MPOL_BIND: allocate only from those nodes (default)\n"
"    --preferred   MPOL_PREFERRED_MANY: prefer those nodes, fall back to\n"
"                  others; on kernels without it, MPOL_PREFERRED for the\n"
"                  best node\n"
"    --interleave  MPOL_INTERLEAVE: interleave pages over those nodes\n"
"\n"
"Criteria (select and exec). Filters, all of which must hold:\n"
"  --persistent           persistent memory only\n"
"  --special              special nodes only (they are candidates anyway:\n"
"                         selecting a node is explicit use)\n"
"  --no-special           leave special nodes out\n"
"  --max-latency NS       read latency known and at most NS nanoseconds\n"
"  --min-bandwidth MB/S   read bandwidth known and at least MB/S\n"
"Ranking keys, applied in the order given (first one decides, later ones\n"
"break ties; nodes with an unknown value rank after known ones; the last\n"
"tie-break is the node id):\n"
"  --lowest-latency       lowest read latency first\n"
"  --highest-bandwidth    highest read bandwidth first\n"
"  --low-power            lowest power per GiB first\n"
"  --local                nearest (SLIT distance) to the calling CPU's node\n"
"                         first\n"
"Then:\n"
"  --count K              keep only the first K nodes\n"
"  --cpunodebind NODE     rank for NODE's CPUs; exec runs CMD on them\n"
"Latency and bandwidth are what the node the command runs on sees\n"
"(--cpunodebind, else the calling CPU's node): the memattr record's view\n"
"from that node where the kernel gives one, else the record, or, on a node\n"
"without one, its HMAT access class 1 (best CPU initiator) values. Numbers\n"
"are positive decimal integers (node ids may be 0); OPTION=VALUE works too.\n"
"\n"
"Exit status: 0 success; 1 nothing matched (select) or a runtime error;\n"
"2 bad usage, or nothing matched for exec; 126/127 CMD could not be run.\n"
"Environment: MEMATTR_SYSFS_ROOT=DIR reads DIR/sys/... instead of /sys\n"
"(for tests).\n"
"\n"
"Examples:\n"
"  memattr select --lowest-latency --count 1\n"
"  memattr select --persistent --highest-bandwidth\n"
"  memattr exec --special --preferred -- ./app --size 4G\n"
"  memattr exec --local --max-latency 150 --count 2 -- make -j8\n";

static int usage_error(const char *fmt, ...) __printf(1, 2);

/* One line on stderr, then exit status 2. */
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("memattr: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see memattr --help)\n", stderr);
	return MEMATTR_EXIT_USAGE;
}

static int parse_command(const char *word, struct invocation *inv)
{
	if (!strcmp(word, "show"))
		inv->command = CMD_SHOW;
	else if (!strcmp(word, "select"))
		inv->command = CMD_SELECT;
	else if (!strcmp(word, "exec"))
		inv->command = CMD_EXEC;
	else if (!strcmp(word, "help"))
		inv->command = CMD_HELP;
	else
		return usage_error("unknown command '%s'", word);
	return 0;
}

static const char *command_name(enum memattr_command command)
{
	switch (command) {
	case CMD_SHOW:
		return "show";
	case CMD_SELECT:
		return "select";
	case CMD_EXEC:
		return "exec";
	default:
		return "help";
	}
}

/* A positive number for an option; 0 on success, else exit status. */
static int parse_positive(const char *name, const char *arg, uint64_t *val)
{
	int ret = parse_u64(arg, val);

	if (ret == -ERANGE)
		return usage_error("--%s: '%s' is too large", name, arg);
	if (ret || !*val)
		return usage_error("--%s: '%s' is not a positive integer",
				   name, arg);
	return 0;
}

static int set_numeric_option(const struct option_desc *opt,
			      const char *arg, struct invocation *inv)
{
	struct memattr_criteria *crit = &inv->crit;
	uint64_t val;
	int ret;

	if (opt->id == OPT_FROM || opt->id == OPT_CPUNODEBIND) {
		if (parse_u64(arg, &val) || val >= MEMATTR_MAX_NODES)
			return usage_error("--%s: '%s' is not a node id",
					   opt->name, arg);
		if (opt->id == OPT_FROM)
			inv->from = val;
		else
			inv->cpunode = val;
		return 0;
	}
	ret = parse_positive(opt->name, arg, &val);
	if (ret)
		return ret;
	if (opt->id == OPT_MAX_LATENCY)
		crit->max_latency = val;
	else if (opt->id == OPT_MIN_BANDWIDTH)
		crit->min_bandwidth = val;
	else
		crit->count = val > INT_MAX ? INT_MAX : (int)val;
	return 0;
}

static void set_mode(struct invocation *inv, int mode)
{
	inv->mode = mode;
	inv->nr_modes++;
}

static void set_flag_option(const struct option_desc *opt,
			    struct invocation *inv)
{
	struct memattr_criteria *crit = &inv->crit;

	switch (opt->id) {
	case OPT_HELP:
		inv->command = CMD_HELP;
		break;
	case OPT_JSON:
		inv->json = true;
		break;
	case OPT_LOWEST_LATENCY:
		criteria_add_key(crit, MEMATTR_RANK_LATENCY);
		break;
	case OPT_HIGHEST_BANDWIDTH:
		criteria_add_key(crit, MEMATTR_RANK_BANDWIDTH);
		break;
	case OPT_LOW_POWER:
		criteria_add_key(crit, MEMATTR_RANK_POWER);
		break;
	case OPT_LOCAL:
		criteria_add_key(crit, MEMATTR_RANK_DISTANCE);
		break;
	case OPT_PERSISTENT:
		crit->persistent = true;
		break;
	case OPT_SPECIAL:
		crit->special = true;
		break;
	case OPT_NO_SPECIAL:
		crit->no_special = true;
		break;
	case OPT_BIND:
		set_mode(inv, MPOL_BIND);
		break;
	case OPT_PREFERRED:
		set_mode(inv, MPOL_PREFERRED_MANY);
		break;
	case OPT_INTERLEAVE:
		set_mode(inv, MPOL_INTERLEAVE);
		break;
	default:
		break;
	}
}

static const struct option_desc *find_option(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (strlen(options[i].name) == len &&
		    !strncmp(options[i].name, name, len))
			return &options[i];
	return NULL;
}

/* Parse argv[*pos] (and its value); advances *pos past a separate value. */
static int parse_option(int argc, char **argv, int *pos,
			struct invocation *inv)
{
	const char *arg = argv[*pos];
	const struct option_desc *opt;
	const char *value = NULL;
	const char *equals;

	if (!strcmp(arg, "-h"))
		arg = "--help";
	if (strncmp(arg, "--", 2))
		return usage_error("unknown option '%s'", arg);
	equals = strchr(arg + 2, '=');
	opt = find_option(arg + 2, equals ? (size_t)(equals - arg - 2) :
				   strlen(arg + 2));
	if (!opt)
		return usage_error("unknown option '%s'", arg);
	if (!(opt->commands & inv->command))
		return usage_error("option --%s does not apply to '%s'",
				   opt->name, command_name(inv->command));
	if (!opt->has_arg && equals)
		return usage_error("option --%s takes no value", opt->name);
	if (!opt->has_arg) {
		set_flag_option(opt, inv);
		return 0;
	}
	if (equals)
		value = equals + 1;
	else if (*pos + 1 < argc)
		value = argv[++*pos];
	else
		return usage_error("option --%s needs a number", opt->name);
	return set_numeric_option(opt, value, inv);
}

/* Checks that need the whole command line. */
static int validate(struct invocation *inv, int argc, char **argv, int pos)
{
	if (inv->command == CMD_HELP)
		return 0;
	if (inv->crit.special && inv->crit.no_special)
		return usage_error("--special and --no-special exclude each other");
	if (inv->nr_modes > 1)
		return usage_error("give only one of --bind, --preferred, --interleave");
	if (inv->command != CMD_EXEC) {
		if (pos < argc)
			return usage_error("unexpected argument '%s'",
					   argv[pos]);
		return 0;
	}
	if (pos >= argc)
		return usage_error("exec: no command given after the criteria");
	inv->cmd_argv = &argv[pos];
	return 0;
}

/**
 * parse_args() - parse the whole command line, acting on nothing
 * @argc: argument count
 * @argv: arguments
 * @inv: receives the result
 *
 * Return: 0, or the exit status for a usage error (already reported).
 */
static int parse_args(int argc, char **argv, struct invocation *inv)
{
	int pos = 1;
	int ret;

	memset(inv, 0, sizeof(*inv));
	inv->command = CMD_SHOW;
	inv->from = -1;
	inv->cpunode = -1;
	inv->mode = MPOL_BIND;
	if (pos < argc && argv[pos][0] != '-') {
		ret = parse_command(argv[pos++], inv);
		if (ret)
			return ret;
	}
	for (; pos < argc && inv->command != CMD_HELP; pos++) {
		if (!strcmp(argv[pos], "--")) {
			pos++;
			break;
		}
		if (argv[pos][0] != '-' && inv->command == CMD_EXEC)
			break;
		if (argv[pos][0] != '-')
			return usage_error("unexpected argument '%s'",
					   argv[pos]);
		ret = parse_option(argc, argv, &pos, inv);
		if (ret)
			return ret;
	}
	return validate(inv, argc, argv, pos);
}

/* Index of the calling CPU's node in topo, or -1. */
static int find_local_node(const struct memattr_topology *topo)
{
	unsigned int cpu, node;
	int index = -1;
	int current = sched_getcpu();

	if (current >= 0)
		index = topology_node_of_cpu(topo, current);
	if (index < 0 && !syscall(SYS_getcpu, &cpu, &node, NULL))
		index = topology_index(topo, node);
	return index;
}

/* Index of --@name's online node @id, or -1 after reporting it. */
static int named_node(const struct memattr_topology *topo, const char *name,
		      int id, bool needs_cpus)
{
	int index = topology_index(topo, id);

	if (index < 0)
		fprintf(stderr, "memattr: --%s: node %d is not online\n", name, id);
	else if (needs_cpus && !*topo->nodes[index].cpus)
		fprintf(stderr, "memattr: --%s: node %d has no CPUs\n", name, id);
	else
		return index;
	return -1;
}

/*
 * Select nodes for `select` and `exec`, ranked for the node the command
 * runs on: --cpunodebind's, else the calling CPU's. Returns the number
 * selected (0 if none matches) or -1 after reporting a runtime error.
 */
static int choose_nodes(struct memattr_topology *topo,
			const struct invocation *inv, int *selected)
{
	const struct memattr_criteria *crit = &inv->crit;
	int local_index = find_local_node(topo);

	if (inv->cpunode >= 0) {
		local_index = named_node(topo, "cpunodebind", inv->cpunode, true);
		if (local_index < 0)
			return -1;
	}
	if (local_index < 0 && criteria_needs_local(crit)) {
		fputs("memattr: --local: cannot tell the calling CPU's node\n",
		      stderr);
		return -1;
	}
	if (local_index >= 0)
		topology_apply_view(topo, topo->nodes[local_index].id);
	return select_nodes(topo, crit, local_index, selected);
}

static void report_no_match(void)
{
	fputs("memattr: no node with memory matches the criteria\n", stderr);
}

static int run_select(struct memattr_topology *topo,
		      const struct invocation *inv, int *selected)
{
	int nr = choose_nodes(topo, inv, selected);
	int i;

	if (nr < 0)
		return MEMATTR_EXIT_FAILURE;
	if (!nr) {
		report_no_match();
		return MEMATTR_EXIT_FAILURE;
	}
	for (i = 0; i < nr; i++)
		printf("%s%d", i ? "," : "", topo->nodes[selected[i]].id);
	putchar('\n');
	return fflush(stdout) ? MEMATTR_EXIT_FAILURE : 0;
}

static long sys_set_mempolicy(int mode, const struct nodemask *mask)
{
	/* maxnode counts one more than the bits passed, as libnuma does. */
	return syscall(SYS_set_mempolicy, mode, mask->bits,
		       MEMATTR_MAX_NODES + 1);
}

/* Returns 0 or an exit status after reporting the failure. */
static int apply_policy(int mode, const struct memattr_topology *topo,
			const int *selected, int nr)
{
	int best = topo->nodes[selected[0]].id;
	struct nodemask mask = { 0 };
	int i;

	for (i = 0; i < nr; i++)
		nodemask_set(&mask, topo->nodes[selected[i]].id);
	if (!sys_set_mempolicy(mode, &mask))
		return 0;
	if (mode == MPOL_PREFERRED_MANY && errno == EINVAL) {
		fprintf(stderr,
			"memattr: MPOL_PREFERRED_MANY rejected (kernel before 5.15?), using MPOL_PREFERRED for node %d\n",
			best);
		memset(&mask, 0, sizeof(mask));
		nodemask_set(&mask, best);
		if (!sys_set_mempolicy(MPOL_PREFERRED, &mask))
			return 0;
	}
	fprintf(stderr, "memattr: set_mempolicy: %s\n", strerror(errno));
	return MEMATTR_EXIT_FAILURE;
}

/* Run on the CPUs of --cpunodebind's node; 0 or an exit status. */
static int bind_cpus(const struct memattr_topology *topo, int cpunode)
{
	const struct memattr_node *node;
	cpu_set_t cpus;
	int cpu;

	if (cpunode < 0)
		return 0;
	node = &topo->nodes[topology_index(topo, cpunode)];
	CPU_ZERO(&cpus);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (id_list_contains(node->cpus, cpu))
			CPU_SET(cpu, &cpus);
	if (!sched_setaffinity(0, sizeof(cpus), &cpus))
		return 0;
	fprintf(stderr, "memattr: sched_setaffinity: %s\n", strerror(errno));
	return MEMATTR_EXIT_FAILURE;
}

static int run_exec(struct memattr_topology *topo,
		    const struct invocation *inv, int *selected)
{
	int nr = choose_nodes(topo, inv, selected);
	int ret;

	if (nr < 0)
		return MEMATTR_EXIT_FAILURE;
	if (!nr) {
		report_no_match();
		return MEMATTR_EXIT_USAGE;
	}
	ret = apply_policy(inv->mode, topo, selected, nr);
	if (!ret)
		ret = bind_cpus(topo, inv->cpunode);
	if (ret)
		return ret;
	execvp(inv->cmd_argv[0], inv->cmd_argv);
	fprintf(stderr, "memattr: cannot run '%s': %s\n", inv->cmd_argv[0],
		strerror(errno));
	return errno == ENOENT ? MEMATTR_EXIT_NOT_FOUND :
				 MEMATTR_EXIT_CANNOT_RUN;
}

static int run_show(struct memattr_topology *topo,
		    const struct invocation *inv)
{
	if (inv->from >= 0) {
		if (named_node(topo, "from", inv->from, false) < 0)
			return MEMATTR_EXIT_FAILURE;
		topology_apply_view(topo, inv->from);
	}
	if (inv->json)
		show_json(topo, stdout);
	else
		show_table(topo, stdout);
	return fflush(stdout) ? MEMATTR_EXIT_FAILURE : 0;
}

static int run(struct memattr_topology *topo,
	       const struct invocation *inv)
{
	int *selected;
	int ret;

	if (inv->command == CMD_SHOW)
		return run_show(topo, inv);
	selected = calloc(topo->nr_nodes + 1, sizeof(*selected));
	if (!selected) {
		fputs("memattr: out of memory\n", stderr);
		return MEMATTR_EXIT_FAILURE;
	}
	if (inv->command == CMD_SELECT)
		ret = run_select(topo, inv, selected);
	else
		ret = run_exec(topo, inv, selected);
	free(selected);
	return ret;
}

int main(int argc, char **argv)
{
	struct memattr_topology topo;
	struct invocation inv;
	int ret;

	ret = parse_args(argc, argv, &inv);
	if (ret)
		return ret;
	if (inv.command == CMD_HELP) {
		fputs(help_text, stdout);
		return fflush(stdout) ? MEMATTR_EXIT_FAILURE : 0;
	}
	sysfs_set_root(getenv("MEMATTR_SYSFS_ROOT"));
	ret = topology_load(&topo);
	if (ret) {
		fprintf(stderr,
			"memattr: cannot read /sys/devices/system/node/online: %s (kernel without CONFIG_NUMA?)\n",
			strerror(-ret));
		return MEMATTR_EXIT_FAILURE;
	}
	ret = run(&topo, &inv);
	topology_free(&topo);
	return ret;
}
