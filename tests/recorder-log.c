/* SPDX-License-Identifier: Apache-2.0 */
/*
 * recorder-log.c - parser for the log written by tests/nvtx-recorder.c.
 */
#if defined(HAVE_CONFIG_H)
#include <config.h>
#endif
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "recorder-log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes a printf-style message into err (if any). */
static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Writes a printf-style message into err (if any). */
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Returns the value of a hex digit, or -1. */
static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Unescapes s in place; false on a bad escape sequence. */
static bool unescape(char *s)
{
    char *w = s;

    for (char *r = s; *r; r++) {
        int hi, lo;

        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        switch (*++r) {
        case '\\': *w++ = '\\'; break;
        case 't': *w++ = '\t'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 'x':
            hi = r[1] ? hexval(r[1]) : -1;
            lo = hi >= 0 && r[2] ? hexval(r[2]) : -1;
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
                return false;
            *w++ = (char)(hi * 16 + lo);
            r += 2;
            break;
        default:
            return false;
        }
    }
    *w = '\0';
    return true;
}

/* Parses s as a whole unsigned decimal number. */
static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;

    if (!s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = (uint64_t)v;
    return true;
}

/* Splits one line (NUL-terminated, modified in place) into rec; false with err set on error. */
static bool parse_line(char *line, size_t lineno, struct reclog_rec *rec, char *err, size_t errlen)
{
    size_t nf = 0;
    char *save = NULL, *tok;

    for (char *p = line; *p; p++)
        nf += *p == '\t';
    rec->line = lineno;
    rec->fields = calloc(nf ? nf : 1, sizeof *rec->fields);
    if (!rec->fields) {
        set_err(err, errlen, "line %zu: out of memory", lineno);
        return false;
    }
    rec->kind = line;
    tok = strchr(line, '\t');
    if (tok)
        *tok++ = '\0';
    if (!*line || strchr(line, '=')) {
        set_err(err, errlen, "line %zu: bad event name", lineno);
        return false;
    }
    for (char *f = tok; f; f = save) {
        char *eq;

        save = strchr(f, '\t');
        if (save)
            *save++ = '\0';
        eq = strchr(f, '=');
        if (!eq || eq == f) {
            set_err(err, errlen, "line %zu: field %zu is not key=value", lineno, rec->nfields + 1);
            return false;
        }
        *eq = '\0';
        if (!unescape(f) || !unescape(eq + 1)) {
            set_err(err, errlen, "line %zu: bad escape in field %zu", lineno, rec->nfields + 1);
            return false;
        }
        rec->fields[rec->nfields].key = f;
        rec->fields[rec->nfields].value = eq + 1;
        rec->nfields++;
    }
    if (rec->nfields < 1 || strcmp(rec->fields[0].key, "t") || !parse_u64(rec->fields[0].value, &rec->t_ns)) {
        set_err(err, errlen, "line %zu: second field is not t=<ns>", lineno);
        return false;
    }
    return true;
}

/* Counts the lines of text (a last line without newline counts). */
static size_t count_lines(const char *text, size_t len)
{
    size_t n = 0;

    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    return n + (len && text[len - 1] != '\n');
}

/* Parses len bytes of log text; on failure returns NULL and writes a message to err. */
struct reclog *reclog_parse(const char *text, size_t len, char *err, size_t errlen)
{
    struct reclog *log = calloc(1, sizeof *log);
    size_t nlines = count_lines(text, len), lineno = 0;
    char *p, *end;

    if (!log || !(log->text_ = malloc(len + 1))
        || !(log->recs = calloc(nlines ? nlines : 1, sizeof *log->recs))) {
        set_err(err, errlen, "out of memory");
        reclog_free(log);
        return NULL;
    }
    memcpy(log->text_, text, len);
    log->text_[len] = '\0';
    if (memchr(text, '\0', len)) {
        set_err(err, errlen, "log contains a NUL byte");
        reclog_free(log);
        return NULL;
    }
    end = log->text_ + len;
    for (p = log->text_; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));

        if (nl)
            *nl = '\0';
        lineno++;
        if (!parse_line(p, lineno, &log->recs[log->n], err, errlen)) {
            log->n++;
            reclog_free(log);
            return NULL;
        }
        log->n++;
        p = nl ? nl + 1 : end;
    }
    return log;
}

/* Loads and parses the log at path; on failure returns NULL and writes a message to err. */
struct reclog *reclog_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    struct reclog *log;

    if (!f) {
        set_err(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;

        if (len == cap) {
            char *nb = realloc(buf, cap ? cap * 2 : 65536);

            if (!nb) {
                set_err(err, errlen, "%s: out of memory", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = cap ? cap * 2 : 65536;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        set_err(err, errlen, "%s: read error", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    log = reclog_parse(buf ? buf : "", len, err, errlen);
    free(buf);
    return log;
}

/* Frees a log returned by reclog_load() or reclog_parse(); NULL is ignored. */
void reclog_free(struct reclog *log)
{
    if (!log)
        return;
    for (size_t i = 0; i < log->n; i++)
        free(log->recs[i].fields);
    free(log->recs);
    free(log->text_);
    free(log);
}

/* Returns the value of the first field named key, or NULL. */
const char *reclog_get(const struct reclog_rec *rec, const char *key)
{
    if (!rec || !key)
        return NULL;
    for (size_t i = 0; i < rec->nfields; i++)
        if (!strcmp(rec->fields[i].key, key))
            return rec->fields[i].value;
    return NULL;
}

/* Reads a field as an unsigned decimal integer. */
enum reclog_status reclog_get_u64(const struct reclog_rec *rec, const char *key, uint64_t *out)
{
    const char *v = reclog_get(rec, key);

    if (!v)
        return RECLOG_MISSING;
    return parse_u64(v, out) ? RECLOG_OK : RECLOG_MALFORMED;
}

/* Reads a field as a signed decimal integer. */
enum reclog_status reclog_get_i64(const struct reclog_rec *rec, const char *key, int64_t *out)
{
    const char *v = reclog_get(rec, key);
    char *end;
    long long x;

    if (!v)
        return RECLOG_MISSING;
    if (!((*v >= '0' && *v <= '9') || (*v == '-' && v[1] >= '0' && v[1] <= '9')))
        return RECLOG_MALFORMED;
    errno = 0;
    x = strtoll(v, &end, 10);
    if (errno || *end)
        return RECLOG_MALFORMED;
    *out = (int64_t)x;
    return RECLOG_OK;
}

/* Reads a field as a floating-point number (strtod syntax, whole value). */
enum reclog_status reclog_get_double(const struct reclog_rec *rec, const char *key, double *out)
{
    const char *v = reclog_get(rec, key);
    char *end;
    double x;

    if (!v)
        return RECLOG_MISSING;
    if (!*v || *v == ' ' || *v == '\t')
        return RECLOG_MALFORMED;
    x = strtod(v, &end);
    if (*end)
        return RECLOG_MALFORMED;
    *out = x;
    return RECLOG_OK;
}

/* Returns a short English description of a status. */
const char *reclog_status_str(enum reclog_status st)
{
    switch (st) {
    case RECLOG_OK: return "ok";
    case RECLOG_MISSING: return "field missing";
    case RECLOG_MALFORMED: return "field malformed";
    }
    return "unknown status";
}

/* Counts records of the given kind (NULL: all records). */
size_t reclog_count(const struct reclog *log, const char *kind)
{
    size_t n = 0;

    for (size_t i = 0; log && i < log->n; i++)
        n += !kind || !strcmp(log->recs[i].kind, kind);
    return n;
}

/* Returns the next record of kind (NULL: any) at or after *pos and sets *pos past it; NULL at end. */
const struct reclog_rec *reclog_next(const struct reclog *log, const char *kind, size_t *pos)
{
    for (size_t i = *pos; log && i < log->n; i++) {
        if (!kind || !strcmp(log->recs[i].kind, kind)) {
            *pos = i + 1;
            return &log->recs[i];
        }
    }
    *pos = log ? log->n : 0;
    return NULL;
}

/* Returns the first record of kind whose field key equals value (key NULL: first of kind). */
const struct reclog_rec *reclog_find(const struct reclog *log, const char *kind, const char *key,
                                     const char *value)
{
    for (size_t i = 0; log && i < log->n; i++) {
        const struct reclog_rec *r = &log->recs[i];
        const char *v;

        if (kind && strcmp(r->kind, kind))
            continue;
        if (!key)
            return r;
        v = reclog_get(r, key);
        if (v && value && !strcmp(v, value))
            return r;
    }
    return NULL;
}

/* Formats a record as "line N: kind k=v ..." into buf for failure messages; returns buf. */
const char *reclog_format(const struct reclog_rec *rec, char *buf, size_t len)
{
    size_t off;
    int n;

    if (!buf || !len)
        return buf;
    if (!rec) {
        snprintf(buf, len, "(no record)");
        return buf;
    }
    n = snprintf(buf, len, "line %zu: %s", rec->line, rec->kind);
    off = n < 0 ? 0 : (size_t)n;
    for (size_t i = 0; i < rec->nfields && off < len; i++) {
        n = snprintf(buf + off, len - off, " %s=%s", rec->fields[i].key, rec->fields[i].value);
        if (n < 0)
            break;
        off += (size_t)n;
    }
    return buf;
}
