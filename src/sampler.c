/* SPDX-License-Identifier: Apache-2.0 */
/* sampler: the loop. Absolute deadlines, a signal-safe wait, skip-ahead, rescans, a final sample. */
#include "config.h"

#include "sampler.h"

#include "csv.h"
#include "emit.h"
#include "exit_status.h"
#include "message.h"
#include "pace.h"
#include "ticker.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RESCAN_PERIOD_NS TICKER_NS_PER_S /* hot-plug rescans at most once per second */

/* The set of signals that stop the loop. */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
}

/* A stop signal before the loop: nothing has been sampled, so there is nothing to finish. */
static void stop_now(int sig)
{
	(void)sig;
	_exit(EXIT_OK);
}

void sampler_catch_signals(void)
{
	struct sigaction action = {.sa_handler = stop_now};
	stop_signals(&action.sa_mask);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGHUP, &action, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void sampler_block_signals(void)
{
	sigset_t set;
	stop_signals(&set);
	ticker_add_signal(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* NVTX counter groups of the monitored interfaces, by their monitor id. */
struct groups {
	uint64_t *by_id;   /* by_id[id] is the group of the interface with that id */
	size_t registered; /* ids below this have a group */
	size_t capacity;
};

/* Register NVTX groups for interfaces that do not have one yet, in table (name) order; the
 * newcomers stay without a group (and unpublished) if there is no memory for them. */
static void register_new_groups(const struct monitor *mon, struct groups *groups)
{
	if (mon->count <= groups->registered)
		return;
	if (mon->count > groups->capacity) {
		uint64_t *grown = realloc(groups->by_id, mon->count * sizeof *grown);
		if (grown == NULL)
			return;
		groups->by_id = grown;
		groups->capacity = mon->count;
	}
	for (size_t i = 0; i < mon->count; i++) {
		const struct monitored_iface *entry = &mon->ifaces[i];
		if (entry->id >= groups->registered)
			groups->by_id[entry->id] = emit_register_group(entry->name);
	}
	groups->registered = mon->count;
}

_Static_assert(RDMA_GROUP_NAME_MAX <= EMIT_GROUP_NAME_MAX, "an RDMA group name must fit emit's buffers");

/* Register NVTX groups for RDMA ports that do not have one yet, in name order (as above). */
static void register_rdma_groups(const struct rdma_set *rdma, struct groups *groups)
{
	if (rdma == NULL || rdma->count <= groups->registered)
		return;
	if (rdma->count > groups->capacity) {
		uint64_t *grown = realloc(groups->by_id, rdma->count * sizeof *grown);
		if (grown == NULL)
			return;
		groups->by_id = grown;
		groups->capacity = rdma->count;
	}
	for (size_t i = 0; i < rdma->count; i++) {
		const struct rdma_port *port = &rdma->ports[i];
		if (port->id >= groups->registered)
			groups->by_id[port->id] = emit_register_bytes_group(port->name);
	}
	groups->registered = rdma->count;
}

/* Emit this tick's RDMA port samples after total (they are not in it): rx and tx alone, and in
 * the CSV no value in the -m columns of metrics; rc: the CSV status so far, returned, or -1 on
 * a CSV write error. */
static int publish_rdma(const struct rdma_set *rdma, const struct groups *groups, FILE *csv,
			const struct metric_set *metrics, double time_s, double dt_s, int rc)
{
	for (size_t i = 0; rdma != NULL && i < rdma->count; i++) {
		const struct rdma_port *port = &rdma->ports[i];
		if (port->id >= groups->registered)
			continue; /* no group: out of memory when it came */
		emit_bytes_sample(groups->by_id[port->id], port->valid ? &port->rate : NULL);
		if (csv != NULL && rc == 0) /* the rate's other fields are NaN: empty columns */
			rc = csv_row(csv, time_s, dt_s, port->name, port->valid ? &port->rate : NULL, metrics);
	}
	return rc;
}

/* Emit one tick: every group then total, then the RDMA ports, to NVTX and (if asked) CSV; -1
 * on a CSV write error. */
static int publish(const struct monitor *mon, const struct groups *groups, uint64_t total_group,
		   const struct groups *rdma_groups, const struct sampler_config *cfg, double time_s, double dt_s)
{
	int rc = 0;
	FILE *csv = cfg->csv;
	for (size_t i = 0; i < mon->count; i++) {
		const struct monitored_iface *entry = &mon->ifaces[i];
		if (entry->id >= groups->registered)
			continue; /* no group: out of memory when it came */
		if (entry->valid)
			emit_sample(groups->by_id[entry->id], &entry->rate);
		else
			emit_no_value(groups->by_id[entry->id]);
		if (csv != NULL && rc == 0)
			rc = csv_row(csv, time_s, dt_s, entry->name, entry->valid ? &entry->rate : NULL, cfg->metrics);
	}
	if (mon->total_valid)
		emit_sample(total_group, &mon->total);
	else
		emit_no_value(total_group);
	if (csv != NULL && rc == 0)
		rc = csv_row(csv, time_s, dt_s, EMIT_TOTAL_GROUP, mon->total_valid ? &mon->total : NULL, cfg->metrics);
	rc = publish_rdma(cfg->rdma, rdma_groups, csv, cfg->metrics, time_s, dt_s, rc);
	return (csv != NULL && rc == 0) ? csv_flush(csv) : rc;
}

/* Report a CSV write error (a reader that went away is a normal end); the exit status. */
static int output_failed(void)
{
	if (errno == EPIPE)
		return EXIT_OK;
	message_print("cannot write to standard output: %s", strerror(errno));
	return EXIT_RUNTIME;
}

/* Say once, at the end, how many ticks stalls cost: their gaps are in the samples that followed. */
static void report_skipped(uint64_t skipped)
{
	if (skipped > 0)
		message_print("%llu sample%s skipped: the process fell behind by more than the "
			      "interval (stalled, or the interval is shorter than a sample takes); the "
			      "sample after each gap covers it",
			      (unsigned long long)skipped, skipped == 1 ? "" : "s");
}

/* Sample until a stop signal or the count, paced by ticker, the groups registered; the exit
 * status. Ticks skipped after stalls are added to *skipped. */
static int sample_loop(struct monitor *mon, const struct sampler_config *cfg, struct ticker *ticker,
		       struct groups *groups, uint64_t total_group, struct groups *rdma_groups, uint64_t *skipped)
{
	const int64_t interval = (int64_t)cfg->interval_us * 1000;
	const int64_t start = ticker_now_ns();
	monitor_tick(mon, 0.0); /* the baseline reading: no rate yet */
	if (cfg->rdma != NULL)
		rdma_tick(cfg->rdma, 0.0);
	/* Every group's first sample has no value: it marks the baseline, where the first rate's
	 * window begins, so a report knows that window from the timestamps alone. */
	if (publish(mon, groups, total_group, rdma_groups, cfg, 0.0, 0.0) != 0)
		return output_failed();
	int64_t grid, prev = start, last_rescan = start;
	const int64_t first = pace_first(start, interval, &grid);
	bool early = first != grid; /* a first tick before the grid: one shot, then the grid */
	ticker_arm(ticker, first, early ? 0 : interval);
	for (uint64_t ticks = 1;; ticks++) {
		int64_t now;
		uint64_t missed;
		bool stopping = ticker_wait(ticker, &now, &missed);
		*skipped += missed;
		if (!stopping && now - last_rescan >= RESCAN_PERIOD_NS) {
			if (monitor_links_changed(mon)) { /* else the listing would find nothing new */
				monitor_rescan(mon);      /* a failed listing keeps the current set */
				monitor_warn(mon);
				register_new_groups(mon, groups);
			}
			if (cfg->rdma != NULL) {
				rdma_rescan(cfg->rdma); /* a failed listing keeps the current set */
				rdma_warn(cfg->rdma);
				register_rdma_groups(cfg->rdma, rdma_groups);
			}
			last_rescan = now;
			now = ticker_now_ns();
		}
		double dt_s = (double)(now - prev) / (double)TICKER_NS_PER_S;
		monitor_tick(mon, dt_s);
		if (cfg->rdma != NULL) {
			rdma_tick(cfg->rdma, dt_s);
			rdma_warn(cfg->rdma); /* a saturated counter is said at once */
		}
		if (publish(mon, groups, total_group, rdma_groups, cfg, (double)(now - start) / (double)TICKER_NS_PER_S,
			    dt_s) != 0)
			return output_failed();
		prev = now;
		if (stopping || ticks == cfg->count)
			return EXIT_OK;
		if (early) {
			early = false;
			ticker_arm(ticker, grid + interval, interval);
		}
	}
}

int sampler_run(struct monitor *mon, const struct sampler_config *cfg)
{
	struct groups groups = {0};
	emit_configure(cfg->metrics);
	register_new_groups(mon, &groups);
	const uint64_t total_group = emit_register_group(EMIT_TOTAL_GROUP);
	struct groups rdma_groups = {0};
	register_rdma_groups(cfg->rdma, &rdma_groups); /* after total: they are not in it */
	uint64_t skipped = 0;
	int status;
	if (cfg->csv != NULL && (csv_header(cfg->csv, cfg->metrics) != 0 || csv_flush(cfg->csv) != 0))
		status = output_failed();
	else {
		sigset_t stop;
		stop_signals(&stop);
		struct ticker ticker;
		ticker_open(&ticker, &stop, true);
		status = sample_loop(mon, cfg, &ticker, &groups, total_group, &rdma_groups, &skipped);
		ticker_close(&ticker);
	}
	report_skipped(skipped);
	free(groups.by_id);
	free(rdma_groups.by_id);
	return status;
}
