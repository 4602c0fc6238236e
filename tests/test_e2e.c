/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_e2e: the built executable ($KN_PLUGIN) under the NVTX recorder ($KN_RECORDER) against
 * fake sysfs trees. Every assertion is made from the recorder's log, and from the --print CSV
 * where the plugin's own interval is needed.
 *
 * Why the byte checks are exact: the plugin computes rate = Δbytes / dt / 2^20 with dt =
 * ns / 1e9, and prints dt in the CSV with 9 decimals, which is ns exactly; strtod of that text
 * is the same double the plugin divided by (both are ns / 1e9 correctly rounded). Dividing by
 * 2^20 is exact, and the recorder prints rates with %.17g, which round-trips. So
 * rate · 2^20 · dt equals Δbytes within two roundings (relative 2^-52), and rounding it to the
 * nearest integer gives Δbytes exactly while Δbytes < 2^51. The sum over ticks then equals the
 * bytes the test added, whatever the ticks' timing was: no timing assumption, no tolerance.
 *
 * Set KN_E2E_WRAPPER (e.g. "valgrind -q --error-exitcode=99") to run the plugin under a wrapper.
 */
#include "config.h"

#include "recorder-log.h"
#include "testutil.h"

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB 1048576.0
#define NS_PER_S INT64_C(1000000000)
#define WAIT_LOG_S 20.0   /* generous: a loaded 2-core machine may stall the plugin a while */
#define WAIT_EXIT_S 10.0  /* how long an ordinary stop may take before the test kills it */
#define STOP_INTERVAL "600000000" /* -i for the stop test: 10 minutes between ticks */
#define STOP_BOUND_S 10.0 /* SIGTERM to exit at that interval: loose for valgrind and ASan, and
			   * still 60 times shorter than waiting out the interval */
#define MAX_ARGS 32
#define MAX_GROUPS 16

/* A running (or finished) plugin and the files it writes. */
struct plugin {
	pid_t pid;       /* > 0 while not reaped */
	int status;      /* waitpid status once reaped */
	char dir[512];   /* per-run folder */
	char log[600];   /* recorder log */
	char out[600];   /* stdout: the CSV */
	char err[600];   /* stderr */
};

/* One row of the --print CSV; strings point into the loaded file. */
struct csv_row {
	const char *time_s, *interval_s, *iface, *rx, *tx;
};

/* One emitted sample joined with its CSV row. */
struct obs {
	const struct reclog_rec *rec; /* the sample record */
	const char *name;             /* group name, from counter_register */
	bool valid;                   /* sample with a value (not NaN: "no value") */
	double rx, tx;                /* rates in MiB/s when valid */
	double dt;                    /* the plugin's interval_s for this tick */
};

/* A finished run: the log, the CSV and their join. */
struct result {
	struct reclog *log;
	char *csv_text;
	struct csv_row *rows;
	size_t nrows;
	struct obs *obs;
	size_t nobs;
};

/* An interface of the fake tree and the counters the test last wrote. */
struct fake_if {
	const char *name;
	uint64_t rx, tx;
};

static char session_dir[256]; /* everything this program writes, removed at the end */
static const char *sysfs_root;  /* this test's fake sysfs tree */
static pid_t live_pid = -1;     /* the plugin the teardown must not leave behind */

/* CLOCK_MONOTONIC in nanoseconds (the clock the recorder stamps lines with). */
static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* Sleep for ms milliseconds. */
static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Read a whole file into a NUL-terminated malloc'd buffer; NULL if it cannot be read. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return NULL;
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	size_t n;
	while (buf != NULL && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			char *grown = realloc(buf, cap * 2);
			if (grown == NULL)
				free(buf);
			buf = grown;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf != NULL)
		buf[len] = '\0';
	return buf;
}

/* Print the plugin's stderr to ours (the test log), to explain a failure. */
static void show_stderr(const struct plugin *p)
{
	char *text = slurp(p->err);
	fprintf(stderr, "---- plugin stderr (%s) ----\n%s----\n", p->err, text ? text : "(none)\n");
	free(text);
}

/* Split KN_E2E_WRAPPER on blanks into argv; returns the number of words (copy in buf). */
static int wrapper_words(char *buf, size_t size, char **argv, int max)
{
	const char *w = getenv("KN_E2E_WRAPPER");
	int n = 0;
	if (w == NULL)
		return 0;
	snprintf(buf, size, "%s", w);
	for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok != NULL && n < max;
	     tok = strtok_r(NULL, " \t", &save))
		argv[n++] = tok;
	return n;
}

/* In the forked child: route output to the run's files, inject the recorder, exec. */
static _Noreturn void child_exec(const struct plugin *p, char **argv, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the test, even if it is killed */
	if (getppid() != parent)
		_exit(127);
	int in = open("/dev/null", O_RDONLY);
	int out = open(p->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int err = open(p->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	setenv("NVTX_INJECTION64_PATH", getenv("KN_RECORDER"), 1);
	setenv("KN_NVTX_LOG", p->log, 1);
	execvp(argv[0], argv);
	_exit(127);
}

/* Start $KN_PLUGIN with args (NULL-terminated) in a fresh run folder. */
static void plugin_start(struct plugin *p, const char *const *args)
{
	const char *exe = getenv("KN_PLUGIN"), *rec = getenv("KN_RECORDER");
	ck_assert_msg(exe != NULL && rec != NULL, "KN_PLUGIN and KN_RECORDER must be set");
	*p = (struct plugin){.pid = -1};
	snprintf(p->dir, sizeof p->dir, "%s/run-XXXXXX", session_dir);
	ck_assert_ptr_nonnull(mkdtemp(p->dir));
	snprintf(p->log, sizeof p->log, "%s/nvtx.log", p->dir);
	snprintf(p->out, sizeof p->out, "%s/stdout", p->dir);
	snprintf(p->err, sizeof p->err, "%s/stderr", p->dir);
	char wrap[512], *argv[MAX_ARGS + 2];
	int argc = wrapper_words(wrap, sizeof wrap, argv, MAX_ARGS / 2);
	argv[argc++] = (char *)exe;
	for (size_t i = 0; args[i] != NULL && argc < MAX_ARGS; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	pid_t parent = getpid();
	p->pid = fork();
	ck_assert_msg(p->pid >= 0, "fork: %s", strerror(errno));
	if (p->pid == 0)
		child_exec(p, argv, parent);
	live_pid = p->pid;
}

/* Reap the plugin if it has exited, waiting up to timeout_s; true once reaped. */
static bool plugin_reap(struct plugin *p, double timeout_s)
{
	int64_t deadline = now_ns() + (int64_t)(timeout_s * 1e9);
	for (;;) {
		pid_t r = waitpid(p->pid, &p->status, WNOHANG);
		if (r == p->pid) {
			p->pid = live_pid = -1;
			return true;
		}
		if (r < 0 && errno != EINTR)
			ck_abort_msg("waitpid: %s", strerror(errno));
		if (now_ns() >= deadline)
			return false;
		sleep_ms(2);
	}
}

/* Kill and reap pid if it still runs; its wait status. */
static int kill_pid(pid_t pid)
{
	int status = 0;
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	return status;
}

/* Kill and reap the plugin if it still runs (failure paths). */
static void plugin_kill(struct plugin *p)
{
	p->status = kill_pid(p->pid);
	p->pid = live_pid = -1;
}

/* Assert that the plugin ended by itself with status 0. */
static void assert_exit_ok(const struct plugin *p)
{
	if (!WIFEXITED(p->status) || WEXITSTATUS(p->status) != 0)
		show_stderr(p);
	ck_assert_msg(WIFEXITED(p->status), "plugin killed by signal %d",
		      WIFSIGNALED(p->status) ? WTERMSIG(p->status) : -1);
	ck_assert_int_eq(WEXITSTATUS(p->status), 0);
}

/* Wait for the plugin to end by itself (e.g. after -n), then assert exit status 0. */
static void plugin_finish(struct plugin *p)
{
	bool reaped = plugin_reap(p, WAIT_EXIT_S);
	if (!reaped)
		plugin_kill(p);
	ck_assert_msg(reaped, "plugin did not end within %.0f s", WAIT_EXIT_S);
	assert_exit_ok(p);
}

/* SIGTERM the plugin and reap it; returns the seconds it took to go; asserts exit 0. */
static double plugin_stop(struct plugin *p, int64_t *t_kill)
{
	*t_kill = now_ns();
	ck_assert_int_eq(kill(p->pid, SIGTERM), 0);
	bool reaped = plugin_reap(p, WAIT_EXIT_S);
	double took = (double)(now_ns() - *t_kill) / 1e9;
	if (!reaped)
		plugin_kill(p);
	ck_assert_msg(reaped, "plugin still running %.0f s after SIGTERM", WAIT_EXIT_S);
	assert_exit_ok(p);
	return took;
}

/* Whether rec has field key equal to value (key NULL: always). */
static bool field_is(const struct reclog_rec *rec, const char *key, const char *value)
{
	const char *v = key ? reclog_get(rec, key) : NULL;
	return key == NULL || (v != NULL && strcmp(v, value) == 0);
}

/* Whether a logged double is NaN: how the plugin says "no value" (glibc prints "nan" or "-nan"). */
static bool is_nan_text(const char *v)
{
	return v != NULL && (strcmp(v, "nan") == 0 || strcmp(v, "-nan") == 0);
}

/* Whether rec is of kind; the pseudo-kind "sample_nan" is a sample whose rx and tx are NaN. */
static bool kind_is(const struct reclog_rec *rec, const char *kind)
{
	if (strcmp(kind, "sample_nan") == 0)
		return strcmp(rec->kind, "sample") == 0 && is_nan_text(reclog_get(rec, "rx")) &&
		       is_nan_text(reclog_get(rec, "tx"));
	return strcmp(rec->kind, kind) == 0;
}

/* Index of the n-th (1-based) record of kind with key=value at index >= from, or SIZE_MAX. */
static size_t find_nth(const struct reclog *log, const char *kind, const char *key, const char *value,
		       size_t from, size_t n)
{
	for (size_t i = from; i < log->n; i++)
		if (kind_is(&log->recs[i], kind) && field_is(&log->recs[i], key, value) && --n == 0)
			return i;
	return SIZE_MAX;
}

/* The records of the log whose line is complete: the recorder may be writing the last one, and
 * a half-written line either fails to parse or parses as a record it is not ("counter=1" of
 * "counter=12"). NULL if the log cannot be read or a complete line does not parse. */
static struct reclog *load_complete(const char *path, char *err, size_t errlen)
{
	char *text = slurp(path);
	if (text == NULL) {
		snprintf(err, errlen, "%s: cannot read", path);
		return NULL;
	}
	const char *last = strrchr(text, '\n');
	size_t len = last != NULL ? (size_t)(last - text) + 1 : 0;
	struct reclog *log = reclog_parse(text, len, err, errlen);
	free(text);
	return log;
}

/* Wait until the log holds n records of kind with key=value at index >= from; their last index. */
static size_t wait_log(struct plugin *p, const char *kind, const char *key, const char *value, size_t from,
		       size_t n)
{
	int64_t deadline = now_ns() + (int64_t)(WAIT_LOG_S * 1e9);
	for (;;) {
		char err[256];
		struct reclog *log = load_complete(p->log, err, sizeof err);
		size_t at = log ? find_nth(log, kind, key, value, from, n) : SIZE_MAX;
		reclog_free(log);
		if (at != SIZE_MAX)
			return at;
		if (plugin_reap(p, 0) || now_ns() >= deadline) {
			show_stderr(p);
			plugin_kill(p);
			ck_abort_msg("no %zu x '%s' %s=%s after record %zu in %s", n, kind, key ? key : "",
				     value ? value : "", from, p->log);
		}
		sleep_ms(5);
	}
}

/* The counter id (as logged) of the group registered as name, copied to buf; "" if none. */
static const char *group_id(const struct reclog *log, const char *name, char *buf, size_t size)
{
	const struct reclog_rec *rec = reclog_find(log, "counter_register", "name", name);
	snprintf(buf, size, "%s", rec ? reclog_get(rec, "counter") : "");
	return buf;
}

/* Wait for n more samples of group name (valued, or NaN: no value) after index from; the last one's index.
 * A valued wait counts NaN samples too. */
static size_t wait_samples(struct plugin *p, const char *name, bool novalue, size_t from, size_t n)
{
	size_t reg = wait_log(p, "counter_register", "name", name, 0, 1);
	char err[256], id[32];
	struct reclog *log = load_complete(p->log, err, sizeof err);
	ck_assert_msg(log != NULL, "%s", err);
	group_id(log, name, id, sizeof id);
	reclog_free(log);
	return wait_log(p, novalue ? "sample_nan" : "sample", "counter", id, from > reg ? from : reg, n);
}

/* Number of complete records in the log now. A sample found at or after this index was written
 * after the call; the read of the sample after that one, after the call too. */
static size_t log_mark(const struct plugin *p)
{
	char err[256];
	struct reclog *log = load_complete(p->log, err, sizeof err);
	ck_assert_msg(log != NULL, "%s", err); /* 0 would let the barrier pass on old samples */
	size_t n = log->n;
	reclog_free(log);
	return n;
}

/* An amount at most want whose addition to value carries no decimal digit.
 * The plugin preads a counter file while the test pwrites it: a read can see some bytes
 * old and some new. With every digit only growing, any such mix lies between the old and
 * the new value, so it is a consistent reading and never looks like a reset. */
static uint64_t carry_free(uint64_t value, uint64_t want)
{
	uint64_t amount = 0, scale = 1;
	for (; want > 0; want /= 10, value /= 10, scale *= 10) {
		uint64_t room = 9 - value % 10, digit = want % 10;
		amount += (digit < room ? digit : room) * scale;
	}
	return amount;
}

/* Add about drx/dtx bytes to an interface's counters (carry-free), rewriting its files in place. */
static void fake_advance(struct fake_if *f, uint64_t drx, uint64_t dtx)
{
	uint64_t arx = carry_free(f->rx, drx), atx = carry_free(f->tx, dtx);
	ck_assert_msg((arx > 0) == (drx > 0) && (atx > 0) == (dtx > 0), "fixture: counters saturated");
	f->rx += arx;
	f->tx += atx;
	fake_iface_set(f->name, f->rx, f->tx);
}

/* Add an interface to the fake tree and the model. */
static void fake_add(struct fake_if *f, const char *operstate, unsigned flags)
{
	fake_iface_add(f->name, operstate, flags, f->rx, f->tx);
}

/* The j-th step size of a pattern: one digit d * 10^k, spread so that digits never saturate. */
static uint64_t step(int j, int seed)
{
	uint64_t v = (uint64_t)(1 + (j + seed) % 4);
	for (int k = 0; k < 3 + (j * 5 + seed) % 11; k++) /* 5 and 11 coprime: every digit in turn */
		v *= 10;
	return v;
}

/* Split the CSV text (header checked) into rows; the text is modified in place. */
static void csv_parse(struct result *r)
{
	static const char header[] = "time_s,interval_s,interface,rx_MiB_s,tx_MiB_s\n";
	ck_assert_msg(r->csv_text != NULL, "no CSV output");
	ck_assert_msg(strncmp(r->csv_text, header, strlen(header)) == 0, "CSV header: %.60s", r->csv_text);
	size_t cap = 1;
	for (const char *c = r->csv_text; *c; c++)
		cap += *c == '\n';
	r->rows = calloc(cap, sizeof *r->rows);
	ck_assert_ptr_nonnull(r->rows);
	char *save = NULL;
	for (char *line = strtok_r(r->csv_text + strlen(header), "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		const char **f[] = {&r->rows[r->nrows].time_s, &r->rows[r->nrows].interval_s,
				    &r->rows[r->nrows].iface, &r->rows[r->nrows].rx, &r->rows[r->nrows].tx};
		for (size_t i = 0; i < 5; i++) {
			*f[i] = line;
			line = i < 4 ? strchr(line, ',') : NULL;
			ck_assert_msg(i == 4 || line != NULL, "CSV row with fewer than 5 fields");
			if (line != NULL)
				*line++ = '\0';
		}
		ck_assert_msg(strchr(r->rows[r->nrows].tx, ',') == NULL, "CSV row with more than 5 fields");
		r->nrows++;
	}
}

/* Parse a logged double exactly (strtod of %.17g text). */
static double get_double(const struct reclog_rec *rec, const char *key)
{
	double v = 0;
	char buf[512];
	ck_assert_msg(reclog_get_double(rec, key, &v) == RECLOG_OK, "bad %s in %s", key,
		      reclog_format(rec, buf, sizeof buf));
	return v;
}

/* Join the log's samples with the CSV rows, one to one, checking they say the same. */
static void join(struct result *r)
{
	r->obs = calloc(r->log->n + 1, sizeof *r->obs);
	ck_assert_ptr_nonnull(r->obs);
	for (size_t i = 0; i < r->log->n; i++) {
		const struct reclog_rec *rec = &r->log->recs[i];
		if (strcmp(rec->kind, "sample") != 0)
			continue;
		char buf[512];
		bool valid = !kind_is(rec, "sample_nan");
		ck_assert_msg(is_nan_text(reclog_get(rec, "rx")) == is_nan_text(reclog_get(rec, "tx")),
			      "only one field is NaN: %s", reclog_format(rec, buf, sizeof buf));
		ck_assert_msg(r->nobs < r->nrows, "more NVTX samples than CSV rows at %s",
			      reclog_format(rec, buf, sizeof buf));
		const struct csv_row *row = &r->rows[r->nobs];
		const struct reclog_rec *reg =
			reclog_find(r->log, "counter_register", "counter", reclog_get(rec, "counter"));
		ck_assert_msg(reg != NULL, "sample of an unregistered group: %s", reclog_format(rec, buf, sizeof buf));
		struct obs *o = &r->obs[r->nobs++];
		*o = (struct obs){.rec = rec, .name = reclog_get(reg, "name"), .valid = valid};
		ck_assert_str_eq(o->name, row->iface);
		ck_assert_str_eq(valid ? reclog_get(rec, "rx") : "", row->rx);
		ck_assert_str_eq(valid ? reclog_get(rec, "tx") : "", row->tx);
		o->dt = strtod(row->interval_s, NULL);
		if (valid) {
			o->rx = get_double(rec, "rx");
			o->tx = get_double(rec, "tx");
		}
	}
	ck_assert_uint_eq(r->nobs, r->nrows);
}

/* Whether group name is an RDMA port's ("<dev>:<n>"; no interface name holds a colon). */
static bool is_rdma(const char *name)
{
	return strchr(name, ':') != NULL;
}

/* Assert that the first tick is the baseline's: every group of the start, then total, then the
 * RDMA ports, each without a value, at time 0 and interval 0 (it only marks where the first
 * rate's window begins); then leave it out of obs and rows, so the tests see the rated ticks. */
static void strip_baseline(struct result *r)
{
	size_t n = 0;
	bool seen_total = false;
	for (; n < r->nobs && !(seen_total && !is_rdma(r->obs[n].name)); n++) {
		char buf[512];
		const struct obs *o = &r->obs[n];
		reclog_format(o->rec, buf, sizeof buf);
		ck_assert_msg(!o->valid, "a value in the baseline tick: %s", buf);
		ck_assert_msg(o->dt == 0 && strtod(r->rows[n].time_s, NULL) == 0,
			      "the baseline tick is not at time 0, interval 0: %s", buf);
		seen_total = seen_total || strcmp(o->name, "total") == 0;
	}
	ck_assert_msg(seen_total, "no baseline tick");
	memmove(r->obs, r->obs + n, (r->nobs - n) * sizeof *r->obs);
	memmove(r->rows, r->rows + n, (r->nrows - n) * sizeof *r->rows);
	r->nobs -= n;
	r->nrows -= n;
}

/* Load what a finished run left: the log, the CSV, and their join. */
static void result_load(struct result *r, const struct plugin *p)
{
	char err[256];
	*r = (struct result){0};
	r->log = reclog_load(p->log, err, sizeof err);
	ck_assert_msg(r->log != NULL, "%s", err);
	r->csv_text = slurp(p->out);
	csv_parse(r);
	join(r);
	strip_baseline(r);
}

/* Release a result. */
static void result_free(struct result *r)
{
	reclog_free(r->log);
	free(r->csv_text);
	free(r->rows);
	free(r->obs);
	*r = (struct result){0};
}

/* Assert that field key of rec is the unsigned number want. */
static void expect_u64(const struct reclog_rec *rec, const char *key, uint64_t want)
{
	uint64_t v = 0;
	char buf[512];
	ck_assert_msg(reclog_get_u64(rec, key, &v) == RECLOG_OK && v == want, "%s should be %llu: %s", key,
		      (unsigned long long)want, reclog_format(rec, buf, sizeof buf));
}

/* Assert that field key of rec is the string want. */
static void expect_str(const struct reclog_rec *rec, const char *key, const char *want)
{
	char buf[512];
	const char *v = reclog_get(rec, key);
	ck_assert_msg(v != NULL && strcmp(v, want) == 0, "%s should be '%s': %s", key, want,
		      reclog_format(rec, buf, sizeof buf));
}

/* Assert the payload schema with id, exactly as the design says: "NIC bandwidth: <group>", rx/tx doubles. */
static void check_schema(const struct reclog *log, const char *id, const char *group)
{
	char name[128], buf[512]; /* an RDMA group name is up to 74 characters */
	snprintf(name, sizeof name, "NIC bandwidth: %s", group);
	const struct reclog_rec *s = reclog_find(log, "schema", "id", id);
	ck_assert_msg(s != NULL, "no schema %s for group %s", id, group);
	expect_str(s, "name", name);
	expect_u64(s, "type", NVTX_PAYLOAD_SCHEMA_TYPE_STATIC);
	expect_u64(s, "flags", NVTX_PAYLOAD_SCHEMA_FLAG_COUNTER_GROUP);
	expect_u64(s, "size", 16);
	expect_u64(s, "entries", 2);
	static const char *const names[] = {"rx", "tx"}, *const descs[] = {"Receive rate", "Transmit rate"};
	size_t pos = 0, i = 0;
	for (const struct reclog_rec *e; (e = reclog_next(log, "schema_entry", &pos)) != NULL;) {
		if (strcmp(reclog_get(e, "schema"), id) != 0)
			continue;
		ck_assert_msg(i < 2, "schema %s has more than 2 entries: %s", id, reclog_format(e, buf, sizeof buf));
		expect_u64(e, "index", i);
		expect_str(e, "name", names[i]);
		expect_u64(e, "type", NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE);
		expect_u64(e, "offset", 8 * i);
		expect_str(e, "description", descs[i]);
		i++;
	}
	ck_assert_uint_eq(i, 2);
}

/* Assert every group registration's attributes and schema, and that the first ones are names, in order. */
static void check_groups(const struct reclog *log, const char *const *names)
{
	ck_assert_uint_eq(reclog_count(log, "domain_create"), 1);
	const struct reclog_rec *dom = reclog_find(log, "domain_create", NULL, NULL);
	expect_str(dom, "name", "KvikIO NIC");
	const char *domain = reclog_get(dom, "domain");
	size_t pos = 0, i = 0, nnames = 0;
	while (names[nnames] != NULL)
		nnames++;
	for (const struct reclog_rec *rec; (rec = reclog_next(log, "counter_register", &pos)) != NULL; i++) {
		expect_str(rec, "domain", domain);
		check_schema(log, reclog_get(rec, "schema"), reclog_get(rec, "name"));
		ck_assert_msg(reclog_find(log, "counter_register", "schema", reclog_get(rec, "schema")) == rec,
			      "schema %s shared by two groups", reclog_get(rec, "schema"));
		expect_u64(rec, "scope", NVTX_SCOPE_CURRENT_VM);
		expect_str(rec, "unit", "MiB/s");
		expect_u64(rec, "semantic", NVTX_SEMANTIC_ID_COUNTERS_V1);
		expect_str(rec, "scale", "1/1");
		ck_assert_msg(reclog_find(log, "counter_register", "counter", reclog_get(rec, "counter")) == rec,
			      "counter id %s registered twice", reclog_get(rec, "counter"));
		if (i < nnames) /* later ones (hot-plug) are checked by the test */
			expect_str(rec, "name", names[i]);
	}
	ck_assert_uint_ge(i, nnames);
	ck_assert_uint_eq(reclog_count(log, "schema"), i);
	ck_assert_uint_eq(reclog_count(log, "schema_entry"), 2 * i);
}

/* Assert that the log holds only the expected kinds of record, all samples in our domain. */
static void check_kinds(const struct reclog *log)
{
	static const char *const kinds[] = {"domain_create", "schema", "schema_entry", "counter_register",
					    "sample"};
	const char *domain = reclog_get(reclog_find(log, "domain_create", NULL, NULL), "domain");
	for (size_t i = 0; i < log->n; i++) {
		const struct reclog_rec *rec = &log->recs[i];
		size_t k = 0;
		while (k < 5 && strcmp(rec->kind, kinds[k]) != 0)
			k++;
		char buf[512];
		ck_assert_msg(k < 5, "unexpected record %s", reclog_format(rec, buf, sizeof buf));
		if (k == 4)
			expect_u64(rec, "size", 16);
		if (k >= 3)
			expect_str(rec, "domain", domain);
	}
}

/* Assert that RDMA group o follows its tick's total (dt total_dt, none of it since total when
 * after_total is false), after *prev in name order; it is not in total. */
static void check_rdma_obs(const struct obs *o, bool after_total, double total_dt, const char **prev,
			   const char *what)
{
	ck_assert_msg(after_total, "RDMA group before its tick's total at %s", what);
	ck_assert_msg(*prev == NULL || strcmp(*prev, o->name) < 0, "order: %s after %s", o->name, *prev);
	ck_assert_msg(o->dt == total_dt, "interval changes within a tick at %s", what);
	*prev = o->name;
}

/* Assert the tick structure: groups in sorted order, then total, which is their exact sum, then
 * the RDMA groups in sorted order (not in total). */
static size_t check_ticks(const struct result *r)
{
	size_t ticks = 0;
	double rx = 0, tx = 0, total_dt = 0;
	bool any = false, after_total = false;
	const char *prev = NULL, *prev_rdma = NULL;
	for (size_t i = 0; i < r->nobs; i++) {
		const struct obs *o = &r->obs[i];
		char buf[512];
		reclog_format(o->rec, buf, sizeof buf);
		if (is_rdma(o->name)) {
			check_rdma_obs(o, after_total, total_dt, &prev_rdma, buf);
			continue;
		}
		after_total = false, prev_rdma = NULL;
		if (strcmp(o->name, "total") != 0) {
			ck_assert_msg(prev == NULL || strcmp(prev, o->name) < 0, "order: %s after %s", o->name, prev);
			ck_assert_msg(o->dt == r->obs[i + 1].dt, "interval changes within a tick at %s", buf);
			prev = o->name;
			rx += o->valid ? o->rx : 0, tx += o->valid ? o->tx : 0;
			any = any || o->valid;
			continue;
		}
		/* The plugin adds the valid rates in this same order, so the sums are bit-exact. */
		ck_assert_msg(o->valid == any, "total %s but %s group had a value: %s", o->valid ? "valued" : "no value",
			      any ? "a" : "no", buf);
		ck_assert_msg(!any || (o->rx == rx && o->tx == tx), "total != sum (%.17g, %.17g): %s", rx, tx, buf);
		ck_assert_msg(o->dt > 0, "interval_s not positive: %s", buf);
		rx = tx = 0, any = false, prev = NULL, ticks++;
		after_total = true, total_dt = o->dt;
	}
	ck_assert_msg(prev == NULL, "the last tick has no total");
	return ticks;
}

/* Bytes moved by group name's field (rx/tx) over obs [from, to), from rate · 2^20 · dt (see top). */
static uint64_t bytes(const struct result *r, const char *name, bool tx, size_t from, size_t to)
{
	uint64_t sum = 0;
	for (size_t i = from; i < to && i < r->nobs; i++) {
		const struct obs *o = &r->obs[i];
		if (!o->valid || strcmp(o->name, name) != 0)
			continue;
		double b = (tx ? o->tx : o->rx) * MIB * o->dt;
		/* Two roundings away from a whole number (see top), and in the range where that is exact. */
		ck_assert_msg(b >= 0 && b < 0x1p50 && fabs(b - nearbyint(b)) <= 1e-6 + 1e-15 * b,
			      "%s: %.17g bytes is not a whole number of bytes", name, b);
		sum += (uint64_t)llround(b);
	}
	return sum;
}

/* Number of ticks in which group name had a non-zero rx rate. */
static size_t busy_ticks(const struct result *r, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nobs; i++)
		n += r->obs[i].valid && r->obs[i].rx > 0 && strcmp(r->obs[i].name, name) == 0;
	return n;
}

/* Index of the first obs of group name with the given validity at or after from; nobs if none. */
static size_t obs_find(const struct result *r, const char *name, bool valid, size_t from)
{
	while (from < r->nobs && (r->obs[from].valid != valid || strcmp(r->obs[from].name, name) != 0))
		from++;
	return from;
}

/* Assert that the last tick was emitted after the stop signal: the final sample. */
static void check_final_tick(const struct result *r, size_t groups, int64_t t_kill)
{
	ck_assert_uint_ge(r->nobs, groups);
	for (size_t i = r->nobs - groups; i < r->nobs; i++) {
		char buf[512];
		ck_assert_msg(r->obs[i].rec->t_ns >= (uint64_t)t_kill, "no sample after SIGTERM: last is %s",
			      reclog_format(r->obs[i].rec, buf, sizeof buf));
	}
}

/* Fixture: a fresh fake sysfs tree. */
static void setup(void)
{
	sysfs_root = fake_sysfs_new();
}

/* Fixture: never leave a plugin running, nor the tree behind. */
static void teardown(void)
{
	kill_pid(live_pid);
	live_pid = -1;
	fake_sysfs_remove();
}

/* Default selection, schema, groups, values against advancing counters, totals, the final sample. */
START_TEST(selection_and_values)
{
	struct fake_if eth0 = {"eth0", 5000000000000, 7000000000000}, eth1 = {"eth1", 123, 456},
		       ib0 = {"ib0", 0, 0}, lo = {"lo", 10, 10}, wl = {"wlan0", 1, 1};
	const char *root = sysfs_root;
	fake_add(&eth1, "up", 0x1003);
	fake_add(&ib0, "unknown", 0x1003);
	fake_add(&lo, "unknown", 0x9); /* IFF_LOOPBACK: not selected by default */
	fake_add(&wl, "down", 0x1002); /* down: not selected by default */
	fake_add(&eth0, "up", 0x1003);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", root, "--print", "-i", "20000", NULL});
	wait_samples(&p, "total", false, 0, 1); /* the baseline is read: from now on advances count */
	const uint64_t rx0 = eth0.rx, tx0 = eth0.tx, ib_rx0 = ib0.rx;
	const int rounds = 8;
	for (int j = 0; j < rounds; j++) {
		fake_advance(&eth0, step(j, 0), step(j, 1));
		fake_advance(&ib0, step(j, 2), 0);
		fake_advance(&eth0, step(j + rounds, 3), 0); /* two writes within one tick */
		wait_samples(&p, "total", false, log_mark(&p), 2); /* so each round lands in a tick of its own */
	}
	int64_t t_kill;
	plugin_stop(&p, &t_kill);

	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "eth1", "ib0", "total", NULL});
	ck_assert_uint_eq(reclog_count(r.log, "counter_register"), 4);
	ck_assert_uint_ge(check_ticks(&r), 2 * (size_t)rounds + 1);
	for (size_t i = 0; i < r.nobs; i++)
		ck_assert_msg(r.obs[i].valid, "a no-value sample where every counter advanced");
	ck_assert_uint_eq(bytes(&r, "eth0", false, 0, r.nobs), eth0.rx - rx0);
	ck_assert_uint_eq(bytes(&r, "eth0", true, 0, r.nobs), eth0.tx - tx0);
	ck_assert_uint_eq(bytes(&r, "ib0", false, 0, r.nobs), ib0.rx - ib_rx0);
	ck_assert_uint_eq(bytes(&r, "ib0", true, 0, r.nobs), 0);
	ck_assert_uint_eq(bytes(&r, "eth1", false, 0, r.nobs) + bytes(&r, "eth1", true, 0, r.nobs), 0);
	ck_assert_uint_ge(busy_ticks(&r, "eth0"), (size_t)rounds);
	check_final_tick(&r, 4, t_kill);
	result_free(&r);
}
END_TEST

/* An interface whose files vanish gets no value (NaN), then values again when it returns; a newcomer a group. */
START_TEST(hotplug)
{
	struct fake_if eth0 = {"eth0", 1000000, 0}, eth1 = {"eth1", 2000000000, 3000000000},
		       eth2 = {"eth2", 40000000, 50000000};
	const char *root = sysfs_root;
	fake_add(&eth0, "up", 0x1003);
	fake_add(&eth1, "up", 0x1003);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", root, "-p", "-d", "eth[0-9]+", "-i", "20000", NULL});
	wait_samples(&p, "total", false, 0, 1);
	const uint64_t before = eth1.rx;
	fake_advance(&eth1, 3000, 0);
	wait_samples(&p, "total", false, log_mark(&p), 2);
	const uint64_t moved_before = eth1.rx - before;

	size_t mark = log_mark(&p); /* not the baseline's NaN: the next one */
	fake_iface_remove("eth1");
	size_t at = wait_samples(&p, "eth1", true, mark, 1); /* after the next rescan, within about 1 s */
	eth1.rx = 100, eth1.tx = 200; /* it returns with counters reset */
	fake_add(&eth1, "up", 0x1003);
	fake_add(&eth2, "up", 0x1003);
	wait_samples(&p, "eth1", false, at + 1, 1); /* a baseline, then a value */
	wait_samples(&p, "eth2", false, 0, 1);
	const uint64_t returned = eth1.tx, newcomer = eth2.rx;
	fake_advance(&eth1, 0, 7000);
	fake_advance(&eth2, 40000, 0);
	wait_samples(&p, "total", false, log_mark(&p), 2);
	int64_t t_kill;
	plugin_stop(&p, &t_kill);

	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "eth1", "total", NULL});
	ck_assert_uint_eq(reclog_count(r.log, "counter_register"), 4);
	const struct reclog_rec *reg2 = reclog_find(r.log, "counter_register", "name", "eth2");
	ck_assert_msg(reg2 > reclog_find(r.log, "counter_register", "name", "total"),
		      "eth2 must get a group of its own when it appears");
	size_t gone = obs_find(&r, "eth1", false, 0), again = obs_find(&r, "eth1", true, gone);
	ck_assert_uint_lt(again, r.nobs);
	ck_assert_uint_eq(bytes(&r, "eth1", false, 0, gone), moved_before);
	ck_assert_uint_eq(bytes(&r, "eth1", true, again, r.nobs), eth1.tx - returned);
	ck_assert_uint_eq(bytes(&r, "eth1", false, again, r.nobs), 0);
	ck_assert_uint_eq(bytes(&r, "eth2", false, 0, r.nobs), eth2.rx - newcomer);
	ck_assert_uint_eq(bytes(&r, "eth0", false, 0, r.nobs), 0);
	ck_assert_uint_eq(obs_find(&r, "eth0", false, 0), r.nobs); /* the others are unaffected */
	check_ticks(&r);
	check_final_tick(&r, 4, t_kill);
	result_free(&r);
}
END_TEST

/* SIGTERM ends a plugin that sleeps 10 minutes between ticks within 10 s, with status 0 and a last sample. */
START_TEST(sigterm_long_interval)
{
	struct fake_if eth0 = {"eth0", 10, 20};
	const char *root = sysfs_root;
	fake_add(&eth0, "up", 0x1003);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", root, "-p", "-i", STOP_INTERVAL, NULL});
	wait_samples(&p, "total", false, 0, 2); /* the baseline's mark, then the first rate 1 ms later */
	int64_t t_kill;
	double took = plugin_stop(&p, &t_kill);
	fprintf(stderr, "sigterm_long_interval: gone %.3f s after SIGTERM\n", took);
	ck_assert_msg(took < STOP_BOUND_S, "took %.3f s to stop after SIGTERM at -i " STOP_INTERVAL, took);

	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "total", NULL});
	ck_assert_uint_eq(check_ticks(&r), 2); /* the first one and the final one */
	ck_assert_msg(r.obs[0].dt < 0.5, "the first rate did not come soon after the baseline: %g s", r.obs[0].dt);
	check_final_tick(&r, 2, t_kill);
	ck_assert_msg(r.obs[2].dt < 60.0, "the final sample waited out the interval");
	result_free(&r);
}
END_TEST

/* The spec's nsys argument spellings, as nsys splits them on commas; the interval follows. */
static const char *const spellings[] = {"-d,eth0,-i,", "-deth0,-i", "--device=eth0,--interval="};
static const char *const intervals[] = {"20000", "30000"};

/* Each nsys spelling selects eth0 alone (not eth00, not eth1) at the given interval. */
START_TEST(nsys_spellings)
{
	const char *root = sysfs_root;
	struct fake_if ifs[] = {{"eth1", 1, 1}, {"eth0", 1, 1}, {"eth00", 1, 1}, {"lo", 1, 1}};
	for (size_t i = 0; i < 4; i++)
		fake_add(&ifs[i], "up", 0x1003);
	char spec[64], stderr_want[128];
	const char *interval = intervals[_i / 3];
	snprintf(spec, sizeof spec, "%s%s", spellings[_i % 3], interval);
	const char *args[MAX_ARGS] = {0};
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(spec, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
		args[n++] = tok;
	args[n++] = "--sysfs", args[n++] = root, args[n++] = "-n", args[n++] = "2", args[n++] = "-p";
	struct plugin p;
	plugin_start(&p, args);
	plugin_finish(&p);

	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "total", NULL});
	ck_assert_uint_eq(reclog_count(r.log, "counter_register"), 2);
	ck_assert_uint_eq(check_ticks(&r), 2);
	result_free(&r);
	char *text = slurp(p.err);
	snprintf(stderr_want, sizeof stderr_want, "monitoring 1 interface (eth0) every %s us", interval);
	ck_assert_msg(text != NULL && strstr(text, stderr_want) != NULL, "stderr lacks '%s': %s", stderr_want,
		      text ? text : "(none)");
	free(text);
}
END_TEST

/* One RDMA counter file of the fake tree and the value the test last wrote. */
struct fake_counter {
	const char *dev, *file; /* port 1 of dev; file under ports/1/ */
	uint64_t value;
};

/* Write the counter's value in place. */
static void counter_write(const struct fake_counter *c)
{
	fake_rdma_set(c->dev, "1", c->file, c->value);
}

/* Add about want to the counter (carry-free, see carry_free()) and write it; the amount added. */
static uint64_t counter_advance(struct fake_counter *c, uint64_t want)
{
	uint64_t amount = carry_free(c->value, want);
	ck_assert_msg(amount > 0 || want == 0, "fixture: counter %s saturated", c->file);
	c->value += amount;
	counter_write(c);
	return amount;
}

/* The whole stderr of a finished run (malloc'd; "" if none). */
static char *stderr_text(const struct plugin *p)
{
	char *text = slurp(p->err);
	return text != NULL ? text : strdup("");
}

/* Number of times needle occurs in text. */
static size_t occurrences(const char *text, const char *needle)
{
	size_t n = 0;
	for (const char *at = strstr(text, needle); at != NULL; at = strstr(at + 1, needle))
		n++;
	return n;
}

/* --rdma: every port, after the interfaces and total; standard counters (64-bit, 4-octet words,
 * times four), ionic's and bnxt_re's hw_counters in bytes; total holds the interfaces alone. */
START_TEST(rdma_values)
{
	struct fake_if eth0 = {"eth0", 1000, 2000};
	fake_add(&eth0, "up", 0x1003);
	struct fake_counter mlx_rx = {"mlx5_0", "counters/port_rcv_data", UINT64_C(6000000000000)},
			    mlx_tx = {"mlx5_0", "counters/port_xmit_data", UINT64_C(5000000000)},
			    ion_rx = {"ionic_0", "hw_counters/rx_rdma_ucast_bytes", 1000},
			    ion_rxm = {"ionic_0", "hw_counters/rx_rdma_mcast_bytes", 10},
			    ion_tx = {"ionic_0", "hw_counters/tx_rdma_ucast_bytes", 2000},
			    ion_txm = {"ionic_0", "hw_counters/tx_rdma_mcast_bytes", 20},
			    bn_rx = {"bnxt_re0", "hw_counters/rx_bytes", 30000},
			    bn_tx = {"bnxt_re0", "hw_counters/tx_bytes", 40000};
	struct fake_counter *all[] = {&mlx_rx, &mlx_tx, &ion_rx, &ion_rxm, &ion_tx, &ion_txm, &bn_rx, &bn_tx};
	for (size_t i = 0; i < 8; i++)
		counter_write(all[i]);
	fake_rdma_write("ionic_0", "1", "counters/port_rcv_data", ""); /* ionic: empty standard files */
	fake_rdma_write("ionic_0", "1", "counters/port_xmit_data", "");
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "--print", "--rdma", "-i", "20000", NULL});
	wait_samples(&p, "mlx5_0:1", false, 0, 1);
	uint64_t moved[8] = {0}, eth_rx0 = eth0.rx;
	const int rounds = 6;
	for (int j = 0; j < rounds; j++) {
		for (size_t i = 0; i < 8; i++)
			moved[i] += counter_advance(all[i], step(j, (int)i));
		fake_advance(&eth0, step(j, 9), 0);
		wait_samples(&p, "mlx5_0:1", false, log_mark(&p), 2);
	}
	int64_t t_kill;
	plugin_stop(&p, &t_kill);

	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "total", "bnxt_re0:1", "ionic_0:1", "mlx5_0:1", NULL});
	ck_assert_uint_eq(reclog_count(r.log, "counter_register"), 5);
	ck_assert_uint_ge(check_ticks(&r), 2 * (size_t)rounds);
	for (size_t i = 0; i < r.nobs; i++)
		ck_assert_msg(r.obs[i].valid, "a no-value sample where every counter advanced");
	ck_assert_uint_eq(bytes(&r, "mlx5_0:1", false, 0, r.nobs), 4 * moved[0]);
	ck_assert_uint_eq(bytes(&r, "mlx5_0:1", true, 0, r.nobs), 4 * moved[1]);
	ck_assert_uint_eq(bytes(&r, "ionic_0:1", false, 0, r.nobs), moved[2] + moved[3]);
	ck_assert_uint_eq(bytes(&r, "ionic_0:1", true, 0, r.nobs), moved[4] + moved[5]);
	ck_assert_uint_eq(bytes(&r, "bnxt_re0:1", false, 0, r.nobs), moved[6]);
	ck_assert_uint_eq(bytes(&r, "bnxt_re0:1", true, 0, r.nobs), moved[7]);
	ck_assert_uint_eq(bytes(&r, "eth0", false, 0, r.nobs), eth0.rx - eth_rx0);
	ck_assert_uint_eq(bytes(&r, "total", false, 0, r.nobs), eth0.rx - eth_rx0); /* no RDMA in it */
	ck_assert_uint_eq(bytes(&r, "total", true, 0, r.nobs), 0);
	check_final_tick(&r, 5, t_kill);
	result_free(&r);
	char *text = stderr_text(&p);
	ck_assert_msg(strstr(text, "monitoring 1 interface (eth0) and 3 RDMA ports (bnxt_re0:1, ionic_0:1, "
				   "mlx5_0:1) every 20000 us") != NULL, "stderr: %s", text);
	free(text);
}
END_TEST

/* A legacy 32-bit counter that reaches 0xFFFFFFFF: its port gets no value (NaN) from that tick
 * on, with one note; the other port is unaffected; after a reset it has values again. */
START_TEST(rdma_saturated_32bit)
{
	struct fake_if eth0 = {"eth0", 0, 0};
	fake_add(&eth0, "up", 0x1003);
	/* Every write raises digits only (never a carry), so a torn read lies between old and new. */
	struct fake_counter old_rx = {"mthca0", "counters/port_rcv_data", UINT64_C(4294900000)},
			    old_tx = {"mthca0", "counters/port_xmit_data", 7},
			    new_rx = {"mlx5_0", "counters/port_rcv_data", 100},
			    new_tx = {"mlx5_0", "counters/port_xmit_data", 100};
	counter_write(&old_rx), counter_write(&old_tx), counter_write(&new_rx), counter_write(&new_tx);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "--print", "--rdma", "-i", "20000", NULL});
	wait_samples(&p, "mthca0:1", false, 0, 1);
	old_rx.value = UINT64_C(4294960000), counter_write(&old_rx);
	wait_samples(&p, "mthca0:1", false, log_mark(&p), 2);
	old_rx.value = UINT64_C(4294967000), counter_write(&old_rx);
	wait_samples(&p, "mthca0:1", false, log_mark(&p), 2);
	size_t saturated = log_mark(&p); /* not the baseline's NaN: the next one */
	old_rx.value = UINT64_C(0xFFFFFFFF), counter_write(&old_rx); /* saturated: stopped in this tick */
	size_t nan_at = wait_samples(&p, "mthca0:1", true, saturated, 1);
	uint64_t moved = 0;
	for (int j = 0; j < 4; j++) {
		old_tx.value += 1, counter_write(&old_tx); /* the other direction still counts */
		moved += counter_advance(&new_rx, step(j, 0));
		wait_samples(&p, "mthca0:1", true, log_mark(&p), 2);
	}
	size_t mark = log_mark(&p);
	old_rx.value = 0, old_tx.value = 0; /* perfquery -R */
	counter_write(&old_rx), counter_write(&old_tx);
	wait_samples(&p, "mthca0:1", false, mark, 2);
	old_rx.value = 3, counter_write(&old_rx);
	wait_samples(&p, "mthca0:1", false, log_mark(&p), 2);
	int64_t t_kill;
	plugin_stop(&p, &t_kill);

	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "total", "mlx5_0:1", "mthca0:1", NULL});
	check_ticks(&r);
	size_t first_nan = obs_find(&r, "mthca0:1", false, 0), back = obs_find(&r, "mthca0:1", true, first_nan);
	ck_assert_uint_lt(back, r.nobs);
	ck_assert_msg(r.obs[first_nan].rec <= &r.log->recs[nan_at], "the first NaN is not the one waited for");
	ck_assert_msg(r.obs[back].rec >= &r.log->recs[mark], "a value while saturated, before the reset");
	/* exactly the words before 0xFFFFFFFF: the tick that reached it gave no partial rate */
	ck_assert_uint_eq(bytes(&r, "mthca0:1", false, 0, first_nan), 4 * (UINT64_C(4294967000) - 4294900000));
	ck_assert_uint_eq(bytes(&r, "mthca0:1", true, 0, first_nan), 0);
	ck_assert_uint_ge(back - first_nan, 4 * 8); /* four rounds of at least two ticks of 4 groups */
	ck_assert_uint_eq(bytes(&r, "mlx5_0:1", false, 0, r.nobs), 4 * moved);
	ck_assert_uint_eq(obs_find(&r, "mlx5_0:1", false, 0), r.nobs);
	ck_assert_uint_eq(bytes(&r, "mthca0:1", false, back, r.nobs), 4 * 3);
	result_free(&r);
	char *text = stderr_text(&p);
	ck_assert_msg(occurrences(text, "RDMA port mthca0:1: a 32-bit data counter is saturated") == 1,
		      "the saturation note should come once: %s", text);
	ck_assert_msg(strstr(text, "mlx5_0:1: a 32-bit") == NULL, "mlx5_0:1 is not saturated: %s", text);
	free(text);
}
END_TEST

/* An RDMA port that vanishes gets no value until it returns; one that appears gets a group. */
START_TEST(rdma_hotplug)
{
	struct fake_if eth0 = {"eth0", 0, 0};
	fake_add(&eth0, "up", 0x1003);
	struct fake_counter a_rx = {"mlx5_0", "counters/port_rcv_data", 10},
			    a_tx = {"mlx5_0", "counters/port_xmit_data", 10},
			    b_rx = {"mlx5_1", "counters/port_rcv_data", 2000},
			    b_tx = {"mlx5_1", "counters/port_xmit_data", 3000},
			    c_rx = {"bnxt_re1", "hw_counters/rx_bytes", 40},
			    c_tx = {"bnxt_re1", "hw_counters/tx_bytes", 50};
	counter_write(&a_rx), counter_write(&a_tx), counter_write(&b_rx), counter_write(&b_tx);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "-p", "--rdma=mlx5_\\d+:1|bnxt_re1:1",
					       "-i", "20000", NULL});
	wait_samples(&p, "mlx5_1:1", false, 0, 1);
	uint64_t moved_before = counter_advance(&b_rx, 3000);
	wait_samples(&p, "mlx5_1:1", false, log_mark(&p), 2);

	size_t mark = log_mark(&p); /* not the baseline's NaN: the next one */
	fake_rdma_remove("mlx5_1");
	size_t at = wait_samples(&p, "mlx5_1:1", true, mark, 1); /* after the next rescan, within about 1 s */
	b_rx.value = 100, b_tx.value = 200; /* it returns as a new device: counters from zero */
	counter_write(&b_rx), counter_write(&b_tx);
	counter_write(&c_rx), counter_write(&c_tx);
	wait_samples(&p, "mlx5_1:1", false, at + 1, 1);
	wait_samples(&p, "bnxt_re1:1", false, 0, 1);
	uint64_t moved_after = counter_advance(&b_tx, 7000), newcomer = counter_advance(&c_rx, 40000);
	wait_samples(&p, "bnxt_re1:1", false, log_mark(&p), 2);
	int64_t t_kill;
	plugin_stop(&p, &t_kill);

	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "total", "mlx5_0:1", "mlx5_1:1", "bnxt_re1:1", NULL});
	ck_assert_uint_eq(reclog_count(r.log, "counter_register"), 5);
	size_t gone = obs_find(&r, "mlx5_1:1", false, 0), again = obs_find(&r, "mlx5_1:1", true, gone);
	ck_assert_uint_lt(again, r.nobs);
	ck_assert_uint_eq(bytes(&r, "mlx5_1:1", false, 0, gone), 4 * moved_before);
	ck_assert_uint_eq(bytes(&r, "mlx5_1:1", true, again, r.nobs), 4 * moved_after);
	ck_assert_uint_eq(bytes(&r, "mlx5_1:1", false, again, r.nobs), 0);
	ck_assert_uint_eq(bytes(&r, "bnxt_re1:1", false, 0, r.nobs), newcomer);
	ck_assert_uint_eq(obs_find(&r, "mlx5_0:1", false, 0), r.nobs); /* the others are unaffected */
	check_ticks(&r);
	result_free(&r);
}
END_TEST

/* --list with --rdma: the interfaces, then the selected RDMA ports, each sorted. */
START_TEST(rdma_list)
{
	struct fake_if eth0 = {"eth0", 0, 0}, eth1 = {"eth1", 0, 0};
	fake_add(&eth1, "up", 0x1003);
	fake_add(&eth0, "up", 0x1003);
	const char *devs[] = {"mlx5_1", "mlx5_0", "bnxt_re0", "ionic_0"};
	for (size_t i = 0; i < 4; i++) {
		fake_rdma_set(devs[i], "1", "counters/port_rcv_data", 1);
		fake_rdma_set(devs[i], "1", "counters/port_xmit_data", 1);
	}
	fake_rdma_set("mlx5_1", "2", "counters/port_rcv_data", 1);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "--list", "--rdma=mlx5_1:.*",
					       "--rdma=bnxt.*", NULL});
	plugin_finish(&p);
	char *out = slurp(p.out);
	ck_assert_str_eq(out, "eth0\neth1\nbnxt_re0:1\nmlx5_1:1\nmlx5_1:2\n");
	free(out);
	plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "--list", NULL});
	plugin_finish(&p);
	out = slurp(p.out);
	ck_assert_str_eq(out, "eth0\neth1\n");
	free(out);
}
END_TEST

/* The longest RDMA group name (a 63-character device, port 4294967295) reaches NVTX whole:
 * the group, its schema "NIC bandwidth: <group>" and the CSV. */
START_TEST(rdma_long_name)
{
	struct fake_if eth0 = {"eth0", 0, 0};
	fake_add(&eth0, "up", 0x1003);
	char dev[64], name[96];
	memset(dev, 'd', 63);
	dev[63] = '\0';
	snprintf(name, sizeof name, "%s:4294967295", dev);
	fake_rdma_set(dev, "4294967295", "counters/port_rcv_data", 1);
	fake_rdma_set(dev, "4294967295", "counters/port_xmit_data", 1);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "-p", "-n", "2", "--rdma", NULL});
	plugin_finish(&p);
	struct result r;
	result_load(&r, &p);
	check_kinds(r.log);
	check_groups(r.log, (const char *const[]){"eth0", "total", name, NULL});
	ck_assert_uint_eq(check_ticks(&r), 2);
	ck_assert_str_eq(r.rows[2].iface, name);
	result_free(&r);
}
END_TEST

/* Remove every "\tt=<ns>" field of a recorder log in place: what is left does not depend on timing. */
static void strip_times(char *text)
{
	char *w = text;
	for (const char *r = text; *r != '\0';) {
		if (strncmp(r, "\tt=", 3) == 0) {
			for (r += 3; *r >= '0' && *r <= '9'; r++)
				;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* The recorder log written before --rdma existed (main at 8c3144c) for one still interface eth0
 * and two samples, times stripped: what a run without --rdma must still write, byte for byte,
 * whatever class/infiniband holds. */
static const char unchanged_log[] =
	"domain_create\tdomain=1\tname=KvikIO NIC\n"
	"schema\tid=4294967296\tname=NIC bandwidth: eth0\ttype=1\tflags=8\tsize=16\tentries=2\n"
	"schema_entry\tschema=4294967296\tindex=0\tname=rx\ttype=20\toffset=0\tdescription=Receive rate\n"
	"schema_entry\tschema=4294967296\tindex=1\tname=tx\ttype=20\toffset=8\tdescription=Transmit rate\n"
	"counter_register\tdomain=1\tcounter=1\tname=eth0\tschema=4294967296\tscope=17\tdescription=\t"
	"unit=MiB/s\tsemantic=5\tcflags=0\tscale=1/1\n"
	"schema\tid=4294967297\tname=NIC bandwidth: total\ttype=1\tflags=8\tsize=16\tentries=2\n"
	"schema_entry\tschema=4294967297\tindex=0\tname=rx\ttype=20\toffset=0\tdescription=Receive rate\n"
	"schema_entry\tschema=4294967297\tindex=1\tname=tx\ttype=20\toffset=8\tdescription=Transmit rate\n"
	"counter_register\tdomain=1\tcounter=2\tname=total\tschema=4294967297\tscope=17\tdescription=\t"
	"unit=MiB/s\tsemantic=5\tcflags=0\tscale=1/1\n"
	"sample\tdomain=1\tcounter=1\tsize=16\trx=nan\ttx=nan\n"
	"sample\tdomain=1\tcounter=2\tsize=16\trx=nan\ttx=nan\n"
	"sample\tdomain=1\tcounter=1\tsize=16\trx=0\ttx=0\n"
	"sample\tdomain=1\tcounter=2\tsize=16\trx=0\ttx=0\n"
	"sample\tdomain=1\tcounter=1\tsize=16\trx=0\ttx=0\n"
	"sample\tdomain=1\tcounter=2\tsize=16\trx=0\ttx=0\n";

/* Without --rdma, RDMA ports change nothing: the recorder log is today's byte for byte (times
 * aside), and the CSV has no RDMA row. */
START_TEST(rdma_absent_unchanged)
{
	struct fake_if eth0 = {"eth0", 5, 5};
	fake_add(&eth0, "up", 0x1003);
	fake_rdma_set("mlx5_0", "1", "counters/port_rcv_data", 1);
	fake_rdma_set("mlx5_0", "1", "counters/port_xmit_data", 1);
	for (int with_tree = 1; with_tree >= 0; with_tree--) {
		if (!with_tree)
			fake_rdma_remove("mlx5_0");
		struct plugin p;
		plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "-p", "-n", "2", NULL});
		plugin_finish(&p);
		char *log = slurp(p.log), *csv = slurp(p.out);
		ck_assert_ptr_nonnull(log);
		strip_times(log);
		ck_assert_str_eq(log, unchanged_log);
		ck_assert_msg(csv != NULL && strstr(csv, "mlx5") == NULL && occurrences(csv, "\n") == 7,
			      "CSV: %s", csv ? csv : "(none)");
		free(log);
		free(csv);
	}
}
END_TEST

/* ---- -m: fields, units and values ---------------------------------------------------------- */

#define M_FIELDS 10
#define M_IFACES 5
#define M_COUNTERS 7 /* statistics files beside the bytes: 6 counters and rx_missed_errors */

/* The -m order of the metric tests, and the fields, units and CSV columns it makes. */
static const char *const m_args[] = {"-m", "util", "-m", "drops", "--metric=packets", "-m", "errors"};
static const char *const m_fields[M_FIELDS] = {"rx", "tx", "rx_util", "tx_util", "rx_dropped", "tx_dropped",
					       "rx_packets", "tx_packets", "rx_errors", "tx_errors"};
static const char *const m_units[M_FIELDS] = {"MiB/s", "MiB/s", "%", "%", "drops/s", "drops/s",
					      "packets/s", "packets/s", "errors/s", "errors/s"};
static const char *const m_columns[M_FIELDS] = {"rx_MiB_s", "tx_MiB_s", "rx_util_pct", "tx_util_pct",
						"rx_dropped_s", "tx_dropped_s", "rx_packets_s", "tx_packets_s",
						"rx_errors_s", "tx_errors_s"};
static const char *const m_counters[M_COUNTERS] = {"rx_packets", "tx_packets", "rx_errors", "tx_errors",
						   "rx_dropped", "tx_dropped", "rx_missed_errors"};

/* An interface of the metric tests: its byte counters, the others, which files it has. */
struct m_if {
	struct fake_if bytes;
	uint64_t c[M_COUNTERS]; /* by m_counters */
	bool has[M_COUNTERS];
	const char *speed;      /* the speed file's text; NULL: none; "dir": a folder (unreadable) */
};

/* One sample of a metric run: its group and fields (NaN: no value), and the tick's interval. */
struct m_obs {
	const char *name;
	double v[M_FIELDS];
	double dt;
};

/* Add a metric interface to the fake tree: its bytes, its counter files, its speed. */
static void m_add(struct m_if *f)
{
	fake_add(&f->bytes, "up", 0x1003);
	for (int k = 0; k < M_COUNTERS; k++)
		if (f->has[k])
			fake_iface_counter(f->bytes.name, m_counters[k], f->c[k]);
	if (f->speed != NULL && strcmp(f->speed, "dir") == 0) {
		char path[512];
		snprintf(path, sizeof path, "%s/class/net/%s/speed", sysfs_root, f->bytes.name);
		ck_assert_int_eq(mkdir(path, 0755), 0);
	} else if (f->speed != NULL) {
		fake_iface_write(f->bytes.name, "speed", f->speed);
	}
}

/* Add about want to counter k of f (carry-free, as fake_advance() does for bytes). */
static void m_advance(struct m_if *f, int k, uint64_t want)
{
	uint64_t a = carry_free(f->c[k], want);
	ck_assert_msg(a > 0, "fixture: counter saturated");
	f->c[k] += a;
	fake_iface_counter(f->bytes.name, m_counters[k], f->c[k]);
}

/* The amount added to a metric counter k in round j: one digit at a position of its own per round,
 * so that no digit saturates (see carry_free()). */
static uint64_t m_step(int j, int k)
{
	uint64_t v = (uint64_t)(1 + (j + k) % 4);
	for (int d = 0; d < (j * 5 + k) % 6; d++)
		v *= 10;
	return v;
}

/* Parse one logged field: NaN for "nan"/"-nan" (no value), else the exact double. */
static double m_value(const struct reclog_rec *rec, const char *key)
{
	return is_nan_text(reclog_get(rec, key)) ? NAN : get_double(rec, key);
}

/* Assert the schema with id: 10 doubles in the -m order, each with counter semantics of its unit. */
static void m_check_schema(const struct reclog *log, const char *id, const char *group)
{
	char name[64];
	snprintf(name, sizeof name, "NIC bandwidth: %s", group);
	const struct reclog_rec *s = reclog_find(log, "schema", "id", id);
	ck_assert_msg(s != NULL, "no schema %s for group %s", id, group);
	expect_str(s, "name", name);
	expect_u64(s, "size", 8 * M_FIELDS);
	expect_u64(s, "entries", M_FIELDS);
	size_t pos = 0, i = 0;
	for (const struct reclog_rec *e; (e = reclog_next(log, "schema_entry", &pos)) != NULL;) {
		if (strcmp(reclog_get(e, "schema"), id) != 0)
			continue;
		ck_assert_uint_lt(i, M_FIELDS);
		expect_u64(e, "index", i);
		expect_str(e, "name", m_fields[i]);
		expect_u64(e, "type", NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE);
		expect_u64(e, "offset", 8 * i);
		expect_str(e, "unit", m_units[i]);
		expect_u64(e, "semantic", NVTX_SEMANTIC_ID_COUNTERS_V1);
		expect_str(e, "scale", "1/1");
		i++;
	}
	ck_assert_uint_eq(i, M_FIELDS);
}

/* Load a finished metric run: check every group's schema and registration (no group-wide unit:
 * the units are the entries'), join the samples with the CSV rows (same text, NaN as empty). */
static struct m_obs *m_load(const struct plugin *p, struct reclog **logp, size_t *nobs)
{
	char err[256], buf[512], header[512] = "time_s,interval_s,interface";
	struct reclog *log = reclog_load(p->log, err, sizeof err);
	ck_assert_msg(log != NULL, "%s", err);
	for (size_t i = 0; i < M_FIELDS; i++)
		snprintf(header + strlen(header), sizeof header - strlen(header), ",%s", m_columns[i]);
	char *csv = slurp(p->out);
	ck_assert_ptr_nonnull(csv);
	ck_assert_msg(strncmp(csv, header, strlen(header)) == 0 && csv[strlen(header)] == '\n', "CSV header: %.200s",
		      csv);
	size_t pos = 0;
	for (const struct reclog_rec *rec; (rec = reclog_next(log, "counter_register", &pos)) != NULL;) {
		m_check_schema(log, reclog_get(rec, "schema"), reclog_get(rec, "name"));
		expect_str(rec, "unit", "");
		expect_u64(rec, "semantic", 0);
	}
	struct m_obs *obs = calloc(log->n + 1, sizeof *obs);
	ck_assert_ptr_nonnull(obs);
	size_t n = 0;
	char *save = NULL, *line = strtok_r(csv + strlen(header) + 1, "\n", &save);
	for (size_t i = 0; i < log->n; i++) {
		const struct reclog_rec *rec = &log->recs[i];
		if (strcmp(rec->kind, "sample") != 0)
			continue;
		reclog_format(rec, buf, sizeof buf);
		expect_u64(rec, "size", 8 * M_FIELDS);
		ck_assert_msg(line != NULL, "more samples than CSV rows at %s", buf);
		const struct reclog_rec *reg = reclog_find(log, "counter_register", "counter", reclog_get(rec, "counter"));
		ck_assert_ptr_nonnull(reg);
		struct m_obs *o = &obs[n++];
		o->name = reclog_get(reg, "name");
		char *f = line, *next;
		for (int col = 0; col < 3 + M_FIELDS; col++, f = next) {
			next = strchr(f, ',');
			ck_assert_msg((next != NULL) == (col < 2 + M_FIELDS), "CSV row '%s' has not %d fields", line,
				      3 + M_FIELDS);
			if (next != NULL)
				*next++ = '\0';
			if (col == 1)
				o->dt = strtod(f, NULL);
			else if (col == 2)
				ck_assert_str_eq(f, o->name);
			else if (col >= 3) {
				const char *key = m_fields[col - 3], *v = reclog_get(rec, key);
				ck_assert_msg(v != NULL, "no %s in %s", key, buf);
				ck_assert_str_eq(is_nan_text(v) ? "" : v, f);
				o->v[col - 3] = m_value(rec, key);
			}
		}
		line = strtok_r(NULL, "\n", &save);
	}
	ck_assert_msg(line == NULL, "more CSV rows than samples");
	free(csv);
	size_t base = 0; /* the baseline tick, up to its total: no value in any field, interval 0 */
	while (base < n && strcmp(obs[base].name, "total") != 0)
		base++;
	ck_assert_uint_lt(base, n);
	for (size_t i = 0; i <= base; i++) {
		ck_assert_msg(obs[i].dt == 0, "baseline %s: interval %g", obs[i].name, obs[i].dt);
		for (int f = 0; f < M_FIELDS; f++)
			ck_assert_msg(isnan(obs[i].v[f]), "baseline %s: %s has a value", obs[i].name, m_fields[f]);
	}
	memmove(obs, obs + base + 1, (n - base - 1) * sizeof *obs);
	*logp = log;
	*nobs = n - base - 1;
	return obs;
}

/* Index of field name in m_fields. */
static int m_field(const char *name)
{
	for (int i = 0; i < M_FIELDS; i++)
		if (strcmp(m_fields[i], name) == 0)
			return i;
	ck_abort_msg("no field %s", name);
	return -1;
}

/* The events counted by group name's field over the run: Σ round(rate · dt) over its values
 * (scale: 2^20 for the MiB/s fields, 1 for the others); *nan gets the samples without one. */
static uint64_t m_events(const struct m_obs *obs, size_t n, const char *name, const char *field, size_t *nan)
{
	int f = m_field(field);
	double scale = f < 2 ? MIB : 1.0;
	uint64_t sum = 0;
	*nan = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(obs[i].name, name) != 0)
			continue;
		if (isnan(obs[i].v[f])) {
			++*nan;
			continue;
		}
		double e = obs[i].v[f] * scale * obs[i].dt;
		ck_assert_msg(e >= 0 && e < 0x1p50 && fabs(e - nearbyint(e)) <= 1e-6 + 1e-15 * e,
			      "%s %s: %.17g is not a whole number", name, field, e);
		sum += (uint64_t)llround(e);
	}
	return sum;
}

/* The plugin's util arithmetic (src/rate.c, rate_util()), repeated here to check it bit for bit. */
static double m_util(double bytes_per_s, double speed_mbps)
{
	return bytes_per_s * 8.0 * 100.0 / (speed_mbps * 1e6);
}

/* Assert, tick by tick, each field of total against its interfaces': sums over those with a value
 * (in name order, so bit-exact), util over the speeds known (eth0 100000 and eth3 25000 Mb/s). */
static void m_check_totals(const struct m_obs *obs, size_t n)
{
	size_t start = 0, ticks = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(obs[i].name, "total") != 0)
			continue;
		for (int f = 0; f < M_FIELDS; f++) {
			double sum = 0.0, util_bytes = 0.0;
			bool any = false;
			for (size_t j = start; j < i; j++) {
				if (!isnan(obs[j].v[f]) && f != 2 && f != 3)
					sum += obs[j].v[f], any = true;
				if ((f == 2 || f == 3) && !isnan(obs[j].v[f - 2]) &&
				    (strcmp(obs[j].name, "eth0") == 0 || strcmp(obs[j].name, "eth3") == 0))
					util_bytes += obs[j].v[f - 2] * MIB;
			}
			double want = f == 2 || f == 3 ? m_util(util_bytes, 125000.0) : any ? sum : NAN;
			ck_assert_msg(isnan(want) ? isnan(obs[i].v[f]) : obs[i].v[f] == want,
				      "tick %zu: total %s is %.17g, not %.17g", ticks, m_fields[f], obs[i].v[f], want);
		}
		start = i + 1;
		ticks++;
	}
	ck_assert_uint_gt(ticks, 0);
}

/* Every -m field in the order given, with its unit; exact packets, errors and drops against the
 * counters written; util against the speed (unknown for -1, absent, unreadable: NaN); missing
 * files and a counter that goes backwards give NaN in that field alone; total's fields. */
START_TEST(metrics_fields_and_values)
{
	struct m_if ifs[M_IFACES] = {
		{{"eth0", 1000, 2000}, {10, 20, 3, 4, 5, 6, 7}, {1, 1, 1, 1, 1, 1, 1}, "100000\n"},
		{{"eth1", 1000, 2000}, {10, 20, 0, 0, 5, 6, 0}, {1, 1, 0, 0, 1, 1, 0}, "-1\n"},
		{{"eth2", 1000, 2000}, {10, 20, 3, 4, 5, 6, 0}, {1, 1, 1, 1, 1, 1, 0}, NULL},
		{{"eth3", 1000, 2000}, {10, 20, 3, 4, 5, 6, 0}, {1, 1, 1, 1, 1, 1, 0}, "25000\n"},
		{{"eth4", 1000, 2000}, {10, 20, 3, 4, 5, 6, 0}, {1, 1, 1, 1, 1, 1, 0}, "dir"},
	};
	for (int i = 0; i < M_IFACES; i++)
		m_add(&ifs[i]);
	const char *args[MAX_ARGS] = {"--sysfs", sysfs_root, "--print", "-i", "20000"};
	size_t na = 5;
	for (size_t i = 0; i < sizeof m_args / sizeof *m_args; i++)
		args[na++] = m_args[i];
	struct plugin p;
	plugin_start(&p, args);
	wait_samples(&p, "total", false, 0, 1); /* the baseline is read */
	struct m_if start[M_IFACES];
	memcpy(start, ifs, sizeof start);
	const int rounds = 6;
	uint64_t rx_errors_added = 0; /* eth0's, outside the round where it goes backwards */
	for (int j = 0; j < rounds; j++) {
		for (int i = 0; i < M_IFACES; i++) {
			fake_advance(&ifs[i].bytes, step(j, i), step(j, i + 1));
			for (int k = 0; k < M_COUNTERS; k++) {
				if (!ifs[i].has[k] || (i == 0 && k == 2 && j == 3))
					continue;
				uint64_t before = ifs[i].c[k];
				m_advance(&ifs[i], k, m_step(j, k));
				rx_errors_added += i == 0 && k == 2 ? ifs[i].c[k] - before : 0;
			}
		}
		if (j == 3) { /* eth0's rx_errors goes down by one in its lowest non-zero digit (no borrow) */
			uint64_t unit = 1;
			while (ifs[0].c[2] / unit % 10 == 0)
				unit *= 10;
			ifs[0].c[2] -= unit;
			fake_iface_counter("eth0", "rx_errors", ifs[0].c[2]);
		}
		wait_samples(&p, "total", false, log_mark(&p), 2);
	}
	int64_t t_kill;
	plugin_stop(&p, &t_kill);

	struct reclog *log;
	size_t n, nan;
	struct m_obs *obs = m_load(&p, &log, &n);
	for (int i = 0; i < M_IFACES; i++) {
		const char *name = ifs[i].bytes.name;
		ck_assert_uint_eq(m_events(obs, n, name, "rx", &nan), ifs[i].bytes.rx - start[i].bytes.rx);
		ck_assert_uint_eq(nan, 0);
		ck_assert_uint_eq(m_events(obs, n, name, "tx", &nan), ifs[i].bytes.tx - start[i].bytes.tx);
		ck_assert_uint_eq(m_events(obs, n, name, "rx_packets", &nan), ifs[i].c[0] - start[i].c[0]);
		ck_assert_uint_eq(nan, 0);
		ck_assert_uint_eq(m_events(obs, n, name, "tx_packets", &nan), ifs[i].c[1] - start[i].c[1]);
		ck_assert_uint_eq(m_events(obs, n, name, "tx_errors", &nan), ifs[i].c[3] - start[i].c[3]);
		ck_assert_uint_eq(nan, ifs[i].has[3] ? 0 : n / (M_IFACES + 1)); /* eth1 has no errors files */
		ck_assert_uint_eq(m_events(obs, n, name, "rx_dropped", &nan),
				  ifs[i].c[4] - start[i].c[4] + ifs[i].c[6] - start[i].c[6]); /* + rx_missed_errors */
		ck_assert_uint_eq(m_events(obs, n, name, "tx_dropped", &nan), ifs[i].c[5] - start[i].c[5]);
		if (i != 0)
			ck_assert_uint_eq(m_events(obs, n, name, "rx_errors", &nan), ifs[i].c[2] - start[i].c[2]);
	}
	/* eth0's rx_errors: one tick without a value, where it went down; every other increment counted */
	ck_assert_uint_eq(m_events(obs, n, "eth0", "rx_errors", &nan), rx_errors_added);
	ck_assert_uint_eq(nan, 1);
	for (size_t i = 0; i < n; i++) { /* util: eth0's and eth3's speeds are known, no other */
		bool known = strcmp(obs[i].name, "eth0") == 0 || strcmp(obs[i].name, "eth3") == 0;
		double speed = strcmp(obs[i].name, "eth0") == 0 ? 100000.0 : 25000.0;
		if (strcmp(obs[i].name, "total") == 0)
			continue;
		for (int d = 0; d < 2; d++) {
			double want = known ? m_util(obs[i].v[d] * MIB, speed) : NAN;
			ck_assert_msg(isnan(want) ? isnan(obs[i].v[2 + d]) : obs[i].v[2 + d] == want,
				      "%s %s_util %.17g, not %.17g", obs[i].name, d ? "tx" : "rx", obs[i].v[2 + d], want);
		}
	}
	m_check_totals(obs, n);
	free(obs);
	reclog_free(log);
}
END_TEST

/* --rdma with -m: the RDMA groups carry rx and tx alone (a schema of 2 entries, 16-byte samples),
 * the interfaces every field; in the CSV the RDMA rows leave the -m columns empty. */
START_TEST(rdma_with_metrics)
{
	struct fake_if eth0 = {"eth0", 1000, 2000};
	fake_add(&eth0, "up", 0x1003);
	fake_iface_counter("eth0", "rx_packets", 10);
	fake_iface_counter("eth0", "tx_packets", 20);
	fake_rdma_set("mlx5_0", "1", "counters/port_rcv_data", 100);
	fake_rdma_set("mlx5_0", "1", "counters/port_xmit_data", 200);
	struct plugin p;
	plugin_start(&p, (const char *const[]){"--sysfs", sysfs_root, "-p", "-n", "3", "-m", "packets", "--rdma", NULL});
	plugin_finish(&p);
	char err[256], id[32];
	struct reclog *log = reclog_load(p.log, err, sizeof err);
	ck_assert_msg(log != NULL, "%s", err);
	const struct reclog_rec *reg = reclog_find(log, "counter_register", "name", "mlx5_0:1");
	const struct reclog_rec *eth = reclog_find(log, "counter_register", "name", "eth0");
	ck_assert_ptr_nonnull(reg);
	ck_assert_ptr_nonnull(eth);
	ck_assert_msg(reg > reclog_find(log, "counter_register", "name", "total"), "mlx5_0:1 before total");
	const struct reclog_rec *schema = reclog_find(log, "schema", "id", reclog_get(reg, "schema"));
	expect_str(schema, "name", "NIC bandwidth: mlx5_0:1");
	expect_u64(schema, "entries", 2);
	expect_u64(schema, "size", 16);
	expect_str(reg, "unit", "MiB/s"); /* release 0.1's group semantics, as without -m */
	expect_u64(reclog_find(log, "schema", "id", reclog_get(eth, "schema")), "entries", 4);
	size_t pos = 0, entries = 0, samples = 0;
	for (const struct reclog_rec *e; (e = reclog_next(log, "schema_entry", &pos)) != NULL;) {
		if (strcmp(reclog_get(e, "schema"), reclog_get(reg, "schema")) != 0)
			continue;
		expect_str(e, "name", entries == 0 ? "rx" : "tx");
		entries++;
	}
	ck_assert_uint_eq(entries, 2);
	snprintf(id, sizeof id, "%s", reclog_get(reg, "counter"));
	pos = 0;
	for (const struct reclog_rec *r; (r = reclog_next(log, "sample", &pos)) != NULL;) {
		if (strcmp(reclog_get(r, "counter"), id) != 0)
			continue;
		expect_u64(r, "size", 16);
		expect_str(r, "rx", samples == 0 ? "nan" : "0"); /* the baseline's first */
		ck_assert_ptr_null(reclog_get(r, "rx_packets"));
		samples++;
	}
	ck_assert_uint_eq(samples, 1 + 3);
	reclog_free(log);
	char *csv = slurp(p.out);
	ck_assert_ptr_nonnull(csv);
	ck_assert_msg(strncmp(csv, "time_s,interval_s,interface,rx_MiB_s,tx_MiB_s,rx_packets_s,tx_packets_s\n", 72) == 0,
		      "CSV header: %.100s", csv);
	ck_assert_msg(occurrences(csv, ",mlx5_0:1,0,0,,\n") == 3 && occurrences(csv, ",mlx5_0:1,,,,\n") == 1,
		      "RDMA rows: %s", csv);
	ck_assert_msg(occurrences(csv, ",eth0,0,0,0,0\n") == 3 && occurrences(csv, ",eth0,,,,\n") == 1,
		      "eth0 rows: %s", csv);
	free(csv);
}
END_TEST

/* nftw callback: remove one entry. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

/* The barrier of log_mark() counts complete lines only: a half-written last line is no record. */
START_TEST(log_mark_half_line)
{
	struct plugin p = {.pid = -1};
	snprintf(p.log, sizeof p.log, "%s/half-line.log", sysfs_root);
	FILE *f = fopen(p.log, "w");
	ck_assert_ptr_nonnull(f);
	fputs("counter_register\tt=1\tcounter=12\tname=eth0\n"
	      "sample\tt=2\tcounter=12\trx=1\ttx=2\n"
	      "sample\tt=3\tcounter=12\trx=1\ttx=2\n", f);
	ck_assert_int_eq(fflush(f), 0);
	ck_assert_uint_eq(log_mark(&p), 3);
	fputs("sample\tt=4\tcoun", f); /* the recorder is in the middle of a line */
	ck_assert_int_eq(fflush(f), 0);
	ck_assert_uint_eq(log_mark(&p), 3);
	fputs("ter=1", f); /* "counter=1" so far: not the record of counter 1 */
	ck_assert_int_eq(fflush(f), 0);
	ck_assert_uint_eq(log_mark(&p), 3);
	ck_assert_uint_eq(wait_log(&p, "sample", "counter", "12", 0, 2), 2);
	ck_assert_int_eq(fclose(f), 0);
	unlink(p.log);
}
END_TEST

/* Add test fn for loop index i as a tcase of its own (name kept), with the fixture and a
 * timeout that cannot flake. */
static void add(Suite *s, const char *name, const TTest *fn, int i)
{
	TCase *tc = tcase_create(name);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, fn, i, i + 1);
	suite_add_tcase(s, tc);
}

/* The end-to-end suite. */
static Suite *e2e_suite(void)
{
	static char names[6][64]; /* one tcase per spelling, named after it in the TAP output */
	Suite *s = suite_create("e2e");
	add(s, "selection_and_values", selection_and_values, 0);
	add(s, "hotplug", hotplug, 0);
	add(s, "sigterm_long_interval", sigterm_long_interval, 0);
	add(s, "log_mark_half_line", log_mark_half_line, 0);
	add(s, "rdma_values", rdma_values, 0);
	add(s, "rdma_saturated_32bit", rdma_saturated_32bit, 0);
	add(s, "rdma_hotplug", rdma_hotplug, 0);
	add(s, "rdma_list", rdma_list, 0);
	add(s, "rdma_long_name", rdma_long_name, 0);
	add(s, "rdma_absent_unchanged", rdma_absent_unchanged, 0);
	add(s, "rdma_with_metrics", rdma_with_metrics, 0);
	add(s, "metrics_fields_and_values", metrics_fields_and_values, 0);
	for (int i = 0; i < 6; i++) {
		snprintf(names[i], sizeof names[i], "nsys_args %s%s", spellings[i % 3], intervals[i / 3]);
		add(s, names[i], nsys_spellings, i);
	}
	return s;
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(session_dir, sizeof session_dir, "%s/kn-e2e-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(session_dir) == NULL) {
		perror(session_dir);
		return 99;
	}
	setenv("TMPDIR", session_dir, 1); /* fake sysfs trees go there too */
	SRunner *sr = srunner_create(e2e_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	nftw(session_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return failed ? 1 : 0;
}
