/*
** anim.c: animations written frame by frame, never held whole: APNG (our own chunk
** writer over zlib: libpng 1.6 has no APNG), animated WebP (our own RIFF writer: libwebp's
** WebPEncode makes each frame's changed rectangle, streamed to the file as an ANMF chunk),
** one PNG per frame, and GIF and video through the writers
** of animwriters.h.  Frames are canvas pages rasterized
** as they come; the file goes to a temporary name and is renamed when finished, so a
** failure (a full disk, an error in a frame) leaves no half-written animation.  Motion
** stage: stands on the writers; knows no font making.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <webp/encode.h>
#include <zlib.h>

#include "motion.h"

struct ct_anim {
  ct_anim_format_t  format;
  ct_anim_options_t o;
  char             *path, *tmp;      /* the target and its temporary name (APNG, WebP) */
  FILE             *file;
  int               width, height;
  unsigned          count;           /* frames added */
  unsigned          seq;             /* APNG sequence number */
  long              actl_at;         /* where acTL's frame count is, to patch */
  int               poster_done;     /* APNG: IDAT written (a poster, or frame 0) */
  unsigned char    *rgba;            /* one frame, straight RGBA */
  unsigned char    *zbuf;            /* APNG: a frame compressed here */
  size_t            zcap;
  WebPConfig        webp_config;
  char            **written;         /* frames: the files written so far */
  ct_gif_t         *gif;
  ct_video_t       *video;
  uint64_t          riff;            /* WebP: bytes written */
  unsigned char    *prev, *sub;      /* WebP: the previous frame, and the rectangle that changed */
  int               failed;
};

static const char *const format_names[] = { "auto", "apng", "webp", "gif", "frames", "video" };

const char *ct_anim_format_name(ct_anim_format_t f) {
  return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : "?";
}

void ct_anim_options_init(ct_anim_options_t *o) {
  memset(o, 0, sizeof *o);
  o->fps = 30;
  o->quality = -1;
  o->matte.r = o->matte.g = o->matte.b = o->matte.a = 1;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

ct_anim_format_t ct_anim_format_from_path(const char *path) {
  if (strchr(path, '%')) return CT_ANIM_FRAMES;
  if (ends_with(path, ".apng") || ends_with(path, ".png")) return CT_ANIM_APNG;
  if (ends_with(path, ".webp")) return CT_ANIM_WEBP;
  if (ends_with(path, ".gif")) return CT_ANIM_GIF;
  if (ends_with(path, ".mp4") || ends_with(path, ".webm") || ends_with(path, ".mov")) return CT_ANIM_VIDEO;
  return CT_ANIM_AUTO;
}

/* ---- APNG ------------------------------------------------------------------------------ */

static void put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

static void put16(unsigned char *p, unsigned v) {
  p[0] = (unsigned char)(v >> 8);
  p[1] = (unsigned char)v;
}

static void chunk(ct_anim_t *a, const char *type, const unsigned char *data, size_t len) {
  unsigned char head[8], crc[4];
  uLong c = crc32(0, (const Bytef *)type, 4);
  if (a->failed) return;
  put32(head, (uint32_t)len);
  memcpy(head + 4, type, 4);
  if (len) c = crc32(c, data, (uInt)len);
  put32(crc, (uint32_t)c);
  if (fwrite(head, 1, 8, a->file) != 8 || (len && fwrite(data, 1, len, a->file) != len) ||
      fwrite(crc, 1, 4, a->file) != 4)
    a->failed = errno ? errno : EIO;
}

/* The frame's delay as a fraction of a second that fits APNG's 16-bit fields. */
static void delay(double fps, unsigned *num, unsigned *den) {
  if (fps == floor(fps) && fps <= 65535) {
    *num = 1;
    *den = (unsigned)fps;
  } else {
    *num = 100;
    *den = (unsigned)lround(fmin(65535.0, fps * 100));
  }
}

static void apng_begin(ct_anim_t *a) {
  static const unsigned char sig[8] = { 137, 'P', 'N', 'G', 13, 10, 26, 10 };
  unsigned char ihdr[13], actl[8];
  put32(ihdr, (uint32_t)a->width);
  put32(ihdr + 4, (uint32_t)a->height);
  ihdr[8] = 8;    /* bits */
  ihdr[9] = 6;    /* RGBA */
  ihdr[10] = ihdr[11] = ihdr[12] = 0;
  if (fwrite(sig, 1, 8, a->file) != 8) a->failed = errno ? errno : EIO;
  chunk(a, "IHDR", ihdr, 13);
  a->actl_at = ftell(a->file) + 8;
  put32(actl, a->o.frames);
  put32(actl + 4, a->o.loop);
  chunk(a, "acTL", actl, 8);
}

/* Deflates a frame (straight RGBA, rows unfiltered as png.c writes them: flat color
   deflates well) into one zlib stream in *buf (grown to *cap as needed, kept by the caller
   from frame to frame).  Touches nothing of `a` but its size, so worker processes compress
   frames side by side. */
static ct_status_t apng_compress(const ct_anim_t *a, const unsigned char *rgba, unsigned char **buf, size_t *cap,
                                 size_t *len) {
  z_stream z;
  size_t row = (size_t)a->width * 4, need;
  unsigned char *line = malloc(row + 1);
  int y;
  *len = 0;
  memset(&z, 0, sizeof z);
  if (!line || deflateInit(&z, 3) != Z_OK) {
    free(line);
    return CT_ERR_NOMEM;
  }
  need = deflateBound(&z, (uLong)((row + 1) * a->height));
  if (*cap < need) {
    unsigned char *p = realloc(*buf, need);
    if (!p) {
      deflateEnd(&z);
      free(line);
      return CT_ERR_NOMEM;
    }
    *buf = p;
    *cap = need;
  }
  z.next_out = *buf;
  z.avail_out = (uInt)*cap;
  for (y = 0; y < a->height; y++) {
    line[0] = 0;
    memcpy(line + 1, rgba + (size_t)y * row, row);
    z.next_in = line;
    z.avail_in = (uInt)(row + 1);
    if (deflate(&z, Z_NO_FLUSH) != Z_OK) break;
  }
  z.next_in = NULL;
  z.avail_in = 0;
  y = deflate(&z, Z_FINISH);
  *len = *cap - z.avail_out;
  deflateEnd(&z);
  free(line);
  if (y != Z_STREAM_END) {
    *len = 0;
    return CT_ERR_BACKEND;
  }
  return CT_OK;
}

/* Writes a compressed image as IDAT chunks (`fdat` 0) or fdAT chunks, 1 MiB at most each. */
static void apng_emit(ct_anim_t *a, const unsigned char *z, size_t len, int fdat) {
  const size_t piece = 1u << 20;
  unsigned char *buf = fdat ? malloc(piece + 4) : NULL;
  size_t at;
  if (fdat && !buf) {
    a->failed = ENOMEM;
    return;
  }
  for (at = 0; at < len && !a->failed; at += piece) {
    size_t n = len - at < piece ? len - at : piece;
    if (fdat) {
      put32(buf, a->seq++);
      memcpy(buf + 4, z + at, n);
      chunk(a, "fdAT", buf, n + 4);
    } else {
      chunk(a, "IDAT", z + at, n);
    }
  }
  free(buf);
}

static void apng_fctl(ct_anim_t *a) {
  unsigned char f[26];
  unsigned num, den;
  delay(a->o.fps, &num, &den);
  put32(f, a->seq++);
  put32(f + 4, (uint32_t)a->width);
  put32(f + 8, (uint32_t)a->height);
  put32(f + 12, 0);
  put32(f + 16, 0);
  put16(f + 20, num);
  put16(f + 22, den);
  f[24] = 0;   /* dispose: none (every frame is a whole picture) */
  f[25] = 0;   /* blend: source */
  chunk(a, "fcTL", f, 26);
}

static void apng_frame(ct_anim_t *a, const unsigned char *z, size_t len) {
  apng_fctl(a);
  apng_emit(a, z, len, a->poster_done);
  a->poster_done = 1;
}

static void apng_finish(ct_anim_t *a) {
  chunk(a, "IEND", NULL, 0);
  if (!a->failed && a->count != a->o.frames) {
    /* the count given at the start was not the count added: acTL says what is there */
    unsigned char actl[8], crc[4];
    put32(actl, a->count);
    put32(actl + 4, a->o.loop);
    put32(crc, (uint32_t)crc32(crc32(0, (const Bytef *)"acTL", 4), actl, 8));
    if (fseek(a->file, a->actl_at, SEEK_SET) != 0 || fwrite(actl, 1, 8, a->file) != 8 ||
        fwrite(crc, 1, 4, a->file) != 4)
      a->failed = errno ? errno : EIO;
  }
}

/* ---- WebP ------------------------------------------------------------------------------ */

/* The container (the WebP container specification): RIFF, VP8X (animation and alpha),
   ANIM, then one ANMF chunk per frame holding the ALPH and VP8 or VP8L chunks that
   WebPEncode made of the whole frame.  Every frame is a whole picture: no blending, no
   disposal, no frame merged with the one before.  RIFF's size is patched at the end. */

static void le16(unsigned char *p, unsigned v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}

static void le24(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
}

static void le32(unsigned char *p, uint32_t v) {
  le24(p, v);
  p[3] = (unsigned char)(v >> 24);
}

static uint32_t get_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put(ct_anim_t *a, const void *p, size_t n) {
  if (a->failed || !n) return;
  if (fwrite(p, 1, n, a->file) != n) a->failed = errno ? errno : EIO;
  else a->riff += n;
}

static void webp_begin(ct_anim_t *a) {
  unsigned char h[12 + 8 + 10 + 8 + 6];
  memcpy(h, "RIFF", 4);
  le32(h + 4, 0);                      /* patched at the end */
  memcpy(h + 8, "WEBP", 4);
  memcpy(h + 12, "VP8X", 4);
  le32(h + 16, 10);
  h[20] = 0x10 | 0x02;                 /* alpha, animation */
  h[21] = h[22] = h[23] = 0;
  le24(h + 24, (uint32_t)a->width - 1);
  le24(h + 27, (uint32_t)a->height - 1);
  memcpy(h + 30, "ANIM", 4);
  le32(h + 34, 6);
  le32(h + 38, 0);                     /* background: transparent black (BGRA) */
  le16(h + 42, a->o.loop > 65535 ? 65535 : a->o.loop);   /* 0: forever */
  a->riff = 0;
  put(a, h, sizeof h);
}

/* Frame i's duration in milliseconds: the durations add up to the animation's, rounded. */
static uint32_t webp_duration(double fps, unsigned i) {
  double d = (double)lround((i + 1) * 1000.0 / fps) - (double)lround(i * 1000.0 / fps);
  return d < 0 ? 0 : d > 0xffffff ? 0xffffff : (uint32_t)d;
}

/* Encodes a frame (straight RGBA) with WebPEncode and keeps, in *buf, the chunks an ANMF
   chunk holds: ALPH and VP8 or VP8L, each padded to even (VP8X and anything else left
   out).  Touches nothing of `a` but its size and config, so worker processes encode frames
   side by side. */
static ct_status_t webp_compress(const ct_anim_t *a, const unsigned char *rgba, int width, int height,
                                 unsigned char **buf, size_t *cap, size_t *len, ct_error_t *err) {
  WebPPicture pic;
  WebPMemoryWriter w;
  ct_status_t st = CT_OK;
  size_t at, out = 0;
  *len = 0;
  if (!WebPPictureInit(&pic)) return ct_set_error(err, CT_ERR_BACKEND, "%s: WebP: cannot start a picture", a->path);
  WebPMemoryWriterInit(&w);
  pic.use_argb = 1;
  pic.width = width;
  pic.height = height;
  pic.writer = WebPMemoryWrite;
  pic.custom_ptr = &w;
  if (!WebPPictureImportRGBA(&pic, rgba, width * 4)) {
    st = ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", a->path);
    goto done;
  }
  if (!WebPEncode(&a->webp_config, &pic)) {
    st = ct_set_error(err, pic.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? CT_ERR_NOMEM : CT_ERR_BACKEND,
                      "%s: WebP: cannot encode a frame (error %d)", a->path, (int)pic.error_code);
    goto done;
  }
  if (*cap < w.size + 2) {   /* the chunks kept are at most the file, and a last pad byte */
    unsigned char *p = realloc(*buf, w.size + 2);
    if (!p) {
      st = ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", a->path);
      goto done;
    }
    *buf = p;
    *cap = w.size + 2;
  }
  /* WebPEncode wrote a whole file: RIFF, size, WEBP, then chunks */
  if (w.size < 12 || memcmp(w.mem, "RIFF", 4) != 0 || memcmp(w.mem + 8, "WEBP", 4) != 0) goto bad;
  for (at = 12; w.size - at >= 8;) {
    size_t n = get_le32(w.mem + at + 4);
    if (n > w.size - at - 8) goto bad;
    if (memcmp(w.mem + at, "ALPH", 4) == 0 || memcmp(w.mem + at, "VP8 ", 4) == 0 ||
        memcmp(w.mem + at, "VP8L", 4) == 0) {
      memcpy(*buf + out, w.mem + at, 8 + n);
      out += 8 + n;
      if (n & 1) (*buf)[out++] = 0;   /* RIFF pads chunks to even */
    }
    at += 8 + n + (n & 1);
    if (at > w.size) break;
  }
  if (out == 0) goto bad;
  *len = out;
  goto done;
bad:
  st = ct_set_error(err, CT_ERR_BACKEND, "%s: WebP: the encoder's output is not a WebP image", a->path);
done:
  WebPMemoryWriterClear(&w);
  WebPPictureFree(&pic);
  return st;
}

/* Writes one frame: the ANMF chunk's header (the rectangle x, y (even), w x h, drawn over the
   previous frame when `blend`), then the frame's chunks (webp_compress). */
static void webp_frame(ct_anim_t *a, int x, int y, int w, int h, int blend, const unsigned char *data, size_t len) {
  unsigned char hd[8 + 16];
  if (len > 0xffffffffu - 16 - 1 || a->riff + 8 + 16 + len + (len & 1) > 0xffffffffu) {
    a->failed = EFBIG;
    return;
  }
  memcpy(hd, "ANMF", 4);
  le32(hd + 4, (uint32_t)(16 + len));
  le24(hd + 8, (uint32_t)x / 2);
  le24(hd + 11, (uint32_t)y / 2);
  le24(hd + 14, (uint32_t)w - 1);
  le24(hd + 17, (uint32_t)h - 1);
  le24(hd + 20, webp_duration(a->o.fps, a->count));
  hd[23] = blend ? 0x00 : 0x02;                 /* alpha-blend or not; disposal: none */
  put(a, hd, sizeof hd);
  put(a, data, len);
  if (len & 1) put(a, "", 1);
}

/* Adds a WebP frame, encoded here: only the rectangle that changed since the previous frame
   (as libwebp's animation encoder does, without keeping the file in memory), its unchanged
   pixels transparent and blended over the previous frame when every changed pixel is opaque
   (exact, and far smaller), else replacing the rectangle. */
static ct_status_t webp_add(ct_anim_t *a, const unsigned char *rgba, ct_error_t *err) {
  const uint32_t *cur = (const void *)rgba, *old = (const void *)a->prev;
  int W = a->width, H = a->height, x0 = W, y0 = H, x1 = -1, y1 = -1, x, y, w, h, blend = 1;
  size_t len;
  ct_status_t st;
  if (a->count == 0) {
    x0 = y0 = 0;
    x1 = W - 1;
    y1 = H - 1;
    blend = 0;
  } else {
    for (y = 0; y < H; y++) {
      const uint32_t *c = cur + (size_t)y * W, *o = old + (size_t)y * W;
      int l = 0, r = W - 1;
      while (l < W && c[l] == o[l]) l++;
      if (l == W) continue;
      while (r > l && c[r] == o[r]) r--;
      if (l < x0) x0 = l;
      if (r > x1) x1 = r;
      if (y < y0) y0 = y;
      y1 = y;
    }
    if (x1 < 0) x0 = y0 = x1 = y1 = 0;   /* unchanged: one pixel, transparent over itself */
  }
  x0 &= ~1;   /* ANMF offsets are even */
  y0 &= ~1;
  w = x1 - x0 + 1;
  h = y1 - y0 + 1;
  for (y = 0; y < h; y++) {
    const unsigned char *c = rgba + ((size_t)(y0 + y) * W + x0) * 4;
    const unsigned char *o = a->prev + ((size_t)(y0 + y) * W + x0) * 4;
    unsigned char *d = a->sub + (size_t)y * w * 4;
    memcpy(d, c, (size_t)w * 4);
    if (!blend) continue;
    for (x = 0; x < w; x++) {
      if (memcmp(c + x * 4, o + x * 4, 4) == 0) memset(d + x * 4, 0, 4);
      else if (c[x * 4 + 3] != 255) blend = 0;   /* a changed pixel seen through: replace instead */
    }
  }
  if (!blend && a->count > 0)   /* the rectangle as it is */
    for (y = 0; y < h; y++)
      memcpy(a->sub + (size_t)y * w * 4, rgba + ((size_t)(y0 + y) * W + x0) * 4, (size_t)w * 4);
  if ((st = webp_compress(a, a->sub, w, h, &a->zbuf, &a->zcap, &len, err)) != CT_OK) return st;
  webp_frame(a, x0, y0, w, h, blend, a->zbuf, len);
  memcpy(a->prev, rgba, (size_t)W * H * 4);
  if (a->failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", a->path, strerror(a->failed));
  a->count++;
  return CT_OK;
}

static void webp_finish(ct_anim_t *a) {
  unsigned char size[4];
  if (a->failed) return;
  le32(size, (uint32_t)(a->riff - 8));
  if (fseek(a->file, 4, SEEK_SET) != 0 || fwrite(size, 1, 4, a->file) != 4) a->failed = errno ? errno : EIO;
}

/* A frames pattern: exactly one %d, with an optional zero flag and width ("%04d"); "%%"
   stands for itself.  Checked, because the pattern is a format string. */
static int frames_pattern_ok(const char *p) {
  int conversions = 0;
  for (; *p; p++) {
    if (*p != '%') continue;
    if (p[1] == '%') {
      p++;
      continue;
    }
    p++;
    if (*p == '0') p++;
    if (*p >= '1' && *p <= '9') p++;
    if (*p != 'd') return 0;
    conversions++;
  }
  return conversions == 1;
}

/* ---- the writer ------------------------------------------------------------------------- */

ct_anim_t *ct_anim_create(const char *path, int width, int height, const ct_anim_options_t *opts,
                          ct_error_t *err) {
  ct_anim_t *a;
  ct_anim_options_t defaults;
  ct_anim_format_t f;
  if (!opts) {
    ct_anim_options_init(&defaults);
    opts = &defaults;
  }
  f = opts->format ? opts->format : ct_anim_format_from_path(path);
  if (f == CT_ANIM_AUTO) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "%s: which animation format? (the extension: .apng, .png, .webp, "
                 ".gif, .mp4, .webm, .mov, or a frames pattern such as frames/%%04d.png)", path);
    return NULL;
  }
  if (width < 1 || height < 1 || width > CT_MAX_IMAGE_SIDE || height > CT_MAX_IMAGE_SIDE ||
      (double)width * height > CT_MAX_IMAGE_PIXELS) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: frames of %dx%d pixels exceed the limit (%d per side, %.0f in all)",
                 path, width, height, CT_MAX_IMAGE_SIDE, (double)CT_MAX_IMAGE_PIXELS);
    return NULL;
  }
  if (!(opts->fps > 0 && opts->fps <= CT_MAX_ANIM_FPS)) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "%s: %g frames per second (expected more than 0, at most %g)",
                 path, opts->fps, (double)CT_MAX_ANIM_FPS);
    return NULL;
  }
  if (f == CT_ANIM_FRAMES && !frames_pattern_ok(path)) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "%s: a frames pattern holds one number, as %%d or %%04d "
                 "(and %%%% for a percent sign)", path);
    return NULL;
  }
  if (opts->frames > CT_MAX_ANIM_FRAMES) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: %u frames (at most %u)", path, opts->frames, CT_MAX_ANIM_FRAMES);
    return NULL;
  }
  if (!(a = calloc(1, sizeof *a)) || !(a->path = strdup(path)) ||
      !(a->rgba = malloc((size_t)width * height * 4))) {
    ct_anim_destroy(a);
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  a->format = f;
  a->o = *opts;
  a->o.format = f;
  a->width = width;
  a->height = height;
  if (f == CT_ANIM_WEBP && (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION)) {
    ct_anim_destroy(a);
    ct_set_error(err, CT_ERR_LIMIT, "%s: frames of %dx%d pixels: WebP's sides are %d pixels at most", path,
                 width, height, WEBP_MAX_DIMENSION);
    return NULL;
  }
  if ((f == CT_ANIM_APNG || f == CT_ANIM_WEBP) && !(a->file = ct_file_open_temp(path, "w+b", &a->tmp, err))) {
    ct_anim_destroy(a);
    return NULL;
  }
  if (f == CT_ANIM_APNG) {
    apng_begin(a);
  } else if (f == CT_ANIM_WEBP) {
    if (!WebPConfigInit(&a->webp_config) || !(a->prev = malloc((size_t)width * height * 4)) ||
        !(a->sub = malloc((size_t)width * height * 4)))
      goto nomem;
    /* effort 0 (the default) encodes about ten times faster than libwebp's own default
       (method 4) for lossless files about 1.7 times larger */
    a->webp_config.method = a->o.effort < 0 ? 0 : a->o.effort > 6 ? 6 : a->o.effort;
    if (a->o.quality < 0) {
      a->webp_config.lossless = 1;
      a->webp_config.quality = (float)(a->webp_config.method * 100 / 6);   /* lossless: the effort */
    } else {
      a->webp_config.lossless = 0;
      a->webp_config.quality = (float)a->o.quality;
    }
    if (!WebPValidateConfig(&a->webp_config)) goto nomem;
    webp_begin(a);
  } else if (f == CT_ANIM_FRAMES) {
    if (!(a->written = calloc((a->o.frames ? a->o.frames : 16) + 1, sizeof *a->written))) goto nomem;
  } else if (f == CT_ANIM_GIF) {
    if (!(a->gif = ct_gif_open(path, width, height, &a->o, err))) goto failed;
  } else if (f == CT_ANIM_VIDEO) {
    if (!(a->video = ct_video_open(path, width, height, &a->o, err))) goto failed;
  }
  return a;
failed:
  ct_anim_destroy(a);
  return NULL;
nomem:
  ct_anim_destroy(a);
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return NULL;
}

/* A PNG of the frame (frames output): made in memory, written by ct_file_write_atomic. */
typedef struct { unsigned char *p; size_t len, cap; } membuf_t;

static cairo_status_t mem_write(void *closure, const unsigned char *data, unsigned int len) {
  membuf_t *m = closure;
  if (m->len + len > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 65536;
    unsigned char *p;
    while (cap < m->len + len) cap *= 2;
    if (!(p = realloc(m->p, cap))) return CAIRO_STATUS_NO_MEMORY;
    m->p = p;
    m->cap = cap;
  }
  memcpy(m->p + m->len, data, len);
  m->len += len;
  return CAIRO_STATUS_SUCCESS;
}

static ct_status_t write_frame_png(ct_anim_t *a, ct_error_t *err) {
  char name[4096];
  membuf_t m = { NULL, 0, 0 };
  ct_status_t st;
  char **w;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf(name, sizeof name, a->path, a->count);   /* checked by frames_pattern_ok */
#pragma GCC diagnostic pop
  if (ct_png_write_rgba(a->rgba, a->width, a->height, mem_write, &m) != CAIRO_STATUS_SUCCESS) {
    free(m.p);
    return ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
  }
  st = ct_file_write_atomic(name, m.p, m.len, err);
  free(m.p);
  if (st) return st;
  /* noted, so that an animation given up removes its frames */
  if (!(w = realloc(a->written, (a->count + 2) * sizeof *w))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  a->written = w;
  w[a->count] = strdup(name);
  w[a->count + 1] = NULL;
  return CT_OK;
}

int ct_anim_encodes_frames(const ct_anim_t *a) {
  return a->format == CT_ANIM_APNG;   /* WebP frames are differenced here, in order */
}

ct_status_t ct_anim_encode_frame(const ct_anim_t *a, const unsigned char *rgba, unsigned char **buf, size_t *cap,
                                 size_t *len, ct_error_t *err) {
  ct_status_t st;
  if (a->format != CT_ANIM_APNG) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: frames are encoded whole", a->path);
  if ((st = apng_compress(a, rgba, buf, cap, len)) != CT_OK)
    return ct_set_error(err, st, "%s: cannot compress a frame", a->path);
  return CT_OK;
}

static ct_status_t frame_ok(ct_anim_t *a, int poster, ct_error_t *err);

ct_status_t ct_anim_add_encoded(ct_anim_t *a, const unsigned char *data, size_t len, int poster, ct_error_t *err) {
  ct_status_t st;
  if ((st = frame_ok(a, poster, err)) != CT_OK) return st;
  if (a->format != CT_ANIM_APNG)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: frames are encoded whole", a->path);
  if (poster) {
    apng_emit(a, data, len, 0);   /* the default image, outside the animation */
    a->poster_done = 1;
  } else {
    apng_frame(a, data, len);
  }
  if (a->failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", a->path, strerror(a->failed));
  if (!poster) a->count++;
  return CT_OK;
}

/* Checks that a frame may come now. */
static ct_status_t frame_ok(ct_anim_t *a, int poster, ct_error_t *err) {
  if (a->failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", a->path, strerror(a->failed));
  if (poster && (a->format != CT_ANIM_APNG || a->count > 0 || a->poster_done))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: a poster frame comes before the frames, in APNG only", a->path);
  if (!poster && a->count >= CT_MAX_ANIM_FRAMES)
    return ct_set_error(err, CT_ERR_LIMIT, "%s: more than %u frames", a->path, CT_MAX_ANIM_FRAMES);
  return CT_OK;
}

ct_status_t ct_anim_add_rgba(ct_anim_t *a, const unsigned char *rgba, int poster, ct_error_t *err) {
  ct_status_t st;
  size_t len;
  if ((st = frame_ok(a, poster, err)) != CT_OK) return st;
  if (rgba != a->rgba) memcpy(a->rgba, rgba, (size_t)a->width * a->height * 4);
  if (a->format == CT_ANIM_FRAMES || a->format == CT_ANIM_GIF || a->format == CT_ANIM_VIDEO) {
    st = a->format == CT_ANIM_GIF   ? ct_gif_add(a->gif, a->rgba, err)
       : a->format == CT_ANIM_VIDEO ? ct_video_add(a->video, a->rgba, err)
                                    : write_frame_png(a, err);
    if (st == CT_OK) a->count++;
    return st;
  }
  if (a->format == CT_ANIM_WEBP) return webp_add(a, a->rgba, err);
  /* APNG: encoded here as the workers of animfarm.c encode them */
  if ((st = ct_anim_encode_frame(a, a->rgba, &a->zbuf, &a->zcap, &len, err)) != CT_OK) return st;
  return ct_anim_add_encoded(a, a->zbuf, len, poster, err);
}

ct_status_t ct_anim_render_rgba(ct_canvas_t *canvas, unsigned page, double dpi, int width, int height,
                                unsigned char *rgba, ct_error_t *err) {
  cairo_surface_t *img = NULL;
  ct_status_t st;
  int w, h, stride, y;
  const unsigned char *data;
  if ((st = ct_canvas_render_image(canvas, page, dpi / 72.0, &img, err)) != CT_OK) return st;
  w = cairo_image_surface_get_width(img);
  h = cairo_image_surface_get_height(img);
  if (w != width || h != height) {
    cairo_surface_destroy(img);
    return ct_set_error(err, CT_ERR_INVALID_ARG, "a frame of %dx%d pixels in an animation of %dx%d", w, h,
                        width, height);
  }
  cairo_surface_flush(img);
  stride = cairo_image_surface_get_stride(img);
  data = cairo_image_surface_get_data(img);
  for (y = 0; y < h; y++)
    ct_unpremultiply_row((const uint32_t *)(const void *)(data + (size_t)y * stride), rgba + (size_t)y * w * 4, w, 1);
  cairo_surface_destroy(img);
  return CT_OK;
}

ct_status_t ct_anim_add_canvas(ct_anim_t *a, ct_canvas_t *canvas, unsigned page, double dpi, int poster,
                               ct_error_t *err) {
  ct_status_t st;
  if ((st = frame_ok(a, poster, err)) != CT_OK) return st;
  if ((st = ct_anim_render_rgba(canvas, page, dpi, a->width, a->height, a->rgba, err)) != CT_OK) {
    if (st == CT_ERR_INVALID_ARG && err) {
      char msg[sizeof err->message];
      snprintf(msg, sizeof msg, "%s", err->message);
      return ct_set_error(err, st, "%s: frame %u: %s", a->path, a->count + 1, msg);
    }
    return st;
  }
  return ct_anim_add_rgba(a, a->rgba, poster, err);
}

unsigned ct_anim_get_sample_frames(const ct_anim_t *a, unsigned count, unsigned *frames, unsigned max) {
  unsigned n, i;
  if (a->format != CT_ANIM_GIF || a->count > 0 || count == 0) return 0;
  n = count < CT_MAX_ANIM_SAMPLES ? count : CT_MAX_ANIM_SAMPLES;
  if (n > max) n = max;
  /* spread evenly, the first and the last frame included */
  for (i = 0; i < n; i++) frames[i] = n == 1 ? 0 : (unsigned)((double)i * (count - 1) / (n - 1) + 0.5);
  return n;
}

ct_status_t ct_anim_add_sample(ct_anim_t *a, const unsigned char *rgba, ct_error_t *err) {
  if (a->failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", a->path, strerror(a->failed));
  if (a->format != CT_ANIM_GIF) return CT_OK;   /* the others need none */
  if (a->count > 0)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: sample frames come before the frames", a->path);
  return ct_gif_sample(a->gif, rgba, err);
}

unsigned ct_anim_get_frame_count(const ct_anim_t *a) {
  return a->count;
}

void ct_anim_get_size(const ct_anim_t *a, int *width, int *height) {
  *width = a->width;
  *height = a->height;
}

ct_status_t ct_anim_finish(ct_anim_t *a, ct_error_t *err) {
  ct_status_t st = CT_OK;
  if (a->count == 0) {
    st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: an animation needs at least one frame", a->path);
  } else if (a->format == CT_ANIM_APNG || a->format == CT_ANIM_WEBP) {
    int e;
    if (a->format == CT_ANIM_APNG) apng_finish(a);
    else webp_finish(a);
    e = a->failed;
    if (fclose(a->file) != 0 && !e) e = errno;
    a->file = NULL;
    if (e) st = ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", a->path, strerror(e));
    else st = ct_fs_rename(a->tmp, a->path, err);
    if (st != CT_OK) ct_fs_unlink(a->tmp);
    free(a->tmp);
    a->tmp = NULL;
  } else if (a->format == CT_ANIM_GIF) {
    st = ct_gif_finish(a->gif, err);
  } else if (a->format == CT_ANIM_VIDEO) {
    st = ct_video_finish(a->video, err);
  } else if (a->format == CT_ANIM_FRAMES) {
    unsigned i;
    for (i = 0; a->written && a->written[i]; i++) free(a->written[i]);
    free(a->written);
    a->written = NULL;   /* kept: they are the output */
  }
  return st;
}

void ct_anim_destroy(ct_anim_t *a) {
  unsigned i;
  if (!a) return;
  if (a->file) fclose(a->file);
  if (a->tmp) ct_fs_unlink(a->tmp);
  for (i = 0; a->written && a->written[i]; i++) {
    ct_fs_unlink(a->written[i]);   /* an animation given up leaves no frames */
    free(a->written[i]);
  }
  free(a->written);
  ct_gif_destroy(a->gif);
  ct_video_destroy(a->video);
  free(a->tmp);
  free(a->rgba);
  free(a->prev);
  free(a->sub);
  free(a->zbuf);
  free(a->path);
  free(a);
}
