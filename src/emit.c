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
	nvtxPayloadSchemaEntry_t entries[METRIC_FIELDS_MAX]; /* with -m */
	nvtxSemanticsCounter_t units[METRIC_FIELDS_MAX];
} layout = {
	.fields = {FIELD_RX, FIELD_TX},
	.nfields = 2, /* without -m the entries are bytes_entries */
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

/* The schema entries of release 0.1: rx and tx, no semantics of their own. */
static const nvtxPayloadSchemaEntry_t bytes_entries[2] = {
	{.type = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, .name = "rx", .description = "Receive rate", .offset = 0},
	{.type = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, .name = "tx", .description = "Transmit rate", .offset = 8},
};

/* Register the payload schema of one group, named EMIT_SCHEMA_NAME ": " group, so that an export
 * that names counter groups after their schema (nsys 2025.3's SQLite) still says whose samples
 * are whose; its nentries entries. Returns its id. */
static uint64_t register_schema(const char *group, const nvtxPayloadSchemaEntry_t *entries, size_t nentries)
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
		.entries = entries,
		.numEntries = nentries,
		.payloadStaticSize = nentries * sizeof(double),
	};
	return nvtxPayloadSchemaRegister(domain, &attr);
}

/* Register counter group name on schema, with MiB/s group semantics or (per_entry_units) none. */
static uint64_t register_group(const char *name, uint64_t schema, bool per_entry_units)
{
	static nvtxSemanticsCounter_t group_semantics;
	group_semantics = unit_semantics(EMIT_UNIT);
	const nvtxCounterAttr_t attr = {
		.structSize = sizeof(nvtxCounterAttr_t),
		.schemaId = schema,
		.name = name,
		.scopeId = NVTX_SCOPE_CURRENT_VM,
		.semantics = per_entry_units ? NULL : &group_semantics.header,
	};
	return nvtxCounterRegister(domain, &attr);
}

uint64_t emit_register_group(const char *name)
{
	if (!layout.per_entry_units)
		return emit_register_bytes_group(name);
	return register_group(name, register_schema(name, layout.entries, layout.nfields), true);
}

uint64_t emit_register_bytes_group(const char *name)
{
	return register_group(name, register_schema(name, bytes_entries, 2), false);
}

void emit_bytes_sample(uint64_t group, const struct rate *rate)
{
	const double p[2] = {rate != NULL ? rate->field[FIELD_RX] : NAN, rate != NULL ? rate->field[FIELD_TX] : NAN};
	nvtxCounterSample(domain, group, p, sizeof p);
}

void emit_sample(uint64_t group, const struct rate *rate)
{
	struct payload p;
	for (size_t i = 0; i < layout.nfields; i++)
		p.value[i] = rate->field[layout.fields[i]];
	nvtxCounterSample(domain, group, &p, layout.nfields * sizeof(double));
}

void emit_no_value(uint64_t group)
{
	/* Not nvtxCounterSampleNoValue(): nsys 2025.3 exports it as an ordinary sample of (almost)
	 * zero, a fake value, while NaN is stored as SQL NULL. */
	struct payload p;
	for (size_t i = 0; i < layout.nfields; i++)
		p.value[i] = NAN;
	nvtxCounterSample(domain, group, &p, layout.nfields * sizeof(double));
}
