/* SPDX-License-Identifier: Apache-2.0 */
/* linkwatch: rescans only when the kernel says a link changed, once its links are the listing's. */
#include "config.h"

#include "linkwatch.h"

#include "netlink.h"

#include <unistd.h>

void linkwatch_init(struct linkwatch *w)
{
	*w = (struct linkwatch){.fd = -1};
}

int linkwatch_open(struct linkwatch *w)
{
	linkwatch_close(w);
	int fd = netlink_watch_open();
	if (fd < 0)
		return fd;
	w->fd = fd;
	return 0;
}

bool linkwatch_prove(struct linkwatch *w, size_t listed, size_t selected, linkwatch_ifindex_fn *ifindex_of,
		     void *ctx)
{
	if (w->fd < 0)
		return false;
	struct netlink_stats nl;
	bool same = netlink_open_links(&nl) == 0 && netlink_links_agree(&nl, listed, selected, ifindex_of, ctx);
	netlink_close(&nl);
	if (!same)
		linkwatch_close(w);
	w->trusted = same;
	return same;
}

void linkwatch_trust(struct linkwatch *w)
{
	w->trusted = w->fd >= 0;
}

bool linkwatch_changed(struct linkwatch *w)
{
	if (w->fd < 0 || !w->trusted)
		return true;
	return netlink_watch_heard(w->fd);
}

bool linkwatch_unproven(const struct linkwatch *w)
{
	return w->fd >= 0 && !w->trusted;
}

void linkwatch_close(struct linkwatch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	linkwatch_init(w);
}
