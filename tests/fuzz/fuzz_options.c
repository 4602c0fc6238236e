/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_options: libFuzzer target for options_parse(); the input is argv, split at NUL bytes. */
#include "config.h"

#include "options.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Split a NUL-terminated copy of the input at NUL bytes into argv[1..]; returns argc. */
static int fuzz_split(char *text, size_t size, char *argv[FUZZ_MAX_ARGS + 2])
{
	static char program[] = "kvikio_nic_nsys_plugin";
	int argc = 0;
	argv[argc++] = program;
	for (size_t start = 0; start <= size && argc <= FUZZ_MAX_ARGS; start += strlen(text + start) + 1)
		argv[argc++] = text + start;
	argv[argc] = NULL;
	return argc;
}

/* Check what options_parse() promises: a reason on error (message_print() keeps it on one
 * line: it may quote an argument with a newline), validated values otherwise. */
static void fuzz_check(enum options_action action, const struct options *opts, const char *err)
{
	if (action == OPTIONS_ERROR && (err[0] == '\0' || strnlen(err, OPTIONS_ERR_MAX) == OPTIONS_ERR_MAX))
		abort();
	if (action != OPTIONS_RUN)
		return;
	if (opts->interval_us < 1 || opts->interval_us > OPTIONS_INTERVAL_MAX_US)
		abort();
	if (opts->sysfs == NULL || opts->sysfs[0] == '\0' || (opts->ndevices > 0 && opts->devices == NULL))
		abort();
	for (size_t i = 0; i < opts->ndevices; i++)
		if (opts->devices[i] == NULL)
			abort();
}

/* One input: parse it as a command line, check, free. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *argv[FUZZ_MAX_ARGS + 2];
	int argc = fuzz_split(text, size, argv);
	struct options opts;
	char err[OPTIONS_ERR_MAX];
	enum options_action action = options_parse(argc, argv, &opts, err);
	fuzz_check(action, &opts, err);
	options_free(&opts);
	free(text);
	return 0;
}
