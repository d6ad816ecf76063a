/*
** base.h: the door of the base stage (src/base/): errors, UTF-8, whole files written
** atomically, threads, and the limits every stage checks.  Knows no font, paint or page;
** includes FreeType only for its error codes.
*/
#ifndef CT_BASE_H
#define CT_BASE_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <cairo.h>

#include "ct.h"
#include "ct-limits.h"

/* error.c */
ct_status_t ct_set_error(ct_error_t *err, ct_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
ct_status_t ct_from_ft_error(FT_Error error);
const char *ct_ft_error_string(FT_Error error);
/* error.c: one UTF-8 sequence of s[0, len) decoded, its length in *used; an invalid byte
   decodes as U+FFFD, one byte long (an empty string: 0, *used 0). */
uint32_t ct_utf8_decode(const char *s, size_t len, size_t *used);

/* parallel.c: runs fn(arg, job, worker) for every job in [0, count) on up to `threads`
   threads (the caller's among them, worker 0; `worker` < threads numbers the thread, for
   buffers of its own) and returns when all are done. */
void ct_parallel_for(unsigned count, unsigned threads, void (*fn)(void *arg, unsigned job, unsigned worker),
                     void *arg);

/* fileout.c: a whole file written to a temporary name beside `path`, then renamed. */
ct_status_t ct_file_write_atomic(const char *path, const void *data, size_t len, ct_error_t *err);
/* A new file beside `path` ("PATH.tmp-XXXXXX", the umask's mode) opened with `mode`, its
   name in *tmp (the caller's, to rename or unlink and free); NULL with `err` filled. */
FILE *ct_file_open_temp(const char *path, const char *mode, char **tmp, ct_error_t *err);

/* memory.c: one count of the memory a run holds, against --max-memory.  ct_mem_charge adds
   n bytes for `what` ("a canvas's page", "a font", ...), or refuses with CT_ERR_LIMIT when
   the count would pass the limit (the first refusal calls the `hit` given to
   ct_mem_set_limit, which makes the limit stick); ct_mem_release takes back what was
   charged.  ct_mem_try: the same, silent (the Lua allocator's).  No limit (0): counts only. */
void ct_mem_set_limit(size_t max, void (*hit)(const char *what));
size_t ct_mem_limit(void);
size_t ct_mem_used(void);
int ct_mem_try(size_t n);
ct_status_t ct_mem_charge(size_t n, const char *what, ct_error_t *err);
void ct_mem_release(size_t n);

#endif /* CT_BASE_H */
