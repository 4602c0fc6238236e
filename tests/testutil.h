/* SPDX-License-Identifier: Apache-2.0 */
/* testutil: fake sysfs trees in a temporary folder, for the check tests. */
#ifndef KN_TESTUTIL_H
#define KN_TESTUTIL_H

#include <check.h>
#include <stdint.h>

/* Create an empty fake sysfs root (with class/net) and return its path (static buffer). */
const char *fake_sysfs_new(void);

/* Remove the whole fake tree made by fake_sysfs_new(). */
void fake_sysfs_remove(void);

/* Add interface name with operstate, flags (e.g. 0x1003) and counters. */
void fake_iface_add(const char *name, const char *operstate, unsigned flags, uint64_t rx, uint64_t tx);

/* Rewrite an interface's counters in place, fixed width, as the kernel's files behave. */
void fake_iface_set(const char *name, uint64_t rx, uint64_t tx);

/* Write statistics/<counter> of name (created if need be) in place, fixed width, as
 * fake_iface_set() writes the byte counters. */
void fake_iface_counter(const char *name, const char *counter, uint64_t value);

/* Write text to <root>/class/net/<name>/<attr>, creating or truncating it. */
void fake_iface_write(const char *name, const char *attr, const char *text);

/* Remove an interface and its files. */
void fake_iface_remove(const char *name);

/* Write text to <root>/class/infiniband/<dev>/ports/<port>/<relpath> (creating the folders),
 * truncating it. */
void fake_rdma_write(const char *dev, const char *port, const char *relpath, const char *text);

/* Rewrite an RDMA counter file in place, fixed width, as the kernel's files behave. */
void fake_rdma_set(const char *dev, const char *port, const char *relpath, uint64_t value);

/* Remove an RDMA device and its ports. */
void fake_rdma_remove(const char *dev);

/* Add fn to s as a test case of its own named name, with an optional fixture around it. */
void testutil_add(Suite *s, const char *name, const TTest *fn, void (*setup)(void),
		  void (*teardown)(void));

/* Each case's time limit in seconds (CK_TIMEOUT_MULTIPLIER scales it, as under qemu). */
#define TESTUTIL_TIMEOUT_S 60

/* The tag of cases that need the kernel's rtnetlink statistics (RTM_GETSTATS): qemu-user
 * emulates none, so CI's aarch64 step runs with CK_EXCLUDE_TAGS set to it. */
#define TESTUTIL_TAG_RTNETLINK "needs-rtnetlink"

/* As testutil_add, with check tags (CK_INCLUDE_TAGS / CK_EXCLUDE_TAGS select by them). */
void testutil_add_tagged(Suite *s, const char *name, const TTest *fn, void (*setup)(void),
			 void (*teardown)(void), const char *tags);

/* Run every case of s (TAP output when CK_TAP_LOG_FILE_NAME is set); the exit status. */
int testutil_run(Suite *s);

#endif
