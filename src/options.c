/* SPDX-License-Identifier: Apache-2.0 */
/* options: turn argv into a validated struct options, or a one-line error. */
#include "config.h"

#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_SYSFS = 256, OPT_SOURCE, OPT_RDMA };

static const struct option long_options[] = {
	{"interval", required_argument, NULL, 'i'},
	{"device", required_argument, NULL, 'd'},
	{"list", no_argument, NULL, 'l'},
	{"print", no_argument, NULL, 'p'},
	{"count", required_argument, NULL, 'n'},
	{"sysfs", required_argument, NULL, OPT_SYSFS},
	{"source", required_argument, NULL, OPT_SOURCE},
	{"rdma", optional_argument, NULL, OPT_RDMA},
	{"metric", required_argument, NULL, 'm'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

/* The options block of --help; the manifest and the man page say the same. */
static const char help_options[] =
	"  -i, --interval=USEC   sampling interval in microseconds, 1..3600000000\n"
	"                        (default 20000, i.e. 50 Hz)\n"
	"  -d, --device=REGEX    monitor the interfaces whose whole name matches the\n"
	"                        POSIX extended REGEX (\\d means [0-9]); repeat to add\n"
	"                        more; bypasses the up check (default: every up or\n"
	"                        unknown interface that is not a loopback)\n"
	"  -l, --list            print the interfaces that would be monitored, exit\n"
	"  -p, --print           also write every sample as CSV to standard output\n"
	"  -n, --count=N         stop after N samples with rates (the baseline's first\n"
	"                        sample is not counted; default: run until signalled)\n"
	"  -m, --metric=NAME     also sample NAME, after rx and tx, in the order given;\n"
	"                        repeat for more: packets (rx_packets, tx_packets,\n"
	"                        packets/s), errors (rx_errors, tx_errors, errors/s),\n"
	"                        drops (rx_dropped, tx_dropped, drops/s), util\n"
	"                        (rx_util, tx_util: % of the link speed, from\n"
	"                        <if>/speed; no value where it is unknown)\n"
	"      --sysfs=DIR       read DIR/class/net (and DIR/class/infiniband)\n"
	"                        instead of /sys/class/net (/sys/class/infiniband)\n"
	"      --source=SOURCE   read the counters from netlink (RTM_GETSTATS), sysfs\n"
	"                        (two files per interface, one more per counter -m\n"
	"                        needs), procfs (/proc/net/dev) or auto (default:\n"
	"                        the cheapest for the selection, netlink only where\n"
	"                        it lists sysfs's interfaces; the files with\n"
	"                        --sysfs; procfs where sysfs has no statistics\n"
	"                        folders)\n"
	"      --rdma[=REGEX]    also monitor the RDMA ports (groups <dev>:<port>,\n"
	"                        e.g. mlx5_0:1) whose whole name matches REGEX\n"
	"                        (default: every port); repeat to add more; their\n"
	"                        bytes are not added into total\n"
	"  -h, --help            display this help and exit\n"
	"  -V, --version         output version information and exit\n";

void options_help(FILE *f)
{
	fputs("Usage: kvikio_nic_nsys_plugin [OPTION]...\n"
	      "Sample per-interface network bandwidth (rx and tx, MiB/s; with -m also\n"
	      "packets, errors, drops and link utilization) and emit it as NVTX counters\n"
	      "in the domain \"KvikIO NIC\" for the Nsight Systems timeline.\n"
	      "\n",
	      f);
	fputs(help_options, f);
	fputs("\n"
	      "Is the 100 GbE link eth0 saturated during the checkpoint range? Check that\n"
	      "its speed is known (--device=eth0 --list -m util prints eth0 100000Mb/s),\n"
	      "profile with --enable=kvikio_nic,--device=eth0,-m,util,-m,drops and read\n"
	      "tx_util (% of the link speed) across the checkpoint NVTX range.\n"
	      "\n"
	      "With nsys: nsys profile --enable=kvikio_nic[,OPTION]... (comma-separated).\n"
	      "Stops on SIGTERM, SIGINT or SIGHUP after one last sample.\n"
	      "\n"
	      "Exit status: 0 success (also when the reader of --print goes away),\n"
	      "1 runtime error (nothing selected, sysfs unreadable, --source=netlink\n"
	      "refused or not matching sysfs, --source=procfs unreadable, output\n"
	      "error), 2 invalid command line.\n",
	      f);
	/* Empty while the project has no address of its own (see AC_INIT). */
	if (PACKAGE_BUGREPORT[0] != '\0')
		fputs("\nReport bugs to: " PACKAGE_BUGREPORT "\n", f);
	if (PACKAGE_URL[0] != '\0')
		fputs("Home page: " PACKAGE_URL "\n", f);
}

void options_usage_hint(FILE *f)
{
	fputs("Usage: kvikio_nic_nsys_plugin [-i USEC] [-d REGEX]... [-l] [-p] [-n N] [-m NAME]... [--sysfs DIR] "
	      "[--source SOURCE] [--rdma[=REGEX]]\n"
	      "Try 'kvikio_nic_nsys_plugin --help' for more information.\n",
	      f);
}

int options_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	if (text == NULL || text[0] < '0' || text[0] > '9')
		return -1; /* rejects "", " 5", "-1", "+5" before strtoull sees them */
	char *end = NULL;
	errno = 0;
	unsigned long long value = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0' || value < min || value > max)
		return -1;
	*out = (uint64_t)value;
	return 0;
}

/* Append regex to the list *list of *n; -1 when out of memory. */
static int add_pattern(const char ***list, size_t *n, const char *regex)
{
	const char **grown = realloc(*list, (*n + 1) * sizeof *grown);
	if (grown == NULL)
		return -1;
	grown[(*n)++] = regex;
	*list = grown;
	return 0;
}

/* Append a -d regex to opts->devices; -1 when out of memory. */
static int add_device(struct options *opts, const char *regex)
{
	return add_pattern(&opts->devices, &opts->ndevices, regex);
}

/* Apply --rdma (arg NULL: every port) or --rdma=REGEX; OPTIONS_ERROR with a reason. */
static enum options_action apply_rdma(const char *arg, struct options *opts, char err[OPTIONS_ERR_MAX])
{
	opts->rdma = true;
	if (arg == NULL) {
		opts->rdma_all = true;
		return OPTIONS_RUN;
	}
	if (arg[0] == '\0') {
		snprintf(err, OPTIONS_ERR_MAX, "invalid RDMA regex '': give --rdma alone for every port");
		return OPTIONS_ERROR;
	}
	if (add_pattern(&opts->rdma_patterns, &opts->nrdma_patterns, arg) == 0)
		return OPTIONS_RUN;
	snprintf(err, OPTIONS_ERR_MAX, "out of memory");
	return OPTIONS_ERROR;
}

/* Parse a --source value; OPTIONS_ERROR with a reason if it is not a source name. */
static enum options_action parse_source(const char *arg, struct options *opts, char err[OPTIONS_ERR_MAX])
{
	static const char *const names[] = {"auto", "netlink", "sysfs", "procfs"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcmp(arg, names[i]) == 0) {
			opts->source = (enum options_source)i;
			return OPTIONS_RUN;
		}
	}
	snprintf(err, OPTIONS_ERR_MAX, "invalid source '%s': expected auto, netlink, sysfs or procfs", arg);
	return OPTIONS_ERROR;
}

/* Add a -m metric; OPTIONS_ERROR with a reason if it is unknown or given twice. */
static enum options_action parse_metric(const char *arg, struct options *opts, char err[OPTIONS_ERR_MAX])
{
	int rc = metric_set_add(&opts->metrics, arg);
	if (rc == 0)
		return OPTIONS_RUN;
	if (rc == -EEXIST)
		snprintf(err, OPTIONS_ERR_MAX, "metric '%s' given twice", arg);
	else
		snprintf(err, OPTIONS_ERR_MAX, "invalid metric '%.64s': expected " METRIC_NAMES, arg);
	return OPTIONS_ERROR;
}

/* Settle --source against --sysfs: a fake tree's counters are not the kernel's. */
static enum options_action settle_source(struct options *opts, bool sysfs_given, char err[OPTIONS_ERR_MAX])
{
	if (!sysfs_given)
		return OPTIONS_RUN;
	if (opts->source == OPTIONS_SOURCE_NETLINK) {
		snprintf(err, OPTIONS_ERR_MAX, "--source=netlink cannot be combined with --sysfs");
		return OPTIONS_ERROR;
	}
	opts->fake_tree = true; /* auto then reads the tree's files, never netlink */
	return OPTIONS_RUN;
}

/* Apply one option returned by getopt_long; OPTIONS_RUN means keep going. */
static enum options_action apply_option(int c, const char *arg, struct options *opts,
					char err[OPTIONS_ERR_MAX])
{
	switch (c) {
	case 'i':
		if (options_parse_uint(arg, 1, OPTIONS_INTERVAL_MAX_US, &opts->interval_us) == 0)
			return OPTIONS_RUN;
		snprintf(err, OPTIONS_ERR_MAX,
			 "invalid interval '%s': expected whole microseconds from 1 to %llu", arg,
			 (unsigned long long)OPTIONS_INTERVAL_MAX_US);
		return OPTIONS_ERROR;
	case 'n':
		if (options_parse_uint(arg, 1, UINT64_MAX, &opts->count) == 0)
			return OPTIONS_RUN;
		snprintf(err, OPTIONS_ERR_MAX, "invalid count '%s': expected a whole number of samples from 1", arg);
		return OPTIONS_ERROR;
	case 'd':
		if (add_device(opts, arg) == 0)
			return OPTIONS_RUN;
		snprintf(err, OPTIONS_ERR_MAX, "out of memory");
		return OPTIONS_ERROR;
	case OPT_SYSFS:
		if (arg[0] != '\0') {
			opts->sysfs = arg;
			return OPTIONS_RUN;
		}
		snprintf(err, OPTIONS_ERR_MAX, "invalid sysfs root '': expected a folder");
		return OPTIONS_ERROR;
	case OPT_SOURCE:
		return parse_source(arg, opts, err);
	case OPT_RDMA:
		return apply_rdma(arg, opts, err);
	case 'm':
		return parse_metric(arg, opts, err);
	case 'l': opts->list = true; return OPTIONS_RUN;
	case 'p': opts->print = true; return OPTIONS_RUN;
	case 'h': return OPTIONS_HELP;
	case 'V': return OPTIONS_VERSION;
	default: return OPTIONS_ERROR; /* err already set by the caller */
	}
}

/* Describe the option getopt_long refused (unknown, or missing its value). */
static void describe_bad_option(int c, int optopt_value, const char *token, char err[OPTIONS_ERR_MAX])
{
	const char *equals = strchr(token, '=');
	bool is_short = token[0] == '-' && token[1] != '-' && optopt_value > 0 && optopt_value < 256;
	if (c == ':' && is_short)
		snprintf(err, OPTIONS_ERR_MAX, "option '-%c' requires a value", optopt_value);
	else if (c == ':')
		snprintf(err, OPTIONS_ERR_MAX, "option '%s' requires a value", token);
	else if (optopt_value != 0 && strncmp(token, "--", 2) == 0 && equals != NULL)
		snprintf(err, OPTIONS_ERR_MAX, "option '%.*s' takes no value", (int)(equals - token), token);
	else if (is_short)
		snprintf(err, OPTIONS_ERR_MAX, "unknown option '-%c'", optopt_value);
	else
		snprintf(err, OPTIONS_ERR_MAX, "unknown option '%s'", token);
}

enum options_action options_parse(int argc, char **argv, struct options *opts,
				  char err[OPTIONS_ERR_MAX])
{
	*opts = (struct options){.interval_us = OPTIONS_INTERVAL_DEFAULT_US, .sysfs = OPTIONS_DEFAULT_SYSFS};
	metric_set_init(&opts->metrics);
	err[0] = '\0';
	opterr = 0;
	optind = 0; /* full reset (glibc, musl): options_parse() may run more than once */
	bool sysfs_given = false;
	for (;;) {
		int token_index = optind > 0 ? optind : 1; /* the token getopt is in, even mid-cluster ("-lx") */
		int c = getopt_long(argc, argv, "+:i:d:lpn:m:hV", long_options, NULL);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			describe_bad_option(c, optopt, token_index < argc ? argv[token_index] : "", err);
			return OPTIONS_ERROR;
		}
		enum options_action action = apply_option(c, optarg, opts, err);
		if (action != OPTIONS_RUN)
			return action;
		sysfs_given |= c == OPT_SYSFS;
	}
	if (optind < argc) {
		snprintf(err, OPTIONS_ERR_MAX, "unexpected argument '%s'", argv[optind]);
		return OPTIONS_ERROR;
	}
	return settle_source(opts, sysfs_given, err);
}

void options_free(struct options *opts)
{
	free(opts->devices);
	opts->devices = NULL;
	opts->ndevices = 0;
	free(opts->rdma_patterns);
	opts->rdma_patterns = NULL;
	opts->nrdma_patterns = 0;
}
