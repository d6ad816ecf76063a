/*
** pdfjoin.h: a long PDF written as finished chunks joined one after the other
** (pdfjoin.cc, reading each chunk with qpdf, one at a time).  Core layer, private;
** callable from C.
*/
#ifndef CT_PDFJOIN_H
#define CT_PDFJOIN_H

#include <stdio.h>
#include "../ct.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_pdf_join ct_pdf_join_t;

/* A joiner writing to `out` (borrowed; opened for reading too: an identical stream found
   again is checked against the bytes written), named `name` in messages.  NULL without
   memory. */
ct_pdf_join_t *ct_pdf_join_create(FILE *out, const char *name);

/* Appends the pages of the finished PDF `chunk` (a file) and everything they reference,
   renumbered, each page's /Parent the joined page tree; a stream with no reference in
   its dictionary that was written before, byte for byte, is written once.  The first
   chunk also gives the header's version, the catalog's other entries, /Info and the
   first half of /ID.  Never throws. */
ct_status_t ct_pdf_join_add(ct_pdf_join_t *j, const char *chunk, ct_error_t *err);

/* Writes the page tree, the catalog, the cross-reference table and the trailer.  The
   caller flushes and closes `out`. */
ct_status_t ct_pdf_join_finish(ct_pdf_join_t *j, ct_error_t *err);

/* Pages and objects written so far, and streams written once for several chunks. */
unsigned ct_pdf_join_pages(const ct_pdf_join_t *j);
unsigned ct_pdf_join_shared(const ct_pdf_join_t *j);

void ct_pdf_join_destroy(ct_pdf_join_t *j);

#ifdef __cplusplus
}
#endif
#endif /* CT_PDFJOIN_H */
