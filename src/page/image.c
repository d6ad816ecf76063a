/*
** image.c: picture files for canvases (ct_canvas_draw_image): PNG through cairo; JPEG, GIF,
** BMP, TIFF and WebP through gdk-pixbuf; SVG through svg-sanitize.c's sanitizer and librsvg.  Each
** file is decoded once, sized before any large allocation, and drawn into a box.  Page
** stage: knows glyphs, text and paint; of the writers only its sink.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <librsvg/rsvg.h>

#include "page.h"

struct ct_image {
  int              ref;
  char            *key;       /* the file's real path: the canvas finds images by it */
  double           width;     /* natural size, points */
  double           height;
  cairo_surface_t *surface;   /* a raster, or NULL */
  RsvgHandle      *svg;       /* a vector picture, or NULL */
  size_t           charged;   /* bytes charged to --max-memory (base/memory.c) */
};

ct_image_t *ct_image_reference(ct_image_t *img) {
  if (img) img->ref++;
  return img;
}

void ct_image_destroy(ct_image_t *img) {
  if (!img || --img->ref > 0) return;
  if (img->surface) cairo_surface_destroy(img->surface);
  if (img->svg) g_object_unref(img->svg);
  free(img->key);
  ct_mem_release(img->charged);
  free(img);
}

const char *ct_image_get_key(const ct_image_t *img) { return img->key; }

void ct_image_get_size(const ct_image_t *img, double *width, double *height) {
  *width = img->width;
  *height = img->height;
}

/* ---- reading ------------------------------------------------------------- */

/* The whole file, at most CT_MAX_IMAGE_FILE_SIZE bytes; NULL with `err` filled. */
static unsigned char *read_file(const char *path, const char *name, size_t *len, ct_error_t *err) {
  FILE *f = ct_fs_fopen_read(path, err);
  struct stat sb;
  unsigned char *buf = NULL;
  if (!f) return NULL;
  if (fstat(fileno(f), &sb) != 0) {
    ct_set_error(err, CT_ERR_IO, "%s: cannot open: %s", name, strerror(errno));
    goto fail;
  }
  if (S_ISDIR(sb.st_mode)) {
    ct_set_error(err, CT_ERR_IO, "%s: cannot open: %s", name, strerror(EISDIR));
    goto fail;
  }
  if (!S_ISREG(sb.st_mode)) {
    ct_set_error(err, CT_ERR_IO, "%s: cannot open: not a regular file", name);
    goto fail;
  }
  if ((uintmax_t)sb.st_size > CT_MAX_IMAGE_FILE_SIZE) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: file of %jd bytes exceeds the limit of %u bytes for images",
                 name, (intmax_t)sb.st_size, CT_MAX_IMAGE_FILE_SIZE);
    goto fail;
  }
  *len = (size_t)sb.st_size;
  if (!(buf = malloc(*len ? *len : 1))) {
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto fail;
  }
  if (fread(buf, 1, *len, f) != *len) {
    ct_set_error(err, CT_ERR_IO, "%s: cannot read: %s", name, ferror(f) ? strerror(errno) : "file changed size");
    free(buf);
    buf = NULL;
  }
fail:
  fclose(f);
  return buf;
}

typedef enum { KIND_NONE, KIND_PNG, KIND_PIXBUF, KIND_SVG } kind_t;

/* What the bytes are, by their signature; `loader` names the gdk-pixbuf loader.  Only
   these loaders are used: gdk-pixbuf also has an SVG loader, which would skip our
   sanitizer, and loaders for formats nobody needs here. */
static kind_t sniff(const unsigned char *d, size_t n, const char **loader) {
  size_t i = 0;
  *loader = NULL;
  if (n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return KIND_PNG;
  if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) *loader = "jpeg";
  else if (n >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0)) *loader = "gif";
  else if (n >= 14 && d[0] == 'B' && d[1] == 'M') *loader = "bmp";
  else if (n >= 4 && (memcmp(d, "II*\0", 4) == 0 || memcmp(d, "MM\0*", 4) == 0)) *loader = "tiff";
  else if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) *loader = "webp";
  if (*loader) return KIND_PIXBUF;
  if (n >= 2 && d[0] == 0x1F && d[1] == 0x8B) return KIND_SVG;   /* .svgz */
  if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) i = 3;   /* UTF-8 BOM */
  while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
  if (i < n && d[i] == '<') return KIND_SVG;
  return KIND_NONE;
}

/* A raster of w x h pixels within the limits; else fills `err`. */
static int size_ok(double w, double h, const char *name, ct_error_t *err) {
  if (w > CT_MAX_IMAGE_SIDE || h > CT_MAX_IMAGE_SIDE || w * h > CT_MAX_IMAGE_FILE_PIXELS) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: image of %.0fx%.0f pixels exceeds the limit (%d per side, "
                 "%.0f in all)", name, w, h, CT_MAX_IMAGE_SIDE, (double)CT_MAX_IMAGE_FILE_PIXELS);
    return 0;
  }
  return 1;
}

/* Gives the surface the file's bytes as mime data (PDF and SVG output embed them as they
   are); the surface frees its copy. */
static void attach_mime(cairo_surface_t *s, const char *type, const unsigned char *d, size_t n) {
  unsigned char *copy = malloc(n ? n : 1);
  if (!copy) return;   /* only an optimization */
  memcpy(copy, d, n);
  if (cairo_surface_set_mime_data(s, type, copy, n, free, copy) != CAIRO_STATUS_SUCCESS) free(copy);
}

/* ---- PNG ---------------------------------------------------------------------- */

typedef struct { const unsigned char *p; size_t left; } reader_t;

static cairo_status_t read_mem(void *closure, unsigned char *data, unsigned int length) {
  reader_t *r = closure;
  if (length > r->left) return CAIRO_STATUS_READ_ERROR;
  memcpy(data, r->p, length);
  r->p += length;
  r->left -= length;
  return CAIRO_STATUS_SUCCESS;
}

static uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static ct_status_t load_png(ct_image_t *img, const unsigned char *d, size_t n, const char *name,
                            ct_error_t *err) {
  reader_t r = { d, n };
  cairo_surface_t *s;
  cairo_status_t cs;
  uint32_t w, h;
  /* the size from the header, before libpng allocates anything */
  if (n < 33 || memcmp(d + 12, "IHDR", 4) != 0)
    return ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: corrupt PNG (no image header)", name);
  w = rd32(d + 16);
  h = rd32(d + 20);
  if (w == 0 || h == 0)
    return ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: corrupt PNG (size %ux%u)", name, (unsigned)w, (unsigned)h);
  if (!size_ok(w, h, name, err)) return CT_ERR_LIMIT;
  s = cairo_image_surface_create_from_png_stream(read_mem, &r);
  if ((cs = cairo_surface_status(s)) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    if (cs == CAIRO_STATUS_NO_MEMORY) return ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
    return ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: corrupt or truncated PNG (%s)", name,
                        cairo_status_to_string(cs));
  }
  img->surface = s;   /* cairo keeps the PNG's bytes as its mime data (SVG output embeds them) */
  img->width = cairo_image_surface_get_width(s);
  img->height = cairo_image_surface_get_height(s);
  return CT_OK;
}

/* ---- gdk-pixbuf --------------------------------------------------------------- */

typedef struct { int width, height, too_big; } size_probe_t;

/* "size-prepared": the loader knows the size and has not allocated the pixels yet.  A size
   over the limits becomes 0 x 0, which makes the loaders stop (gdk_pixbuf_get_file_info
   relies on the same). */
static void on_size_prepared(GdkPixbufLoader *loader, gint width, gint height, gpointer data) {
  size_probe_t *p = data;
  p->width = width;
  p->height = height;
  if (!size_ok(width, height, "", NULL)) {
    p->too_big = 1;
    gdk_pixbuf_loader_set_size(loader, 0, 0);
  }
}

/* The number of components of a JPEG's frame (from its SOFn marker), or 0. */
static int jpeg_components(const unsigned char *d, size_t n) {
  size_t i = 2;
  while (i + 4 <= n && d[i] == 0xFF) {
    unsigned m = d[i + 1], len = (unsigned)(d[i + 2] << 8 | d[i + 3]);
    if (m == 0xFF) { i++; continue; }   /* fill byte */
    if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC)
      return i + 9 < n ? d[i + 9] : 0;
    if (m == 0xD9 || m == 0xDA) break;  /* end of image, start of scan */
    i += 2 + len;
  }
  return 0;
}

static const char *format_name(const char *type) {
  return strcmp(type, "jpeg") == 0 ? "JPEG" : strcmp(type, "gif") == 0 ? "GIF" :
         strcmp(type, "bmp") == 0 ? "BMP" : strcmp(type, "tiff") == 0 ? "TIFF" : "WebP";
}

/* ---- declared sizes, before any decoder allocates ------------------------------- */

static uint32_t le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return le16(p) | le16(p + 2) << 16; }
static uint32_t be16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* BMP: the header's size must be one the formats define and lie in the file, and so must
   the pixels' offset (gdk-pixbuf grows a buffer to either before it knows the size: a
   71-byte file asked for 4.2 GB); the width positive, the height not 0 (negative: rows top
   down).  The palette a colors-used count declares follows the header, so it lies in the
   file too (the loader reads that many entries first: 0xFF0000FF asked for 4.2 GB).  OS/2
   1.x headers (12 bytes) hold 16-bit sides, the others 32-bit. */
static const char *bmp_size(const unsigned char *d, size_t n, double *w, double *h) {
  uint32_t hs, off;
  int32_t sw, sh;
  if (n < 26) return "truncated header";
  hs = le32(d + 14);
  off = le32(d + 10);
  if (hs != 12 && hs != 16 && hs != 40 && hs != 52 && hs != 56 && hs != 64 && hs != 108 && hs != 124)
    return "unknown header size";
  if (hs > n - 14) return "truncated header";
  if (off > n || off < 14 + hs) return "pixel data offset outside the file";
  if (hs == 12) {
    *w = le16(d + 18);
    *h = le16(d + 20);
    return *w > 0 && *h > 0 ? NULL : "size 0";
  }
  if (hs >= 40 && (uint64_t)le32(d + 46) * 4 > n - 14 - hs)
    return "palette outside the file";                     /* its colors-used count */
  sw = (int32_t)le32(d + 18);
  sh = (int32_t)le32(d + 22);
  if (sw <= 0 || sh == 0 || sh == INT32_MIN) return "bad size";
  *w = sw;
  *h = sh < 0 ? -(double)sh : sh;
  return NULL;
}

/* GIF: the logical screen, and every image in it: gdk-pixbuf allocates each frame by its own
   image descriptor, which may be far larger than the screen (a 75-byte file of a 2 x 1
   screen claimed a frame of 26478 x 11776 pixels, found by fuzz-image).  The blocks are
   walked as the loader walks them, stray bytes between them skipped. */
static const char *gif_size(const unsigned char *d, size_t n, double *w, double *h) {
  size_t i = 13;
  if (n < 13) return "truncated header";
  *w = le16(d + 6);
  *h = le16(d + 8);
  if (d[10] & 0x80) i += 3u << ((d[10] & 7) + 1);          /* the global color table */
  while (i < n && d[i] != 0x3B) {
    if (d[i] == 0x2C) {                                     /* an image */
      if (i + 10 > n) break;
      if (le16(d + i + 5) > *w) *w = le16(d + i + 5);
      if (le16(d + i + 7) > *h) *h = le16(d + i + 7);
      if (d[i + 9] & 0x80) i += 3u << ((d[i + 9] & 7) + 1);
      i += 11;                                              /* and the LZW code size */
    } else if (d[i] == 0x21) {
      i += 2;                                               /* an extension */
    } else {
      i++;                                                  /* no block starts here */
      continue;
    }
    while (i < n && d[i]) i += 1u + d[i];                   /* data sub-blocks */
    i++;
  }
  return *w > 0 && *h > 0 ? NULL : "size 0";
}

/* JPEG: the frame header (SOFn). */
static const char *jpeg_size(const unsigned char *d, size_t n, double *w, double *h) {
  size_t i = 2;
  while (i + 4 <= n && d[i] == 0xFF) {
    unsigned m = d[i + 1];
    if (m == 0xFF) { i++; continue; }
    if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
      if (i + 9 > n) return "truncated frame header";
      *h = be16(d + i + 5);
      *w = be16(d + i + 7);
      return *w > 0 && *h > 0 ? NULL : "size 0";
    }
    if (m == 0xD9 || m == 0xDA) break;
    i += 2 + be16(d + i + 2);
  }
  return "no frame header";
}

/* WebP: the first chunk, VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas). */
static const char *webp_size(const unsigned char *d, size_t n, double *w, double *h) {
  if (n >= 30 && memcmp(d + 12, "VP8 ", 4) == 0) {
    *w = le16(d + 26) & 0x3FFF;
    *h = le16(d + 28) & 0x3FFF;
  } else if (n >= 25 && memcmp(d + 12, "VP8L", 4) == 0) {
    uint32_t b = le32(d + 21);
    *w = (b & 0x3FFF) + 1;
    *h = ((b >> 14) & 0x3FFF) + 1;
  } else if (n >= 30 && memcmp(d + 12, "VP8X", 4) == 0) {
    *w = (le16(d + 24) | (uint32_t)d[26] << 16) + 1;   /* 24-bit sides, less 1 */
    *h = (le16(d + 27) | (uint32_t)d[29] << 16) + 1;
  } else {
    return "no image header";
  }
  return *w > 0 && *h > 0 ? NULL : "size 0";
}

/* TIFF: ImageWidth and ImageLength of the first directory (missing: the loader's check). */
static const char *tiff_size(const unsigned char *d, size_t n, double *w, double *h) {
  int be = d[0] == 'M';
  uint32_t off, count, i;
#define T16(p) (be ? be16(p) : le16(p))
#define T32(p) (be ? (be16(p) << 16 | be16((p) + 2)) : le32(p))
  if (n < 8) return "truncated header";
  off = T32(d + 4);
  if (off > n - 2 || off < 8) return "directory outside the file";
  count = T16(d + off);
  if (count > (n - off - 2) / 12) return "truncated directory";
  for (i = 0; i < count; i++) {
    const unsigned char *e = d + off + 2 + 12 * i;
    unsigned tag = T16(e), type = T16(e + 2);
    double v = type == 3 ? (double)T16(e + 8) : type == 4 ? (double)T32(e + 8) : -1.0;
    if (tag == 256) *w = v;
    if (tag == 257) *h = v;
  }
#undef T16
#undef T32
  return *w < 0 || *h < 0 ? "bad size" : NULL;
}

/* The size a picture file declares, checked against the limits before a decoder sees the
   file; CT_ERR_INVALID_IMAGE for a header the format does not allow. */
static ct_status_t check_declared(const unsigned char *d, size_t n, const char *type, const char *name,
                                  ct_error_t *err) {
  double w = 0, h = 0;
  const char *why = strcmp(type, "bmp") == 0 ? bmp_size(d, n, &w, &h) :
                    strcmp(type, "gif") == 0 ? gif_size(d, n, &w, &h) :
                    strcmp(type, "jpeg") == 0 ? jpeg_size(d, n, &w, &h) :
                    strcmp(type, "webp") == 0 ? webp_size(d, n, &w, &h) : tiff_size(d, n, &w, &h);
  if (why) return ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: corrupt %s (%s)", name, format_name(type), why);
  return size_ok(w, h, name, err) ? CT_OK : CT_ERR_LIMIT;
}

/* Pixbuf rows (straight alpha, RGB[A]) into a new cairo surface (premultiplied). */
static cairo_surface_t *surface_from_pixbuf(GdkPixbuf *pb) {
  int w = gdk_pixbuf_get_width(pb), h = gdk_pixbuf_get_height(pb), x, y;
  int nch = gdk_pixbuf_get_n_channels(pb), alpha = gdk_pixbuf_get_has_alpha(pb);
  int sstride = gdk_pixbuf_get_rowstride(pb), dstride;
  const guchar *src = gdk_pixbuf_read_pixels(pb);
  cairo_surface_t *s = cairo_image_surface_create(alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, w, h);
  unsigned char *dst;
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) return s;
  cairo_surface_flush(s);
  dst = cairo_image_surface_get_data(s);
  dstride = cairo_image_surface_get_stride(s);
  for (y = 0; y < h; y++) {
    const guchar *p = src + (size_t)y * (size_t)sstride;
    uint32_t *q = (uint32_t *)(void *)(dst + (size_t)y * (size_t)dstride);
    for (x = 0; x < w; x++, p += nch) {
      unsigned a = alpha ? p[3] : 255, r = p[0], g = p[1], b = p[2];
      if (a != 255) {
        r = (r * a + 127) / 255;
        g = (g * a + 127) / 255;
        b = (b * a + 127) / 255;
      }
      q[x] = (uint32_t)a << 24 | r << 16 | g << 8 | b;
    }
  }
  cairo_surface_mark_dirty(s);
  return s;
}

static ct_status_t load_pixbuf(ct_image_t *img, const unsigned char *d, size_t n, const char *type,
                               const char *name, ct_error_t *err) {
  GdkPixbufLoader *loader;
  GdkPixbuf *pb = NULL, *oriented = NULL;
  GError *ge = NULL;
  size_probe_t probe = { 0, 0, 0 };
  const char *orientation;
  ct_status_t st = CT_OK;
  int ok;

  if ((st = check_declared(d, n, type, name, err)) != CT_OK) return st;
  if (!(loader = gdk_pixbuf_loader_new_with_type(type, &ge))) {
    if (ge) g_error_free(ge);
    return ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: %s images are not supported by this "
                        "gdk-pixbuf", name, format_name(type));
  }
  g_signal_connect(loader, "size-prepared", G_CALLBACK(on_size_prepared), &probe);
  ok = gdk_pixbuf_loader_write(loader, d, n, &ge);
  if (!gdk_pixbuf_loader_close(loader, ok ? &ge : NULL)) ok = 0;
  if (probe.too_big) {
    size_ok(probe.width, probe.height, name, err);
    st = CT_ERR_LIMIT;
    goto done;
  }
  if (!ok || !(pb = gdk_pixbuf_loader_get_pixbuf(loader))) {
    const char *m = ge && ge->message ? ge->message : "no image";
    st = ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: corrupt or truncated %s (%.*s)", name,
                      format_name(type), (int)strcspn(m, "\n"), m);
    goto done;
  }
  if (gdk_pixbuf_get_bits_per_sample(pb) != 8 || gdk_pixbuf_get_n_channels(pb) < 3 ||
      gdk_pixbuf_get_colorspace(pb) != GDK_COLORSPACE_RGB) {
    st = ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: unsupported pixel format", name);
    goto done;
  }
  /* the EXIF orientation of JPEG and TIFF files, as browsers apply it */
  orientation = gdk_pixbuf_get_option(pb, "orientation");
  oriented = gdk_pixbuf_apply_embedded_orientation(pb);
  if (!oriented) {
    st = ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
    goto done;
  }
  if (!size_ok(gdk_pixbuf_get_width(oriented), gdk_pixbuf_get_height(oriented), name, err)) {
    st = CT_ERR_LIMIT;   /* a loader that ignored the 0 x 0 request */
    goto done;
  }
  img->surface = surface_from_pixbuf(oriented);
  if (cairo_surface_status(img->surface) != CAIRO_STATUS_SUCCESS) {
    st = ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
    goto done;
  }
  /* PDFs embed the JPEG itself when it is the picture as drawn: not turned, and gray or RGB
     (cairo 1.16 writes CMYK ones without the inversion Adobe's files need) */
  if (strcmp(type, "jpeg") == 0 && (!orientation || strcmp(orientation, "1") == 0)) {
    int nc = jpeg_components(d, n);
    if (nc == 1 || nc == 3) attach_mime(img->surface, CAIRO_MIME_TYPE_JPEG, d, n);
  }
  img->width = gdk_pixbuf_get_width(oriented);
  img->height = gdk_pixbuf_get_height(oriented);
done:
  if (oriented) g_object_unref(oriented);
  if (ge) g_error_free(ge);
  g_object_unref(loader);
  return st;
}

/* ---- SVG ------------------------------------------------------------------------ */

static ct_status_t load_svg(ct_image_t *img, const unsigned char *d, size_t n, const char *name,
                            char *warning, size_t warnlen, ct_error_t *err) {
  char why[256] = "", what[200] = "";
  size_t clen = 0;
  char *clean = ct_svg_sanitize_picture(d, n, &clen, why, sizeof why, what, sizeof what);
  GError *ge = NULL;
  double w = 0, h = 0;
  if (!clean) {
    if (strcmp(why, "out of memory") == 0) return ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
    return ct_set_error(err, strstr(why, "limit") || strstr(why, "more than") ? CT_ERR_LIMIT : CT_ERR_INVALID_IMAGE,
                        "%s: SVG: %s", name, why);
  }
  if (what[0]) snprintf(warning, warnlen, "%s: SVG image: removed %s", name, what);
  /* no base file: librsvg then loads nothing but data: URIs */
  img->svg = rsvg_handle_new_from_data((const guint8 *)clean, clen, &ge);
  free(clean);
  if (!img->svg) {
    const char *m = ge && ge->message ? ge->message : "librsvg failed";
    ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: SVG: %.*s", name, (int)strcspn(m, "\n"), m);
    if (ge) g_error_free(ge);
    return CT_ERR_INVALID_IMAGE;
  }
  rsvg_handle_set_dpi(img->svg, 72.0);   /* 1in = 72 pt; px and user units are points */
  if (!rsvg_handle_get_intrinsic_size_in_pixels(img->svg, &w, &h)) {
    gboolean has_w, has_h, has_vb;
    RsvgLength lw, lh;
    RsvgRectangle vb;
    rsvg_handle_get_intrinsic_dimensions(img->svg, &has_w, &lw, &has_h, &lh, &has_vb, &vb);
    if (has_vb) {   /* width or height in percent (or absent): the viewBox gives the size */
      w = vb.width;
      h = vb.height;
    }
  }
  if (!(isfinite(w) && isfinite(h) && w > 0 && h > 0))
    return ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: SVG has no size (give the <svg> a width "
                        "and height or a viewBox)", name);
  img->width = w;
  img->height = h;
  return CT_OK;
}

/* ---- loading and drawing ---------------------------------------------------------- */

ct_image_t *ct_image_load(const char *name, const char *key, char *warning, size_t warnlen,
                          ct_error_t *err) {
  size_t len = 0;
  unsigned char *d = read_file(key, name, &len, err);
  ct_image_t *img;
  const char *loader;
  ct_status_t st;
  if (warnlen) warning[0] = '\0';
  if (!d) return NULL;
  if (!(img = calloc(1, sizeof *img)) || !(img->key = strdup(key))) {
    free(img);
    free(d);
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  img->ref = 1;
  if (len == 0) {
    st = ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: empty file", name);
    goto done;
  }
  switch (sniff(d, len, &loader)) {
  case KIND_PNG:    st = load_png(img, d, len, name, err); break;
  case KIND_PIXBUF: st = load_pixbuf(img, d, len, loader, name, err); break;
  case KIND_SVG:    st = load_svg(img, d, len, name, warning, warnlen, err); break;
  default:
    st = ct_set_error(err, CT_ERR_INVALID_IMAGE, "%s: not an image (PNG, JPEG, GIF, BMP, TIFF, "
                      "WebP or SVG expected)", name);
  }
done:
  free(d);
  if (st == CT_OK) {   /* its pixels, or librsvg's tree (a few times the text) */
    size_t n = img->surface ? (size_t)cairo_image_surface_get_stride(img->surface) *
                              (size_t)cairo_image_surface_get_height(img->surface) : 4 * len;
    if ((st = ct_mem_charge(sizeof *img + n, "a picture", err)) == CT_OK) img->charged = sizeof *img + n;
  }
  if (st != CT_OK) {
    ct_image_destroy(img);
    return NULL;
  }
  return img;
}

/* Where the image goes in its box: its top-left corner and size, in points. */
static void place(const ct_image_t *img, double bw, double bh, ct_fit_t fit, double *dx,
                  double *dy, double *dw, double *dh) {
  double s;
  if (fit == CT_FIT_FILL) {
    *dx = *dy = 0;
    *dw = bw;
    *dh = bh;
    return;
  }
  s = fit == CT_FIT_COVER ? fmax(bw / img->width, bh / img->height)
                          : fmin(bw / img->width, bh / img->height);
  *dw = img->width * s;
  *dh = img->height * s;
  *dx = (bw - *dw) / 2;
  *dy = (bh - *dh) / 2;
}

void ct_image_draw(cairo_t *cr, const ct_image_t *img, double x, double y, double w, double h,
                   ct_fit_t fit) {
  double dx, dy, dw, dh;
  place(img, w, h, fit, &dx, &dy, &dw, &dh);
  cairo_save(cr);
  if (fit == CT_FIT_COVER) {   /* the overflow is cut off */
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
  }
  cairo_translate(cr, x + dx, y + dy);
  cairo_scale(cr, dw / img->width, dh / img->height);
  if (img->svg) {
    RsvgRectangle viewport = { 0, 0, img->width, img->height };
    GError *ge = NULL;
    /* drawn in part if librsvg gives up (its own limits); nothing to report at replay */
    rsvg_handle_render_document(img->svg, cr, &viewport, &ge);
    if (ge) g_error_free(ge);
  } else {
    cairo_pattern_t *pat;
    cairo_set_source_surface(cr, img->surface, 0, 0);
    pat = cairo_get_source(cr);
    if (cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE) {
      /* rasterizing: pad the edges, or smoothing would fade them into transparency; clip
         to the image itself.  (PDF and SVG keep EXTEND_NONE: cairo would pad a copy of the
         image there, losing the embedded file and the sharing between pages.) */
      cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
      cairo_rectangle(cr, 0, 0, img->width, img->height);
      cairo_clip(cr);
    }
    cairo_paint(cr);
  }
  cairo_restore(cr);
}
