/* SPDX-License-Identifier: Apache-2.0 */
/* iface: list the interfaces under <sysfs>/class/net and decide which to monitor. */
#ifndef KN_IFACE_H
#define KN_IFACE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define IFACE_NAME_MAX 16 /* IFNAMSIZ: 15 characters and the terminating NUL */
#define IFACE_ERR_MAX 512

/* The selection rule: whole-name regexes, or the default up-and-not-loopback rule. */
struct iface_selector {
	regex_t *regexes;   /* compiled -d patterns; each must match a whole name */
	size_t nregexes;
	char **literals;    /* the names of patterns that are only plain names joined by '|', sorted:
	                     * compared, not matched by regexec() (the same verdict, a fraction of
	                     * the cost when thousands of names are listed) */
	size_t nliterals;   /* no regexes and no literals: the default rule */
};

/* An open <sysfs>/class/net folder, re-read on every scan. */
struct iface_dir {
	int fd;       /* the class/net folder, for openat() */
	void *dir;    /* DIR *, kept open and rewound so a rescan allocates nothing */
};

/* Compile the -d patterns; on failure return -1 with regerror's text in err. */
int iface_selector_init(struct iface_selector *sel, const char *const *patterns, size_t n,
			char err[IFACE_ERR_MAX]);

/* As iface_selector_init(), for the patterns of another option: what names it in the error
 * ("invalid <what> regex ..."). */
int iface_selector_init_named(struct iface_selector *sel, const char *const *patterns, size_t n,
			      const char *what, char err[IFACE_ERR_MAX]);

/* Whether any of the compiled patterns matches the whole of name (false when there are none);
 * no default rule, so it serves names that are no interface's (RDMA ports). */
bool iface_selector_matches(const struct iface_selector *sel, const char *name);

/* Free the compiled patterns. */
void iface_selector_free(struct iface_selector *sel);

/* Whether the selection is plain names alone (-d eth0, -d 'eth0|ib0': no regex, not the default
 * rule), so that no name outside sel->literals can ever be selected. */
bool iface_selector_names_only(const struct iface_selector *sel);

/* Whether the interface name is chosen by the selector (reads operstate/flags in default mode). */
bool iface_selected(const struct iface_selector *sel, const struct iface_dir *dir, const char *name);

/* Read <name>/<attr> under the class/net folder into buf (NUL-terminated); length or -errno. */
ssize_t iface_read_attr(const struct iface_dir *dir, const char *name, const char *attr, char *buf,
			size_t size);

/* Whether name is a name the kernel could give an interface (no '/', no "..", < IFNAMSIZ). */
bool iface_name_valid(const char *name);

/* Translate a user regex to POSIX ERE ("\d" becomes "[0-9]"); -1 if out of memory. */
int iface_regex_translate(const char *pattern, char **out);

/* Open <sysfs>/class/net; on failure return -1 with the failing path in err. */
int iface_dir_open(struct iface_dir *dir, const char *sysfs_root, char err[IFACE_ERR_MAX]);

/* Close what iface_dir_open() opened. */
void iface_dir_close(struct iface_dir *dir);

/* Whether the folder holds an interface of this name, as iface_dir_scan() would list it (a valid
 * name, an entry that is no plain file), looked up without a listing. */
bool iface_dir_has(const struct iface_dir *dir, const char *name);

/* Call fn(name, ctx) for every valid interface name, in directory order; returns -1 on read error. */
int iface_dir_scan(struct iface_dir *dir, void (*fn)(const char *name, void *ctx), void *ctx);

/* Collect every interface name, sorted; caller frees each and the array; -1 on error. */
int iface_dir_names(struct iface_dir *dir, char ***names, size_t *count);

/* As iface_dir_names(), keeping only the names for which keep(name, ctx) is true (it sees
 * every name once, in directory order): what is not kept is neither copied nor sorted. */
int iface_dir_names_kept(struct iface_dir *dir, bool (*keep)(const char *name, void *ctx), void *ctx,
			 char ***names, size_t *count);

/* Free what iface_dir_names() returned. */
void iface_names_free(char **names, size_t count);

#endif
