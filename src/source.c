/* SPDX-License-Identifier: Apache-2.0 */
/* source: open the source asked for, fall back along the chain, dispatch to the one in use. */
#include "config.h"

#include "source.h"

#include "message.h"
#include "source_netlink.h"
#include "source_procfs.h"
#include "source_sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

typedef int source_open_fn(struct source *src);

/* Replace the source in use by the one open_fn opens; the old one stays if that fails. */
static int switch_to(struct source *src, source_open_fn *open_fn)
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
	if (!env->fake_tree && netlink_built()) {
		int rc = source_netlink_open(src);
		if (rc == 0)
			return 0;
		src->refused = -rc;
	}
	return source_sysfs_open(src);
}

int source_fallback_reason(const struct source *src)
{
	return src->refused;
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
		if (!has_statistics(src, ifaces[i].name) && switch_to(src, source_procfs_open) == 0)
			src->notes |= SOURCE_NOTE_PROCFS;
		return;
	}
}

int source_select(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed)
{
	if (src->ops == NULL)
		return -EBADF;
	settle_files(src, ifaces, n);
	return src->ops->select(src, ifaces, n, listed);
}

void source_fall_back(struct source *src)
{
	src->notes |= SOURCE_NOTE_FOREIGN;
	if (switch_to(src, source_sysfs_open) != 0 && src->ops != NULL) {
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
	if (fresh & SOURCE_NOTE_FOREIGN)
		message_print("netlink lists other interfaces than sysfs (another network namespace?): "
			      "reading sysfs");
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
