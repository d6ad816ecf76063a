/*
** output-internal.h: what output.c, output-image.c and output-pdf.c share (sinks, the inks a
** write prints with, a PDF stream's state).  Write stage, private to the output files.
*/
#ifndef CT_OUTPUT_INTERNAL_H
#define CT_OUTPUT_INTERNAL_H

#include <stdio.h>

#include "write.h"

/* ---- sinks: a temporary file, or memory for stdout (output.c) ------------- */

typedef struct {
  FILE  *file;
  char  *tmp_path;      /* NULL for stdout */
  char  *mem;
  size_t len, cap;
  int    failed;
} ct_sink_t;

cairo_status_t ct_sink_write(void *closure, const unsigned char *data, unsigned int length);
ct_status_t    ct_sink_open(ct_sink_t *s, const char *path, ct_error_t *err);
void           ct_sink_abort(ct_sink_t *s);
ct_status_t    ct_sink_commit(ct_sink_t *s, const char *path, ct_error_t *err);

/* ---- shared by the formats (output.c) ------------------------------------- */

/* The inks a write prints with: the canvas's own, then the options' (by name, these win). */
typedef struct { ct_ink_t v[CT_MAX_INKS]; unsigned n; } ct_inkset_t;

ct_status_t ct_merge_inks(const ct_canvas_t *c, const ct_write_options_t *o, ct_inkset_t *s, ct_error_t *err);
void        ct_paint_page(cairo_t *cr, const ct_page_t *page, ct_picture_cache_t *pictures, const ct_inkset_t *inks,
                          int pdf);
ct_status_t ct_cairo_failed(cairo_status_t s, const char *path, ct_error_t *err);
extern const long ct_pdf_pass_in_memory;   /* CT_PDF_PASS_IN_MEMORY */

/* ---- PNG and SVG (output-image.c) ----------------------------------------- */

ct_status_t ct_write_png(ct_canvas_t *c, unsigned page, const char *path, const ct_write_options_t *o,
                         const ct_inkset_t *inks, ct_sink_t *sink, ct_error_t *err);
ct_status_t ct_write_svg(ct_canvas_t *c, unsigned page, const char *path, const ct_inkset_t *inks, ct_sink_t *out,
                         ct_error_t *err);

/* ---- PDF (output-pdf.c) --------------------------------------------------- */

typedef struct {
  const ct_inkset_t *inks;
  int                inks_only, overprint, cmyk;
  const char        *plates;
  double             dpi;
} ct_pdf_finish_t;

/* A canvas written to a PDF page by page (see ct_canvas_stream_pdf): cairo writes a chunk
   of pages at a time into `sink`; when a document has several chunks, each is finished by
   the pass and joined into `out` (pdfjoin.cc) as it is done. */
struct ct_pdf_stream {
  ct_sink_t           sink;        /* cairo's file of the current chunk */
  char               *path;
  cairo_surface_t    *pdf;
  cairo_t            *cr;
  ct_picture_cache_t *pictures;
  unsigned            written;     /* pages drawn into the PDF */
  unsigned            chunk;       /* pages a chunk */
  unsigned            chunk_start; /* the first page of the current chunk */
  ct_sink_t           out;         /* the joined file, from the second chunk on */
  ct_pdf_join_t      *join;
  ct_pdf_pass_t       report;      /* the chunks' passes: colors without ink, images, inks used */
  ct_write_options_t  opts;        /* its options; the strings below are owned copies */
  char               *strings[6];  /* plates, title, author, subject, keywords, creator */
  ct_ink_t            inks[CT_MAX_INKS];   /* the canvas's and the options' */
  unsigned            ninks;
};

void        ct_finish_init(ct_pdf_finish_t *f, const ct_write_options_t *o, const ct_inkset_t *inks);
ct_status_t ct_write_pdf(ct_canvas_t *c, const char *path, const ct_write_options_t *o, const ct_inkset_t *inks,
                         ct_sink_t *sink, ct_error_t *err);
ct_status_t ct_finish_pdf(ct_sink_t *s, const ct_canvas_t *c, const char *path, const ct_pdf_finish_t *f,
                          ct_error_t *err);
ct_status_t ct_raster_plates(ct_canvas_t *c, const ct_write_options_t *o, const ct_inkset_t *inks, ct_output_t fmt,
                             ct_error_t *err);

/* output-pdf.c: the canvas's PDF stream, its sink (page.h): the pages before `upto` not
   written yet go out and their drawing is freed; or the stream and its temporary file are
   dropped (a canvas destroyed unfinished). */
ct_status_t ct_pdf_stream_flush(ct_canvas_t *c, unsigned upto, ct_error_t *err);
void ct_pdf_stream_abort(ct_canvas_t *c);

#endif /* CT_OUTPUT_INTERNAL_H */
