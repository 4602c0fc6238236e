/* SPDX-License-Identifier: Apache-2.0 */
/* slow-regcomp: an LD_PRELOAD library that makes every regcomp() take KN_SLOW_S seconds
 * (default 30) before it compiles, so that a test can stop the plugin in a slow start-up.
 * It writes "slow-regcomp: waiting" to stderr first: the test's sign that start-up is there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Say so on stderr, sleep out the delay (signals may interrupt it), then compile. */
int regcomp(regex_t *re, const char *pattern, int flags)
{
	static const char says[] = "slow-regcomp: waiting\n";
	ssize_t written = write(STDERR_FILENO, says, sizeof says - 1);
	(void)written;
	const char *text = getenv("KN_SLOW_S");
	struct timespec left = {.tv_sec = text != NULL ? atoi(text) : 30};
	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		continue;
	int (*real)(regex_t *, const char *, int) =
		(int (*)(regex_t *, const char *, int))dlsym(RTLD_NEXT, "regcomp");
	return real != NULL ? real(re, pattern, flags) : REG_ESPACE;
}
