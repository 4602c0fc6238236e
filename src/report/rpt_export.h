/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_export: turn a .nsys-rep into a temporary SQLite export with `nsys export --type sqlite`,
 * and remove it afterwards, also when SIGINT, SIGTERM or SIGHUP ends the program. */
#ifndef KN_RPT_EXPORT_H
#define KN_RPT_EXPORT_H

#include "rpt_db.h"

#include <stdbool.h>

#define RPT_EXPORT_SLOTS 64 /* exports under way at once (-j is at most this) */

/* A temporary export: its folder and file (slot -1: none). */
struct rpt_export {
	int slot;
	const char *sqlite; /* the file to open */
};

/* Whether path is an nsys report (name ending in .nsys-rep or .qdrep) to export first. */
bool rpt_export_needed(const char *path);

/* The nsys to run: option (--nsys), else $NSYS, else "nsys" (searched on PATH). */
const char *rpt_export_nsys(const char *option);

/* Catch SIGINT, SIGTERM and SIGHUP: remove every temporary export, then die of the signal. */
int rpt_export_catch_signals(void);

/* Export report with nsys into a new temporary folder; -1 with the reason in err. */
int rpt_export_run(const char *nsys, const char *report, struct rpt_export *ex,
		   char err[RPT_ERR_MAX]);

/* Remove the temporary export. */
void rpt_export_remove(struct rpt_export *ex);

#endif
