/* SPDX-License-Identifier: Apache-2.0 */
/* emit: the NVTX side: the "KvikIO NIC" domain, the payload schema, counter groups, samples. */
#include "config.h"

#include "emit.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>

static nvtxDomainHandle_t domain;

/* The payload: the configured fields as packed doubles, field i at offset 8 * i. */
struct payload {
	double value[METRIC_FIELDS_MAX];
};

/* What every group's schema and samples carry (emit_configure()); rx and tx by default. */
static struct {
	enum field_kind fields[METRIC_FIELDS_MAX];
	size_t nfields;
	bool per_entry_units; /* -m given: the units are on the entries, not the group */
	nvtxPayloadSchemaEntry_t entries[METRIC_FIELDS_MAX];
	nvtxSemanticsCounter_t units[METRIC_FIELDS_MAX];
} layout = {
	.fields = {FIELD_RX, FIELD_TX},
	.nfields = 2,
	.entries = {
		{.type = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, .name = "rx", .description = "Receive rate", .offset = 0},
		{.type = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, .name = "tx", .description = "Transmit rate", .offset = 8},
	},
};

/* Counter semantics in unit, unscaled. */
static nvtxSemanticsCounter_t unit_semantics(const char *unit)
{
	return (nvtxSemanticsCounter_t){
		.header = {.structSize = sizeof(nvtxSemanticsCounter_t),
			   .semanticId = NVTX_SEMANTIC_ID_COUNTERS_V1,
			   .version = NVTX_COUNTER_SEMANTIC_VERSION},
		.flags = NVTX_COUNTER_FLAGS_NONE,
		.unit = unit,
		.unitScaleNumerator = 1,
		.unitScaleDenominator = 1,
		.limitType = NVTX_COUNTER_LIMIT_UNDEFINED,
	};
}

void emit_init(void)
{
	domain = nvtxDomainCreateA(EMIT_DOMAIN_NAME);
}

void emit_configure(const struct metric_set *set)
{
	layout.nfields = set->nfields;
	layout.per_entry_units = metric_set_extended(set);
	for (size_t i = 0; i < set->nfields; i++) {
		enum field_kind f = set->fields[i];
		layout.fields[i] = f;
		layout.units[i] = unit_semantics(metric_field_unit(f));
		layout.entries[i] = (nvtxPayloadSchemaEntry_t){
			.type = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE,
			.name = metric_field_name(f),
			.description = metric_field_description(f),
			.offset = offsetof(struct payload, value) + i * sizeof(double),
			.semantics = layout.per_entry_units ? &layout.units[i].header : NULL,
		};
	}
}

/* Register the payload schema of one group, named EMIT_SCHEMA_NAME ": " group, so that an export
 * that names counter groups after their schema (nsys 2025.3's SQLite) still says whose samples
 * are whose; the layout is the first nfields of the configured fields. Returns its id. */
static uint64_t register_schema(const char *group, size_t nfields)
{
	char name[sizeof EMIT_SCHEMA_NAME + 2 + EMIT_GROUP_NAME_MAX];
	snprintf(name, sizeof name, "%s: %s", EMIT_SCHEMA_NAME, group);
	const nvtxPayloadSchemaAttr_t attr = {
		.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE |
			     NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
			     NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
			     NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE,
		.name = name,
		.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC,
		.flags = NVTX_PAYLOAD_SCHEMA_FLAG_COUNTER_GROUP,
		.entries = layout.entries,
		.numEntries = nfields,
		.payloadStaticSize = nfields * sizeof(double),
	};
	return nvtxPayloadSchemaRegister(domain, &attr);
}

/* Register a counter group named name with a schema of its own of the first nfields fields. */
static uint64_t register_group(const char *name, size_t nfields)
{
	static nvtxSemanticsCounter_t group_semantics;
	group_semantics = unit_semantics(EMIT_UNIT);
	const nvtxCounterAttr_t attr = {
		.structSize = sizeof(nvtxCounterAttr_t),
		.schemaId = register_schema(name, nfields),
		.name = name,
		.scopeId = NVTX_SCOPE_CURRENT_VM,
		.semantics = layout.per_entry_units ? NULL : &group_semantics.header,
	};
	return nvtxCounterRegister(domain, &attr);
}

uint64_t emit_register_group(const char *name)
{
	return register_group(name, layout.nfields);
}

uint64_t emit_register_rx_tx_group(const char *name)
{
	return register_group(name, 2); /* every layout starts with rx, tx */
}

/* Emit the first nfields configured fields of rate (NULL: NaN in each) for group. */
static void sample(uint64_t group, const struct rate *rate, size_t nfields)
{
	/* No value is NaN, not nvtxCounterSampleNoValue(): nsys 2025.3 exports that as an ordinary
	 * sample of (almost) zero, a fake value, while NaN is stored as SQL NULL. */
	struct payload p;
	for (size_t i = 0; i < nfields; i++)
		p.value[i] = rate != NULL ? rate->field[layout.fields[i]] : NAN;
	nvtxCounterSample(domain, group, &p, nfields * sizeof(double));
}

void emit_sample(uint64_t group, const struct rate *rate)
{
	sample(group, rate, layout.nfields);
}

void emit_no_value(uint64_t group)
{
	sample(group, NULL, layout.nfields);
}

void emit_sample_rx_tx(uint64_t group, const struct rate *rate)
{
	sample(group, rate, 2);
}

void emit_no_value_rx_tx(uint64_t group)
{
	sample(group, NULL, 2);
}
