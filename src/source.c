/* SPDX-License-Identifier: Apache-2.0 */
/* source: open the source asked for, fall back along the chain, dispatch to the one in use. */
#include "config.h"

#include "source.h"

#include "cost.h"
#include "counters.h"
#include "message.h"
#include "source_netlink.h"
#include "source_procfs.h"
#include "source_sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef int source_open_fn(struct source *src);

/* Replace the source in use by the one open_fn opens; the old one stays if that fails. same:
 * the new source reads the same kernel counters (auto's choice in a proven namespace), so the
 * baselines stay good. */
static int switch_to(struct source *src, source_open_fn *open_fn, bool same)
{
	struct source old = *src;
	int rc = open_fn(src);
	if (rc != 0) {
		src->ops = old.ops;
		src->state = old.state;
		return rc;
	}
	if (old.ops != NULL)
		old.ops->close(&old);
	if (!same)
		src->generation++;
	return 0;
}

int source_open(struct source *src, enum source_kind asked, const struct source_env *env)
{
	*src = (struct source){.env = *env, .asked = asked};
	switch (asked) {
	case SOURCE_NETLINK:
		return source_netlink_open(src);
	case SOURCE_SYSFS:
		return source_sysfs_open(src);
	case SOURCE_PROCFS:
		return source_procfs_open(src);
	case SOURCE_AUTO:
		break;
	}
	/* Auto starts on the files; the first selection decides, from the listing, whether netlink
	 * is worth opening (a socket and a link dump cost more than a few preads). */
	src->netlink_allowed = !env->fake_tree && netlink_built();
	return source_sysfs_open(src);
}

/* Whether the interface's sysfs folder has a statistics folder. */
static bool has_statistics(const struct source *src, const char *name)
{
	char path[IFACE_NAME_MAX + 16];
	snprintf(path, sizeof path, "%s/statistics", name);
	return faccessat(src->env.classnet_fd, path, F_OK, 0) == 0;
}

/* Auto on the files: settle, at the first selection with a present interface, whether sysfs has
 * statistics folders; where it has none (gVisor), read /proc/net/dev instead (one note). */
static void settle_files(struct source *src, const struct source_iface *ifaces, size_t n)
{
	if (src->asked != SOURCE_AUTO || src->files_decided || src->ops->kind != SOURCE_SYSFS)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!ifaces[i].present)
			continue;
		src->files_decided = true;
		if (!has_statistics(src, ifaces[i].name) && switch_to(src, source_procfs_open, false) == 0)
			src->notes |= SOURCE_NOTE_PROCFS;
		return;
	}
}

/* The source that reads the counters by way. */
static enum source_kind kind_of(enum cost_way way)
{
	return way == COST_SYSFS ? SOURCE_SYSFS : way == COST_PROCFS ? SOURCE_PROCFS : SOURCE_NETLINK;
}

/* What the source of kind costs per tick (netlink: its cheaper way and its proof), for selected
 * of listed at interval_us, sysfs reading files files per interface. */
static double kind_cost(enum source_kind kind, size_t selected, size_t listed, double interval_us, unsigned files)
{
	if (kind == SOURCE_SYSFS)
		return cost_ns_files(COST_SYSFS, selected, listed, files);
	if (kind == SOURCE_PROCFS)
		return cost_ns(COST_PROCFS, selected, listed);
	double dump = cost_ns(COST_DUMP, selected, listed), get = cost_ns(COST_GET, selected, listed);
	return (dump < get ? dump : get) + cost_proof_ns(listed, interval_us);
}

/* The opener of the source of kind. */
static source_open_fn *opener(enum source_kind kind)
{
	return kind == SOURCE_SYSFS ? source_sysfs_open : kind == SOURCE_PROCFS ? source_procfs_open : source_netlink_open;
}

/* Auto, netlink not yet proven: open it beside the files (before they read anything this rescan)
 * and keep it only if its selection shows that sysfs describes its namespace (then both read the
 * same counters: the baselines stay). Refused, or speaking of other interfaces, it is not tried
 * again (one note); the files stay in use. */
static void try_netlink(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed)
{
	struct source files = *src;
	int rc = source_netlink_open(src);
	if (rc == 0) {
		rc = src->ops->select(src, ifaces, n, listed);
		if (rc == 0) {
			files.ops->close(&files);
			src->proven = true;
			return;
		}
		src->ops->close(src);
	}
	src->ops = files.ops;
	src->state = files.state;
	src->netlink_allowed = false; /* even a listing that raced with a change: the files are right */
	if (rc == SOURCE_FOREIGN) {
		src->notes |= SOURCE_NOTE_FOREIGN;
	} else {
		src->refused = -rc;
		src->notes |= SOURCE_NOTE_REFUSED;
	}
}

/* Auto: the source to read this selection with, by the cost model (cost.c, with as many sysfs
 * files per interface as the chosen counters need). Before netlink has
 * proven the namespace the candidates are the files in use and, if allowed, netlink; after, every
 * source (they all read the same kernel counters). After the first choice, only a way cheaper by
 * COST_HYSTERESIS replaces the one in use, so that a wavering listing does not make it flap. */
static enum source_kind auto_choice(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed)
{
	size_t selected = 0;
	for (size_t i = 0; i < n; i++)
		selected += ifaces[i].present;
	enum source_kind now = src->ops->kind;
	unsigned ways = COST_BIT(now == SOURCE_PROCFS ? COST_PROCFS : COST_SYSFS);
	if (src->proven)
		ways = COST_BIT(COST_SYSFS) | COST_BIT(COST_DUMP) | COST_BIT(COST_GET) | COST_BIT(COST_PROCFS);
	else if (src->netlink_allowed)
		ways |= COST_BIT(COST_DUMP) | COST_BIT(COST_GET);
	double iv = src->env.interval_us > 0 ? (double)src->env.interval_us : SOURCE_INTERVAL_DEFAULT_US;
	unsigned files = counters_files_needed(src->env.counters);
	enum source_kind want = kind_of(cost_cheapest_files(ways, selected, listed, iv, files));
	bool first = !src->chosen;
	src->chosen = true;
	if (want != now && !first &&
	    kind_cost(now, selected, listed, iv, files) < COST_HYSTERESIS * kind_cost(want, selected, listed, iv, files))
		return now;
	return want;
}

int source_select(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed)
{
	if (src->ops == NULL)
		return -EBADF;
	settle_files(src, ifaces, n);
	if (src->asked != SOURCE_AUTO)
		return src->ops->select(src, ifaces, n, listed);
	enum source_kind want = auto_choice(src, ifaces, n, listed);
	if (want == SOURCE_NETLINK && !src->proven) {
		try_netlink(src, ifaces, n, listed);
		if (src->ops->kind == SOURCE_NETLINK)
			return 0;
		return src->ops->select(src, ifaces, n, listed); /* the files, as before */
	}
	int rc = src->ops->select(src, ifaces, n, listed); /* netlink's proves the namespace again */
	if (rc != 0 || want == src->ops->kind)
		return rc;
	if (switch_to(src, opener(want), true) != 0)
		return 0; /* the one in use stays */
	return src->ops->select(src, ifaces, n, listed);
}

void source_fall_back(struct source *src)
{
	src->notes |= SOURCE_NOTE_FOREIGN;
	src->proven = false;
	src->netlink_allowed = false;
	if (switch_to(src, source_sysfs_open, false) != 0 && src->ops != NULL) {
		src->ops->close(src); /* no memory for sysfs: no reading rather than another's */
		src->ops = NULL;
		src->generation++;
	}
}

int source_read(struct source *src, struct source_reading *readings)
{
	if (src->ops == NULL)
		return -EBADF;
	src->ops->read(src, readings);
	return 0;
}

enum source_kind source_kind(const struct source *src)
{
	return src->ops != NULL ? src->ops->kind : SOURCE_AUTO;
}

const char *source_name(enum source_kind kind)
{
	static const char *const names[] = {"auto", "netlink", "sysfs", "procfs"};
	return names[kind];
}

void source_warn(struct source *src)
{
	unsigned fresh = src->notes & ~src->noted;
	const char *files = src->ops != NULL ? source_name(src->ops->kind) : "nothing";
	if (fresh & SOURCE_NOTE_FOREIGN)
		message_print("netlink lists other interfaces than sysfs (another network namespace?): "
			      "reading %s", files);
	if (fresh & SOURCE_NOTE_REFUSED)
		message_print("netlink statistics unavailable (%s), reading %s", strerror(src->refused), files);
	if (fresh & SOURCE_NOTE_PROCFS)
		message_print("sysfs has no statistics folders: reading %s", src->env.proc_net_dev);
	if (fresh != 0 && src->ops != NULL)
		src->ops->warn(src, fresh);
	src->noted |= fresh;
}

void source_close(struct source *src)
{
	if (src->ops != NULL)
		src->ops->close(src);
	src->ops = NULL;
	src->state = NULL;
}
