/* SPDX-License-Identifier: Apache-2.0 */
/* message: the program's one-line messages on standard error. */
#include "config.h"

#include "message.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void message_print(const char *format, ...)
{
	char line[sizeof MESSAGE_PREFIX + MESSAGE_MAX + 1] = MESSAGE_PREFIX;
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
