/*
** output-pdf.c: PDF output (cairo's PDF surface, the pass, plates, streams in chunks joined
** by pdfjoin.cc) and the plates of PNG or SVG output.  Write stage; knows nothing of PNG or
** SVG files, nor of qpdf: pdfpass.h and pdfjoin.h are its only way into a PDF.
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include <cairo-pdf.h>

#include "output-internal.h"

/* ---- the PDF pass (pdfpass.cc), plates (plates.c) ----------------------------- */

void ct_finish_init(ct_pdf_finish_t *f, const ct_write_options_t *o, const ct_inkset_t *inks) {
  f->inks = inks;
  f->inks_only = o->inks_only;
  f->overprint = o->overprint;
  f->cmyk = o->cmyk;
  f->plates = o->plates;
  f->dpi = o->dpi;
}

static void warn(const ct_canvas_t *c, const char *msg) {
  if (c->warn) c->warn(c->warn_data, msg);
}

/* The print marks and trim box of `count` pages from `first`, in PDF units (y up); *marks
   holds them all. */
static ct_pdf_page_t *pass_pages(const ct_canvas_t *c, unsigned first, unsigned count, double **marks) {
  ct_pdf_page_t *pages = calloc(count ? count : 1, sizeof *pages);
  size_t total = 0, k = 0;
  unsigned i, j;
  double *m;
  *marks = NULL;
  if (!pages) return NULL;
  for (i = 0; i < count; i++) total += c->pages[first + i].nmarks;
  if (!(m = malloc((total ? total : 1) * 4 * sizeof *m))) { free(pages); return NULL; }
  for (i = 0; i < count; i++) {
    const ct_page_t *pg = &c->pages[first + i];
    pages[i].marks = m + k * 4;
    pages[i].nmarks = pg->nmarks;
    pages[i].width = pg->width;
    pages[i].height = pg->height;
    for (j = 0; j < pg->nmarks; j++, k++) {
      const double *r = pg->marks + 4 * j;
      m[4 * k] = r[0];
      m[4 * k + 1] = pg->height - (r[1] + r[3]);
      m[4 * k + 2] = r[0] + r[2];
      m[4 * k + 3] = pg->height - r[1];
    }
    if ((pages[i].has_trim = pg->has_boxes)) {
      pages[i].trim[0] = pg->trim[0];
      pages[i].trim[1] = pg->height - (pg->trim[1] + pg->trim[3]);
      pages[i].trim[2] = pg->trim[0] + pg->trim[2];
      pages[i].trim[3] = pg->height - pg->trim[1];
      pages[i].bleed[0] = pg->bleed[0];
      pages[i].bleed[1] = pg->height - (pg->bleed[1] + pg->bleed[3]);
      pages[i].bleed[2] = pg->bleed[0] + pg->bleed[2];
      pages[i].bleed[3] = pg->height - pg->bleed[1];
    }
  }
  *marks = m;
  return pages;
}

static long file_size(const char *path) {
  struct stat sb;
  return ct_fs_stat(path, &sb, NULL) == CT_OK ? (long)sb.st_size : -1;
}

static char *read_whole(const char *path, size_t *len) {
  return (char *)ct_fs_read_all(path, (size_t)LONG_MAX, len, NULL);
}

/* A new empty file beside `path`, named path + tag + six letters, open for writing; its
   name in *name (malloc'ed). */
static ct_status_t temp_beside(const char *path, const char *tag, char **name, FILE **file, ct_error_t *err) {
  if (!(*file = ct_fs_fopen_temp(path, tag, "wb", name, err))) return err ? err->status : CT_ERR_IO;
  return CT_OK;
}

/* Closes the pass's output file; an error names `path`. */
static ct_status_t close_pass_file(FILE **file, const char *path, ct_status_t st, ct_error_t *err) {
  FILE *f = *file;
  *file = NULL;
  if (f && fclose(f) != 0 && st == CT_OK) st = ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  return st;
}

/* What the pass found: colors no ink prints and pictures (warnings, or an error under
   --inks-only), inks never used (warnings). */
static ct_status_t pass_report(const ct_canvas_t *c, const char *path, const ct_pdf_finish_t *f,
                               const ct_pdf_pass_t *pass, ct_error_t *err) {
  unsigned i;
  if (f->inks->n > 0 && (pass->nprocess > 0 || pass->images > 0)) {
    char msg[600];
    size_t used = 0;
    if (pass->nprocess > 0) {
      used += (size_t)snprintf(msg, sizeof msg, "%s: %u color%s no ink prints, left in process: ", path,
                               pass->nprocess, pass->nprocess == 1 ? "" : "s");
      for (i = 0; i < pass->nprocess && i < CT_PDF_REPORT_COLORS && used < sizeof msg; i++)
        used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%s", i ? ", " : "", pass->process[i]);
      if (pass->nprocess > CT_PDF_REPORT_COLORS && used < sizeof msg)
        used += (size_t)snprintf(msg + used, sizeof msg - used, ", ...");
    } else {
      used += (size_t)snprintf(msg, sizeof msg, "%s: ", path);
    }
    if (pass->images > 0 && used < sizeof msg)
      snprintf(msg + used, sizeof msg - used, "%s%u picture%s in process colors", pass->nprocess ? "; " : "",
               pass->images, pass->images == 1 ? "" : "s");
    if (f->inks_only) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s (--inks-only)", msg);
    warn(c, msg);
  }
  for (i = 0; i < f->inks->n; i++) {
    if (!(pass->inks_used >> i & 1)) {
      char msg[200];
      snprintf(msg, sizeof msg, "%s: ink '%s' is not used", path, f->inks->v[i].name);
      warn(c, msg);
    }
  }
  return CT_OK;
}

/* The pass over the PDF cairo wrote into `s`: the finished file replaces it.  Then the
   plates (from cairo's file) and the CMYK conversion. */
ct_status_t ct_finish_pdf(ct_sink_t *s, const ct_canvas_t *c, const char *path, const ct_pdf_finish_t *f,
                          ct_error_t *err) {
  ct_pdf_pass_t pass;
  ct_pdf_page_t *pages;
  double *marks = NULL;
  char *out_tmp = NULL, *out_mem = NULL, *cairo_mem = NULL;
  FILE *out_file = NULL;
  size_t out_len = 0, cairo_len = 0;
  ct_status_t st = CT_OK;

  if (s->failed) return CT_OK;   /* the commit reports it */
  if (s->file) {
    FILE *fl = s->file;
    s->file = NULL;
    if (fclose(fl) != 0) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  }
  if (!(pages = pass_pages(c, 0, c->npages, &marks))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  memset(&pass, 0, sizeof pass);
  pass.inks = f->inks->v;
  pass.ink_count = f->inks->n;
  pass.overprint = f->overprint;
  pass.cmyk = f->cmyk;
  pass.plate = -1;
  pass.pages = pages;
  pass.npages = c->npages;
  if (s->tmp_path) {
    if ((st = temp_beside(path, ".tmp-pass-", &out_tmp, &out_file, err)) != CT_OK) goto done;
    /* qpdf reads a file by seeking for nearly every token: from memory it is five times
       faster, but a long document's file is read in place, for memory's sake (and plates
       need cairo's file in memory) */
    if (f->plates || file_size(s->tmp_path) <= ct_pdf_pass_in_memory) {
      if (!(cairo_mem = read_whole(s->tmp_path, &cairo_len))) {
        st = ct_set_error(err, CT_ERR_IO, "%s: cannot read back: %s", path, strerror(errno));
        goto done;
      }
      st = ct_pdf_pass(NULL, cairo_mem, cairo_len, out_file, path, NULL, NULL, &pass, err);
    } else {
      st = ct_pdf_pass(s->tmp_path, NULL, 0, out_file, path, NULL, NULL, &pass, err);
    }
    st = close_pass_file(&out_file, path, st, err);
  } else {
    st = ct_pdf_pass(NULL, s->mem, s->len, NULL, path, &out_mem, &out_len, &pass, err);
  }
  if (st != CT_OK || (st = pass_report(c, path, f, &pass, err)) != CT_OK) goto done;

  if (f->plates) {   /* from cairo's file, not the finished one */
    pass.plate = 0;
    pass.cmyk = 0;
    st = ct_plates_write(f->plates, cairo_mem ? cairo_mem : s->mem, cairo_mem ? cairo_len : s->len, &pass, 0,
                         f->dpi, 0, err);
    if (st != CT_OK) goto done;
  }

  if (s->tmp_path) {
    ct_fs_unlink(s->tmp_path);
    free(s->tmp_path);
    s->tmp_path = out_tmp;
    out_tmp = NULL;
  } else {
    free(s->mem);
    s->mem = out_mem;
    s->len = s->cap = out_len;
    out_mem = NULL;
  }
done:
  close_pass_file(&out_file, path, CT_OK, NULL);
  if (out_tmp) { ct_fs_unlink(out_tmp); free(out_tmp); }
  free(out_mem);
  free(cairo_mem);
  free(marks);
  free(pages);
  return st;
}

/* PDF dates: SOURCE_DATE_EPOCH when set (reproducible builds), else a fixed date. */
static void pdf_date(char *buf, size_t size) {
  const char *env = getenv("SOURCE_DATE_EPOCH");
  time_t t = 946684800;   /* 2000-01-01T00:00:00Z */
  struct tm tm;
  if (env && *env) {
    char *end;
    long long v = strtoll(env, &end, 10);
    if (*end == '\0' && v >= 0) t = (time_t)v;
  }
  gmtime_r(&t, &tm);
  strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

ct_status_t ct_write_pdf(ct_canvas_t *c, const char *path, const ct_write_options_t *o,
                         const ct_inkset_t *inks, ct_sink_t *sink, ct_error_t *err) {
  cairo_surface_t *pdf = cairo_pdf_surface_create_for_stream(ct_sink_write, sink, c->pages[0].width,
                                                             c->pages[0].height);
  cairo_t *cr;
  cairo_status_t s;
  char date[32];
  unsigned i;
  ct_picture_cache_t *pictures;

  pdf_date(date, sizeof date);
  cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATE_DATE, date);
  cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_MOD_DATE, date);
  if (o->title) cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_TITLE, o->title);
  if (o->author) cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_AUTHOR, o->author);
  if (o->subject) cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_SUBJECT, o->subject);
  if (o->keywords) cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_KEYWORDS, o->keywords);
  if (o->creator) cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATOR, o->creator);
  cr = cairo_create(pdf);
  pictures = ct_picture_cache_create();     /* NULL (no memory): glyphs are drawn directly */
  ct_picture_cache_set_inks(pictures, inks->v, inks->n);
  for (i = 0; i < c->npages; i++) {
    cairo_pdf_surface_set_size(pdf, c->pages[i].width, c->pages[i].height);   /* before drawing */
    ct_paint_page(cr, &c->pages[i], pictures, inks, 1);
    /* copyable text, last: cairo drops earlier drawing that a later opaque paint (a page
       background, or librsvg's drawing of an SVG glyph) is taken to cover */
    if (!o->no_text_layer) ct_page_text_layer(&c->pages[i], cr);
    cairo_show_page(cr);
  }
  s = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(pdf);
  ct_picture_cache_destroy(pictures);
  if (s == CAIRO_STATUS_SUCCESS) s = cairo_surface_status(pdf);
  cairo_surface_destroy(pdf);
  if (s != CAIRO_STATUS_SUCCESS && !sink->failed) return ct_cairo_failed(s, path, err);
  return CT_OK;
}

/* ---- a PDF written page by page ---------------------------------------------

   A long document need not hold every page until the end: with a stream, each page is
   drawn into the PDF when the next one begins, and its drawing is freed.  Finishing writes
   the last page, closes the PDF, adds the print boxes and the CMYK pass as ct_canvas_write
   does, and renames the temporary file; a canvas destroyed unfinished leaves no file.

   Nor need the pass hold every page: cairo's file is cut into chunks of `chunk` pages.  A
   document of one chunk is finished as ct_canvas_write finishes it (the same bytes); a
   longer one has each chunk finished by the pass as soon as it is full and appended to the
   output by the joiner (pdfjoin.cc), which writes the page tree, catalog and trailer at the
   end.  Plates are made from cairo's whole file, so a stream with plates is one chunk. */

/* Pages a chunk: CT_PDF_STREAM_CHUNK, or CHROMATYPE_PDF_CHUNK (a testing knob: a small
   chunk makes a short document several). */
static unsigned chunk_pages(const ct_write_options_t *o) {
  const char *env = getenv("CHROMATYPE_PDF_CHUNK");
  if (o->plates) return UINT_MAX;
  if (env && *env) {
    char *end;
    unsigned long v = strtoul(env, &end, 10);
    if (*end == '\0' && v >= 1 && v <= UINT_MAX) return (unsigned)v;
  }
  return CT_PDF_STREAM_CHUNK;
}

/* A new cairo file for the pages from `page` on: its sink, surface and metadata. */
static ct_status_t chunk_open(struct ct_pdf_stream *st, const ct_page_t *page, ct_error_t *err) {
  const ct_write_options_t *o = &st->opts;
  cairo_status_t s;
  char date[32];
  ct_status_t rc;
  if ((rc = ct_sink_open(&st->sink, st->path, err)) != CT_OK) return rc;
  st->pdf = cairo_pdf_surface_create_for_stream(ct_sink_write, &st->sink, page->width, page->height);
  pdf_date(date, sizeof date);
  cairo_pdf_surface_set_metadata(st->pdf, CAIRO_PDF_METADATA_CREATE_DATE, date);
  cairo_pdf_surface_set_metadata(st->pdf, CAIRO_PDF_METADATA_MOD_DATE, date);
  if (o->title) cairo_pdf_surface_set_metadata(st->pdf, CAIRO_PDF_METADATA_TITLE, o->title);
  if (o->author) cairo_pdf_surface_set_metadata(st->pdf, CAIRO_PDF_METADATA_AUTHOR, o->author);
  if (o->subject) cairo_pdf_surface_set_metadata(st->pdf, CAIRO_PDF_METADATA_SUBJECT, o->subject);
  if (o->keywords) cairo_pdf_surface_set_metadata(st->pdf, CAIRO_PDF_METADATA_KEYWORDS, o->keywords);
  if (o->creator) cairo_pdf_surface_set_metadata(st->pdf, CAIRO_PDF_METADATA_CREATOR, o->creator);
  st->cr = cairo_create(st->pdf);
  if ((s = cairo_status(st->cr)) != CAIRO_STATUS_SUCCESS) {
    cairo_destroy(st->cr);
    cairo_surface_destroy(st->pdf);
    st->cr = NULL;
    st->pdf = NULL;
    ct_sink_abort(&st->sink);
    return ct_cairo_failed(s, st->path, err);
  }
  st->chunk_start = st->written;
  return CT_OK;
}

/* Closes cairo's file of the current chunk; its bytes stay in st->sink. */
static ct_status_t chunk_close_cairo(struct ct_pdf_stream *st, ct_error_t *err) {
  cairo_status_t s;
  cairo_destroy(st->cr);
  st->cr = NULL;
  cairo_surface_finish(st->pdf);
  s = cairo_surface_status(st->pdf);
  cairo_surface_destroy(st->pdf);
  st->pdf = NULL;
  if (st->sink.failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", st->path, strerror(st->sink.failed));
  if (s != CAIRO_STATUS_SUCCESS) return ct_cairo_failed(s, st->path, err);
  return CT_OK;
}

/* The colors, pictures and inks of one chunk's pass added to the stream's. */
static void report_merge(ct_pdf_pass_t *acc, const ct_pdf_pass_t *p) {
  unsigned i, j, listed = acc->nprocess < CT_PDF_REPORT_COLORS ? acc->nprocess : CT_PDF_REPORT_COLORS, fresh = 0;
  for (i = 0; i < p->nprocess && i < CT_PDF_REPORT_COLORS; i++) {
    for (j = 0; j < listed && strcmp(acc->process[j], p->process[i]) != 0; j++) {}
    if (j < listed) continue;
    fresh++;
    if (listed < CT_PDF_REPORT_COLORS) memcpy(acc->process[listed++], p->process[i], sizeof acc->process[0]);
  }
  /* distinct colors beyond the listed ones are counted once per chunk: a bound, not exact */
  acc->nprocess = acc->nprocess + fresh > p->nprocess ? acc->nprocess + fresh : p->nprocess;
  acc->images += p->images;
  acc->inks_used |= p->inks_used;
}

/* The current chunk, full: cairo's file closed, finished by the pass into a temporary,
   appended to the joined file (begun now if it is the first) and both temporaries gone. */
static ct_status_t chunk_finish(ct_canvas_t *c, ct_error_t *err) {
  struct ct_pdf_stream *st = c->stream;
  ct_pdf_pass_t pass;
  ct_pdf_page_t *pages = NULL;
  double *marks = NULL;
  char *out_tmp = NULL, *mem = NULL;
  FILE *out_file = NULL;
  size_t len = 0;
  ct_status_t rc;

  if ((rc = chunk_close_cairo(st, err)) != CT_OK) goto done;
  if (fclose(st->sink.file) != 0) {
    st->sink.file = NULL;
    rc = ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", st->path, strerror(errno));
    goto done;
  }
  st->sink.file = NULL;
  if (!st->join) {
    if ((rc = ct_sink_open(&st->out, st->path, err)) != CT_OK) goto done;
    if (!(st->join = ct_pdf_join_create(st->out.file, st->path))) {
      rc = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
      goto done;
    }
  }
  if (!(pages = pass_pages(c, st->chunk_start, st->written - st->chunk_start, &marks))) {
    rc = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto done;
  }
  memset(&pass, 0, sizeof pass);
  pass.inks = st->inks;
  pass.ink_count = st->ninks;
  pass.overprint = st->opts.overprint;
  pass.cmyk = st->opts.cmyk;
  pass.plate = -1;
  pass.pages = pages;
  pass.npages = st->written - st->chunk_start;
  if ((rc = temp_beside(st->path, ".tmp-pass-", &out_tmp, &out_file, err)) != CT_OK) goto done;
  if (file_size(st->sink.tmp_path) <= ct_pdf_pass_in_memory && (mem = read_whole(st->sink.tmp_path, &len)))
    rc = ct_pdf_pass(NULL, mem, len, out_file, st->path, NULL, NULL, &pass, err);
  else
    rc = ct_pdf_pass(st->sink.tmp_path, NULL, 0, out_file, st->path, NULL, NULL, &pass, err);
  rc = close_pass_file(&out_file, st->path, rc, err);
  free(mem);
  ct_sink_abort(&st->sink);   /* cairo's file is done with */
  if (rc != CT_OK) goto done;
  report_merge(&st->report, &pass);
  if (st->opts.inks_only && st->ninks > 0 && (st->report.nprocess > 0 || st->report.images > 0)) {
    /* --inks-only fails at the first chunk that paints in process, not after the last */
    ct_inkset_t inks;
    ct_pdf_finish_t fin;
    memcpy(inks.v, st->inks, st->ninks * sizeof *inks.v);
    inks.n = st->ninks;
    ct_finish_init(&fin, &st->opts, &inks);
    rc = pass_report(c, st->path, &fin, &st->report, err);
    goto done;
  }
  rc = ct_pdf_join_add(st->join, out_tmp, err);
done:
  ct_sink_abort(&st->sink);
  close_pass_file(&out_file, st->path, CT_OK, NULL);
  if (out_tmp) { ct_fs_unlink(out_tmp); free(out_tmp); }
  free(marks);
  free(pages);
  return rc;
}

static void stream_free(ct_canvas_t *c) {
  struct ct_pdf_stream *st = c->stream;
  unsigned i;
  if (st->cr) cairo_destroy(st->cr);
  if (st->pdf) cairo_surface_destroy(st->pdf);
  ct_pdf_join_destroy(st->join);
  ct_picture_cache_destroy(st->pictures);
  for (i = 0; i < sizeof st->strings / sizeof st->strings[0]; i++) free(st->strings[i]);
  free(st->path);
  free(st);
  c->stream = NULL;
}

/* Copies `s` into the stream's strings at `i`; 0 without memory. */
static int keep_string(struct ct_pdf_stream *st, unsigned i, const char **s) {
  if (!*s) return 1;
  if (!(st->strings[i] = strdup(*s))) return 0;
  *s = st->strings[i];
  return 1;
}

static const ct_page_sink_t pdf_sink = { ct_pdf_stream_flush, ct_pdf_stream_abort };

ct_status_t ct_canvas_stream_pdf(ct_canvas_t *c, const char *path, const ct_write_options_t *opts,
                                 ct_error_t *err) {
  struct ct_pdf_stream *st;
  ct_write_options_t defaults;
  ct_inkset_t inks;
  ct_status_t rc;
  if (c->stream) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: the canvas is written to %s already", path,
                                     ((struct ct_pdf_stream *)c->stream)->path);
  if (strcmp(path, "-") == 0) return ct_set_error(err, CT_ERR_INVALID_ARG, "-: a PDF stream needs a file");
  if (!opts) {
    ct_write_options_init(&defaults);
    opts = &defaults;
  }
  if ((rc = ct_merge_inks(c, opts, &inks, err)) != CT_OK) return rc;
  if (!(st = calloc(1, sizeof *st))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  c->stream = st;
  c->sink = &pdf_sink;
  st->opts = *opts;
  st->opts.inks = NULL;
  st->opts.ink_count = 0;
  if (!(st->path = strdup(path)) || !keep_string(st, 0, &st->opts.plates) || !keep_string(st, 1, &st->opts.title) ||
      !keep_string(st, 2, &st->opts.author) || !keep_string(st, 3, &st->opts.subject) ||
      !keep_string(st, 4, &st->opts.keywords) || !keep_string(st, 5, &st->opts.creator)) {
    stream_free(c);
    return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  memcpy(st->inks, inks.v, inks.n * sizeof *inks.v);
  st->ninks = inks.n;
  st->chunk = chunk_pages(opts);
  if ((rc = chunk_open(st, &c->pages[0], err)) != CT_OK) {
    stream_free(c);
    return rc;
  }
  st->pictures = ct_picture_cache_create();
  ct_picture_cache_set_inks(st->pictures, st->inks, st->ninks);
  /* the pages done already (all but the last) go out now */
  return ct_pdf_stream_flush(c, c->npages - 1, err);
}

ct_status_t ct_pdf_stream_flush(ct_canvas_t *c, unsigned upto, ct_error_t *err) {
  struct ct_pdf_stream *st = c->stream;
  cairo_status_t s;
  ct_status_t rc;
  if (!st->cr) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: the stream failed before", st->path);
  while (st->written < upto && st->written < c->npages) {
    ct_page_t *pg = &c->pages[st->written];
    ct_inkset_t inks;
    if (st->written - st->chunk_start == st->chunk) {   /* a page more: the chunk is full */
      if ((rc = chunk_finish(c, err)) != CT_OK || (rc = chunk_open(st, pg, err)) != CT_OK) return rc;
    }
    memcpy(inks.v, st->inks, st->ninks * sizeof *inks.v);
    inks.n = st->ninks;
    cairo_pdf_surface_set_size(st->pdf, pg->width, pg->height);
    ct_paint_page(st->cr, pg, st->pictures, &inks, 1);
    if (!st->opts.no_text_layer) ct_page_text_layer(pg, st->cr);
    cairo_show_page(st->cr);
    ct_page_clear(pg);
    st->written++;
    c->cleared = st->written;
  }
  s = cairo_status(st->cr);
  if (s != CAIRO_STATUS_SUCCESS) {
    if (st->sink.failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", st->path, strerror(st->sink.failed));
    return ct_cairo_failed(s, st->path, err);
  }
  return CT_OK;
}

void ct_pdf_stream_abort(ct_canvas_t *c) {
  struct ct_pdf_stream *st = c->stream;
  if (!st) return;
  if (st->cr) cairo_destroy(st->cr);
  st->cr = NULL;
  if (st->pdf) cairo_surface_finish(st->pdf);
  ct_sink_abort(&st->sink);
  ct_sink_abort(&st->out);
  stream_free(c);
}

ct_status_t ct_canvas_finish(ct_canvas_t *c, ct_error_t *err) {
  struct ct_pdf_stream *st = c->stream;
  ct_status_t rc;
  ct_inkset_t inks;
  ct_pdf_finish_t fin;
  if (!st) return ct_set_error(err, CT_ERR_INVALID_ARG, "the canvas is not written as a stream");
  memcpy(inks.v, st->inks, st->ninks * sizeof *inks.v);
  inks.n = st->ninks;
  ct_finish_init(&fin, &st->opts, &inks);
  rc = ct_pdf_stream_flush(c, c->npages, err);
  if (st->join) {   /* several chunks: the last one joined, then the end of the file */
    if (rc == CT_OK) rc = chunk_finish(c, err);
    if (rc == CT_OK) rc = ct_pdf_join_finish(st->join, err);
    if (rc == CT_OK) rc = pass_report(c, st->path, &fin, &st->report, err);
    if (rc == CT_OK) rc = ct_sink_commit(&st->out, st->path, err);
    ct_pdf_stream_abort(c);   /* what is left: nothing, or the temporaries after an error */
    return rc;
  }
  if (st->cr) {
    ct_status_t closed = chunk_close_cairo(st, err);
    if (rc == CT_OK) rc = closed;
  }
  if (rc == CT_OK) rc = ct_finish_pdf(&st->sink, c, st->path, &fin, err);
  if (rc == CT_OK) rc = ct_sink_commit(&st->sink, st->path, err);
  ct_pdf_stream_abort(c);
  return rc;
}

/* Plates of a canvas written as PNG (or SVG): from a PDF of it made in memory. */
ct_status_t ct_raster_plates(ct_canvas_t *c, const ct_write_options_t *o, const ct_inkset_t *inks,
                             ct_output_t fmt, ct_error_t *err) {
  ct_sink_t mem;
  ct_pdf_pass_t pass;
  ct_pdf_page_t *pages;
  double *marks = NULL;
  ct_write_options_t po = *o;
  ct_status_t st;
  memset(&mem, 0, sizeof mem);
  po.no_text_layer = 1;
  if ((st = ct_write_pdf(c, o->plates, &po, inks, &mem, err)) != CT_OK || mem.failed) {
    free(mem.mem);
    return st != CT_OK ? st : ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  if (!(pages = pass_pages(c, 0, c->npages, &marks))) {
    free(mem.mem);
    return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  memset(&pass, 0, sizeof pass);
  pass.inks = inks->v;
  pass.ink_count = inks->n;
  pass.overprint = o->overprint;
  pass.pages = pages;
  pass.npages = c->npages;
  st = ct_plates_write(o->plates, mem.mem, mem.len, &pass, fmt == CT_OUTPUT_PNG, o->dpi, o->width_px, err);
  free(mem.mem);
  free(marks);
  free(pages);
  return st;
}
