/* SPDX-License-Identifier: Apache-2.0 */
/* kvikio_nic_report: what bandwidth kvikio_nic recorded, per report, group and NVTX range. */
#include "config.h"

#include "exit_status.h"
#include "iface.h"
#include "message.h"
#include "rpt_analyze.h"
#include "rpt_db.h"
#include "rpt_export.h"
#include "rpt_options.h"
#include "rpt_output.h"
#include "rpt_svg.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The work shared by the -j threads: the next report to take, and every report's outcome. */
struct work {
	const struct rpt_options *opts;
	struct rpt_config cfg;
	struct rpt_input *in;
	char (*err)[RPT_ERR_MAX];
	size_t n, next;
	pthread_mutex_t lock;
};

/* Flush stdout and report a failed write; the exit status to use. */
static int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		message_print("cannot write to standard output: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	return status;
}

/* Print --version in GNU style. */
static void print_version(void)
{
	printf("kvikio_nic_report (%s) %s\n"
	       "Copyright (C) 2026 The kvikio-nic authors.\n"
	       "License Apache-2.0: <https://www.apache.org/licenses/LICENSE-2.0>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
}

/* --ranges filter: the whole name matches the REGEX (iface's -d matcher), or no REGEX given. */
static bool keep_range(const char *name, void *ctx)
{
	const struct iface_selector *sel = ctx;
	return sel == NULL || iface_selected(sel, NULL, name);
}

/* Read report i (exporting a .nsys-rep first); its result, or its error line. */
static void process(struct work *w, size_t i)
{
	struct rpt_input *in = &w->in[i];
	struct rpt_export ex = {.slot = -1};
	struct rpt_db db = {0};
	const char *path = in->name;
	char *err = w->err[i];
	if (rpt_export_needed(path)) {
		if (rpt_export_run(rpt_export_nsys(w->opts->nsys), path, &ex, err) != 0)
			return;
		path = ex.sqlite;
	}
	if (rpt_db_open(&db, path, err) == 0) {
		in->ok = rpt_analyze(&db, &w->cfg, &in->res, err) == 0;
		rpt_db_close(&db);
	}
	rpt_export_remove(&ex);
}

/* A -j thread: take reports until none is left. */
static void *worker(void *arg)
{
	struct work *w = arg;
	for (;;) {
		pthread_mutex_lock(&w->lock);
		size_t i = w->next < w->n ? w->next++ : w->n;
		pthread_mutex_unlock(&w->lock);
		if (i == w->n)
			return NULL;
		process(w, i);
	}
}

/* Read every report with up to opts->jobs threads (the calling thread is one of them). */
static void run_all(struct work *w)
{
	pthread_t threads[RPT_JOBS_MAX];
	size_t nthreads = 0;
	for (size_t t = 1; t < w->opts->jobs && t < w->n; t++)
		if (pthread_create(&threads[nthreads], NULL, worker, w) == 0)
			nthreads++;
	worker(w);
	for (size_t t = 0; t < nthreads; t++)
		pthread_join(threads[t], NULL);
}

/* Print what was read: the failed reports' lines, the rows, the picture; the exit status. */
static int finish(struct work *w)
{
	int status = EXIT_OK;
	for (size_t i = 0; i < w->n; i++)
		if (!w->in[i].ok) {
			message_print("%s: %s", w->in[i].name, w->err[i]);
			status = EXIT_RUNTIME;
		}
	if (rpt_output_print(stdout, w->opts->format, w->opts->ranges, w->opts->sum, w->in, w->n) != 0) {
		message_print("out of memory");
		status = EXIT_RUNTIME;
	}
	char err[RPT_ERR_MAX];
	if (w->opts->svg != NULL && rpt_svg_write(w->opts->svg, w->in, w->n, err) != 0) {
		message_print("%s", err);
		status = EXIT_RUNTIME;
	}
	return status;
}

/* Parse the command line; EXIT_OK to go on, else the status to exit with (after --help...). */
static int setup(int argc, char **argv, struct rpt_options *opts, struct iface_selector *sel)
{
	char err[IFACE_ERR_MAX];
	if (rpt_options_parse(argc, argv, opts, err, sizeof err) != 0) {
		message_print("%s", err);
		fputs("Try 'kvikio_nic_report --help' for more information.\n", stderr);
		return EXIT_USAGE;
	}
	if (opts->help || opts->version) {
		if (opts->help)
			rpt_options_help(stdout);
		else
			print_version();
		return close_stdout(EXIT_OK) == EXIT_OK ? -1 : EXIT_RUNTIME;
	}
	if (opts->regex != NULL) {
		const char *patterns[1] = {opts->regex};
		if (iface_selector_init(sel, patterns, 1, err) != 0) {
			message_print("invalid --ranges REGEX: %s", err);
			return EXIT_USAGE;
		}
	}
	if (rpt_export_catch_signals() != 0) {
		message_print("cannot catch signals: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Read the reports, print their rows; exit 0, 1 (a report or the output failed) or 2. */
int main(int argc, char **argv)
{
	struct rpt_options opts;
	struct iface_selector sel = {0};
	message_set_prefix("kvikio_nic_report: ");
	int status = setup(argc, argv, &opts, &sel);
	if (status != EXIT_OK)
		return status < 0 ? EXIT_OK : status;
	struct work w = {.opts = &opts, .n = opts.nreports};
	w.cfg = (struct rpt_config){.ranges = opts.ranges, .keep_range = keep_range,
				    .keep_ctx = opts.regex != NULL ? &sel : NULL, .series = opts.svg != NULL};
	w.in = calloc(w.n, sizeof *w.in);
	w.err = calloc(w.n, sizeof *w.err);
	if (w.in == NULL || w.err == NULL || pthread_mutex_init(&w.lock, NULL) != 0) {
		message_print("out of memory");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < w.n; i++)
		w.in[i].name = opts.reports[i];
	run_all(&w);
	status = finish(&w);
	for (size_t i = 0; i < w.n; i++)
		rpt_result_free(&w.in[i].res);
	free(w.in);
	free(w.err);
	pthread_mutex_destroy(&w.lock);
	iface_selector_free(&sel);
	return close_stdout(status);
}
