/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_export: .nsys-rep to a temporary SQLite export, removed afterwards (also on signals). */
#include "config.h"

#include "rpt_export.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

extern char **environ;

/* One temporary export, readable by the signal handler (filled before used is set). */
struct slot {
	volatile sig_atomic_t used;
	volatile pid_t child;
	char dir[PATH_MAX], file[PATH_MAX], log[PATH_MAX];
};

static struct slot slots[RPT_EXPORT_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

bool rpt_export_needed(const char *path)
{
	static const char *const suffixes[] = {".nsys-rep", ".qdrep"};
	size_t len = strlen(path);
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		size_t n = strlen(suffixes[i]);
		if (len > n && strcmp(path + len - n, suffixes[i]) == 0)
			return true;
	}
	return false;
}

const char *rpt_export_nsys(const char *option)
{
	if (option != NULL)
		return option;
	const char *env = getenv("NSYS");
	return env != NULL && env[0] != '\0' ? env : "nsys";
}

/* Remove what slot s holds (async-signal-safe). */
static void slot_clean(struct slot *s)
{
	unlink(s->file);
	unlink(s->log);
	rmdir(s->dir);
}

/* SIGINT/SIGTERM/SIGHUP: stop the exports under way, remove them, die of the same signal. */
static void on_signal(int sig)
{
	for (size_t i = 0; i < RPT_EXPORT_SLOTS; i++) {
		if (!slots[i].used)
			continue;
		if (slots[i].child > 0)
			kill(slots[i].child, SIGTERM);
		slot_clean(&slots[i]);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int rpt_export_catch_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigaction(sigs[i], &sa, NULL) != 0)
			return -1;
	return 0;
}

/* dst = dir + name (dir is at least 32 bytes shorter than PATH_MAX). */
static void slot_path(char *dst, const char *dir, const char *name)
{
	size_t len = strlen(dir);
	memcpy(dst, dir, len);
	memcpy(dst + len, name, strlen(name) + 1);
}

/* Take a free slot and make its temporary folder; -1 with the reason in err. */
static int slot_take(struct rpt_export *ex, char err[RPT_ERR_MAX])
{
	const char *tmp = getenv("TMPDIR");
	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	pthread_mutex_lock(&slots_lock);
	int k = -1;
	for (int i = 0; i < RPT_EXPORT_SLOTS && k < 0; i++)
		if (!slots[i].used)
			k = i;
	if (k >= 0) {
		struct slot *s = &slots[k];
		s->child = 0;
		int n = snprintf(s->dir, sizeof s->dir - 32, "%s/kvikio_nic_report.XXXXXX", tmp);
		if (n < 0 || (size_t)n >= sizeof s->dir - 32 || mkdtemp(s->dir) == NULL) {
			snprintf(err, RPT_ERR_MAX, "cannot make a temporary folder in %s: %s", tmp,
				 strerror(errno));
			k = -2;
		} else {
			slot_path(s->file, s->dir, "/export.sqlite");
			slot_path(s->log, s->dir, "/nsys.log");
			s->used = 1;
		}
	} else {
		snprintf(err, RPT_ERR_MAX, "too many exports at once");
	}
	pthread_mutex_unlock(&slots_lock);
	ex->slot = k >= 0 ? k : -1;
	ex->sqlite = k >= 0 ? slots[k].file : NULL;
	return k >= 0 ? 0 : -1;
}

/* The last non-empty line of the nsys log, for the error message (buf, size bytes). */
static void log_last_line(const char *log, char *buf, size_t size)
{
	buf[0] = '\0';
	FILE *f = fopen(log, "r");
	if (f == NULL)
		return;
	char line[RPT_ERR_MAX];
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] != '\0')
			snprintf(buf, size, "%.200s", line);
	}
	fclose(f);
}

/* Start nsys export with its output in the slot; the pid, or -1 with err. */
static pid_t export_spawn(const char *nsys, const char *report, struct slot *s, char err[RPT_ERR_MAX])
{
	posix_spawn_file_actions_t fa;
	pid_t pid = -1;
	static char a_export[] = "export", a_type[] = "--type", a_sqlite[] = "sqlite",
		    a_output[] = "--output";
	char *argv[] = {(char *)nsys, a_export, a_type, a_sqlite, a_output, s->file, (char *)report,
			NULL};
	if (posix_spawn_file_actions_init(&fa) != 0) {
		snprintf(err, RPT_ERR_MAX, "out of memory");
		return -1;
	}
	int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (rc == 0)
		rc = posix_spawn_file_actions_addopen(&fa, 1, s->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (rc == 0)
		rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (rc == 0)
		rc = posix_spawnp(&pid, nsys, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		snprintf(err, RPT_ERR_MAX, "cannot run '%s' (give --nsys=PATH or NSYS): %s", nsys,
			 strerror(rc));
		return -1;
	}
	return pid;
}

int rpt_export_run(const char *nsys, const char *report, struct rpt_export *ex,
		   char err[RPT_ERR_MAX])
{
	struct stat st;
	if (stat(report, &st) != 0) {
		snprintf(err, RPT_ERR_MAX, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (slot_take(ex, err) != 0)
		return -1;
	struct slot *s = &slots[ex->slot];
	pid_t pid = export_spawn(nsys, report, s, err);
	if (pid < 0) {
		rpt_export_remove(ex);
		return -1;
	}
	s->child = pid;
	int status = 0;
	pid_t got;
	while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	s->child = 0;
	if (got < 0) {
		snprintf(err, RPT_ERR_MAX, "cannot wait for '%s': %s", nsys, strerror(errno));
		rpt_export_remove(ex);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(s->file, &st) != 0) {
		char last[256];
		log_last_line(s->log, last, sizeof last);
		snprintf(err, RPT_ERR_MAX, "'%s export' failed (%s %d)%s%s", nsys,
			 WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			 last[0] ? ": " : "", last);
		rpt_export_remove(ex);
		return -1;
	}
	return 0;
}

void rpt_export_remove(struct rpt_export *ex)
{
	if (ex->slot < 0)
		return;
	pthread_mutex_lock(&slots_lock);
	slot_clean(&slots[ex->slot]);
	slots[ex->slot].used = 0;
	pthread_mutex_unlock(&slots_lock);
	ex->slot = -1;
	ex->sqlite = NULL;
}
