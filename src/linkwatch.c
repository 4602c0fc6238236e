/* SPDX-License-Identifier: Apache-2.0 */
/* linkwatch: rescans only when the kernel says a link changed, once its links are the listing's. */
#include "config.h"

#include "linkwatch.h"

#include "iface.h"
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

/* What one link dump is compared against, and what it showed. */
struct link_proof {
	linkwatch_ifindex_fn *ifindex_of;
	void *ctx;
	size_t links;   /* links in the dump whose names the listing would show */
	size_t matched; /* selected, present ones at the listing's ifindex */
	bool mismatch;  /* a selected one elsewhere, or of unknown ifindex */
};

/* Link dump callback: count the link as the listing counts names; check a selected one's ifindex. */
static void prove_one(int ifindex, const char *name, void *ctx)
{
	struct link_proof *proof = ctx;
	if (!iface_name_valid(name))
		return; /* the listing skips it too */
	proof->links++;
	int listed = proof->ifindex_of(name, proof->ctx);
	if (listed < 0)
		return;
	if (listed == ifindex)
		proof->matched++;
	else
		proof->mismatch = true;
}

bool linkwatch_prove(struct linkwatch *w, size_t listed, size_t selected, linkwatch_ifindex_fn *ifindex_of,
		     void *ctx)
{
	if (w->fd < 0)
		return false;
	struct netlink_stats nl;
	struct link_proof proof = {.ifindex_of = ifindex_of, .ctx = ctx};
	bool same = netlink_open_links(&nl) == 0 && netlink_links(&nl, prove_one, &proof) == 0 &&
		    !proof.mismatch && proof.links == listed && proof.matched == selected;
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
