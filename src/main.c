/* SPDX-License-Identifier: Apache-2.0 */
/* kvikio_nic_nsys_plugin: per-interface network bandwidth as NVTX counters for Nsight Systems. */
#include "config.h"

#include "emit.h"
#include "exit_status.h"
#include "iface.h"
#include "message.h"
#include "monitor.h"
#include "netlink.h"
#include "source.h"
#include "options.h"
#include "rdma.h"
#include "sampler.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STARTUP_NAMES_SHOWN 4 /* the startup line names this many interfaces at most */

/* Flush stdout and report a failed write (e.g. to /dev/full); the exit status to use. */
static int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE || status != EXIT_OK)
			return status; /* a reader that went away, or an error already reported */
		message_print("cannot write to standard output: %s", strerror(errno));
		return status == EXIT_OK ? EXIT_RUNTIME : status;
	}
	return status;
}

/* Print --version in GNU style. */
static void print_version(void)
{
	printf("kvikio_nic_nsys_plugin (%s) %s\n"
	       "Copyright (C) 2026 The kvikio-nic authors.\n"
	       "License Apache-2.0: <https://www.apache.org/licenses/LICENSE-2.0>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
}

#define REPORT_ITEMS_SHOWN 16 /* patterns and names a one-line report lists at most */

/* Append printf-style text to buf (size bytes, NUL-terminated), truncating silently. */
PRINTF_LIKE(3, 4) static void append(char *buf, size_t size, const char *format, ...)
{
	size_t used = strlen(buf);
	va_list args;
	va_start(args, format);
	vsnprintf(buf + used, size - used, format, args);
	va_end(args);
}

/* Say why nothing was selected: the rule used and the interfaces that exist (bounded lists). */
static void report_nothing_selected(const struct options *opts, struct monitor *mon)
{
	char line[2048] = "no interface selected: ";
	if (opts->ndevices == 0)
		append(line, sizeof line, "none is up (or unknown) and not a loopback");
	else
		append(line, sizeof line, "no interface name matches");
	for (size_t i = 0; i < opts->ndevices && i < REPORT_ITEMS_SHOWN; i++)
		append(line, sizeof line, "%s '%.64s'", i ? " or" : "", opts->devices[i]);
	if (opts->ndevices > REPORT_ITEMS_SHOWN)
		append(line, sizeof line, " or %zu more", opts->ndevices - REPORT_ITEMS_SHOWN);
	if (opts->ndevices > 0)
		append(line, sizeof line, " (a --device regex must match the whole name)");
	append(line, sizeof line, "; interfaces present:");
	char **names = NULL;
	size_t count = 0;
	if (monitor_names_present(mon, &names, &count) != 0 || count == 0)
		append(line, sizeof line, " none");
	for (size_t i = 0; i < count && i < REPORT_ITEMS_SHOWN; i++)
		append(line, sizeof line, "%s %s", i ? "," : "", names[i]);
	if (count > REPORT_ITEMS_SHOWN)
		append(line, sizeof line, ", +%zu more", count - REPORT_ITEMS_SHOWN);
	iface_names_free(names, count);
	if (opts->rdma)
		append(line, sizeof line, "; and no RDMA port under %.300s/class/infiniband matches --rdma",
		       opts->sysfs);
	message_print("%s", line);
}

/* With --rdma (rdma not NULL), the RDMA part of the startup message into buf: " and N RDMA
 * ports (names)"; empty without. */
static void describe_rdma(const struct rdma_set *rdma, char *buf, size_t size)
{
	buf[0] = '\0';
	if (rdma == NULL)
		return;
	size_t count = rdma_count(rdma);
	append(buf, size, " and %zu RDMA port%s", count, count == 1 ? "" : "s");
	for (size_t i = 0; i < count && i < STARTUP_NAMES_SHOWN; i++)
		append(buf, size, "%s%s", i ? ", " : " (", rdma_name(rdma, i));
	if (count > STARTUP_NAMES_SHOWN)
		append(buf, size, ", +%zu more", count - STARTUP_NAMES_SHOWN);
	if (count > 0)
		append(buf, size, ")");
}

/* Print the one-line startup message: how many interfaces (and RDMA ports), which, how often. */
static void report_start(const struct monitor *mon, const struct rdma_set *rdma, uint64_t interval_us)
{
	size_t count = monitor_count(mon);
	char names[256] = "", ports[512];
	for (size_t i = 0; i < count && i < STARTUP_NAMES_SHOWN; i++)
		append(names, sizeof names, "%s%s", i ? ", " : " (", monitor_name(mon, i));
	if (count > STARTUP_NAMES_SHOWN)
		append(names, sizeof names, ", +%zu more", count - STARTUP_NAMES_SHOWN);
	if (count > 0) /* none only with --rdma: RDMA ports alone */
		append(names, sizeof names, ")");
	describe_rdma(rdma, ports, sizeof ports);
	message_print("monitoring %zu interface%s%s%s every %llu us in NVTX domain \"%s\"", count,
		      count == 1 ? "" : "s", names, ports, (unsigned long long)interval_us, EMIT_DOMAIN_NAME);
}

/* Print the selected interfaces, one per line, sorted; with -m, each with its link speed
 * ("eth0 100000Mb/s", or "lo unknown"); then the RDMA ports (rdma not NULL), sorted. */
static void print_list(const struct monitor *mon, bool speeds, const struct rdma_set *rdma)
{
	for (size_t i = 0; i < monitor_count(mon); i++) {
		double speed = monitor_speed(mon, i);
		if (!speeds)
			puts(monitor_name(mon, i));
		else if (speed > 0)
			printf("%s %.0fMb/s\n", monitor_name(mon, i), speed);
		else
			printf("%s unknown\n", monitor_name(mon, i));
	}
	for (size_t i = 0; rdma != NULL && i < rdma_count(rdma); i++)
		puts(rdma_name(rdma, i));
}

/* Compile the --rdma patterns and start the RDMA set (every port with a bare --rdma); -1 with
 * the reason said (a command-line error). */
static int rdma_start(const struct options *opts, struct iface_selector *sel, struct rdma_set *rdma)
{
	char err[IFACE_ERR_MAX];
	*sel = (struct iface_selector){0};
	bool all = opts->rdma_all || opts->nrdma_patterns == 0;
	if (!all && iface_selector_init_named(sel, opts->rdma_patterns, opts->nrdma_patterns, "RDMA", err) != 0) {
		message_print("%s", err);
		options_usage_hint(stderr);
		return -1;
	}
	rdma_init(rdma, opts->sysfs, all ? NULL : sel);
	return 0;
}

/* Open the source the options ask for (sysfs for --list alone) and, to sample, subscribe to link
 * notifications (monitor_watch_links()); -1 when an explicit one is
 * refused. Auto says once, at its first listing, when netlink would be cheaper but is refused
 * (source_warn()); in a build without netlink, auto reads the files silently and
 * --source=netlink is an error. The environment variable KN_TEST_PROC_NET_DEV names another
 * file for procfs to read (for tests only). */
static int choose_source(const struct options *opts, struct monitor *mon)
{
	_Static_assert((int)OPTIONS_SOURCE_AUTO == (int)SOURCE_AUTO && (int)OPTIONS_SOURCE_NETLINK == (int)SOURCE_NETLINK &&
			       (int)OPTIONS_SOURCE_SYSFS == (int)SOURCE_SYSFS && (int)OPTIONS_SOURCE_PROCFS == (int)SOURCE_PROCFS,
		       "enum options_source follows enum source_kind");
	enum source_kind kind = opts->list ? SOURCE_SYSFS : (enum source_kind)opts->source;
	if (kind == SOURCE_NETLINK && !netlink_built()) {
		message_print("--source=netlink: this build has no netlink source "
			      "(configured with --disable-netlink or without Linux headers); use --source=sysfs");
		return -1;
	}
	monitor_set_interval(mon, opts->interval_us);
	bool extended = metric_set_extended(&opts->metrics);
	monitor_set_counters(mon, opts->list ? 0 : opts->metrics.counters,
			     opts->metrics.speed || (opts->list && extended));
	int rc = monitor_use_source(mon, kind, opts->fake_tree, getenv("KN_TEST_PROC_NET_DEV"));
	if (rc != 0 && kind == SOURCE_NETLINK) {
		message_print("netlink statistics unavailable (%s) and --source=netlink was given",
			      strerror(-rc));
		return -1;
	}
	if (rc != 0) {
		message_print("%s counters unavailable: %s", source_name(kind), strerror(-rc));
		return -1;
	}
	if (!opts->list)
		monitor_watch_links(mon); /* before the first listing: rescan only when links change */
	return 0;
}

/* Select the interfaces and list them or sample them; the exit status. */
static int run(const struct options *opts)
{
	char err[IFACE_ERR_MAX];
	struct iface_selector sel;
	if (iface_selector_init(&sel, opts->devices, opts->ndevices, err) != 0) {
		message_print("%s", err);
		options_usage_hint(stderr);
		return EXIT_USAGE;
	}
	struct iface_selector rdma_sel;
	struct rdma_set rdma_set;
	if (rdma_start(opts, &rdma_sel, &rdma_set) != 0) {
		iface_selector_free(&sel);
		return EXIT_USAGE;
	}
	struct rdma_set *rdma = opts->rdma ? &rdma_set : NULL;
	struct monitor mon;
	int status = EXIT_RUNTIME;
	if (monitor_init(&mon, opts->sysfs, &sel, err) != 0) {
		message_print("%s", err);
	} else if (choose_source(opts, &mon) != 0) {
		/* reported by choose_source() */
	} else if (monitor_rescan(&mon) != 0) {
		message_print("cannot list %.300s/class/net: %s", opts->sysfs, strerror(errno));
	} else if (rdma != NULL && rdma_rescan(rdma) != 0) {
		message_print("cannot list %.300s/class/infiniband: %s", opts->sysfs, strerror(errno));
	} else if (!opts->list && opts->source == OPTIONS_SOURCE_NETLINK && monitor_source(&mon) != SOURCE_NETLINK) {
		message_print("netlink lists other interfaces than sysfs (another network namespace?) "
			      "and --source=netlink was given");
	} else if (monitor_count(&mon) == 0 && (rdma == NULL || rdma_count(rdma) == 0)) {
		report_nothing_selected(opts, &mon);
	} else if (opts->list) {
		monitor_warn(&mon);
		print_list(&mon, metric_set_extended(&opts->metrics), rdma);
		status = EXIT_OK;
	} else {
		monitor_warn(&mon);
		if (rdma != NULL)
			rdma_warn(rdma);
		report_start(&mon, rdma, opts->interval_us);
		sampler_block_signals(); /* before NVTX can load a tool that starts threads */
		emit_init();
		struct sampler_config cfg = {opts->interval_us, opts->count, opts->print ? stdout : NULL, &opts->metrics,
					     rdma};
		status = sampler_run(&mon, &cfg);
	}
	monitor_free(&mon);
	rdma_free(&rdma_set);
	iface_selector_free(&rdma_sel);
	iface_selector_free(&sel);
	return status;
}

int main(int argc, char **argv)
{
	sampler_catch_signals(); /* a stop signal ends a slow start-up at once */
	struct options opts;
	char err[OPTIONS_ERR_MAX];
	int status;
	switch (options_parse(argc, argv, &opts, err)) {
	case OPTIONS_HELP:
		options_help(stdout);
		status = EXIT_OK;
		break;
	case OPTIONS_VERSION:
		print_version();
		status = EXIT_OK;
		break;
	case OPTIONS_ERROR:
		message_print("%s", err);
		options_usage_hint(stderr);
		status = EXIT_USAGE;
		break;
	default:
		status = run(&opts);
		break;
	}
	options_free(&opts);
	return close_stdout(status);
}
