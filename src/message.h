/* SPDX-License-Identifier: Apache-2.0 */
/* message: the program's one-line messages on standard error. */
#ifndef KN_MESSAGE_H
#define KN_MESSAGE_H

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PRINTF_LIKE(fmt, args)
#endif

#define MESSAGE_PREFIX "kvikio_nic: "
#define MESSAGE_MAX 4096 /* longer messages are cut */
#define MESSAGE_PREFIX_MAX 64 /* longer prefixes are cut */

/* Use prefix instead of "kvikio_nic: " (another program of the package: "kvikio_nic_report: "). */
void message_set_prefix(const char *prefix);

/* Print "kvikio_nic: " and the printf-formatted text as one line on stderr. Control
 * characters (an argument with a newline) are shown as '?', so it stays one line. */
PRINTF_LIKE(1, 2) void message_print(const char *format, ...);

#endif
