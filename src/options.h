/* SPDX-License-Identifier: Apache-2.0 */
/* options: turn argv into a validated struct options, or a one-line error. */
#ifndef KN_OPTIONS_H
#define KN_OPTIONS_H

#include "metric.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OPTIONS_INTERVAL_DEFAULT_US UINT64_C(20000)
#define OPTIONS_INTERVAL_MAX_US UINT64_C(3600000000)
#define OPTIONS_DEFAULT_SYSFS "/sys"
#define OPTIONS_ERR_MAX 512

/* Where the counters come from (--source); the order of enum source_kind (src/source.h). */
enum options_source {
	OPTIONS_SOURCE_AUTO,    /* netlink, falling back to the files when netlink is refused */
	OPTIONS_SOURCE_NETLINK, /* RTM_GETSTATS; refusal is an error */
	OPTIONS_SOURCE_SYSFS,   /* the statistics files */
	OPTIONS_SOURCE_PROCFS,  /* /proc/net/dev */
};

/* What parsing decided: run, or print something and exit. */
enum options_action {
	OPTIONS_RUN,
	OPTIONS_HELP,
	OPTIONS_VERSION,
	OPTIONS_ERROR,
};

struct options {
	uint64_t interval_us;   /* -i: sampling interval in microseconds */
	const char **devices;   /* -d: regexes (pointers into argv), may be NULL */
	size_t ndevices;        /* number of -d options */
	bool list;              /* -l: print the selection and exit */
	bool print;             /* -p: CSV on stdout */
	uint64_t count;         /* -n: stop after this many ticks, 0 = no limit */
	const char *sysfs;      /* --sysfs: root of sysfs */
	enum options_source source; /* --source */
	bool fake_tree;         /* --sysfs was given: auto reads the tree's files, never netlink
	                         * (sysfs, or procfs where the tree has no statistics folders) */
	bool rdma;              /* --rdma: also monitor RDMA ports */
	bool rdma_all;          /* --rdma without a regex was given: every port */
	const char **rdma_patterns; /* --rdma=REGEX: regexes (pointers into argv), may be NULL */
	size_t nrdma_patterns;
	struct metric_set metrics; /* -m: the fields after rx and tx, in the order given */
};

/* Parse argv into opts; on OPTIONS_ERROR, err holds a one-line reason. */
enum options_action options_parse(int argc, char **argv, struct options *opts,
				   char err[OPTIONS_ERR_MAX]);

/* Release what options_parse() allocated. */
void options_free(struct options *opts);

/* Parse a decimal unsigned integer in [min, max]; 0 on success, -1 if invalid. */
int options_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* Write the full --help text to f. */
void options_help(FILE *f);

/* Write the one-line usage hint shown after a command-line error. */
void options_usage_hint(FILE *f);

#endif
