/*
** output.c: writes a canvas's pages as PNG, PDF or SVG.  Every file goes to a
** temporary name beside its target and is renamed when complete; "-" is stdout,
** written only once the whole file is ready.  Core layer.
*/
#define _GNU_SOURCE   /* memmem */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "write.h"

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

typedef struct {
  FILE  *file;
  char  *tmp_path;      /* NULL for stdout */
  char  *mem;
  size_t len, cap;
  int    failed;
} sink_t;

/* A canvas written to a PDF page by page (see ct_canvas_stream_pdf): cairo writes a chunk
   of pages at a time into `sink`; when a document has several chunks, each is finished by
   the pass and joined into `out` (pdfjoin.cc) as it is done. */
struct ct_pdf_stream {
  sink_t              sink;        /* cairo's file of the current chunk */
  char               *path;
  cairo_surface_t    *pdf;
  cairo_t            *cr;
  ct_picture_cache_t *pictures;
  unsigned            written;     /* pages drawn into the PDF */
  unsigned            chunk;       /* pages a chunk */
  unsigned            chunk_start; /* the first page of the current chunk */
  sink_t              out;         /* the joined file, from the second chunk on */
  ct_pdf_join_t      *join;
  ct_pdf_pass_t       report;      /* the chunks' passes: colors without ink, images, inks used */
  ct_write_options_t  opts;        /* its options; the strings below are owned copies */
  char               *strings[6];  /* plates, title, author, subject, keywords, creator */
  ct_ink_t            inks[CT_MAX_INKS];   /* the canvas's and the options' */
  unsigned            ninks;
};

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int length) {
  sink_t *s = closure;
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

static ct_status_t sink_open(sink_t *s, const char *path, ct_error_t *err) {
  memset(s, 0, sizeof *s);
  if (strcmp(path, "-") == 0) return CT_OK;
  /* read too: the PDF joiner checks a stream it finds again against the bytes written */
  if (!(s->file = ct_fs_fopen_temp(path, ".tmp-", "w+b", &s->tmp_path, err))) return err ? err->status : CT_ERR_IO;
  return CT_OK;
}

static void sink_abort(sink_t *s) {
  if (s->file) fclose(s->file);
  if (s->tmp_path) ct_fs_unlink(s->tmp_path);
  free(s->tmp_path);
  free(s->mem);
  memset(s, 0, sizeof *s);
}

static ct_status_t sink_commit(sink_t *s, const char *path, ct_error_t *err) {
  int e = s->failed;
  if (s->tmp_path) {
    if (s->file && fclose(s->file) != 0 && !e) e = errno;
    s->file = NULL;
    if (!e && ct_fs_rename(s->tmp_path, path, err) != CT_OK) {
      sink_abort(s);
      return err ? err->status : CT_ERR_IO;
    }
  } else if (!e) {
    if (fwrite(s->mem, 1, s->len, stdout) != s->len || fflush(stdout) != 0) e = errno ? errno : EIO;
  }
  if (e) {
    sink_abort(s);
    return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", path, strerror(e));
  }
  free(s->tmp_path);
  free(s->mem);
  memset(s, 0, sizeof *s);
  return CT_OK;
}

/* The inks a write prints with: the canvas's own, then the options' (by name, these win). */
typedef struct { ct_ink_t v[CT_MAX_INKS]; unsigned n; } inkset_t;

static ct_status_t merge_inks(const ct_canvas_t *c, const ct_write_options_t *o, inkset_t *s, ct_error_t *err) {
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

/* ---- the PDF pass (pdfpass.cc), plates (plates.c) ----------------------------- */

typedef struct {
  const inkset_t *inks;
  int             inks_only, overprint, cmyk;
  const char     *plates;
  double          dpi;
} pdf_finish_t;

static void finish_init(pdf_finish_t *f, const ct_write_options_t *o, const inkset_t *inks) {
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
static ct_status_t pass_report(const ct_canvas_t *c, const char *path, const pdf_finish_t *f,
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
static ct_status_t finish_pdf(sink_t *s, const ct_canvas_t *c, const char *path, const pdf_finish_t *f,
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
    if (f->plates || file_size(s->tmp_path) <= CT_PDF_PASS_IN_MEMORY) {
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

/* ---- formats ---------------------------------------------------------- */

/* pdf: print marks are left to the PDF pass (in the /All separation). */
static void paint_page(cairo_t *cr, const ct_page_t *page, ct_picture_cache_t *pictures, const inkset_t *inks,
                       int pdf) {
  cairo_save(cr);
  ct_page_replay(page, cr, pictures, inks ? inks->v : NULL, inks ? inks->n : 0);
  if (!pdf) ct_page_draw_marks(page, cr);
  cairo_restore(cr);
}

static ct_status_t cairo_failed(cairo_status_t s, const char *path, ct_error_t *err) {
  return ct_set_error(err, s == CAIRO_STATUS_NO_MEMORY ? CT_ERR_NOMEM : CT_ERR_BACKEND,
                      "%s: cannot render: %s", path, cairo_status_to_string(s));
}

/* The size in pixels of a page at `scale` pixels per point, within the limits. */
static ct_status_t image_size(const ct_page_t *pg, double scale, const char *what, int *wp, int *hp,
                              ct_error_t *err) {
  double w = ceil(pg->width * scale - 1e-6), h = ceil(pg->height * scale - 1e-6);
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  if (w > CT_MAX_IMAGE_SIDE || h > CT_MAX_IMAGE_SIDE || w * h > CT_MAX_IMAGE_PIXELS)
    return ct_set_error(err, CT_ERR_LIMIT, "%s: image of %.0fx%.0f pixels exceeds the limit "
                        "(%d per side, %.0f in all)", what, w, h, CT_MAX_IMAGE_SIDE,
                        (double)CT_MAX_IMAGE_PIXELS);
  *wp = (int)w;
  *hp = (int)h;
  return CT_OK;
}

/* The bands of a page (bands.c: the same pixels for any thread count). */
static ct_status_t page_bands(const ct_page_t *pg, int w, int h, double scale, const inkset_t *inks,
                              unsigned threads, const char *what, ct_bands_t **out, ct_error_t *err) {
  ct_error_t e;
  if (!(*out = ct_bands_create(pg, w, h, scale, inks ? inks->v : NULL, inks ? inks->n : 0, threads, &e)))
    return ct_set_error(err, e.status, "%s: %s", what, e.message);
  return CT_OK;
}

/* Draws the bands into a new image surface. */
static ct_status_t draw_image(ct_bands_t *b, int w, int h, const char *what, unsigned threads, cairo_surface_t **out,
                              ct_error_t *err) {
  cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  cairo_status_t s;
  ct_status_t st;
  ct_error_t e;
  if ((s = cairo_surface_status(img)) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(img);
    return cairo_failed(s, what, err);
  }
  if ((st = ct_bands_draw_image(b, img, threads, &e)) != CT_OK) {
    cairo_surface_destroy(img);
    return ct_set_error(err, st, "%s: %s", what, e.message);
  }
  *out = img;
  return CT_OK;
}

/* Renders a page into a new image surface at `scale` pixels per point, in bands on
   `threads` threads. */
static ct_status_t render_image(ct_canvas_t *c, unsigned page, double scale, const char *what,
                                const inkset_t *inks, unsigned threads, cairo_surface_t **out, ct_error_t *err) {
  const ct_page_t *pg = &c->pages[page];
  ct_bands_t *b;
  ct_status_t st;
  int w, h;
  if ((st = image_size(pg, scale, what, &w, &h, err)) != CT_OK) return st;
  if ((st = page_bands(pg, w, h, scale, inks, threads, what, &b, err)) != CT_OK) return st;
  st = draw_image(b, w, h, what, threads, out, err);
  ct_bands_destroy(b);
  return st;
}

ct_status_t ct_canvas_render_image(ct_canvas_t *c, unsigned page, double scale, cairo_surface_t **out,
                                   ct_error_t *err) {
  if (page >= c->npages)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u out of range (the canvas has %u)", page + 1, c->npages);
  if (page < c->cleared)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u was written as a stream and its drawing freed", page + 1);
  if (!(scale > 0 && scale * 72 <= CT_MAX_DPI)) return ct_set_error(err, CT_ERR_INVALID_ARG, "dpi out of range");
  /* one thread: animations draw their frames in several processes already */
  return render_image(c, page, scale, "frame", NULL, 1, out, err);
}

static ct_status_t write_png(ct_canvas_t *c, unsigned page, const char *path,
                             const ct_write_options_t *o, const inkset_t *inks, sink_t *sink, ct_error_t *err) {
  const ct_page_t *pg = &c->pages[page];
  double scale = o->width_px > 0 ? o->width_px / pg->width : o->dpi / 72.0;
  unsigned threads = o->threads ? o->threads : ct_get_threads();
  cairo_surface_t *img;
  cairo_status_t s;
  ct_bands_t *b;
  ct_status_t st;
  int w, h;
  if ((st = image_size(pg, scale, path, &w, &h, err)) != CT_OK) return st;
  if ((st = page_bands(pg, w, h, scale, inks, threads, path, &b, err)) != CT_OK) return st;
  /* a page with a background: compressed band by band as it is drawn; else drawn whole */
  if (!ct_png_write_bands(b, w, h, threads, sink_write, sink, &s)) {
    st = draw_image(b, w, h, path, threads, &img, err);
    if (st == CT_OK) {
      s = ct_png_write(img, threads, sink_write, sink);
      cairo_surface_destroy(img);
    }
  } else if (s == CAIRO_STATUS_SUCCESS && ct_bands_status(b) != CAIRO_STATUS_SUCCESS) {
    s = (cairo_status_t)ct_bands_status(b);
  }
  ct_bands_destroy(b);
  if (st != CT_OK) return st;
  if (s != CAIRO_STATUS_SUCCESS && !sink->failed) return cairo_failed(s, path, err);
  return CT_OK;
}

ct_status_t ct_canvas_rasterize(ct_canvas_t *c, unsigned page, double dpi, int *width, int *height,
                                uint64_t *hash, ct_error_t *err) {
  cairo_surface_t *img;
  ct_status_t st;
  const unsigned char *data;
  int w, h, stride, y, x;
  uint64_t hv = 1469598103934665603u;
  if (page >= c->npages)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u out of range (the canvas has %u)", page + 1, c->npages);
  if (page < c->cleared)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u was written as a stream and its drawing freed", page + 1);
  if (!(dpi > 0 && dpi <= CT_MAX_DPI)) return ct_set_error(err, CT_ERR_INVALID_ARG, "dpi out of range");
  if ((st = render_image(c, page, dpi / 72.0, "rasterize", NULL, ct_get_threads(), &img, err)) != CT_OK) return st;
  cairo_surface_flush(img);
  w = cairo_image_surface_get_width(img);
  h = cairo_image_surface_get_height(img);
  stride = cairo_image_surface_get_stride(img);
  data = cairo_image_surface_get_data(img);
  for (y = 0; y < h; y++)
    for (x = 0; x < w * 4; x++) hv = (hv ^ data[(size_t)y * (size_t)stride + (size_t)x]) * 1099511628211u;
  cairo_surface_destroy(img);
  if (width) *width = w;
  if (height) *height = h;
  if (hash) *hash = hv;
  return CT_OK;
}

/* cairo names SVG elements after process-wide surface ids ("surface42", "image7"), so
   the same page written twice would differ: renumber them by first appearance. */
static int renumber_ids(const char *in, size_t len, sink_t *out) {
  static const char *const words[] = { "surface", "image" };
  unsigned long seen[2][256];
  unsigned nseen[2] = { 0, 0 };
  size_t i = 0, start = 0;
  while (i < len) {
    unsigned w;
    int matched = 0;
    for (w = 0; w < 2 && !matched; w++) {
      size_t n = strlen(words[w]), j;
      unsigned long id = 0;
      unsigned k;
      char num[32];
      if (len - i <= n || memcmp(in + i, words[w], n) != 0) continue;
      if (i > 0 && (in[i - 1] == '_' || (in[i - 1] >= 'a' && in[i - 1] <= 'z'))) continue;
      for (j = i + n; j < len && in[j] >= '0' && in[j] <= '9' && j - i - n < 12; j++)
        id = id * 10 + (unsigned long)(in[j] - '0');
      if (j == i + n) continue;
      for (k = 0; k < nseen[w] && seen[w][k] != id; k++) {}
      if (k == nseen[w]) {
        if (nseen[w] == 256) return -1;   /* too many to renumber: leave as is */
        seen[w][nseen[w]++] = id;
      }
      snprintf(num, sizeof num, "%s%u", words[w], k + 1);
      sink_write(out, (const unsigned char *)in + start, (unsigned)(i - start));
      sink_write(out, (const unsigned char *)num, (unsigned)strlen(num));
      i = start = j;
      matched = 1;
    }
    if (!matched) i++;
  }
  sink_write(out, (const unsigned char *)in + start, (unsigned)(len - start));
  return 0;
}

static ct_status_t write_svg(ct_canvas_t *c, unsigned page, const char *path, const inkset_t *inks,
                             sink_t *out, ct_error_t *err) {
  sink_t mem, *sink = &mem;
  cairo_surface_t *svg;
  memset(&mem, 0, sizeof mem);
  svg = cairo_svg_surface_create_for_stream(sink_write, sink, c->pages[page].width, c->pages[page].height);
  cairo_t *cr;
  cairo_status_t s;
  cairo_svg_surface_restrict_to_version(svg, CAIRO_SVG_VERSION_1_1);
  cairo_svg_surface_set_document_unit(svg, CAIRO_SVG_UNIT_PT);
  cr = cairo_create(svg);
  /* no shared recordings: cairo 1.16's SVG surface never frees a recording used as a source */
  paint_page(cr, &c->pages[page], NULL, inks, 0);
  s = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(svg);
  if (s == CAIRO_STATUS_SUCCESS) s = cairo_surface_status(svg);
  cairo_surface_destroy(svg);
  if (s == CAIRO_STATUS_SUCCESS && mem.failed) s = CAIRO_STATUS_NO_MEMORY;
  if (s != CAIRO_STATUS_SUCCESS) {
    free(mem.mem);
    return cairo_failed(s, path, err);
  }
  {
    sink_t fixed;
    memset(&fixed, 0, sizeof fixed);
    if (renumber_ids(mem.mem, mem.len, &fixed) == 0 && !fixed.failed)
      sink_write(out, (const unsigned char *)fixed.mem, (unsigned)fixed.len);
    else
      sink_write(out, (const unsigned char *)mem.mem, (unsigned)mem.len);
    free(fixed.mem);
  }
  free(mem.mem);
  return CT_OK;
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

static ct_status_t write_pdf(ct_canvas_t *c, const char *path, const ct_write_options_t *o,
                             const inkset_t *inks, sink_t *sink, ct_error_t *err) {
  cairo_surface_t *pdf = cairo_pdf_surface_create_for_stream(sink_write, sink, c->pages[0].width,
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
    paint_page(cr, &c->pages[i], pictures, inks, 1);
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
  if (s != CAIRO_STATUS_SUCCESS && !sink->failed) return cairo_failed(s, path, err);
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
  if ((rc = sink_open(&st->sink, st->path, err)) != CT_OK) return rc;
  st->pdf = cairo_pdf_surface_create_for_stream(sink_write, &st->sink, page->width, page->height);
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
    sink_abort(&st->sink);
    return cairo_failed(s, st->path, err);
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
  if (s != CAIRO_STATUS_SUCCESS) return cairo_failed(s, st->path, err);
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
    if ((rc = sink_open(&st->out, st->path, err)) != CT_OK) goto done;
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
  if (file_size(st->sink.tmp_path) <= CT_PDF_PASS_IN_MEMORY && (mem = read_whole(st->sink.tmp_path, &len)))
    rc = ct_pdf_pass(NULL, mem, len, out_file, st->path, NULL, NULL, &pass, err);
  else
    rc = ct_pdf_pass(st->sink.tmp_path, NULL, 0, out_file, st->path, NULL, NULL, &pass, err);
  rc = close_pass_file(&out_file, st->path, rc, err);
  free(mem);
  sink_abort(&st->sink);   /* cairo's file is done with */
  if (rc != CT_OK) goto done;
  report_merge(&st->report, &pass);
  if (st->opts.inks_only && st->ninks > 0 && (st->report.nprocess > 0 || st->report.images > 0)) {
    /* --inks-only fails at the first chunk that paints in process, not after the last */
    inkset_t inks;
    pdf_finish_t fin;
    memcpy(inks.v, st->inks, st->ninks * sizeof *inks.v);
    inks.n = st->ninks;
    finish_init(&fin, &st->opts, &inks);
    rc = pass_report(c, st->path, &fin, &st->report, err);
    goto done;
  }
  rc = ct_pdf_join_add(st->join, out_tmp, err);
done:
  sink_abort(&st->sink);
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
  inkset_t inks;
  ct_status_t rc;
  if (c->stream) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: the canvas is written to %s already", path,
                                     ((struct ct_pdf_stream *)c->stream)->path);
  if (strcmp(path, "-") == 0) return ct_set_error(err, CT_ERR_INVALID_ARG, "-: a PDF stream needs a file");
  if (!opts) {
    ct_write_options_init(&defaults);
    opts = &defaults;
  }
  if ((rc = merge_inks(c, opts, &inks, err)) != CT_OK) return rc;
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
    inkset_t inks;
    if (st->written - st->chunk_start == st->chunk) {   /* a page more: the chunk is full */
      if ((rc = chunk_finish(c, err)) != CT_OK || (rc = chunk_open(st, pg, err)) != CT_OK) return rc;
    }
    memcpy(inks.v, st->inks, st->ninks * sizeof *inks.v);
    inks.n = st->ninks;
    cairo_pdf_surface_set_size(st->pdf, pg->width, pg->height);
    paint_page(st->cr, pg, st->pictures, &inks, 1);
    if (!st->opts.no_text_layer) ct_page_text_layer(pg, st->cr);
    cairo_show_page(st->cr);
    ct_page_clear(pg);
    st->written++;
    c->cleared = st->written;
  }
  s = cairo_status(st->cr);
  if (s != CAIRO_STATUS_SUCCESS) {
    if (st->sink.failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", st->path, strerror(st->sink.failed));
    return cairo_failed(s, st->path, err);
  }
  return CT_OK;
}

void ct_pdf_stream_abort(ct_canvas_t *c) {
  struct ct_pdf_stream *st = c->stream;
  if (!st) return;
  if (st->cr) cairo_destroy(st->cr);
  st->cr = NULL;
  if (st->pdf) cairo_surface_finish(st->pdf);
  sink_abort(&st->sink);
  sink_abort(&st->out);
  stream_free(c);
}

ct_status_t ct_canvas_finish(ct_canvas_t *c, ct_error_t *err) {
  struct ct_pdf_stream *st = c->stream;
  ct_status_t rc;
  inkset_t inks;
  pdf_finish_t fin;
  if (!st) return ct_set_error(err, CT_ERR_INVALID_ARG, "the canvas is not written as a stream");
  memcpy(inks.v, st->inks, st->ninks * sizeof *inks.v);
  inks.n = st->ninks;
  finish_init(&fin, &st->opts, &inks);
  rc = ct_pdf_stream_flush(c, c->npages, err);
  if (st->join) {   /* several chunks: the last one joined, then the end of the file */
    if (rc == CT_OK) rc = chunk_finish(c, err);
    if (rc == CT_OK) rc = ct_pdf_join_finish(st->join, err);
    if (rc == CT_OK) rc = pass_report(c, st->path, &fin, &st->report, err);
    if (rc == CT_OK) rc = sink_commit(&st->out, st->path, err);
    ct_pdf_stream_abort(c);   /* what is left: nothing, or the temporaries after an error */
    return rc;
  }
  if (st->cr) {
    ct_status_t closed = chunk_close_cairo(st, err);
    if (rc == CT_OK) rc = closed;
  }
  if (rc == CT_OK) rc = finish_pdf(&st->sink, c, st->path, &fin, err);
  if (rc == CT_OK) rc = sink_commit(&st->sink, st->path, err);
  ct_pdf_stream_abort(c);
  return rc;
}

/* "poster.png", page 2 -> "poster-2.png". */
static char *page_path(const char *path, unsigned page) {
  const char *dot = strrchr(path, '.');
  size_t n = strlen(path), stem = dot && !strchr(dot, '/') ? (size_t)(dot - path) : n;
  char *p = malloc(n + 16);
  if (p) snprintf(p, n + 16, "%.*s-%u%s", (int)stem, path, page + 1, path + stem);
  return p;
}

/* Plates of a canvas written as PNG (or SVG): from a PDF of it made in memory. */
static ct_status_t raster_plates(ct_canvas_t *c, const ct_write_options_t *o, const inkset_t *inks,
                                 ct_output_t fmt, ct_error_t *err) {
  sink_t mem;
  ct_pdf_pass_t pass;
  ct_pdf_page_t *pages;
  double *marks = NULL;
  ct_write_options_t po = *o;
  ct_status_t st;
  memset(&mem, 0, sizeof mem);
  po.no_text_layer = 1;
  if ((st = write_pdf(c, o->plates, &po, inks, &mem, err)) != CT_OK || mem.failed) {
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

ct_status_t ct_canvas_write(ct_canvas_t *c, const char *path, const ct_write_options_t *opts,
                            ct_error_t *err) {
  ct_write_options_t defaults;
  ct_output_t fmt;
  unsigned i, n;
  ct_status_t st = CT_OK;
  inkset_t inks;
  pdf_finish_t fin;

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

  if ((st = merge_inks(c, opts, &inks, err)) != CT_OK) return st;
  if (opts->plates && inks.n == 0)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: plates need inks (--ink NAME=#RRGGBB, or the document's <ink>)", path);
  finish_init(&fin, opts, &inks);

  /* PDF holds every page; PNG and SVG hold one, so several pages make several files. */
  n = fmt == CT_OUTPUT_PDF || c->npages == 1 || strcmp(path, "-") == 0 ? 1 : c->npages;
  for (i = 0; i < n && st == CT_OK; i++) {
    char *name = n > 1 ? page_path(path, i) : NULL;
    const char *target = name ? name : path;
    sink_t sink;
    if (n > 1 && !name) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    st = sink_open(&sink, target, err);
    if (st == CT_OK) {
      switch (fmt) {
      case CT_OUTPUT_PDF: st = write_pdf(c, target, opts, &inks, &sink, err); break;
      case CT_OUTPUT_SVG: st = write_svg(c, i, target, &inks, &sink, err); break;
      default: st = write_png(c, i, target, opts, &inks, &sink, err); break;
      }
      if (st == CT_OK && fmt == CT_OUTPUT_PDF) st = finish_pdf(&sink, c, target, &fin, err);
      if (st == CT_OK) st = sink_commit(&sink, target, err);
      else sink_abort(&sink);
    }
    free(name);
  }
  if (st == CT_OK && opts->plates && fmt != CT_OUTPUT_PDF) st = raster_plates(c, opts, &inks, fmt, err);
  return st;
}
