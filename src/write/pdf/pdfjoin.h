/*
** pdfjoin.h: a long PDF written as finished chunks joined one after the other
** (pdfjoin.cc, reading each chunk with qpdf, one at a time).  Write stage (PDF),
** reached through pdf.h; callable from C.
*/
#ifndef CT_PDFJOIN_H
#define CT_PDFJOIN_H

#include <stdio.h>
#include "ct.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_pdf_join ct_pdf_join_t;

/* A joiner writing to `out` (borrowed; opened for reading too: an identical stream found
   again is checked against the bytes written), named `name` in messages.  NULL without
   memory. */
ct_pdf_join_t *ct_pdf_join_create(FILE *out, const char *name);

/* Appends the pages of the finished PDF `chunk` (a file) and everything they reference,
   renumbered, each page's /Parent the joined page tree; an object equal to one written
   before (its bytes, references included) is not written again.  The first chunk also
   gives the header's version, the catalog's other entries, /Info and the first half of
   /ID; a later chunk's higher version goes into the catalog.  Never throws. */
ct_status_t ct_pdf_join_add(ct_pdf_join_t *j, const char *chunk, ct_error_t *err);

/* Writes the page tree, the catalog, the cross-reference table and the trailer.  The
   caller flushes and closes `out`. */
ct_status_t ct_pdf_join_finish(ct_pdf_join_t *j, ct_error_t *err);

void ct_pdf_join_destroy(ct_pdf_join_t *j);

#ifdef __cplusplus
}
#endif
#endif /* CT_PDFJOIN_H */
