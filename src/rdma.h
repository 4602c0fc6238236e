/* SPDX-License-Identifier: Apache-2.0 */
/* rdma: the RDMA ports under <sysfs>/class/infiniband: discovery, their byte counters, rates.
 *
 * Each port <dev>/ports/<n> is one group named "<dev>:<n>". Its bytes come from the standard
 * counters/port_rcv_data and port_xmit_data, which count 4-octet words (the kernel's
 * Documentation/ABI/stable/sysfs-class-infiniband), 64 bits wide where the device has the
 * extended port counters and 32 bits, saturating at 0xFFFFFFFF, where it has not. Where those
 * files are absent or empty, the port's hw_counters/ are read instead, in bytes: AMD ionic's
 * rx/tx_rdma_ucast_bytes (plus rx/tx_rdma_mcast_bytes where present), or Broadcom bnxt_re's
 * rx_bytes/tx_bytes. The files are held open and re-read with pread, as for interfaces. */
#ifndef KN_RDMA_H
#define KN_RDMA_H

#include "iface.h"
#include "rate.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDMA_DEVICE_NAME_MAX 64  /* IB_DEVICE_NAME_MAX: 63 characters and the NUL */
#define RDMA_PORT_DIGITS_MAX 10  /* a port number is a u32 */
#define RDMA_GROUP_NAME_MAX (RDMA_DEVICE_NAME_MAX + 1 + RDMA_PORT_DIGITS_MAX) /* "<dev>:<n>" + NUL */
#define RDMA_MAX_PORTS 4096      /* memory bound for hostile or huge trees */
#define RDMA_WORD_OCTETS 4       /* port_rcv_data and port_xmit_data count 4-octet words */
#define RDMA_COUNTER32_MAX UINT64_C(0xFFFFFFFF) /* where a legacy 32-bit counter stops */
#define RDMA_SATURATED 1         /* rdma_files_read(): a 32-bit counter reads 0xFFFFFFFF */

/* Which files a port's bytes come from. */
enum rdma_counters {
	RDMA_COUNTERS_NONE,     /* none usable (yet): no value */
	RDMA_COUNTERS_STANDARD, /* counters/port_{rcv,xmit}_data, 4-octet words */
	RDMA_COUNTERS_IONIC,    /* hw_counters/{rx,tx}_rdma_ucast_bytes (+ _mcast_), bytes */
	RDMA_COUNTERS_BNXT,     /* hw_counters/{rx,tx}_bytes, bytes */
};

/* The held counter files of one port: per direction (0 rx, 1 tx) up to two, summed. */
struct rdma_files {
	enum rdma_counters kind;
	int fd[2][2]; /* -1 while closed */
};

/* One monitored RDMA port; the table is kept sorted by name. */
struct rdma_port {
	char name[RDMA_GROUP_NAME_MAX]; /* "<dev>:<n>" */
	size_t dev_len;                 /* length of the <dev> part */
	size_t id;                      /* 0, 1, 2...: in order of first sight, never reused */
	struct rdma_files files;
	bool wide[2];                   /* a standard counter read above 0xFFFFFFFF: 64 bits wide */
	bool failed;                    /* the last read failed: re-open at the next rescan */
	struct counter_set prev;        /* last good reading in bytes (the byte counters alone) */
	bool have_prev;
	uint64_t seen_scan;             /* number of the last rescan that listed it */
	bool valid;                     /* whether this tick produced a rate */
	struct rate rate;               /* this tick's rate, when valid: rx and tx; the rest NaN */
	unsigned notes, noted;          /* enum rdma_port_note bits raised, and already told */
};

/* Things to tell the user once per port (bits of rdma_port.notes). */
enum rdma_port_note {
	RDMA_NOTE_SATURATED = 1, /* a 32-bit counter stopped at 0xFFFFFFFF */
	RDMA_NOTE_NO_COUNTERS = 2, /* no usable byte counter files */
};

/* The monitored RDMA ports. */
struct rdma_set {
	const char *sysfs_root;           /* <sysfs>; class/infiniband is opened at each rescan */
	const struct iface_selector *sel; /* NULL: every port */
	struct rdma_port *ports;          /* sorted by name */
	size_t count, capacity;
	uint64_t scans;
	bool truncated, truncated_noted;  /* RDMA_MAX_PORTS was reached */
	bool pending;                     /* a port raised a note not yet told */
};

/* Mark files closed (call before first use). */
void rdma_files_init(struct rdma_files *files);

/* Choose and open the byte counters of port <dev>/ports/<port> under the class/infiniband folder
 * dirfd: the standard files where both read a number, else ionic's, else bnxt_re's hw_counters.
 * 0, or -ENOENT (kind NONE) when there are none. */
int rdma_files_open(struct rdma_files *files, int dirfd, const char *dev, const char *port);

/* Read both directions in bytes into out (its byte counters alone). wide[] records standard
 * counters seen above 32 bits;
 * 0, RDMA_SATURATED (a 32-bit counter not known to be wider reads 0xFFFFFFFF), or -errno /
 * -EINVAL (malformed text) / -ERANGE (too large to be bytes). */
int rdma_files_read(const struct rdma_files *files, bool wide[2], struct counter_set *out);

/* Close what is open (safe on closed files). */
void rdma_files_close(struct rdma_files *files);

/* Start with no port; sel NULL selects every port, else the whole group name must match. */
void rdma_init(struct rdma_set *set, const char *sysfs_root, const struct iface_selector *sel);

/* List the ports again: add newly selected ones, (re)open the files of listed ports that have
 * none or whose last read failed, close those of ports the listing lacks. A missing
 * class/infiniband lists no port, and so does a device whose ports folder cannot be read; -1
 * (errno set) only when class/infiniband itself cannot be read. */
int rdma_rescan(struct rdma_set *set);

/* Read every port; rates use dt_s, the time since the previous tick. */
void rdma_tick(struct rdma_set *set, double dt_s);

/* Number of monitored ports (the table only grows). */
size_t rdma_count(const struct rdma_set *set);

/* Name of the i-th port, in name order (i < rdma_count()). */
const char *rdma_name(const struct rdma_set *set, size_t i);

/* Say once on stderr each note raised and not yet told (one line each); cheap when there is
 * none, so it may follow every tick. */
void rdma_warn(struct rdma_set *set);

/* Release everything. */
void rdma_free(struct rdma_set *set);

#endif
