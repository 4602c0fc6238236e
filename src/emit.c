/* SPDX-License-Identifier: Apache-2.0 */
/* emit: the NVTX side: the "KvikIO NIC" domain, the payload schema, counter groups, samples. */
#include "config.h"

#include "emit.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>

/* The payload layout must be what the schema below says it is. */
_Static_assert(offsetof(struct rate, rx) == 0 && offsetof(struct rate, tx) == 8 &&
		       sizeof(struct rate) == 16,
	       "struct rate must be two packed doubles, rx then tx");

static nvtxDomainHandle_t domain;

static const nvtxPayloadSchemaEntry_t schema_entries[] = {
	{.type = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, .name = "rx", .description = "Receive rate",
	 .offset = offsetof(struct rate, rx)},
	{.type = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, .name = "tx", .description = "Transmit rate",
	 .offset = offsetof(struct rate, tx)},
};

/* Counter semantics shared by every group: MiB/s, unscaled. */
static const nvtxSemanticsCounter_t counter_semantics = {
	.header = {.structSize = sizeof(nvtxSemanticsCounter_t),
		   .semanticId = NVTX_SEMANTIC_ID_COUNTERS_V1,
		   .version = NVTX_COUNTER_SEMANTIC_VERSION},
	.flags = NVTX_COUNTER_FLAGS_NONE,
	.unit = EMIT_UNIT,
	.unitScaleNumerator = 1,
	.unitScaleDenominator = 1,
	.limitType = NVTX_COUNTER_LIMIT_UNDEFINED,
};

void emit_init(void)
{
	domain = nvtxDomainCreateA(EMIT_DOMAIN_NAME);
}

/* Register the payload schema of one group, named EMIT_SCHEMA_NAME ": " group, so that an export
 * that names counter groups after their schema (nsys 2025.3's SQLite) still says whose samples
 * are whose; the layout is the same for every group. Returns its id. */
static uint64_t register_schema(const char *group)
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
		.entries = schema_entries,
		.numEntries = sizeof schema_entries / sizeof schema_entries[0],
		.payloadStaticSize = sizeof(struct rate),
	};
	return nvtxPayloadSchemaRegister(domain, &attr);
}

uint64_t emit_register_group(const char *name)
{
	const nvtxCounterAttr_t attr = {
		.structSize = sizeof(nvtxCounterAttr_t),
		.schemaId = register_schema(name),
		.name = name,
		.scopeId = NVTX_SCOPE_CURRENT_VM,
		.semantics = &counter_semantics.header,
	};
	return nvtxCounterRegister(domain, &attr);
}

void emit_sample(uint64_t group, const struct rate *rate)
{
	nvtxCounterSample(domain, group, rate, sizeof *rate);
}

void emit_no_value(uint64_t group)
{
	/* Not nvtxCounterSampleNoValue(): nsys 2025.3 exports it as an ordinary sample of (almost)
	 * zero, a fake value, while NaN is stored as SQL NULL. */
	static const struct rate none = {NAN, NAN};
	nvtxCounterSample(domain, group, &none, sizeof none);
}
