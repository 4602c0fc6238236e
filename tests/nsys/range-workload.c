/* SPDX-License-Identifier: Apache-2.0 */
/*
 * range-workload: an NVTX-annotated program that sends known loopback traffic inside named
 * ranges and prints the kernel's byte counts for each range, so that a report recorded with
 * kvikio_nic can be checked against the kernel.  Not built by make; see README.md here.
 *
 *   cc -std=c11 -O2 -I/usr/local/cuda/include -o range-workload range-workload.c -ldl
 *   range-workload [-e EPOCHS] [-m MIB_PER_BATCH]
 *
 * Per epoch (an NVTX start/end range "epoch"): a push/pop range "load batch" of 400 ms that
 * sends MIB_PER_BATCH MiB evenly over UDP to 127.0.0.1, with a nested range "decode" over its
 * middle 200 ms; "checkpoint" (300 ms, a quarter of that); "idle" (300 ms, nothing).
 * Output, one line per range on stdout, after the run:
 *   range TAB name TAB lo rx bytes TAB lo tx bytes
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <nvtx3/nvToolsExt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DATAGRAM 60000
#define MAX_RANGES 256

struct record {
	const char *name;
	unsigned long long rx0, tx0, rx1, tx1;
};

static struct record records[MAX_RANGES];
static size_t nrecords;
static int sock = -1;
static struct sockaddr_in self;

/* Read one statistics counter of lo; exits on failure. */
static unsigned long long lo_counter(const char *which)
{
	char path[128];
	snprintf(path, sizeof path, "/sys/class/net/lo/statistics/%s", which);
	FILE *f = fopen(path, "r");
	unsigned long long v = 0;
	if (!f || fscanf(f, "%llu", &v) != 1) {
		fprintf(stderr, "range-workload: cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return v;
}

/* Start recording range NAME's kernel counters; returns its record. */
static struct record *record_open(const char *name)
{
	if (nrecords == MAX_RANGES) {
		fprintf(stderr, "range-workload: too many ranges\n");
		exit(1);
	}
	struct record *r = &records[nrecords++];
	r->name = name;
	r->rx0 = lo_counter("rx_bytes");
	r->tx0 = lo_counter("tx_bytes");
	return r;
}

/* Finish recording range R. */
static void record_close(struct record *r)
{
	r->rx1 = lo_counter("rx_bytes");
	r->tx1 = lo_counter("tx_bytes");
}

/* Monotonic time in ns. */
static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Sleep until monotonic time T (ns). */
static void sleep_until(int64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000, .tv_nsec = t % 1000000000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Send BYTES to ourselves evenly over MS milliseconds starting at T0; returns the end time. */
static int64_t send_evenly(int64_t t0, long long bytes, int ms)
{
	static char buf[DATAGRAM], sink[DATAGRAM];
	long long sent = 0;
	for (int step = 1; step <= ms; step++) {
		long long due = bytes * step / ms;
		while (sent + DATAGRAM <= due) {
			if (sendto(sock, buf, DATAGRAM, 0, (struct sockaddr *)&self, sizeof self) < 0) {
				perror("range-workload: sendto");
				exit(1);
			}
			while (recv(sock, sink, sizeof sink, MSG_DONTWAIT) > 0)
				;
			sent += DATAGRAM;
		}
		sleep_until(t0 + (int64_t)step * 1000000);
	}
	return t0 + (int64_t)ms * 1000000;
}

/* One "load batch" with its nested "decode", sending MIB MiB. */
static int64_t load_batch(int64_t t, long long bytes)
{
	nvtxRangePushA("load batch");
	struct record *batch = record_open("load batch");
	t = send_evenly(t, bytes / 4, 100);
	nvtxRangePushA("decode");
	struct record *decode = record_open("decode");
	t = send_evenly(t, bytes / 2, 200);
	record_close(decode);
	nvtxRangePop();
	t = send_evenly(t, bytes - bytes / 4 - bytes / 2, 100);
	record_close(batch);
	nvtxRangePop();
	return t;
}

/* A push/pop range NAME of MS milliseconds sending BYTES. */
static int64_t plain_range(int64_t t, const char *name, long long bytes, int ms)
{
	nvtxRangePushA(name);
	struct record *r = record_open(name);
	t = bytes > 0 ? send_evenly(t, bytes, ms) : (sleep_until(t + (int64_t)ms * 1000000), t + (int64_t)ms * 1000000);
	record_close(r);
	nvtxRangePop();
	return t;
}

int main(int argc, char **argv)
{
	int epochs = 3, opt;
	long long mib = 40;
	while ((opt = getopt(argc, argv, "e:m:")) != -1) {
		if (opt == 'e')
			epochs = atoi(optarg);
		else if (opt == 'm')
			mib = atoll(optarg);
		else {
			fprintf(stderr, "usage: range-workload [-e EPOCHS] [-m MIB_PER_BATCH]\n");
			return 2;
		}
	}
	sock = socket(AF_INET, SOCK_DGRAM, 0);
	self.sin_family = AF_INET;
	self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int big = 1 << 22;
	setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	if (sock < 0 || bind(sock, (struct sockaddr *)&self, sizeof self) < 0) {
		perror("range-workload: socket");
		return 1;
	}
	socklen_t len = sizeof self;
	getsockname(sock, (struct sockaddr *)&self, &len);
	sleep_until(now_ns() + 300000000); /* let the plugin take a few samples first */
	int64_t t = now_ns();
	long long bytes = mib << 20;
	for (int e = 0; e < epochs; e++) {
		nvtxRangeId_t id = nvtxRangeStartA("epoch");
		struct record *r = record_open("epoch");
		t = load_batch(t, bytes);
		t = plain_range(t, "checkpoint", bytes / 4, 300);
		t = plain_range(t, "idle", 0, 300);
		record_close(r);
		nvtxRangeEnd(id);
	}
	sleep_until(t + 300000000);
	for (size_t i = 0; i < nrecords; i++)
		printf("range\t%s\t%llu\t%llu\n", records[i].name, records[i].rx1 - records[i].rx0,
		       records[i].tx1 - records[i].tx0);
	return 0;
}
