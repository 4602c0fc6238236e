/* SPDX-License-Identifier: Apache-2.0 */
/* report-gen: write a synthetic nsys 2025.3.1-shaped export for tests/report.test and the
 * benchmark (bench/report.sh).
 *   report-gen FILE good [HOST]     groups eth0, total; 20 samples 100 ms apart; ranges
 *   report-gen FILE nodomain        the same without the 'KvikIO NIC' domain
 *   report-gen FILE mixed           what the definitions must get right: no-value samples (NULL,
 *                                   subnormal, half), a gap, 2500 intervals that change after
 *                                   1000, a shared-schema group, ranges nested and mid-sample
 *   report-gen FILE extra [HOST [UTIL]]  kvikio_nic -m packets -m util -m errors -m drops:
 *                                   groups eth0 (an unknown field among them, NULLs), lo (util
 *                                   unknown: NULL throughout), mlx5_0:1 (rx, tx only), total;
 *                                   5 samples 100 ms apart; ranges ckpt, all; UTIL (not 0): eth0's
 *                                   rx_util is UTIL throughout
 *   report-gen FILE extramix        the mixed export's hard cases for the extra fields: every
 *                                   metric, NULLs per field, no-value rx/tx, a gap, 2500
 *                                   intervals, util unknown, an RDMA port, ranges
 *   report-gen FILE bench SAMPLES GROUPS HZ RANGES   SAMPLES in all, round-robin over GROUPS */
#include "config.h"

#include "report-export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS INT64_C(1000000)

/* The small export: eth0 at rx 10 MiB/s, tx 5; total the same; ranges "load" and "idle". */
static void small(const char *path, bool domain, const char *host)
{
	struct fx fx;
	fx_open(&fx, path, domain, host);
	int64_t eth0 = fx_type(&fx, "NIC bandwidth: eth0", "rx", "tx");
	int64_t total = fx_type(&fx, "NIC bandwidth: total", "rx", "tx");
	for (int i = 0; i < 20; i++) {
		fx_sample(&fx, eth0, (1000 + 100 * i) * MS, 10, 5);
		fx_sample(&fx, total, (1000 + 100 * i) * MS + 1000, 10, 5);
	}
	fx_range(&fx, "load", 1000 * MS, 1500 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "load", 2000 * MS, 2500 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "idle", 1500 * MS, 2000 * MS, FX_STARTEND, true);
	fx_close(&fx);
}

/* The time of the mixed exports' sample after sample i at t: 2 ms apart, 3 after 1000, jitter,
 * and a 400 ms gap after sample 700. */
static int64_t mixed_next(int i, int64_t t)
{
	return t + (i < 1000 ? 2 : 3) * MS + (i % 5) * 1000 + (i == 700 ? 400 * MS : 0);
}

/* The ranges the mixed exports share: outer, inner (mid-sample, and 5 ns long), gap. */
static void mixed_ranges(struct fx *fx)
{
	fx_range(fx, "outer", 400 * MS, 4000 * MS, FX_STARTEND, true);
	fx_range(fx, "inner", 1001 * MS + 123456, 1777 * MS, FX_PUSHPOP, false);
	fx_range(fx, "inner", 2500 * MS, 2500 * MS + 5, FX_PUSHPOP, false);
	fx_range(fx, "gap", 1800 * MS, 2300 * MS, FX_PUSHPOP, false);
}

/* The mixed export: see the usage above. */
static void mixed(const char *path)
{
	struct fx fx;
	fx_open(&fx, path, true, "node-m");
	int64_t a = fx_type(&fx, "NIC bandwidth: a", "rx", "tx");
	int64_t b = fx_type(&fx, "NIC bandwidth", "rx", "tx");
	int64_t t = 500 * MS;
	for (int i = 0; i < 2500; i++) {
		double rx = (i * 37) % 101 / 4.0, tx = (i * 11) % 7;
		if (i % 97 == 5)
			rx = tx = NAN;
		else if (i % 89 == 7)
			rx = 9.88e-324, tx = 0;
		else if (i % 83 == 9)
			tx = NAN;
		fx_sample(&fx, a, t, rx, tx);
		if (i % 3 == 0)
			fx_sample(&fx, b, t + 777, tx, rx);
		t = mixed_next(i, t);
	}
	mixed_ranges(&fx);
	fx_range(&fx, "late", 4000 * MS, 9000 * MS, FX_STARTEND, false);
	fx_close(&fx);
}

/* The extra export: see the usage above. Fields of lo and total (the plugin's order for -m
 * packets -m util -m errors -m drops): rx, tx, rx_packets, tx_packets, rx_util, tx_util,
 * rx_errors, tx_errors, rx_dropped, tx_dropped; eth0 has rx_frobs after tx_packets. */
static void extra(const char *path, const char *host, double util)
{
	static const char *const ours[] = {"rx", "tx", "rx_packets", "tx_packets", "rx_util", "tx_util",
		"rx_errors", "tx_errors", "rx_dropped", "tx_dropped"};
	static const char *const eth0_fields[] = {"rx", "tx", "rx_packets", "tx_packets", "rx_frobs",
		"rx_util", "tx_util", "rx_errors", "tx_errors", "rx_dropped", "tx_dropped"};
	static const char *const rdma_fields[] = {"rx", "tx"};
	struct fx fx;
	fx_open(&fx, path, true, host);
	int64_t eth0 = fx_type_fields(&fx, "NIC bandwidth: eth0", eth0_fields, 11);
	int64_t lo = fx_type_fields(&fx, "NIC bandwidth: lo", ours, 10);
	int64_t rdma = fx_type_fields(&fx, "NIC bandwidth: mlx5_0:1", rdma_fields, 2);
	int64_t total = fx_type_fields(&fx, "NIC bandwidth: total", ours, 10);
	for (int i = 0; i < 5; i++) {
		int64_t t = (1000 + 100 * i) * MS;
		double rxp = i == 2 ? NAN : 100.0 * (i + 1), rxu = i == 4 ? NAN : 10.0 * (i + 1);
		if (util != 0)
			rxu = util;
		double e[11] = {i == 3 ? NAN : 10, 5, rxp, 10, 7, rxu, i + 1.0, i == 4 ? 10 : 0, 0, NAN, 20};
		double l[10] = {1, 1, 50, 50, NAN, NAN, 0, 0, 0, 0};
		double r[2] = {100, 200};
		double tot[10] = {e[0] + l[0], e[1] + l[1], e[2] + l[2], e[3] + l[3], e[5], e[6],
			e[7] + l[6], e[8] + l[7], NAN, e[10] + l[9]};
		fx_sample_fields(&fx, eth0, t, e, 11);
		fx_sample_fields(&fx, lo, t + 1000, l, 10);
		fx_sample_fields(&fx, rdma, t + 2000, r, 2);
		fx_sample_fields(&fx, total, t + 3000, tot, 10);
	}
	fx_range(&fx, "ckpt", 1150 * MS, 1350 * MS, FX_PUSHPOP, false);
	fx_range(&fx, "all", 900 * MS, 1500 * MS, FX_STARTEND, true);
	fx_close(&fx);
}

/* One field value of sample i of the extramix export: a sawtooth per field k, NaN now and then. */
static double extramix_value(int i, int k)
{
	if ((i + 3 * k) % (29 + k) == 0)
		return NAN;
	if (k >= 8) /* util: a percentage */
		return (double)((i * (k + 3)) % 1001) / 10.0;
	return (double)((i * (2 * k + 5)) % (50 + 10 * k)) * (k % 2 ? 3.5 : 1.0);
}

/* The extramix export: see the usage above. */
static void extramix(const char *path)
{
	static const char *const all[] = {"rx", "tx", "rx_util", "tx_util", "rx_packets", "tx_packets",
		"rx_dropped", "tx_dropped", "rx_bogus", "rx_errors", "tx_errors"};
	static const int all_k[] = {0, 1, 8, 9, 2, 3, 6, 7, 10, 4, 5}; /* extramix_value's k */
	static const char *const packets[] = {"rx", "tx", "rx_packets", "tx_packets"};
	static const char *const util[] = {"rx", "tx", "rx_util", "tx_util"};
	struct fx fx;
	fx_open(&fx, path, true, "node-e");
	int64_t a = fx_type_fields(&fx, "NIC bandwidth: a", all, 11);
	int64_t b = fx_type_fields(&fx, "NIC bandwidth", packets, 4);
	int64_t c = fx_type_fields(&fx, "NIC bandwidth: c", util, 4);
	int64_t r = fx_type(&fx, "NIC bandwidth: mlx5_0:1", "rx", "tx");
	int64_t t = 500 * MS;
	for (int i = 0; i < 2500; i++) {
		double va[11], vb[4], vc[4] = {i % 5, 1, NAN, NAN};
		for (int f = 0; f < 11; f++)
			va[f] = extramix_value(i, all_k[f]);
		if (i % 89 == 7)
			va[0] = 9.88e-324, va[1] = 0; /* NoValue of older reports */
		for (int f = 0; f < 4; f++)
			vb[f] = extramix_value(i + 11, f);
		fx_sample_fields(&fx, a, t, va, 11);
		if (i % 3 == 0)
			fx_sample_fields(&fx, b, t + 777, vb, 4);
		fx_sample_fields(&fx, c, t + 1234, vc, 4);
		if (i < 2000)
			fx_sample(&fx, r, t + 4321, va[0], va[1]);
		t = mixed_next(i, t);
	}
	mixed_ranges(&fx);
	fx_range(&fx, "head", 490 * MS, 501 * MS, FX_PUSHPOP, false);
	fx_close(&fx);
}

/* The benchmark's export: n samples over g groups at hz, r ranges spread over the time. */
static void bench(const char *path, long n, long g, long hz, long r)
{
	struct fx fx;
	fx_open(&fx, path, true, "bench");
	int64_t types[64];
	for (long k = 0; k < g && k < 64; k++) {
		char name[64];
		snprintf(name, sizeof name, "NIC bandwidth: if%ld", k);
		types[k] = fx_type(&fx, name, "rx", "tx");
	}
	int64_t period = 1000000000 / hz, ticks = n / g;
	for (int64_t i = 0; i < ticks; i++)
		for (long k = 0; k < g; k++)
			fx_sample(&fx, types[k], 1000 * MS + i * period + k * 1000,
				  (double)((i * 7 + k) % 1000), (double)((i * 13 + k) % 500));
	int64_t span = ticks * period, step = span / (r > 0 ? r : 1);
	for (long k = 0; k < r; k++) {
		static const char *const names[] = {"epoch", "load batch", "checkpoint", "decode"};
		fx_range(&fx, names[k % 4], 1000 * MS + k * step, 1000 * MS + k * step + step * 3 / 4,
			 k % 2 ? FX_PUSHPOP : FX_STARTEND, false);
	}
	fx_close(&fx);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[2], "good") == 0)
		small(argv[1], true, argc > 3 ? argv[3] : "node-a");
	else if (argc == 3 && strcmp(argv[2], "nodomain") == 0)
		small(argv[1], false, "node-a");
	else if (argc == 3 && strcmp(argv[2], "mixed") == 0)
		mixed(argv[1]);
	else if (argc >= 3 && argc <= 5 && strcmp(argv[2], "extra") == 0)
		extra(argv[1], argc > 3 ? argv[3] : "node-x", argc > 4 ? atof(argv[4]) : 0);
	else if (argc == 3 && strcmp(argv[2], "extramix") == 0)
		extramix(argv[1]);
	else if (argc == 7 && strcmp(argv[2], "bench") == 0)
		bench(argv[1], atol(argv[3]), atol(argv[4]), atol(argv[5]), atol(argv[6]));
	else {
		fputs("usage: report-gen FILE good [HOST] | nodomain | mixed | extra [HOST [UTIL]] | extramix |\n"
		      "       bench SAMPLES GROUPS HZ RANGES\n",
		      stderr);
		return 2;
	}
	return 0;
}
