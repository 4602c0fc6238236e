/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_select: libFuzzer target for the -d path: regex translation, compilation and matching.
 * Input: patterns, one per line, then a NUL byte, then interface names, one per line. */
#include "config.h"

#include "iface.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_LINES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Split text at newlines into at most FUZZ_MAX_LINES lines (in place); returns the count. */
static size_t fuzz_lines(char *text, char *lines[FUZZ_MAX_LINES])
{
	size_t n = 0;
	for (char *p = text; p != NULL && *p != '\0' && n < FUZZ_MAX_LINES;) {
		lines[n++] = p;
		p = strchr(p, '\n');
		if (p != NULL)
			*p++ = '\0';
	}
	return n;
}

/* Check the name rule: the kernel's (no '/', no whitespace or ':', not "." or "..", < 16 bytes). */
static void fuzz_check_name(const char *name)
{
	bool valid = iface_name_valid(name);
	size_t len = strlen(name);
	if (valid && (len == 0 || len >= IFACE_NAME_MAX || strchr(name, '/') != NULL ||
		      strcmp(name, ".") == 0 || strcmp(name, "..") == 0))
		abort();
}

/* Compile the patterns and match every name against them. */
static void fuzz_select(char *patterns_text, char *names_text)
{
	char *patterns[FUZZ_MAX_LINES], *names[FUZZ_MAX_LINES];
	size_t npatterns = fuzz_lines(patterns_text, patterns);
	size_t nnames = fuzz_lines(names_text, names);
	for (size_t i = 0; i < npatterns; i++) {
		char *ere = NULL;
		if (iface_regex_translate(patterns[i], &ere) == 0 && strlen(ere) > strlen(patterns[i]) * 5 / 2)
			abort(); /* the bound iface_regex_translate allocates for */
		free(ere);
	}
	struct iface_selector sel;
	char err[IFACE_ERR_MAX];
	if (npatterns == 0 || iface_selector_init(&sel, (const char *const *)patterns, npatterns, err) != 0)
		return;
	for (size_t i = 0; i < nnames; i++) {
		fuzz_check_name(names[i]);
		(void)iface_selected(&sel, NULL, names[i]); /* regex mode reads no sysfs */
	}
	iface_selector_free(&sel);
}

/* One input: split it, run the selection path. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 2);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	text[size + 1] = '\0';
	size_t split = strlen(text);
	fuzz_select(text, text + split + (split < size ? 1 : 0));
	free(text);
	return 0;
}
