/* SPDX-License-Identifier: Apache-2.0 */
/* exit_status: the program's exit statuses, documented in --help, the man page and README. */
#ifndef KN_EXIT_STATUS_H
#define KN_EXIT_STATUS_H

enum exit_status {
	EXIT_OK = 0,      /* normal end: signal, --count reached, --print reader gone, --list, --help */
	EXIT_RUNTIME = 1, /* nothing selected, sysfs unreadable, netlink refused, output error */
	EXIT_USAGE = 2,   /* invalid command line */
};

#endif
