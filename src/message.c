/* SPDX-License-Identifier: Apache-2.0 */
/* message: the program's one-line messages on standard error. */
#include "config.h"

#include "message.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *message_prefix = MESSAGE_PREFIX;

void message_set_prefix(const char *prefix)
{
	message_prefix = prefix;
}

void message_print(const char *format, ...)
{
	char line[MESSAGE_PREFIX_MAX + MESSAGE_MAX + 1];
	snprintf(line, MESSAGE_PREFIX_MAX, "%s", message_prefix);
	size_t start = strlen(line);
	va_list args;
	va_start(args, format);
	vsnprintf(line + start, MESSAGE_MAX, format, args);
	va_end(args);
	size_t len = strlen(line);
	for (unsigned char *p = (unsigned char *)line + start; *p != '\0'; p++)
		if (*p < ' ' || *p == 0x7f)
			*p = '?';
	line[len] = '\n';
	fwrite(line, 1, len + 1, stderr); /* one write: the line is not split by another writer */
}
