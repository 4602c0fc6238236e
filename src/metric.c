/* SPDX-License-Identifier: Apache-2.0 */
/* metric: the -m names, the fields each adds and the sample layout they make. */
#include "config.h"

#include "metric.h"

#include <errno.h>
#include <string.h>

/* What each field is called and measured in. */
static const struct {
	const char *name, *unit, *description, *column;
} field_info[FIELD_KINDS] = {
	[FIELD_RX] = {"rx", "MiB/s", "Receive rate", "rx_MiB_s"},
	[FIELD_TX] = {"tx", "MiB/s", "Transmit rate", "tx_MiB_s"},
	[FIELD_RX_PACKETS] = {"rx_packets", "packets/s", "Packets received", "rx_packets_s"},
	[FIELD_TX_PACKETS] = {"tx_packets", "packets/s", "Packets transmitted", "tx_packets_s"},
	[FIELD_RX_ERRORS] = {"rx_errors", "errors/s", "Receive errors", "rx_errors_s"},
	[FIELD_TX_ERRORS] = {"tx_errors", "errors/s", "Transmit errors", "tx_errors_s"},
	[FIELD_RX_DROPPED] = {"rx_dropped", "drops/s", "Received packets dropped", "rx_dropped_s"},
	[FIELD_TX_DROPPED] = {"tx_dropped", "drops/s", "Transmit packets dropped", "tx_dropped_s"},
	[FIELD_RX_UTIL] = {"rx_util", "%", "Receive utilization of the link speed", "rx_util_pct"},
	[FIELD_TX_UTIL] = {"tx_util", "%", "Transmit utilization of the link speed", "tx_util_pct"},
};

/* Each metric's name, its rx field (the tx one follows it) and the counters it reads. */
static const struct {
	const char *name;
	enum field_kind rx_field;
	unsigned counters;
} metric_info[METRIC_KINDS] = {
	[METRIC_PACKETS] = {"packets", FIELD_RX_PACKETS,
			    COUNTER_BIT(COUNTER_RX_PACKETS) | COUNTER_BIT(COUNTER_TX_PACKETS)},
	[METRIC_ERRORS] = {"errors", FIELD_RX_ERRORS, COUNTER_BIT(COUNTER_RX_ERRORS) | COUNTER_BIT(COUNTER_TX_ERRORS)},
	[METRIC_DROPS] = {"drops", FIELD_RX_DROPPED,
			  COUNTER_BIT(COUNTER_RX_DROPPED) | COUNTER_BIT(COUNTER_TX_DROPPED)},
	[METRIC_UTIL] = {"util", FIELD_RX_UTIL, 0},
};

void metric_set_init(struct metric_set *set)
{
	*set = (struct metric_set){.fields = {FIELD_RX, FIELD_TX}, .nfields = 2, .counters = COUNTER_BYTES};
}

int metric_set_add(struct metric_set *set, const char *name)
{
	size_t m = 0;
	while (m < METRIC_KINDS && strcmp(name, metric_info[m].name) != 0)
		m++;
	if (m == METRIC_KINDS)
		return -EINVAL;
	for (size_t i = 0; i < set->nchosen; i++)
		if (set->chosen[i] == (enum metric_kind)m)
			return -EEXIST;
	set->chosen[set->nchosen++] = (enum metric_kind)m;
	set->fields[set->nfields++] = metric_info[m].rx_field;
	set->fields[set->nfields++] = metric_info[m].rx_field + 1;
	set->counters |= metric_info[m].counters;
	set->speed |= m == METRIC_UTIL;
	return 0;
}

bool metric_set_extended(const struct metric_set *set)
{
	return set->nchosen > 0;
}

const char *metric_field_name(enum field_kind field)
{
	return field_info[field].name;
}

const char *metric_field_unit(enum field_kind field)
{
	return field_info[field].unit;
}

const char *metric_field_description(enum field_kind field)
{
	return field_info[field].description;
}

const char *metric_field_column(enum field_kind field)
{
	return field_info[field].column;
}
