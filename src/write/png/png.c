/* png.c: PNG output, tuned for speed, on several threads.
 *
 * cairo's own PNG writer lets libpng try every row filter at zlib's default level: on a
 * sheet of 1,000 emoji that was three quarters of the whole run.  chromatype writes the
 * file itself: rows converted from cairo's premultiplied pixels, filtered (Up) and deflated
 * in pieces of fixed size by deflate.c, each piece on whichever thread is free, with
 * libdeflate's checksums; RGB without an alpha channel when every pixel is opaque (a page
 * with a background).  The bytes depend on the image alone, never on the thread count.
 */
#include "png.h"

#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct {
  cairo_write_func_t write;
  void              *closure;
  int                failed;
} png_out_t;

static void out_bytes(png_out_t *o, const unsigned char *data, size_t len) {
  while (len > 0 && !o->failed) {
    unsigned n = len > 0x40000000u ? 0x40000000u : (unsigned)len;
    if (o->write(o->closure, data, n) != CAIRO_STATUS_SUCCESS) o->failed = 1;
    data += n;
    len -= n;
  }
}

/* One row of cairo's premultiplied native-endian ARGB32 as straight RGB(A) bytes. */
void ct_unpremultiply_row(const uint32_t *in, unsigned char *out, int w, int alpha) {
  int x;
  for (x = 0; x < w; x++) {
    uint32_t p = in[x];
    unsigned a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
    if (a != 0 && a != 255) {
      r = (r * 255 + a / 2) / a;
      g = (g * 255 + a / 2) / a;
      b = (b * 255 + a / 2) / a;
    }
    *out++ = (unsigned char)r;
    *out++ = (unsigned char)g;
    *out++ = (unsigned char)b;
    if (alpha) *out++ = (unsigned char)a;
  }
}

/* The rows of an image, straight RGBA or cairo's premultiplied ARGB32. */
typedef struct {
  const unsigned char *data;
  size_t               stride;
  int                  premultiplied;
} png_src_t;

/* Premultiplied ARGB32 to RGB (an opaque page): a pixel is stored as four bytes at once,
   the fourth overwritten by the next pixel (`out` has a byte to spare). */
static void premultiplied_to_rgb(const uint32_t *in, unsigned char *out, int w) {
  int x;
  for (x = 0; x < w; x++, out += 3) {
    uint32_t p = in[x];
    if (p >> 24 == 255) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      uint32_t v = ((p >> 16) & 0xffu) | (p & 0xff00u) | ((p & 0xffu) << 16);
      memcpy(out, &v, 4);
#else
      out[0] = (unsigned char)(p >> 16);
      out[1] = (unsigned char)(p >> 8);
      out[2] = (unsigned char)p;
#endif
    } else {
      ct_unpremultiply_row(&in[x], out, 1, 0);
    }
  }
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <tmmintrin.h>
#define HAVE_SSSE3_PATH 1
/* The same, four pixels a shuffle (SSSE3, when the processor has it); `out` has 16 bytes to
   spare. */
__attribute__((target("ssse3"))) static void premultiplied_to_rgb_ssse3(const uint32_t *in, unsigned char *out,
                                                                         int w) {
  const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  int x = 0;
  for (; x + 4 <= w; x += 4, out += 12)
    _mm_storeu_si128((__m128i *)(void *)out, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(in + x)),
                                                               order));
  premultiplied_to_rgb(in + x, out, w - x);
}
#endif

/* `row` has 16 bytes to spare after w * (alpha ? 4 : 3). */
static void src_row(const png_src_t *s, int y, int w, int alpha, unsigned char *row) {
  const unsigned char *r = s->data + (size_t)y * s->stride;
  int x;
  if (s->premultiplied && !alpha) {
#ifdef HAVE_SSSE3_PATH
    if (__builtin_cpu_supports("ssse3")) {
      premultiplied_to_rgb_ssse3((const uint32_t *)(const void *)r, row, w);
      return;
    }
#endif
    premultiplied_to_rgb((const uint32_t *)(const void *)r, row, w);
  } else if (s->premultiplied) {
    ct_unpremultiply_row((const uint32_t *)(const void *)r, row, w, alpha);
  } else if (alpha) {
    memcpy(row, r, (size_t)w * 4);
  } else {
    for (x = 0; x < w; x++) memcpy(row + 3 * x, r + 4 * x, 3);
  }
}

/* ---- the file: rows filtered and compressed in pieces, on several threads -------------
 *
 * A piece is CT_BAND_ROWS rows: its first row is unfiltered, the others use the Up filter;
 * deflate.c compresses it on its own and ends it on a byte boundary, so the pieces join
 * into the one zlib stream of the IDAT chunks whichever thread made each.  The Adler-32 of
 * the whole is combined from the pieces'.  A page drawn in bands (bands.c) with a
 * background is compressed band by band as each is drawn, in a buffer of the thread's, and
 * never held whole: the same pieces, so the same bytes, as from the whole image. */

#define PIECE_ROWS CT_BAND_ROWS

typedef struct {   /* a worker's buffers, kept from piece to piece */
  unsigned char *filtered, *cur, *prev, *band;
  void          *deflate;
} scratch_t;

typedef struct {
  int              w, h, alpha, bpp;
  unsigned         npieces;
  unsigned char  **out;               /* per piece: its deflate bytes */
  size_t          *outlen;
  uint32_t        *adler;
  unsigned char   *flag;              /* per piece: has alpha (whole images), or failed */
  scratch_t       *scratch;           /* per worker */
  const png_src_t *src;               /* a whole image */
  ct_bands_t      *bands;             /* or a page drawn band by band */
  int              stride;            /* of a band */
} png_enc_t;

static int enc_init(png_enc_t *e, int w, int h, unsigned threads) {
  e->w = w;
  e->h = h;
  e->npieces = (unsigned)(((size_t)h + PIECE_ROWS - 1) / PIECE_ROWS);
  e->out = calloc(e->npieces, sizeof *e->out);
  e->outlen = calloc(e->npieces, sizeof *e->outlen);
  e->adler = calloc(e->npieces, sizeof *e->adler);
  e->flag = calloc(e->npieces, 1);
  e->scratch = calloc(threads ? threads : 1, sizeof *e->scratch);
  return e->out && e->outlen && e->adler && e->flag && e->scratch;
}

static void enc_fini(png_enc_t *e, unsigned threads) {
  unsigned k;
  if (e->out)
    for (k = 0; k < e->npieces; k++) free(e->out[k]);
  if (e->scratch)
    for (k = 0; k < (threads ? threads : 1); k++) {
      free(e->scratch[k].filtered);
      free(e->scratch[k].cur);
      free(e->scratch[k].prev);
      free(e->scratch[k].band);
      free(e->scratch[k].deflate);
    }
  free(e->out);
  free(e->outlen);
  free(e->adler);
  free(e->flag);
  free(e->scratch);
}

/* Whether rows (premultiplied ARGB32, or straight RGBA) are all opaque. */
static int rows_opaque(const unsigned char *data, size_t stride, int premultiplied, int w, int nrows) {
  int x, y;
  for (y = 0; y < nrows; y++) {
    const unsigned char *r = data + (size_t)y * stride;
    uint32_t all = 0xffffffffu;   /* the AND of a row's pixels: no branch in the loop */
    if (premultiplied) {
      const uint32_t *p = (const uint32_t *)(const void *)r;
      for (x = 0; x < w; x++) all &= p[x];
      all >>= 24;
    } else {
      for (x = 0; x < w; x++) all &= r[4 * x + 3];
    }
    if ((all & 0xff) != 255) return 0;
  }
  return 1;
}

static void alpha_job(void *arg, unsigned k, unsigned worker) {
  png_enc_t *e = arg;
  int y0 = (int)k * PIECE_ROWS, n = e->h - y0 < PIECE_ROWS ? e->h - y0 : PIECE_ROWS;
  (void)worker;
  if (!rows_opaque(e->src->data + (size_t)y0 * e->src->stride, e->src->stride, e->src->premultiplied, e->w, n))
    e->flag[k] = 1;
}

static void up_filter(unsigned char *restrict o, const unsigned char *restrict cur, const unsigned char *restrict prev,
                      size_t n) {
  size_t i = 0;
#ifdef __SSE2__
  for (; i + 16 <= n; i += 16)
    _mm_storeu_si128((__m128i *)(void *)(o + i), _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(cur + i)),
                                                                _mm_loadu_si128((const __m128i *)(const void *)(prev + i))));
#endif
  for (; i < n; i++) o[i] = (unsigned char)(cur[i] - prev[i]);
}

/* Piece k from its rows (`src` on its first row); 0 without memory. */
static int encode_piece(png_enc_t *e, scratch_t *sc, unsigned k, const png_src_t *src) {
  int nrows = e->h - (int)k * PIECE_ROWS < PIECE_ROWS ? e->h - (int)k * PIECE_ROWS : PIECE_ROWS, y;
  size_t rowlen = (size_t)e->w * (size_t)e->bpp, n = (size_t)nrows * (rowlen + 1);
  unsigned char *t;
  if (!sc->filtered) {   /* room for a whole piece */
    sc->filtered = malloc((size_t)PIECE_ROWS * (rowlen + 1));
    sc->cur = malloc(rowlen + 16);
    sc->prev = malloc(rowlen + 16);
    sc->deflate = malloc(ct_deflate_scratch_size((size_t)PIECE_ROWS * (rowlen + 1)));
    if (!sc->filtered || !sc->cur || !sc->prev || !sc->deflate) return 0;
  }
  for (y = 0; y < nrows; y++) {
    unsigned char *o = sc->filtered + (size_t)y * (rowlen + 1);
    src_row(src, y, e->w, e->alpha, sc->cur);
    if (y == 0) {   /* None: the piece needs no row of another */
      o[0] = 0;
      memcpy(o + 1, sc->cur, rowlen);
    } else {        /* Up */
      o[0] = 2;
      up_filter(o + 1, sc->cur, sc->prev, rowlen);
    }
    t = sc->prev;
    sc->prev = sc->cur;
    sc->cur = t;
  }
  e->adler[k] = (uint32_t)libdeflate_adler32(1, sc->filtered, n);
  return ct_deflate_piece(sc->filtered, n, (unsigned)e->bpp, k + 1 == e->npieces, sc->deflate, &e->out[k],
                          &e->outlen[k]);
}

/* Pieces of a whole image. */
static void image_piece_job(void *arg, unsigned k, unsigned worker) {
  png_enc_t *e = arg;
  png_src_t src = *e->src;
  src.data += (size_t)k * PIECE_ROWS * src.stride;
  if (!encode_piece(e, &e->scratch[worker], k, &src)) e->flag[k] = 1;
}

/* Pieces of a page drawn band by band (a band a piece) into the worker's buffer; a band
   that is not opaque after all is flagged (2), and the page is then written whole. */
static void band_piece_job(void *arg, unsigned k, unsigned worker) {
  png_enc_t *e = arg;
  scratch_t *sc = &e->scratch[worker];
  size_t bytes = (size_t)e->stride * PIECE_ROWS;
  int nrows = e->h - (int)k * PIECE_ROWS < PIECE_ROWS ? e->h - (int)k * PIECE_ROWS : PIECE_ROWS;
  png_src_t src;
  if (!sc->band && !(sc->band = malloc(bytes))) {
    e->flag[k] = 1;
    return;
  }
  if (!ct_bands_draw(e->bands, k, sc->band, e->stride)) return;   /* the failure is the bands' */
  if (!rows_opaque(sc->band, (size_t)e->stride, 1, e->w, nrows)) {
    e->flag[k] = 2;
    return;
  }
  src.data = sc->band;
  src.stride = (size_t)e->stride;
  src.premultiplied = 1;
  if (!encode_piece(e, sc, k, &src)) e->flag[k] = 1;
}

static void be32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

/* One chunk: length, type, the data in two parts (either may be empty), CRC. */
static void put_chunk(png_out_t *o, const char *type, const unsigned char *a, size_t alen, const unsigned char *b,
                      size_t blen) {
  unsigned char head[8], tail[4];
  uint32_t crc;
  be32(head, (uint32_t)(alen + blen));
  memcpy(head + 4, type, 4);
  crc = (uint32_t)libdeflate_crc32(0, head + 4, 4);
  if (alen) crc = (uint32_t)libdeflate_crc32(crc, a, alen);   /* (NULL would restart it) */
  if (blen) crc = (uint32_t)libdeflate_crc32(crc, b, blen);
  be32(tail, crc);
  out_bytes(o, head, 8);
  out_bytes(o, a, alen);
  out_bytes(o, b, blen);
  out_bytes(o, tail, 4);
}

/* The file from the compressed pieces. */
static cairo_status_t emit(const png_enc_t *e, cairo_write_func_t write, void *closure) {
  static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  static const unsigned char zhead[2] = { 0x78, 0x01 };   /* deflate, 32 KiB window, fastest */
  png_out_t out = { write, closure, 0 };
  unsigned char ihdr[13], adler[4];
  size_t rowlen = (size_t)e->w * (size_t)e->bpp + 1;
  uint32_t a = 1;
  unsigned k;
  be32(ihdr, (uint32_t)e->w);
  be32(ihdr + 4, (uint32_t)e->h);
  ihdr[8] = 8;                          /* bits per channel */
  ihdr[9] = e->alpha ? 6 : 2;           /* RGBA or RGB */
  ihdr[10] = ihdr[11] = ihdr[12] = 0;   /* deflate, adaptive filters, not interlaced */
  out_bytes(&out, sig, sizeof sig);
  put_chunk(&out, "IHDR", ihdr, sizeof ihdr, NULL, 0);
  for (k = 0; k < e->npieces; k++) {
    size_t rows = k + 1 < e->npieces ? PIECE_ROWS : (size_t)e->h - (size_t)k * PIECE_ROWS;
    a = (uint32_t)adler32_combine(a, e->adler[k], (z_off_t)(rows * rowlen));
  }
  be32(adler, a);
  for (k = 0; k < e->npieces; k++) {   /* an IDAT a piece: the zlib header before, the check after */
    if (k == 0) put_chunk(&out, "IDAT", zhead, 2, e->out[k], e->outlen[k]);
    else put_chunk(&out, "IDAT", e->out[k], e->outlen[k], NULL, 0);
  }
  put_chunk(&out, "IDAT", adler, 4, NULL, 0);
  put_chunk(&out, "IEND", NULL, 0, NULL, 0);
  return out.failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static cairo_status_t write_png(const png_src_t *src, int w, int h, unsigned threads, cairo_write_func_t write,
                                void *closure) {
  png_enc_t e;
  unsigned k;
  cairo_status_t st = CAIRO_STATUS_SUCCESS;

  memset(&e, 0, sizeof e);
  e.src = src;
  if (!enc_init(&e, w, h, threads)) {
    st = CAIRO_STATUS_NO_MEMORY;
    goto done;
  }
  /* RGB without alpha when every pixel is opaque */
  ct_parallel_for(e.npieces, threads, alpha_job, &e);
  for (k = 0; k < e.npieces; k++) e.alpha |= e.flag[k];
  e.bpp = e.alpha ? 4 : 3;
  memset(e.flag, 0, e.npieces);
  ct_parallel_for(e.npieces, threads, image_piece_job, &e);
  for (k = 0; k < e.npieces; k++)
    if (e.flag[k]) {
      st = CAIRO_STATUS_NO_MEMORY;
      goto done;
    }
  st = emit(&e, write, closure);
done:
  enc_fini(&e, threads);
  return st;
}

int ct_png_write_bands(ct_bands_t *bands, int w, int h, unsigned threads, cairo_write_func_t write, void *closure,
                       cairo_status_t *status) {
  png_enc_t e;
  unsigned k;
  int done = 1;

  *status = CAIRO_STATUS_SUCCESS;
  if (!ct_bands_opaque(bands)) return 0;
  memset(&e, 0, sizeof e);
  e.bands = bands;
  e.bpp = 3;
  e.stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, w);
  if (e.stride <= 0 || !enc_init(&e, w, h, threads)) {
    *status = CAIRO_STATUS_NO_MEMORY;
    goto done;
  }
  ct_parallel_for(e.npieces, threads, band_piece_job, &e);
  for (k = 0; k < e.npieces; k++) {
    if (e.flag[k] == 2) done = 0;   /* not opaque after all */
    else if (e.flag[k]) *status = CAIRO_STATUS_NO_MEMORY;
  }
  if (done && *status == CAIRO_STATUS_SUCCESS && ct_bands_status(bands) == CAIRO_STATUS_SUCCESS)
    *status = emit(&e, write, closure);
done:
  enc_fini(&e, threads);
  return done;
}

cairo_status_t ct_png_write(cairo_surface_t *img, unsigned threads, cairo_write_func_t write, void *closure) {
  png_src_t src;
  int w, h;
  cairo_surface_flush(img);
  if (cairo_image_surface_get_format(img) != CAIRO_FORMAT_ARGB32) return CAIRO_STATUS_INVALID_FORMAT;
  w = cairo_image_surface_get_width(img);
  h = cairo_image_surface_get_height(img);
  src.data = cairo_image_surface_get_data(img);
  src.stride = (size_t)cairo_image_surface_get_stride(img);
  src.premultiplied = 1;
  if (!src.data || w <= 0 || h <= 0) return CAIRO_STATUS_INVALID_SIZE;
  return write_png(&src, w, h, threads, write, closure);
}

cairo_status_t ct_png_write_rgba(const unsigned char *rgba, int w, int h, cairo_write_func_t write, void *closure) {
  png_src_t src = { rgba, (size_t)w * 4, 0 };
  if (!rgba || w <= 0 || h <= 0) return CAIRO_STATUS_INVALID_SIZE;
  return write_png(&src, w, h, 1, write, closure);
}
