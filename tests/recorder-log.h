/* SPDX-License-Identifier: Apache-2.0 */
/*
 * recorder-log.h - parser for the log written by tests/nvtx-recorder.c.
 *
 * A log is a sequence of lines "<kind>\tt=<ns>\t<key>=<value>...\n".  Keys and values
 * are unescaped on load (\\ \t \n \r \xHH).  All strings returned point into the
 * loaded log and live until reclog_free().
 */
#ifndef KN_TESTS_RECORDER_LOG_H
#define KN_TESTS_RECORDER_LOG_H

#include <stddef.h>
#include <stdint.h>

/* One key=value field of a record. */
struct reclog_field {
    const char *key;
    const char *value;
};

/* One log line. */
struct reclog_rec {
    const char *kind;            /* event name, e.g. "sample" */
    uint64_t t_ns;               /* value of the t= field */
    size_t line;                 /* 1-based line number in the file */
    size_t nfields;              /* fields, in file order, t included */
    struct reclog_field *fields;
};

/* A whole parsed log. */
struct reclog {
    size_t n;                    /* number of records */
    struct reclog_rec *recs;
    char *text_;                 /* private: backing storage */
};

/* Result of a typed field lookup. */
enum reclog_status {
    RECLOG_OK = 0,
    RECLOG_MISSING = 1,          /* no such key */
    RECLOG_MALFORMED = 2,        /* value does not parse as the requested type */
};

/* Loads and parses the log at path; on failure returns NULL and writes a message to err. */
struct reclog *reclog_load(const char *path, char *err, size_t errlen);

/* Parses len bytes of log text; on failure returns NULL and writes a message to err. */
struct reclog *reclog_parse(const char *text, size_t len, char *err, size_t errlen);

/* Frees a log returned by reclog_load() or reclog_parse(); NULL is ignored. */
void reclog_free(struct reclog *log);

/* Returns the value of the first field named key, or NULL. */
const char *reclog_get(const struct reclog_rec *rec, const char *key);

/* Reads a field as an unsigned decimal integer. */
enum reclog_status reclog_get_u64(const struct reclog_rec *rec, const char *key, uint64_t *out);

/* Reads a field as a signed decimal integer. */
enum reclog_status reclog_get_i64(const struct reclog_rec *rec, const char *key, int64_t *out);

/* Reads a field as a floating-point number (strtod syntax, whole value). */
enum reclog_status reclog_get_double(const struct reclog_rec *rec, const char *key, double *out);

/* Returns a short English description of a status. */
const char *reclog_status_str(enum reclog_status st);

/* Counts records of the given kind (NULL: all records). */
size_t reclog_count(const struct reclog *log, const char *kind);

/* Returns the next record of kind (NULL: any) at or after *pos and sets *pos past it; NULL at end. */
const struct reclog_rec *reclog_next(const struct reclog *log, const char *kind, size_t *pos);

/* Returns the first record of kind whose field key equals value (key NULL: first of kind). */
const struct reclog_rec *reclog_find(const struct reclog *log, const char *kind, const char *key,
                                     const char *value);

/* Formats a record as "line N: kind k=v ..." into buf for failure messages; returns buf. */
const char *reclog_format(const struct reclog_rec *rec, char *buf, size_t len);

#endif /* KN_TESTS_RECORDER_LOG_H */
