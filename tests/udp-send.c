/* SPDX-License-Identifier: Apache-2.0 */
/*
 * udp-send: a loopback-only traffic generator for tests/netns.test.
 *
 * Usage: udp-send PORT COUNT SIZE [SPREAD_MS]
 * Binds a receiver to 127.0.0.1:PORT (0: any free port), sends COUNT datagrams of SIZE payload
 * bytes to it from a second socket, spread evenly over SPREAD_MS milliseconds, and receives each
 * one back, so that every datagram crosses lo and none is dropped. Prints the payload bytes sent.
 * Exit status: 0 done, 1 a socket call failed, 2 usage.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define UDP_MAX_PAYLOAD 65507 /* largest UDP payload over IPv4 */
#define RECV_TIMEOUT_S 5      /* a datagram that does not arrive by then is an error */

/* Parse a decimal number in [min, max]; 0 on success, -1 if invalid. */
static int parse_num(const char *text, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end = NULL;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Print a failed call with errno and return exit status 1. */
static int fail(const char *what)
{
	fprintf(stderr, "udp-send: %s: %s\n", what, strerror(errno));
	return 1;
}

/* Bind the receiver to 127.0.0.1:port and connect the sender to it; 0 or -1 (errno set). */
static int open_pair(unsigned port, int *rx, int *tx)
{
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	socklen_t len = sizeof addr;
	struct timeval tv = {.tv_sec = RECV_TIMEOUT_S};
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	*tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (*rx < 0 || *tx < 0 || bind(*rx, (struct sockaddr *)&addr, sizeof addr) != 0 ||
	    getsockname(*rx, (struct sockaddr *)&addr, &len) != 0 ||
	    setsockopt(*rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0)
		return -1;
	return connect(*tx, (struct sockaddr *)&addr, sizeof addr);
}

/* Sleep until start + i * step nanoseconds (CLOCK_MONOTONIC). */
static void pace(const struct timespec *start, unsigned long i, double step_ns)
{
	double at = (double)start->tv_sec * 1e9 + (double)start->tv_nsec + (double)i * step_ns;
	struct timespec ts = {.tv_sec = (time_t)(at / 1e9)};
	ts.tv_nsec = (long)(at - (double)ts.tv_sec * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Send count datagrams of size bytes over spread_ms, receiving each; 0 or an exit status. */
static int send_all(int rx, int tx, unsigned long count, size_t size, unsigned long spread_ms)
{
	static unsigned char out[UDP_MAX_PAYLOAD], in[UDP_MAX_PAYLOAD + 1];
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	double step_ns = count ? (double)spread_ms * 1e6 / (double)count : 0;
	for (unsigned long i = 0; i < count; i++) {
		memset(out, (int)(i & 0xff), size);
		if (send(tx, out, size, 0) != (ssize_t)size)
			return fail("send");
		ssize_t n = recv(rx, in, sizeof in, 0);
		if (n < 0)
			return fail("recv");
		if ((size_t)n != size || memcmp(in, out, size) != 0) {
			fprintf(stderr, "udp-send: datagram %lu came back altered\n", i);
			return 1;
		}
		pace(&start, i + 1, step_ns);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long port, count, size, spread = 0;
	if ((argc != 4 && argc != 5) || parse_num(argv[1], 0, 65535, &port) != 0 ||
	    parse_num(argv[2], 0, 100000000, &count) != 0 || parse_num(argv[3], 1, UDP_MAX_PAYLOAD, &size) != 0 ||
	    (argc == 5 && parse_num(argv[4], 0, 3600000, &spread) != 0)) {
		fprintf(stderr, "Usage: udp-send PORT COUNT SIZE [SPREAD_MS]  (SIZE 1..%d)\n", UDP_MAX_PAYLOAD);
		return 2;
	}
	int rx = -1, tx = -1;
	int status = open_pair((unsigned)port, &rx, &tx) != 0 ? fail("socket setup on 127.0.0.1")
							      : send_all(rx, tx, count, size, spread);
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
	if (status == 0)
		printf("%lu\n", count * size);
	return status;
}
