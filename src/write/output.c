/*
** output.c: writes a canvas's pages as PNG, PDF or SVG.  Every file goes to a
** temporary name beside its target and is renamed when complete; "-" is stdout,
** written only once the whole file is ready.  Write stage.  Here: the options, the sinks
** and the dispatch by format (output-image.c writes PNG and SVG, output-pdf.c PDF).
*/
#define _GNU_SOURCE   /* memmem */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>    /* unused here, but test_inks.c (which includes this file) needs it */

#include "output-internal.h"

void ct_write_options_init(ct_write_options_t *o) {
  memset(o, 0, sizeof *o);
  o->dpi = 72.0;
  o->creator = "chromatype " CT_VERSION_STRING;
}

static const char *const output_names[] = { "auto", "png", "pdf", "svg" };

const char *ct_output_name(ct_output_t o) {
  return (unsigned)o < 4 ? output_names[o] : "unknown";
}

int ct_output_from_name(const char *name) {
  int i;
  for (i = 1; i < 4; i++)
    if (strcasecmp(name, output_names[i]) == 0) return i;
  return -1;
}

ct_output_t ct_output_from_path(const char *path) {
  const char *dot = strrchr(path, '.');
  int o;
  if (!dot || strchr(dot, '/')) return CT_OUTPUT_AUTO;
  o = ct_output_from_name(dot + 1);
  return o < 0 ? CT_OUTPUT_AUTO : (ct_output_t)o;
}

/* ---- sinks: a temporary file, or memory for stdout ---------------------- */

cairo_status_t ct_sink_write(void *closure, const unsigned char *data, unsigned int length) {
  ct_sink_t *s = closure;
  if (s->failed) return CAIRO_STATUS_WRITE_ERROR;
  if (s->file) {
    if (fwrite(data, 1, length, s->file) != length) s->failed = errno ? errno : EIO;
  } else {
    if (s->len + length > s->cap) {
      size_t cap = s->cap ? s->cap : 65536;
      char *m;
      while (cap < s->len + length) cap *= 2;
      if (!(m = realloc(s->mem, cap))) { s->failed = ENOMEM; return CAIRO_STATUS_NO_MEMORY; }
      s->mem = m;
      s->cap = cap;
    }
    memcpy(s->mem + s->len, data, length);
    s->len += length;
  }
  return s->failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

ct_status_t ct_sink_open(ct_sink_t *s, const char *path, ct_error_t *err) {
  memset(s, 0, sizeof *s);
  if (strcmp(path, "-") == 0) return CT_OK;
  /* read too: the PDF joiner checks a stream it finds again against the bytes written */
  if (!(s->file = ct_fs_fopen_temp(path, ".tmp-", "w+b", &s->tmp_path, err))) return err ? err->status : CT_ERR_IO;
  return CT_OK;
}

void ct_sink_abort(ct_sink_t *s) {
  if (s->file) fclose(s->file);
  if (s->tmp_path) ct_fs_unlink(s->tmp_path);
  free(s->tmp_path);
  free(s->mem);
  memset(s, 0, sizeof *s);
}

ct_status_t ct_sink_commit(ct_sink_t *s, const char *path, ct_error_t *err) {
  int e = s->failed;
  if (s->tmp_path) {
    if (s->file && fclose(s->file) != 0 && !e) e = errno;
    s->file = NULL;
    if (!e && ct_fs_rename(s->tmp_path, path, err) != CT_OK) {
      ct_sink_abort(s);
      return err ? err->status : CT_ERR_IO;
    }
  } else if (!e) {
    if (fwrite(s->mem, 1, s->len, stdout) != s->len || fflush(stdout) != 0) e = errno ? errno : EIO;
  }
  if (e) {
    ct_sink_abort(s);
    return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", path, strerror(e));
  }
  free(s->tmp_path);
  free(s->mem);
  memset(s, 0, sizeof *s);
  return CT_OK;
}

/* The inks a write prints with: the canvas's own, then the options' (by name, these win). */
ct_status_t ct_merge_inks(const ct_canvas_t *c, const ct_write_options_t *o, ct_inkset_t *s, ct_error_t *err) {
  unsigned i, j;
  char why[160];
  memcpy(s->v, c->inks, c->ninks * sizeof *s->v);
  s->n = c->ninks;
  for (i = 0; i < o->ink_count; i++) {
    if (ct_ink_check(&o->inks[i], why, sizeof why) != 0) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s", why);
    for (j = 0; j < s->n && strcmp(s->v[j].name, o->inks[i].name) != 0; j++) {}
    if (j == CT_MAX_INKS) return ct_set_error(err, CT_ERR_LIMIT, "ink '%s': more than %d inks", o->inks[i].name, CT_MAX_INKS);
    s->v[j] = o->inks[i];
    if (j == s->n) s->n++;
  }
  return CT_OK;
}

/* ---- shared by the formats ---------------------------------------------- */

/* pdf: print marks are left to the PDF pass (in the /All separation). */
void ct_paint_page(cairo_t *cr, const ct_page_t *page, ct_picture_cache_t *pictures, const ct_inkset_t *inks,
                   int pdf) {
  cairo_save(cr);
  ct_page_replay(page, cr, pictures, inks ? inks->v : NULL, inks ? inks->n : 0);
  if (!pdf) ct_page_draw_marks(page, cr);
  cairo_restore(cr);
}

ct_status_t ct_cairo_failed(cairo_status_t s, const char *path, ct_error_t *err) {
  return ct_set_error(err, s == CAIRO_STATUS_NO_MEMORY ? CT_ERR_NOMEM : CT_ERR_BACKEND,
                      "%s: cannot render: %s", path, cairo_status_to_string(s));
}

/* How large a cairo file the PDF pass reads into memory (output-pdf.c uses it), defined
   here: test_inks compiles this file with a tiny CT_PDF_PASS_IN_MEMORY (the Makefile's
   self_test) so that every PDF takes the path of long documents. */
const long ct_pdf_pass_in_memory = CT_PDF_PASS_IN_MEMORY;

/* ---- dispatch by format ------------------------------------------------ */

/* "poster.png", page 2 -> "poster-2.png". */
static char *page_path(const char *path, unsigned page) {
  const char *dot = strrchr(path, '.');
  size_t n = strlen(path), stem = dot && !strchr(dot, '/') ? (size_t)(dot - path) : n;
  char *p = malloc(n + 16);
  if (p) snprintf(p, n + 16, "%.*s-%u%s", (int)stem, path, page + 1, path + stem);
  return p;
}

ct_status_t ct_canvas_write(ct_canvas_t *c, const char *path, const ct_write_options_t *opts,
                            ct_error_t *err) {
  ct_write_options_t defaults;
  ct_output_t fmt;
  unsigned i, n;
  ct_status_t st = CT_OK;
  ct_inkset_t inks;
  ct_pdf_finish_t fin;

  if (c->stream)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: the canvas is being written to %s as a stream (finish it)",
                        path, ((struct ct_pdf_stream *)c->stream)->path);
  if (c->cleared)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: the canvas was written as a stream and its pages freed", path);
  if (!opts) {
    ct_write_options_init(&defaults);
    opts = &defaults;
  }
  fmt = opts->format != CT_OUTPUT_AUTO ? opts->format : ct_output_from_path(path);
  if (fmt == CT_OUTPUT_AUTO) fmt = CT_OUTPUT_PNG;
  if (fmt == CT_OUTPUT_PNG && opts->width_px <= 0 &&
      (!isfinite(opts->dpi) || opts->dpi <= 0 || opts->dpi > CT_MAX_DPI))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: resolution %g dpi out of range (0 < dpi <= %g)",
                        path, opts->dpi, CT_MAX_DPI);
  if (fmt == CT_OUTPUT_PNG && opts->width_px > CT_MAX_IMAGE_SIDE)
    return ct_set_error(err, CT_ERR_LIMIT, "%s: width %d px exceeds the limit of %d", path,
                        opts->width_px, CT_MAX_IMAGE_SIDE);

  if ((st = ct_merge_inks(c, opts, &inks, err)) != CT_OK) return st;
  if (opts->plates && inks.n == 0)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: plates need inks (--ink NAME=#RRGGBB, or the document's <ink>)", path);
  ct_finish_init(&fin, opts, &inks);

  /* PDF holds every page; PNG and SVG hold one, so several pages make several files. */
  n = fmt == CT_OUTPUT_PDF || c->npages == 1 || strcmp(path, "-") == 0 ? 1 : c->npages;
  for (i = 0; i < n && st == CT_OK; i++) {
    char *name = n > 1 ? page_path(path, i) : NULL;
    const char *target = name ? name : path;
    ct_sink_t sink;
    if (n > 1 && !name) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    st = ct_sink_open(&sink, target, err);
    if (st == CT_OK) {
      switch (fmt) {
      case CT_OUTPUT_PDF: st = ct_write_pdf(c, target, opts, &inks, &sink, err); break;
      case CT_OUTPUT_SVG: st = ct_write_svg(c, i, target, &inks, &sink, err); break;
      default: st = ct_write_png(c, i, target, opts, &inks, &sink, err); break;
      }
      if (st == CT_OK && fmt == CT_OUTPUT_PDF) st = ct_finish_pdf(&sink, c, target, &fin, err);
      if (st == CT_OK) st = ct_sink_commit(&sink, target, err);
      else ct_sink_abort(&sink);
    }
    free(name);
  }
  if (st == CT_OK && opts->plates && fmt != CT_OUTPUT_PDF) st = ct_raster_plates(c, opts, &inks, fmt, err);
  return st;
}
