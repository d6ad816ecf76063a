/*
** plates.c: one plate per spot ink, as a risograph or screen-print shop wants them: the
** ink's tints as gray (black is full ink) with crop and registration marks, written as
** PDF (vector, from the PDF pass) or PNG (that PDF rasterized by Ghostscript, gs.c), and
** preview.png, the plates printed over each other (each ink multiplies the paper).
** Write stage (PDF); called by write/output-pdf.c with the PDF cairo wrote.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdf.h"

/* A file name for an ink: letters, digits, '-', '_', '.' and UTF-8 kept; spaces become
   '-'; anything else '_'. */
static void ink_file_name(const char *ink, char *out, size_t size) {
  size_t i, n = 0;
  for (i = 0; ink[i] && n + 1 < size; i++) {
    unsigned char c = (unsigned char)ink[i];
    if (c == ' ') c = '-';
    else if (!(c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_' || (c == '.' && i > 0)))
      c = '_';
    out[n++] = (char)c;
  }
  out[n] = '\0';
}

static cairo_status_t mem_write(void *closure, const unsigned char *data, unsigned int length) {
  struct { char *p; size_t len, cap; } *m = closure;
  if (m->len + length > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 65536;
    char *p;
    while (cap < m->len + length) cap *= 2;
    if (!(p = realloc(m->p, cap))) return CAIRO_STATUS_NO_MEMORY;
    m->p = p;
    m->cap = cap;
  }
  memcpy(m->p + m->len, data, length);
  m->len += length;
  return CAIRO_STATUS_SUCCESS;
}

static ct_status_t write_png_file(const char *path, cairo_surface_t *img, ct_error_t *err) {
  struct { char *p; size_t len, cap; } m = { NULL, 0, 0 };
  ct_status_t st;
  if (ct_png_write(img, ct_get_threads(), mem_write, &m) != CAIRO_STATUS_SUCCESS) {
    free(m.p);
    return ct_set_error(err, CT_ERR_NOMEM, "%s: cannot encode the PNG", path);
  }
  st = ct_file_write_atomic(path, m.p, m.len, err);
  free(m.p);
  return st;
}

/* "dir/name.ext", or "dir/name-N.ext" for page N of several. */
static char *plate_path(const char *dir, const char *name, unsigned page, unsigned npages, const char *ext) {
  size_t n = strlen(dir) + strlen(name) + strlen(ext) + 24;
  char *p = malloc(n);
  if (!p) return NULL;
  if (npages > 1) snprintf(p, n, "%s/%s-%u.%s", dir, name, page + 1, ext);
  else snprintf(p, n, "%s/%s.%s", dir, name, ext);
  return p;
}

/* The pages of the plate PDF `pdf` rasterized in gray by Ghostscript at `dpi`, as
   "PREFIX-N.png" files (N from 1); the number of pages in *npages. */
static ct_status_t rasterize(const char *pdf, const char *prefix, double dpi, const char *ink, unsigned *npages,
                             ct_error_t *err) {
  char out[4300], res[64], why[256];
  const char *args[] = { "-sDEVICE=pnggray", res, "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4", out, pdf, NULL };
  unsigned n = 0;
  snprintf(res, sizeof res, "-r%g", dpi);
  snprintf(out, sizeof out, "-sOutputFile=%s-%%d.png", prefix);
  if (ct_gs_run(args, "plates", why, sizeof why) != 0)
    return ct_set_error(err, CT_ERR_BACKEND, "plate '%s': %s", ink, why);
  for (;;) {
    char path[4400];
    snprintf(path, sizeof path, "%s-%u.png", prefix, n + 1);
    if (access(path, F_OK) != 0) break;
    n++;
  }
  *npages = n;
  return n ? CT_OK : ct_set_error(err, CT_ERR_BACKEND, "plate '%s': Ghostscript drew no page", ink);
}

/* preview *= the plate's ink: 1 - coverage (1 - color), per channel. */
static void multiply_ink(cairo_surface_t *preview, cairo_surface_t *plate, const ct_rgba_t *ink) {
  int w = cairo_image_surface_get_width(preview), h = cairo_image_surface_get_height(preview);
  int pw = cairo_image_surface_get_width(plate), ph = cairo_image_surface_get_height(plate);
  int ps = cairo_image_surface_get_stride(preview), ss = cairo_image_surface_get_stride(plate);
  unsigned char *pd = cairo_image_surface_get_data(preview), *sd = cairo_image_surface_get_data(plate);
  int x, y;
  for (y = 0; y < h && y < ph; y++) {
    uint32_t *row = (uint32_t *)(void *)(pd + (size_t)y * (size_t)ps);
    const uint32_t *src = (const uint32_t *)(const void *)(sd + (size_t)y * (size_t)ss);
    for (x = 0; x < w && x < pw; x++) {
      double cover = 1 - (src[x] & 0xff) / 255.0;   /* gray plate: the blue byte will do */
      double f[3] = { 1 - cover * (1 - ink->r), 1 - cover * (1 - ink->g), 1 - cover * (1 - ink->b) };
      uint32_t v = row[x];
      unsigned r = (unsigned)lround(((v >> 16) & 0xff) * f[0]), g = (unsigned)lround(((v >> 8) & 0xff) * f[1]),
               b = (unsigned)lround((v & 0xff) * f[2]);
      row[x] = 0xff000000u | r << 16 | g << 8 | b;
    }
  }
  cairo_surface_mark_dirty(preview);
}

ct_status_t ct_plates_write(const char *dir, const void *pdf, size_t len, ct_pdf_pass_t *base, int png,
                            double dpi, int width_px, ct_error_t *err) {
  cairo_surface_t **previews = NULL;
  unsigned k, i, npreview = 0;
  ct_status_t st = CT_OK;
  struct stat sb;
  char prefix[4200], platepdf[4300];
  int fd;

  if (ct_fs_restricted())
    return ct_set_error(err, CT_ERR_DENIED, "sandbox: %s: plates are drawn by Ghostscript, a program a sandboxed run does not "
                        "start (render without --plates, or make the plates outside the sandbox)", dir);
  if (!png && dpi < 150) dpi = 150;   /* the preview of a PDF */
  if (png && width_px > 0 && base->npages > 0) dpi = width_px * 72.0 / base->pages[0].width;
  if (stat(dir, &sb) != 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
    return ct_set_error(err, CT_ERR_IO, "%s: cannot make the plates' directory: %s", dir, strerror(errno));
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
    return ct_set_error(err, CT_ERR_IO, "%s: not a directory (plates go there)", dir);
  if (base->ink_count == 0) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: plates need inks (--ink NAME=#RRGGBB)", dir);
  /* scratch names in the directory: the gray pages Ghostscript draws */
  snprintf(prefix, sizeof prefix, "%s/.plates-XXXXXX", dir);
  if ((fd = mkstemp(prefix)) < 0)
    return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", dir, strerror(errno));
  close(fd);
  snprintf(platepdf, sizeof platepdf, "%s.pdf", prefix);

  for (k = 0; k < base->ink_count && st == CT_OK; k++) {
    ct_pdf_pass_t pass = *base;
    char *mem = NULL, name[CT_INK_NAME_MAX * 2 + 8];
    size_t mlen = 0;
    unsigned npages = 0;
    pass.plate = (int)k;
    ink_file_name(base->inks[k].name, name, sizeof name);
    if ((st = ct_pdf_pass(NULL, pdf, len, NULL, dir, &mem, &mlen, &pass, err)) != CT_OK) break;
    if (!png) {
      char *path = plate_path(dir, name, 0, 1, "pdf");
      st = path ? ct_file_write_atomic(path, mem, mlen, err) : ct_set_error(err, CT_ERR_NOMEM, "out of memory");
      free(path);
    }
    if (st == CT_OK) st = ct_file_write_atomic(platepdf, mem, mlen, err);
    free(mem);
    if (st == CT_OK) st = rasterize(platepdf, prefix, dpi, base->inks[k].name, &npages, err);
    if (st == CT_OK && !previews) {
      npreview = npages;
      if (!(previews = calloc(npreview, sizeof *previews))) st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    }
    for (i = 0; i < npages; i++) {
      char page[4400];
      snprintf(page, sizeof page, "%s-%u.png", prefix, i + 1);
      if (st == CT_OK && i < npreview) {
        cairo_surface_t *img = cairo_image_surface_create_from_png(page);
        if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
          st = ct_set_error(err, CT_ERR_BACKEND, "plate '%s', page %u: cannot read back", base->inks[k].name, i + 1);
        } else {
          if (!previews[i]) {
            cairo_t *cr;
            previews[i] = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(img),
                                                     cairo_image_surface_get_height(img));
            cr = cairo_create(previews[i]);
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_paint(cr);
            cairo_destroy(cr);
            cairo_surface_flush(previews[i]);
          }
          multiply_ink(previews[i], img, &base->inks[k].color);
        }
        cairo_surface_destroy(img);
      }
      if (st == CT_OK && png) {   /* Ghostscript's gray PNG is the plate */
        char *path = plate_path(dir, name, i, npages, "png");
        if (!path) st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
        else st = ct_fs_rename(page, path, err);
        free(path);
      }
      unlink(page);
    }
  }
  unlink(platepdf);
  unlink(prefix);
  for (i = 0; i < npreview; i++) {
    if (st == CT_OK && previews[i]) {
      char *path = plate_path(dir, "preview", i, npreview, "png");
      st = path ? write_png_file(path, previews[i], err) : ct_set_error(err, CT_ERR_NOMEM, "out of memory");
      free(path);
    }
    if (previews[i]) cairo_surface_destroy(previews[i]);
  }
  free(previews);
  return st;
}
