/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_options: kvikio_nic_report's command line. */
#include "config.h"

#include "rpt_options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_SVG = 256, OPT_NSYS };

static const struct option long_options[] = {
	{"ranges", optional_argument, NULL, 'r'},
	{"format", required_argument, NULL, 'f'},
	{"sum", no_argument, NULL, 's'},
	{"jobs", required_argument, NULL, 'j'},
	{"svg", required_argument, NULL, OPT_SVG},
	{"nsys", required_argument, NULL, OPT_NSYS},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

void rpt_options_help(FILE *f)
{
	fputs("Usage: kvikio_nic_report [OPTION]... REPORT...\n"
	      "Summarize the network bandwidth that kvikio_nic recorded in Nsight Systems\n"
	      "reports: per report and counter group, the MiB moved and the mean, median,\n"
	      "95th percentile and peak rates (MiB/s); with --ranges, per NVTX range name.\n"
	      "REPORT is an nsys SQLite export or a .nsys-rep (exported with nsys first).\n"
	      "\n"
	      "  -r, --ranges[=REGEX]  per NVTX range name (push/pop and start/end ranges)\n"
	      "                        whose whole name matches the POSIX extended REGEX\n"
	      "                        (\\d means [0-9]; default: every range)\n"
	      "  -f, --format=FORMAT   table (default), csv or json\n"
	      "  -s, --sum             add one row per group (and range) name over every\n"
	      "                        report: the cluster total\n"
	      "  -j, --jobs=N          read N reports at once (1..64, default 1)\n"
	      "      --svg=FILE        also draw rx and tx over time, and the ranges of\n"
	      "                        --ranges, as an SVG picture into FILE\n"
	      "      --nsys=PATH       the nsys that exports .nsys-rep files (default:\n"
	      "                        $NSYS, else nsys on PATH)\n"
	      "  -h, --help            display this help and exit\n"
	      "  -V, --version         output version information and exit\n"
	      "\n"
	      "Columns (csv, json): report,host,group,samples,seconds,rx_MiB,tx_MiB,rx_mean,\n"
	      "rx_p50,rx_p95,rx_max,tx_mean,tx_p50,tx_p95,tx_max; with --ranges:\n"
	      "report,host,range,count,seconds,group,rx_MiB,tx_MiB,rx_mean,tx_mean.\n"
	      "Reports recorded with the plugin's -m add columns for the metrics they hold:\n"
	      "the counts and mean rates of packets, errors and drops (rx_packets,\n"
	      "rx_packets_mean, ...), the mean, p50, p95 and peak of util (rx_util_mean, ...).\n"
	      "See kvikio_nic_report(1) for the exact definitions.\n"
	      "\n"
	      "Exit status: 0 success, 1 a report could not be read (the others are still\n"
	      "reported) or output error, 2 invalid command line.\n",
	      f);
	if (PACKAGE_BUGREPORT[0] != '\0')
		fputs("\nReport bugs to: " PACKAGE_BUGREPORT "\n", f);
	if (PACKAGE_URL[0] != '\0')
		fputs("Home page: " PACKAGE_URL "\n", f);
}

/* Parse the -j value; -1 when it is not 1..RPT_JOBS_MAX. */
static int parse_jobs(const char *s, unsigned *jobs)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 1 || v > RPT_JOBS_MAX)
		return -1;
	*jobs = (unsigned)v;
	return 0;
}

/* Parse the --format value; -1 when unknown. */
static int parse_format(const char *s, enum rpt_format *format)
{
	static const char *const names[] = {"table", "csv", "json"};
	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*format = (enum rpt_format)i;
			return 0;
		}
	return -1;
}

/* Handle one option character; -1 with err on a bad value or unknown option. */
static int parse_one(int c, char **argv, struct rpt_options *opts, char *err, size_t errsize)
{
	switch (c) {
	case 'r':
		opts->ranges = true;
		opts->regex = optarg;
		return 0;
	case 'f':
		if (parse_format(optarg, &opts->format) == 0)
			return 0;
		snprintf(err, errsize, "invalid --format '%s' (table, csv or json)", optarg);
		return -1;
	case 's':
		opts->sum = true;
		return 0;
	case 'j':
		if (parse_jobs(optarg, &opts->jobs) == 0)
			return 0;
		snprintf(err, errsize, "invalid --jobs '%s' (1..%d)", optarg, RPT_JOBS_MAX);
		return -1;
	case OPT_SVG:
		opts->svg = optarg;
		return 0;
	case OPT_NSYS:
		opts->nsys = optarg;
		return 0;
	case 'h':
		opts->help = true;
		return 0;
	case 'V':
		opts->version = true;
		return 0;
	case ':':
		snprintf(err, errsize, "option '%s' needs a value", argv[optind - 1]);
		return -1;
	default:
		snprintf(err, errsize, "invalid option '%s'", argv[optind - 1]);
		return -1;
	}
}

int rpt_options_parse(int argc, char **argv, struct rpt_options *opts, char *err, size_t errsize)
{
	*opts = (struct rpt_options){.format = RPT_TABLE, .jobs = 1};
	opterr = 0; /* the caller prints the one-line reason */
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, ":r::f:sj:hV", long_options, NULL)) != -1) {
		if (parse_one(c, argv, opts, err, errsize) != 0)
			return -1;
		if (opts->help || opts->version)
			return 0;
	}
	opts->reports = argv + optind;
	opts->nreports = (size_t)(argc - optind);
	if (opts->nreports == 0) {
		snprintf(err, errsize, "no report given");
		return -1;
	}
	if (opts->svg != NULL && opts->svg[0] == '\0') {
		snprintf(err, errsize, "--svg needs a file name");
		return -1;
	}
	return 0;
}
