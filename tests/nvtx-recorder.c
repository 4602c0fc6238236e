/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nvtx-recorder.c - test-only NVTX v3 injection library.
 *
 * Load it into any NVTX-instrumented program with
 *   NVTX_INJECTION64_PATH=/path/to/nvtx-recorder.so KN_NVTX_LOG=/path/to/log prog
 * and every hooked NVTX call appends one line to the log (one write(2) per line,
 * O_APPEND).  A line is TAB-separated: the event name, then t=<CLOCK_MONOTONIC ns>,
 * then key=value fields.  In keys and values, backslash, TAB, LF, CR and other
 * control bytes are escaped as \\ \t \n \r \xHH; '=' inside a key is written \x3d.
 * tests/recorder-log.c parses the result.
 *
 * Hooked: core2 nvtxDomainCreateA/W and nvtxDomainDestroy; payload extension
 * nvtxPayloadSchemaRegister and nvtxPayloadEnumRegister; counters extension
 * nvtxCounterRegister, nvtxCounterSample{Int64,Float64,,NoValue} and
 * nvtxCounterBatchSubmit.  Without KN_NVTX_LOG nothing is written, but the hooks
 * still run and return ids, so the instrumented program behaves the same.
 */
#if defined(HAVE_CONFIG_H)
#include <config.h>
#endif
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>

#define REC_EXPORT __attribute__((visibility("default")))

/* Longest line the recorder writes; longer lines are cut at a field boundary. */
#define REC_LINE_BYTES 8192
/* Room kept free at the end of a line for "\ttruncated=1\n". */
#define REC_LINE_RESERVE 16
/* Longest semantics list walked (guards against cycles). */
#define REC_MAX_SEMANTICS 64

/* The NVTX domain handle type is an incomplete struct; the recorder completes it. */
struct nvtxDomainRegistration_st {
    uint64_t id;
};

/* One schema entry, as needed to decode samples. */
struct rec_entry {
    uint64_t type;
    uint64_t flags;
    uint64_t offset; /* effective offset (natural alignment when the caller left it 0) */
    uint64_t size;   /* bytes of the entry; 0 when unknown */
    uint64_t span;   /* bytes to dump when the type cannot be decoded */
    uint64_t detail; /* arrayOrUnionDetail as given */
    char *name;
};

/* A registered payload schema (or enum, with no entries kept). */
struct rec_schema {
    uint64_t domain;
    uint64_t id;
    uint64_t static_size; /* effective static size */
    size_t nentries;
    struct rec_entry *entries;
};

/* A registered counter (group). */
struct rec_counter {
    uint64_t domain;
    uint64_t id;
    uint64_t schema;
};

/* All recorder state, guarded by lock. */
static struct {
    pthread_mutex_t lock;
    bool log_checked;
    int fd;
    struct nvtxDomainRegistration_st **domains;
    size_t ndomains, capdomains;
    struct rec_schema *schemas;
    size_t nschemas, capschemas;
    struct rec_counter *counters;
    size_t ncounters, capcounters;
    uint64_t next_domain;
    uint64_t next_schema;
    uint64_t next_counter;
} g = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .fd = -1,
    .next_domain = 1,
    .next_schema = NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START,
    .next_counter = 1,
};

/* A log line being built in a fixed buffer (no allocation). */
struct line {
    size_t len;
    bool overflow;
    char buf[REC_LINE_BYTES];
};

/* ------------------------------------------------------------------ log file */

/* Opens the log named by KN_NVTX_LOG once; caller holds g.lock. */
static void log_open_locked(void)
{
    const char *path;

    if (g.log_checked)
        return;
    g.log_checked = true;
    path = getenv("KN_NVTX_LOG");
    if (!path || !*path)
        return;
    g.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (g.fd < 0)
        fprintf(stderr, "nvtx-recorder: cannot open %s: %s\n", path, strerror(errno));
}

/* Returns CLOCK_MONOTONIC in nanoseconds. */
static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------- line builder */

/* Usable capacity of a line, leaving room for the truncation marker. */
static size_t line_cap(void)
{
    return REC_LINE_BYTES - REC_LINE_RESERVE;
}

/* Appends n raw bytes; returns false (and marks overflow) when they do not fit. */
static bool line_bytes(struct line *l, const char *s, size_t n)
{
    if (l->overflow || n > line_cap() - l->len) {
        l->overflow = true;
        return false;
    }
    memcpy(l->buf + l->len, s, n);
    l->len += n;
    return true;
}

/* Appends printf-formatted text; on overflow nothing is appended. */
static bool line_printf(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends printf-formatted text; on overflow nothing is appended. */
static bool line_printf(struct line *l, const char *fmt, ...)
{
    va_list ap;
    int n;
    size_t room;

    if (l->overflow)
        return false;
    room = line_cap() - l->len;
    va_start(ap, fmt);
    n = vsnprintf(l->buf + l->len, room + 1, fmt, ap); /* room + 1 <= free bytes: RESERVE >= 1 */
    va_end(ap);
    if (n < 0 || (size_t)n > room) {
        l->overflow = true;
        return false;
    }
    l->len += (size_t)n;
    return true;
}

/* Appends s escaped (\\ \t \n \r \xHH; also '=' when is_key); false on overflow. */
static bool line_escaped(struct line *l, const char *s, bool is_key)
{
    static const char hex[] = "0123456789abcdef";

    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[4] = { '\\', 0, 0, 0 };
        size_t n = 2;

        switch (c) {
        case '\\': esc[1] = '\\'; break;
        case '\t': esc[1] = 't'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        default:
            if (c < 0x20 || c == 0x7f || (is_key && c == '=')) {
                esc[1] = 'x';
                esc[2] = hex[c >> 4];
                esc[3] = hex[c & 15];
                n = 4;
            } else {
                esc[0] = (char)c;
                n = 1;
            }
        }
        if (!line_bytes(l, esc, n))
            return false;
    }
    return true;
}

/* Starts a line: event name and t=<now>. */
static void line_start(struct line *l, const char *event)
{
    l->len = 0;
    l->overflow = false;
    line_printf(l, "%s\tt=%" PRIu64, event, now_ns());
}

/* Appends \tkey=<escaped value>; the field is dropped whole if it does not fit. */
static void line_str(struct line *l, const char *key, const char *value)
{
    size_t mark = l->len;

    if (!line_printf(l, "\t%s=", key) || !line_escaped(l, value, false)) {
        l->len = mark;
        l->overflow = true;
    }
}

/* Appends \tkey=<unsigned decimal>. */
static void line_u64(struct line *l, const char *key, uint64_t v)
{
    line_printf(l, "\t%s=%" PRIu64, key, v);
}

/* Appends \t<escaped key>=; returns the mark to roll back to, or SIZE_MAX on overflow. */
static size_t line_key(struct line *l, const char *prefix, const char *key)
{
    size_t mark = l->len;

    if (!line_bytes(l, "\t", 1) || !line_escaped(l, prefix, true) || !line_escaped(l, key, true)
        || !line_bytes(l, "=", 1)) {
        l->len = mark;
        l->overflow = true;
        return SIZE_MAX;
    }
    return mark;
}

/* Appends n bytes as lowercase hex (no prefix); false on overflow. */
static bool line_hex(struct line *l, const unsigned char *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";

    for (size_t i = 0; i < n; i++) {
        char two[2] = { hex[p[i] >> 4], hex[p[i] & 15] };

        if (!line_bytes(l, two, 2))
            return false;
    }
    return true;
}

/* Writes the line (plus "\ttruncated=1" when cut) with one write(2); caller holds g.lock. */
static void line_emit(struct line *l)
{
    static const char trunc[] = "\ttruncated=1";
    size_t off = 0;

    if (g.fd < 0)
        return;
    if (l->overflow) {
        memcpy(l->buf + l->len, trunc, sizeof trunc - 1);
        l->len += sizeof trunc - 1;
    }
    l->buf[l->len++] = '\n';
    while (off < l->len) {
        ssize_t n = write(g.fd, l->buf + off, l->len - off);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        off += (size_t)n;
    }
}

/* ------------------------------------------------------------------ domains */

/* Finds the id of a domain handle (NULL is the default domain, id 0). */
static bool domain_id_locked(nvtxDomainHandle_t h, uint64_t *id)
{
    if (!h) {
        *id = 0;
        return true;
    }
    for (size_t i = 0; i < g.ndomains; i++) {
        if (g.domains[i] == h) {
            *id = h->id;
            return true;
        }
    }
    return false;
}

/* Appends \tdomain=<id> (or domain=invalid for an unknown handle); returns the id or UINT64_MAX. */
static uint64_t line_domain(struct line *l, nvtxDomainHandle_t h)
{
    uint64_t id;

    if (!domain_id_locked(h, &id)) {
        line_str(l, "domain", "invalid");
        return UINT64_MAX;
    }
    line_u64(l, "domain", id);
    return id;
}

/* Grows an array to hold at least need elements; false when out of memory. */
static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    size_t ncap;
    void *p;

    if (need <= *cap)
        return true;
    ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    p = realloc(*arr, ncap * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

/* Registers a domain named name (UTF-8) and logs domain_create. */
static nvtxDomainHandle_t domain_create(const char *name)
{
    struct nvtxDomainRegistration_st *h = malloc(sizeof *h);
    struct line l;

    if (!h)
        return NULL;
    pthread_mutex_lock(&g.lock);
    log_open_locked();
    if (!grow((void **)&g.domains, &g.capdomains, g.ndomains + 1, sizeof *g.domains)) {
        pthread_mutex_unlock(&g.lock);
        free(h);
        return NULL;
    }
    h->id = g.next_domain++;
    g.domains[g.ndomains++] = h;
    line_start(&l, "domain_create");
    line_u64(&l, "domain", h->id);
    line_str(&l, "name", name);
    line_emit(&l);
    pthread_mutex_unlock(&g.lock);
    return h;
}

/* Hook for nvtxDomainCreateA. */
static nvtxDomainHandle_t NVTX_API rec_domain_create_a(const char *name)
{
    return domain_create(name ? name : "");
}

/* Encodes one code point as UTF-8 into out (4 bytes room); returns bytes written. */
static size_t utf8_put(uint32_t c, char *out)
{
    if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        c = 0xfffd;
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xc0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xe0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        out[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

/* Hook for nvtxDomainCreateW: the name is logged as UTF-8. */
static nvtxDomainHandle_t NVTX_API rec_domain_create_w(const wchar_t *name)
{
    size_t n = name ? wcslen(name) : 0, len = 0;
    char *utf8 = malloc(n * 4 + 1);
    nvtxDomainHandle_t h;

    if (!utf8)
        return NULL;
    for (size_t i = 0; i < n; i++)
        len += utf8_put((uint32_t)name[i], utf8 + len);
    utf8[len] = '\0';
    h = domain_create(utf8);
    free(utf8);
    return h;
}

/* Hook for nvtxDomainDestroy: logs domain_destroy; the handle stays valid. */
static void NVTX_API rec_domain_destroy(nvtxDomainHandle_t h)
{
    struct line l;

    pthread_mutex_lock(&g.lock);
    line_start(&l, "domain_destroy");
    line_domain(&l, h);
    line_emit(&l);
    pthread_mutex_unlock(&g.lock);
}

/* ------------------------------------------------------------------ schemas */

/* Size and alignment of a predefined scalar entry type; false if not decodable. */
static bool type_info(uint64_t type, size_t *size, size_t *align)
{
#define REC_T(T) do { *size = sizeof(T); *align = _Alignof(T); return true; } while (0)
    switch (type) {
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR: REC_T(char);
    case NVTX_PAYLOAD_ENTRY_TYPE_UCHAR: REC_T(unsigned char);
    case NVTX_PAYLOAD_ENTRY_TYPE_SHORT: REC_T(short);
    case NVTX_PAYLOAD_ENTRY_TYPE_USHORT: REC_T(unsigned short);
    case NVTX_PAYLOAD_ENTRY_TYPE_INT: REC_T(int);
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT: REC_T(unsigned int);
    case NVTX_PAYLOAD_ENTRY_TYPE_LONG: REC_T(long);
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONG: REC_T(unsigned long);
    case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG: REC_T(long long);
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONGLONG: REC_T(unsigned long long);
    case NVTX_PAYLOAD_ENTRY_TYPE_INT8: REC_T(int8_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT8: REC_T(uint8_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_INT16: REC_T(int16_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT16: REC_T(uint16_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_INT32: REC_T(int32_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT32: REC_T(uint32_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_INT64: REC_T(int64_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT64: REC_T(uint64_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT: REC_T(float);
    case NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE: REC_T(double);
    case NVTX_PAYLOAD_ENTRY_TYPE_LONGDOUBLE: REC_T(long double);
    case NVTX_PAYLOAD_ENTRY_TYPE_SIZE: REC_T(size_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_ADDRESS: REC_T(uintptr_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_WCHAR: REC_T(wchar_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR8: REC_T(uint8_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR16: REC_T(uint16_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR32: REC_T(uint32_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT32: REC_T(float);
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT64: REC_T(double);
    case NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY: REC_T(uint32_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB: REC_T(uint32_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_SCOPE_ID: REC_T(uint64_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32: REC_T(uint32_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT64: REC_T(uint64_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32: REC_T(uint32_t);
    case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT64: REC_T(uint64_t);
    default: return false;
    }
#undef REC_T
}

/* Rounds v up to a multiple of a (a > 0). */
static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* True when an entry can be decoded as a plain scalar (known type, no pointer/array flags). */
static bool entry_scalar(const struct rec_entry *e)
{
    size_t size, align;

    return e->flags == 0 && type_info(e->type, &size, &align);
}

/* Size and alignment of an entry: scalars and fixed-size arrays of scalars or bytes. */
static bool entry_info(const struct rec_entry *e, size_t *size, size_t *align)
{
    if (e->flags == 0)
        return type_info(e->type, size, align);
    if (e->flags != NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_FIXED_SIZE)
        return false;
    if (e->type == NVTX_PAYLOAD_ENTRY_TYPE_BYTE) {
        *size = 1;
        *align = 1;
    } else if (!type_info(e->type, size, align)) {
        return false;
    }
    *size *= (size_t)e->detail;
    return true;
}

/* Fills effective offsets, sizes, raw spans and the static size of a copied schema. */
static void schema_layout(struct rec_schema *s, uint64_t given_size)
{
    uint64_t end = 0, max_align = 1;

    for (size_t i = 0; i < s->nentries; i++) {
        struct rec_entry *e = &s->entries[i];
        size_t size = 0, align = 1;
        bool known = entry_info(e, &size, &align);

        if (i > 0 && e->offset == 0)
            e->offset = align_up(end, align);
        e->size = known ? size : 0;
        if (align > max_align)
            max_align = align;
        if (e->offset + size > end)
            end = e->offset + size;
    }
    s->static_size = given_size ? given_size : align_up(end, max_align);
    for (size_t i = 0; i < s->nentries; i++) {
        struct rec_entry *e = &s->entries[i];
        uint64_t next = s->static_size;

        for (size_t j = 0; j < s->nentries; j++)
            if (s->entries[j].offset > e->offset && s->entries[j].offset < next)
                next = s->entries[j].offset;
        e->span = e->size ? e->size : next > e->offset ? next - e->offset : 0;
    }
}

/* Frees one stored schema's entries. */
static void schema_free(struct rec_schema *s)
{
    for (size_t i = 0; i < s->nentries; i++)
        free(s->entries[i].name);
    free(s->entries);
    s->entries = NULL;
    s->nentries = 0;
}

/* Stores a copy of a schema for sample decoding; caller holds g.lock. */
static void schema_store_locked(uint64_t domain, uint64_t id, const nvtxPayloadSchemaEntry_t *entries,
                                size_t n, uint64_t given_size)
{
    struct rec_schema s = { .domain = domain, .id = id };

    if (!grow((void **)&g.schemas, &g.capschemas, g.nschemas + 1, sizeof *g.schemas))
        return;
    if (entries && n) {
        s.entries = calloc(n, sizeof *s.entries);
        if (!s.entries)
            return;
        s.nentries = n;
        for (size_t i = 0; i < n; i++) {
            s.entries[i].type = entries[i].type;
            s.entries[i].flags = entries[i].flags;
            s.entries[i].offset = entries[i].offset;
            s.entries[i].detail = entries[i].arrayOrUnionDetail;
            s.entries[i].name = entries[i].name ? strdup(entries[i].name) : NULL;
        }
    }
    schema_layout(&s, given_size);
    g.schemas[g.nschemas++] = s;
}

/* Finds the most recent schema with this id in this domain; caller holds g.lock. */
static const struct rec_schema *schema_find_locked(uint64_t domain, uint64_t id)
{
    for (size_t i = g.nschemas; i-- > 0;)
        if (g.schemas[i].domain == domain && g.schemas[i].id == id)
            return &g.schemas[i];
    return NULL;
}

static void line_semantics(struct line *l, const nvtxSemanticsHeader_t *s);

/* Logs the schema_entry lines of a schema registration (an entry's own semantics, when it has
 * some, as unit/semantic/cflags/scale); caller holds g.lock. */
static void schema_log_entries(uint64_t id, const nvtxPayloadSchemaEntry_t *entries, size_t n)
{
    struct line l;

    for (size_t i = 0; entries && i < n; i++) {
        line_start(&l, "schema_entry");
        line_u64(&l, "schema", id);
        line_u64(&l, "index", i);
        line_str(&l, "name", entries[i].name);
        line_u64(&l, "type", entries[i].type);
        line_u64(&l, "offset", entries[i].offset);
        line_str(&l, "description", entries[i].description);
        if (entries[i].semantics)
            line_semantics(&l, entries[i].semantics);
        line_emit(&l);
    }
}

/* Hook for nvtxPayloadSchemaRegister: logs schema + schema_entry lines, returns the id. */
static uint64_t NVTX_API rec_schema_register(nvtxDomainHandle_t h, const nvtxPayloadSchemaAttr_t *attr)
{
    uint64_t mask, id, dom;
    const nvtxPayloadSchemaEntry_t *entries = NULL;
    size_t n = 0;
    uint64_t size = 0;
    struct line l;

    if (!attr)
        return 0;
    mask = attr->fieldMask;
    if ((mask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES) && (mask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES)) {
        entries = attr->entries;
        n = attr->numEntries;
    }
    if (mask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE)
        size = attr->payloadStaticSize;
    pthread_mutex_lock(&g.lock);
    log_open_locked();
    if ((mask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID) && attr->schemaId != 0)
        id = attr->schemaId;
    else
        id = g.next_schema++;
    line_start(&l, "schema");
    line_u64(&l, "id", id);
    line_str(&l, "name", (mask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME) ? attr->name : NULL);
    line_u64(&l, "type", (mask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE) ? attr->type : 0);
    line_u64(&l, "flags", (mask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS) ? attr->flags : 0);
    line_u64(&l, "size", size);
    line_u64(&l, "entries", n);
    line_emit(&l);
    schema_log_entries(id, entries, n);
    if (domain_id_locked(h, &dom))
        schema_store_locked(dom, id, entries, n, size);
    pthread_mutex_unlock(&g.lock);
    return id;
}

/* Hook for nvtxPayloadEnumRegister: logs enum + enum_entry lines, returns the id. */
static uint64_t NVTX_API rec_enum_register(nvtxDomainHandle_t h, const nvtxPayloadEnumAttr_t *attr)
{
    uint64_t mask, id;
    const nvtxPayloadEnum_t *entries = NULL;
    size_t n = 0;
    struct line l;

    (void)h;
    if (!attr)
        return 0;
    mask = attr->fieldMask;
    if ((mask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES) && (mask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES)) {
        entries = attr->entries;
        n = attr->numEntries;
    }
    pthread_mutex_lock(&g.lock);
    log_open_locked();
    if ((mask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID) && attr->schemaId != 0)
        id = attr->schemaId;
    else
        id = g.next_schema++;
    line_start(&l, "enum");
    line_u64(&l, "id", id);
    line_str(&l, "name", (mask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_NAME) ? attr->name : NULL);
    line_u64(&l, "size", (mask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE) ? attr->sizeOfEnum : 0);
    line_u64(&l, "entries", n);
    line_emit(&l);
    for (size_t i = 0; entries && i < n; i++) {
        line_start(&l, "enum_entry");
        line_u64(&l, "schema", id);
        line_u64(&l, "index", i);
        line_str(&l, "name", entries[i].name);
        line_u64(&l, "value", entries[i].value);
        line_u64(&l, "flag", entries[i].isFlag ? 1 : 0);
        line_emit(&l);
    }
    pthread_mutex_unlock(&g.lock);
    return id;
}

/* ----------------------------------------------------------------- counters */

/* True when the counter attr struct (per structSize) holds field [off, off+size). */
static bool attr_has(const nvtxCounterAttr_t *a, size_t off, size_t size)
{
    return a->structSize >= off + size;
}

#define ATTR_HAS(a, f) attr_has((a), offsetof(nvtxCounterAttr_t, f), sizeof((a)->f))

/* Appends unit/semantic (and cflags/scale for counter semantics) of a semantics list. */
static void line_semantics(struct line *l, const nvtxSemanticsHeader_t *s)
{
    const nvtxSemanticsCounter_t *c = NULL;
    unsigned first = 0;
    int guard = 0;

    for (; s && guard < REC_MAX_SEMANTICS; s = s->next, guard++) {
        if (guard == 0)
            first = s->semanticId;
        if (s->semanticId == NVTX_SEMANTIC_ID_COUNTERS_V1 && !c)
            c = (const nvtxSemanticsCounter_t *)(const void *)s;
    }
    if (!c || c->header.structSize < offsetof(nvtxSemanticsCounter_t, unitScaleDenominator)
                                         + sizeof c->unitScaleDenominator) {
        line_str(l, "unit", NULL);
        line_u64(l, "semantic", c ? NVTX_SEMANTIC_ID_COUNTERS_V1 : first);
        return;
    }
    line_str(l, "unit", c->unit);
    line_u64(l, "semantic", NVTX_SEMANTIC_ID_COUNTERS_V1);
    line_u64(l, "cflags", c->flags);
    line_printf(l, "\tscale=%" PRIu64 "/%" PRIu64, c->unitScaleNumerator, c->unitScaleDenominator);
}

/* Finds a registered counter; caller holds g.lock. */
static const struct rec_counter *counter_find_locked(uint64_t domain, uint64_t id)
{
    for (size_t i = g.ncounters; i-- > 0;)
        if (g.counters[i].domain == domain && g.counters[i].id == id)
            return &g.counters[i];
    return NULL;
}

/* Hook for nvtxCounterRegister: logs counter_register, returns the counter id. */
static uint64_t NVTX_API rec_counter_register(nvtxDomainHandle_t h, const nvtxCounterAttr_t *attr)
{
    uint64_t id, dom, schema;
    struct line l;

    if (!attr)
        return 0;
    schema = ATTR_HAS(attr, schemaId) ? attr->schemaId : 0;
    pthread_mutex_lock(&g.lock);
    log_open_locked();
    if (ATTR_HAS(attr, counterId) && attr->counterId != NVTX_COUNTER_ID_NONE)
        id = attr->counterId;
    else
        id = g.next_counter++;
    line_start(&l, "counter_register");
    dom = line_domain(&l, h);
    line_u64(&l, "counter", id);
    line_str(&l, "name", ATTR_HAS(attr, name) ? attr->name : NULL);
    line_u64(&l, "schema", schema);
    line_u64(&l, "scope", ATTR_HAS(attr, scopeId) ? attr->scopeId : 0);
    line_str(&l, "description", ATTR_HAS(attr, description) ? attr->description : NULL);
    line_semantics(&l, ATTR_HAS(attr, semantics) ? attr->semantics : NULL);
    line_emit(&l);
    if (dom != UINT64_MAX
        && grow((void **)&g.counters, &g.capcounters, g.ncounters + 1, sizeof *g.counters))
        g.counters[g.ncounters++] = (struct rec_counter){ .domain = dom, .id = id, .schema = schema };
    pthread_mutex_unlock(&g.lock);
    return id;
}

/* Appends \t<prefix><key>=<decoded scalar>; false when the type is not decodable. */
static bool line_scalar(struct line *l, const char *key, uint64_t type, const unsigned char *p)
{
    union {
        char c; unsigned char uc; short s; unsigned short us; int i; unsigned u;
        long li; unsigned long ul; long long ll; unsigned long long ull;
        int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32;
        int64_t i64; uint64_t u64; float f; double d; long double ld; size_t z; uintptr_t a;
        wchar_t w;
    } v;
    size_t size, align, mark;

    if (!type_info(type, &size, &align))
        return false;
    memcpy(&v, p, size);
    mark = line_key(l, "", key);
    if (mark == SIZE_MAX)
        return true;
    switch (type) {
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR: line_printf(l, "%d", (int)v.c); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_UCHAR: line_printf(l, "%u", (unsigned)v.uc); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_SHORT: line_printf(l, "%d", (int)v.s); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_USHORT: line_printf(l, "%u", (unsigned)v.us); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_INT: line_printf(l, "%d", v.i); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT: line_printf(l, "%u", v.u); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_LONG: line_printf(l, "%ld", v.li); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONG: line_printf(l, "%lu", v.ul); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG: line_printf(l, "%lld", v.ll); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_ULONGLONG: line_printf(l, "%llu", v.ull); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_INT8: line_printf(l, "%d", (int)v.i8); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT8:
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR8: line_printf(l, "%u", (unsigned)v.u8); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_INT16: line_printf(l, "%d", (int)v.i16); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT16:
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR16: line_printf(l, "%u", (unsigned)v.u16); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_INT32: line_printf(l, "%" PRId32, v.i32); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_INT64: line_printf(l, "%" PRId64, v.i64); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT32: line_printf(l, "%.9g", (double)v.f); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE:
    case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT64: line_printf(l, "%.17g", v.d); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_LONGDOUBLE: line_printf(l, "%.21Lg", v.ld); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_SIZE: line_printf(l, "%zu", v.z); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_ADDRESS: line_printf(l, "0x%" PRIxPTR, v.a); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_WCHAR: line_printf(l, "%ld", (long)v.w); break;
    case NVTX_PAYLOAD_ENTRY_TYPE_UINT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_CHAR32:
    case NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY:
    case NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB:
    case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32:
    case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32: line_printf(l, "%" PRIu32, v.u32); break;
    default: line_printf(l, "%" PRIu64, v.u64); break;
    }
    if (l->overflow)
        l->len = mark;
    return true;
}

/* Appends \t<prefix><key>=<hex of n bytes>, dropping the field whole on overflow. */
static void line_raw(struct line *l, const char *prefix, const char *key, const unsigned char *p, size_t n)
{
    size_t mark = line_key(l, prefix, key);

    if (mark != SIZE_MAX && !line_hex(l, p, n))
        l->len = mark;
}

/* Appends one decoded schema entry; entries beyond size are skipped. */
static void line_entry(struct line *l, const struct rec_entry *e, size_t index, const unsigned char *p,
                       size_t size)
{
    char fallback[32];
    const char *key = e->name;
    size_t esize, align;

    if (!key || !*key) {
        snprintf(fallback, sizeof fallback, "entry%zu", index);
        key = fallback;
    }
    if (entry_scalar(e) && type_info(e->type, &esize, &align)) {
        if (e->offset <= size && esize <= size - e->offset)
            line_scalar(l, key, e->type, p + e->offset);
        return;
    }
    if (e->offset < size)
        line_raw(l, "raw.", key, p + e->offset, e->span && e->span < size - e->offset ? e->span
                                                                                    : size - e->offset);
}

/* Hook for nvtxCounterSample: logs sample with values decoded through the counter's schema. */
static void NVTX_API rec_sample(nvtxDomainHandle_t h, uint64_t counter, const void *values, size_t size)
{
    const unsigned char *p = values;
    const struct rec_counter *c;
    const struct rec_schema *s = NULL;
    uint64_t dom;
    size_t tsize, align;
    struct line l;

    pthread_mutex_lock(&g.lock);
    line_start(&l, "sample");
    dom = line_domain(&l, h);
    line_u64(&l, "counter", counter);
    line_u64(&l, "size", size);
    c = counter_find_locked(dom, counter);
    if (c)
        s = schema_find_locked(dom, c->schema);
    if (!p) {
        line_u64(&l, "null_values", 1);
    } else if (s) {
        for (size_t i = 0; i < s->nentries; i++)
            line_entry(&l, &s->entries[i], i, p, size);
        if (size != s->static_size)
            line_u64(&l, "size_mismatch", 1);
    } else if (c && type_info(c->schema, &tsize, &align)) {
        if (tsize <= size)
            line_scalar(&l, "value", c->schema, p);
        if (size != tsize)
            line_u64(&l, "size_mismatch", 1);
    } else {
        line_raw(&l, "", "raw", p, size);
        line_u64(&l, c ? "unknown_schema" : "unknown_counter", 1);
    }
    line_emit(&l);
    pthread_mutex_unlock(&g.lock);
}

/* Hook for nvtxCounterSampleInt64. */
static void NVTX_API rec_sample_int64(nvtxDomainHandle_t h, uint64_t counter, int64_t value)
{
    struct line l;

    pthread_mutex_lock(&g.lock);
    line_start(&l, "sample_int64");
    line_domain(&l, h);
    line_u64(&l, "counter", counter);
    line_printf(&l, "\tvalue=%" PRId64, value);
    line_emit(&l);
    pthread_mutex_unlock(&g.lock);
}

/* Hook for nvtxCounterSampleFloat64. */
static void NVTX_API rec_sample_float64(nvtxDomainHandle_t h, uint64_t counter, double value)
{
    struct line l;

    pthread_mutex_lock(&g.lock);
    line_start(&l, "sample_float64");
    line_domain(&l, h);
    line_u64(&l, "counter", counter);
    line_printf(&l, "\tvalue=%.17g", value);
    line_emit(&l);
    pthread_mutex_unlock(&g.lock);
}

/* Hook for nvtxCounterSampleNoValue. */
static void NVTX_API rec_sample_novalue(nvtxDomainHandle_t h, uint64_t counter, uint8_t reason)
{
    struct line l;

    pthread_mutex_lock(&g.lock);
    line_start(&l, "sample_novalue");
    line_domain(&l, h);
    line_u64(&l, "counter", counter);
    line_u64(&l, "reason", reason);
    line_emit(&l);
    pthread_mutex_unlock(&g.lock);
}

/* Hook for nvtxCounterBatchSubmit: logs the batch header only. */
static void NVTX_API rec_batch(nvtxDomainHandle_t h, const nvtxCounterBatch_t *b)
{
    struct line l;

    pthread_mutex_lock(&g.lock);
    line_start(&l, "batch");
    line_domain(&l, h);
    line_u64(&l, "counter", b ? b->counterId : 0);
    line_u64(&l, "size", b ? b->countersSize : 0);
    line_u64(&l, "flags", b ? b->flags : 0);
    line_emit(&l);
    pthread_mutex_unlock(&g.lock);
}

/* ---------------------------------------------------------------- injection */

/* Sets one extension function slot if the segment has it. */
static void ext_slot(nvtxExtModuleSegment_t *seg, size_t cbid, intptr_t fn)
{
    if (cbid < seg->slotCount)
        seg->functionSlots[cbid] = fn;
}

/* Fills the payload extension's slots. */
static void hook_payload(nvtxExtModuleSegment_t *seg)
{
    ext_slot(seg, NVTX3EXT_CBID_nvtxPayloadSchemaRegister, (intptr_t)rec_schema_register);
    ext_slot(seg, NVTX3EXT_CBID_nvtxPayloadEnumRegister, (intptr_t)rec_enum_register);
}

/* Fills the counters extension's slots. */
static void hook_counters(nvtxExtModuleSegment_t *seg)
{
    ext_slot(seg, NVTX3EXT_CBID_nvtxCounterRegister, (intptr_t)rec_counter_register);
    ext_slot(seg, NVTX3EXT_CBID_nvtxCounterSampleInt64, (intptr_t)rec_sample_int64);
    ext_slot(seg, NVTX3EXT_CBID_nvtxCounterSampleFloat64, (intptr_t)rec_sample_float64);
    ext_slot(seg, NVTX3EXT_CBID_nvtxCounterSample, (intptr_t)rec_sample);
    ext_slot(seg, NVTX3EXT_CBID_nvtxCounterSampleNoValue, (intptr_t)rec_sample_novalue);
    ext_slot(seg, NVTX3EXT_CBID_nvtxCounterBatchSubmit, (intptr_t)rec_batch);
}

/* NVTX extension entry point: called once per extension module (payload, counters, ...). */
REC_EXPORT int NVTX_API InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info);

/* NVTX extension entry point: called once per extension module (payload, counters, ...). */
REC_EXPORT int NVTX_API InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info)
{
    if (!info || info->structSize < sizeof *info || info->segmentsCount < 1 || !info->segments
        || !info->segments[0].functionSlots)
        return 0;
    pthread_mutex_lock(&g.lock);
    log_open_locked();
    pthread_mutex_unlock(&g.lock);
    if (info->moduleId == NVTX_EXT_PAYLOAD_MODULEID)
        hook_payload(&info->segments[0]);
    else if (info->moduleId == NVTX_EXT_COUNTERS_MODULEID)
        hook_counters(&info->segments[0]);
    return 1;
}

/* NVTX core entry point: hooks the core2 domain functions. */
REC_EXPORT int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table);

/* NVTX core entry point: hooks the core2 domain functions. */
REC_EXPORT int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table)
{
    const NvtxExportTableCallbacks *cb;
    const NvtxExportTableVersionInfo *vi;
    NvtxFunctionTable table = NULL;
    unsigned int size = 0;

    if (!get_table)
        return 0;
    cb = (const NvtxExportTableCallbacks *)get_table(NVTX_ETID_CALLBACKS);
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable)
        return 0;
    if (!cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) || !table
        || size <= NVTX_CBID_CORE2_DomainDestroy)
        return 0;
    *table[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)rec_domain_create_a;
    *table[NVTX_CBID_CORE2_DomainCreateW] = (NvtxFunctionPointer)rec_domain_create_w;
    *table[NVTX_CBID_CORE2_DomainDestroy] = (NvtxFunctionPointer)rec_domain_destroy;
    vi = (const NvtxExportTableVersionInfo *)get_table(NVTX_ETID_VERSIONINFO);
    if (vi && vi->struct_size >= sizeof *vi && vi->SetInjectionNvtxVersion)
        vi->SetInjectionNvtxVersion(NVTX_VERSION);
    pthread_mutex_lock(&g.lock);
    log_open_locked();
    pthread_mutex_unlock(&g.lock);
    return 1;
}

/* Frees all state and closes the log at unload; later calls log nothing. */
__attribute__((destructor)) static void rec_fini(void)
{
    pthread_mutex_lock(&g.lock);
    for (size_t i = 0; i < g.nschemas; i++)
        schema_free(&g.schemas[i]);
    free(g.schemas);
    g.schemas = NULL;
    g.nschemas = g.capschemas = 0;
    free(g.counters);
    g.counters = NULL;
    g.ncounters = g.capcounters = 0;
    for (size_t i = 0; i < g.ndomains; i++)
        free(g.domains[i]);
    free(g.domains);
    g.domains = NULL;
    g.ndomains = g.capdomains = 0;
    if (g.fd >= 0)
        close(g.fd);
    g.fd = -1;
    g.log_checked = true;
    pthread_mutex_unlock(&g.lock);
}
