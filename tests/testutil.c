/* SPDX-License-Identifier: Apache-2.0 */
/* testutil: fake sysfs trees in a temporary folder, for the check tests. */
#include "config.h"

#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

/* Abort the test program with a message: the fixture itself failed. */
static void die(const char *what, const char *path)
{
	fprintf(stderr, "testutil: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

/* mkdir that tolerates an existing folder. */
static void make_dir(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		die("mkdir", path);
}

/* Create an empty fake sysfs root (with class/net) and return its path. */
const char *fake_sysfs_new(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(root, sizeof root, "%s/kn-sysfs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(root) == NULL)
		die("mkdtemp", root);
	char path[512];
	snprintf(path, sizeof path, "%s/class", root);
	make_dir(path);
	snprintf(path, sizeof path, "%s/class/net", root);
	make_dir(path);
	return root;
}

/* nftw callback: remove one entry. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

/* Remove the whole fake tree made by fake_sysfs_new(). */
void fake_sysfs_remove(void)
{
	if (root[0] != '\0')
		nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	root[0] = '\0';
}

/* Write text to <root>/class/net/<name>/<attr>, creating or truncating it. */
void fake_iface_write(const char *name, const char *attr, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/class/net/%s/%s", root, name, attr);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("open", path);
	size_t len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len)
		die("write", path);
	close(fd);
}

/* Overwrite a counter file in place (no truncation), so held fds see the new value. */
void fake_iface_counter(const char *name, const char *counter, uint64_t value)
{
	char path[512], text[32];
	snprintf(path, sizeof path, "%s/class/net/%s/statistics/%s", root, name, counter);
	int len = snprintf(text, sizeof text, "%020" PRIu64 "\n", value);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		die("open", path);
	if (pwrite(fd, text, (size_t)len, 0) != len)
		die("pwrite", path);
	close(fd);
}

/* Add interface name with operstate, flags (e.g. 0x1003) and counters. */
void fake_iface_add(const char *name, const char *operstate, unsigned flags, uint64_t rx, uint64_t tx)
{
	char path[512], text[32];
	snprintf(path, sizeof path, "%s/class/net/%s", root, name);
	make_dir(path);
	snprintf(path, sizeof path, "%s/class/net/%s/statistics", root, name);
	make_dir(path);
	snprintf(text, sizeof text, "%s\n", operstate);
	fake_iface_write(name, "operstate", text);
	snprintf(text, sizeof text, "0x%x\n", flags);
	fake_iface_write(name, "flags", text);
	fake_iface_set(name, rx, tx);
}

/* Rewrite an interface's counters in place, fixed width, as the kernel's files behave. */
void fake_iface_set(const char *name, uint64_t rx, uint64_t tx)
{
	fake_iface_counter(name, "rx_bytes", rx);
	fake_iface_counter(name, "tx_bytes", tx);
}

/* Remove an interface and its files. */
void fake_iface_remove(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/class/net/%s", root, name);
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Create <root>/class/infiniband/<dev>/ports/<port> and the folders of relpath below it; the
 * full path of relpath goes to path (512 bytes). */
static void rdma_path(char path[512], const char *dev, const char *port, const char *relpath)
{
	snprintf(path, 512, "%s/class/infiniband", root);
	make_dir(path);
	const char *parts[] = {dev, "ports", port};
	for (size_t i = 0; i < 3; i++) {
		size_t len = strlen(path);
		snprintf(path + len, 512 - len, "/%s", parts[i]);
		make_dir(path);
	}
	size_t len = strlen(path);
	snprintf(path + len, 512 - len, "/%s", relpath);
	for (char *slash = strchr(path + len + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		make_dir(path);
		*slash = '/';
	}
}

/* Write text to <root>/class/infiniband/<dev>/ports/<port>/<relpath>, truncating it. */
void fake_rdma_write(const char *dev, const char *port, const char *relpath, const char *text)
{
	char path[512];
	rdma_path(path, dev, port, relpath);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("open", path);
	size_t len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len)
		die("write", path);
	close(fd);
}

/* Rewrite an RDMA counter file in place, fixed width, so that held fds see the new value. */
void fake_rdma_set(const char *dev, const char *port, const char *relpath, uint64_t value)
{
	char path[512], text[32];
	rdma_path(path, dev, port, relpath);
	int len = snprintf(text, sizeof text, "%020" PRIu64 "\n", value);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		die("open", path);
	if (pwrite(fd, text, (size_t)len, 0) != len)
		die("pwrite", path);
	close(fd);
}

/* Remove an RDMA device and its ports. */
void fake_rdma_remove(const char *dev)
{
	char path[512];
	snprintf(path, sizeof path, "%s/class/infiniband/%s", root, dev);
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Add fn to s as a test case of its own named name, with an optional fixture around it. */
void testutil_add(Suite *s, const char *name, const TTest *fn, void (*setup)(void),
		  void (*teardown)(void))
{
	testutil_add_tagged(s, name, fn, setup, teardown, NULL);
}

/* As testutil_add, with check tags (CK_INCLUDE_TAGS / CK_EXCLUDE_TAGS select by them). */
void testutil_add_tagged(Suite *s, const char *name, const TTest *fn, void (*setup)(void),
			 void (*teardown)(void), const char *tags)
{
	TCase *tc = tcase_create(name);
	/* check's default 4 s is a bound that flakes: regex_cost_bound compiles patterns near the
	 * cost bound, which took longer under ASan on a loaded CI machine. A hang still fails. */
	tcase_set_timeout(tc, TESTUTIL_TIMEOUT_S);
	if (setup != NULL || teardown != NULL)
		tcase_add_checked_fixture(tc, setup, teardown);
	if (tags != NULL)
		tcase_set_tags(tc, tags);
	tcase_add_test(tc, fn);
	suite_add_tcase(s, tc);
}

/* Run every case of s (TAP output when CK_TAP_LOG_FILE_NAME is set); the exit status. */
int testutil_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
