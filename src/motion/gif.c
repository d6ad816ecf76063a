/*
** gif.c: animated GIF through giflib (animwriters.h, private to anim.c).  One palette for
** the whole animation, made by our own median cut refined by k-means over a histogram of
** the sample frames at 5 bits per channel (or the exact colors, when they fit); frames
** written as the rectangle that changed, each held until the next says how to dispose it.
** Motion stage: stands on the writers; knows no font making.
*/
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gif_lib.h>

#include "motion.h"

#define BINS 32768u               /* colors at 5 bits per channel */
#define EXACT_SLOTS 1024u         /* open addressing for up to 257 exact colors */
#define EXACT_USED 0x1000000u     /* marks a used slot: 0xRRGGBB | EXACT_USED */
#define KMEANS_PASSES 4
#define DITHER_MAX 32             /* largest error passed on, per channel */

typedef struct { uint64_t n, r, g, b; } bin_t;
typedef struct { int x, y, w, h; } rect_t;

struct ct_gif {
  char             *path, *tmp;     /* the target and its temporary name */
  FILE             *file;
  GifFileType      *gif;
  int               width, height;
  ct_anim_options_t o;
  int               failed;         /* errno of a failed write */
  int               broken;         /* a giflib call failed: nothing more is written */
  /* the palette */
  bin_t            *hist;           /* sample colors (freed once the palette is made) */
  uint32_t          exact_key[EXACT_SLOTS];
  unsigned char     exact_index[EXACT_SLOTS];
  unsigned          nexact;         /* distinct opaque sample colors, counted up to 257 */
  int               any_transparent;
  int               samples;
  int               ready;          /* palette made, header written */
  int               exact;          /* the palette holds every sample color */
  unsigned char     pal[256][3];
  int               ncolors;        /* colors, the transparent index not counted */
  int               trans;          /* transparent index (ncolors), or -1 */
  int16_t          *cube;           /* BINS: nearest index of a 5-bit color, -1 until asked */
  /* frames */
  unsigned char    *prev;           /* the indices readers show after the last frame */
  unsigned char    *cur;            /* this frame's indices */
  unsigned char    *pend;           /* what the held frame writes, at every pixel */
  rect_t            pend_rect;
  unsigned          pend_delay;
  int              *errs;           /* dithering: two rows of (width + 2) * 3 errors */
  unsigned          count;          /* frames added */
};

static unsigned bin_of(unsigned r, unsigned g, unsigned b) {
  return (r >> 3) << 10 | (g >> 3) << 5 | b >> 3;
}

/* ---- output ---------------------------------------------------------------------------- */

static int put_bytes(GifFileType *gf, const GifByteType *p, int n) {
  ct_gif_t *g = gf->UserData;
  if (g->failed) return 0;
  errno = 0;
  if (n > 0 && fwrite(p, 1, (size_t)n, g->file) != (size_t)n) {
    g->failed = errno ? errno : EIO;
    return 0;
  }
  return n;
}

/* A giflib call failed with `code`: a write error (what put_bytes saw) or giflib's own. */
static ct_status_t gif_error(ct_gif_t *g, int code, ct_error_t *err) {
  const char *why;
  g->broken = 1;
  if (g->failed) return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", g->path, strerror(g->failed));
  why = GifErrorString(code);
  return ct_set_error(err, CT_ERR_BACKEND, "%s: GIF: %s", g->path, why ? why : "giflib failed");
}

/* ---- the palette ----------------------------------------------------------------------- */

static unsigned exact_slot(const ct_gif_t *g, uint32_t rgb) {
  unsigned s = (unsigned)((rgb * 2654435761u) >> 22) & (EXACT_SLOTS - 1);
  while (g->exact_key[s] && g->exact_key[s] != (rgb | EXACT_USED)) s = (s + 1) & (EXACT_SLOTS - 1);
  return s;
}

/* Counts the opaque colors of a frame (alpha >= 128: GIF's transparency is one bit). */
static void tally(ct_gif_t *g, const unsigned char *px) {
  size_t i, n = (size_t)g->width * g->height;
  uint32_t last = 0;   /* the last color added to the exact set, | EXACT_USED */
  for (i = 0; i < n; i++, px += 4) {
    bin_t *b;
    uint32_t rgb;
    if (px[3] < 128) {
      g->any_transparent = 1;
      continue;
    }
    b = &g->hist[bin_of(px[0], px[1], px[2])];
    b->n++;
    b->r += px[0];
    b->g += px[1];
    b->b += px[2];
    rgb = (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | px[2];
    if ((rgb | EXACT_USED) != last && g->nexact <= 256) {
      unsigned s = exact_slot(g, rgb);
      if (!g->exact_key[s]) {
        g->exact_key[s] = rgb | EXACT_USED;
        g->nexact++;
      }
      last = rgb | EXACT_USED;
    }
  }
}

static int nearest(const ct_gif_t *g, int r, int gr, int b) {
  int i, best = 0;
  long bestd = -1;
  if (g->ncolors == 0) return g->trans >= 0 ? g->trans : 0;
  for (i = 0; i < g->ncolors; i++) {
    long dr = r - g->pal[i][0], dg = gr - g->pal[i][1], db = b - g->pal[i][2];
    long d = dr * dr + dg * dg + db * db;
    if (bestd < 0 || d < bestd) {
      bestd = d;
      best = i;
    }
  }
  return best;
}

/* The index of an opaque color: exact when the palette has it, else the nearest to the
   middle of its 5-bit cell (looked up once per cell). */
static int lookup(ct_gif_t *g, int r, int gr, int b) {
  unsigned k;
  if (g->exact) {
    uint32_t rgb = (uint32_t)r << 16 | (uint32_t)gr << 8 | (uint32_t)b;
    unsigned s = exact_slot(g, rgb);
    if (g->exact_key[s]) return g->exact_index[s];
  }
  k = bin_of((unsigned)r, (unsigned)gr, (unsigned)b);
  if (g->cube[k] < 0)
    g->cube[k] = (int16_t)nearest(g, (int)((k >> 10) << 3 | 4), (int)(((k >> 5) & 31) << 3 | 4), (int)((k & 31) << 3 | 4));
  return g->cube[k];
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Bins of a box sorted along one channel: the channel's 5 bits are in the bin number. */
static int cmp_r(const void *a, const void *b) {
  return (int)(*(const uint16_t *)a >> 10) - (int)(*(const uint16_t *)b >> 10);
}
static int cmp_g(const void *a, const void *b) {
  return (int)((*(const uint16_t *)a >> 5) & 31) - (int)((*(const uint16_t *)b >> 5) & 31);
}
static int cmp_b(const void *a, const void *b) {
  return (int)(*(const uint16_t *)a & 31) - (int)(*(const uint16_t *)b & 31);
}

typedef struct {
  unsigned lo, hi;         /* bins[lo..hi) */
  double   n, mean[3], var[3], sse;
} box_t;

static void box_stats(const bin_t *hist, const uint16_t *bins, box_t *x) {
  double s[3] = { 0, 0, 0 }, q[3] = { 0, 0, 0 };
  unsigned i, c;
  x->n = 0;
  for (i = x->lo; i < x->hi; i++) {
    const bin_t *b = &hist[bins[i]];
    double n = (double)b->n, m[3];
    m[0] = (double)b->r / n;
    m[1] = (double)b->g / n;
    m[2] = (double)b->b / n;
    x->n += n;
    for (c = 0; c < 3; c++) {
      s[c] += n * m[c];
      q[c] += n * m[c] * m[c];
    }
  }
  x->sse = 0;
  for (c = 0; c < 3; c++) {
    x->mean[c] = s[c] / x->n;
    x->var[c] = q[c] - s[c] * x->mean[c];
    x->sse += x->var[c];
  }
  if (x->hi - x->lo < 2) x->sse = 0;   /* one bin: nothing to split */
}

/* Median cut: the box with the largest squared error is split along its widest channel at
   the pixels' median, until there are `room` boxes; then k-means passes move each color to
   the mean of the bins nearest to it.  Fails only for memory. */
static int quantize(ct_gif_t *g, int room) {
  uint16_t *bins = malloc(BINS * sizeof *bins);
  box_t *boxes = malloc((size_t)room * sizeof *boxes);
  unsigned nb = 0, i;
  int nbox = 1, k, pass;
  if (!bins || !boxes) {
    free(bins);
    free(boxes);
    return -1;
  }
  for (i = 0; i < BINS; i++)
    if (g->hist[i].n) bins[nb++] = (uint16_t)i;
  boxes[0].lo = 0;
  boxes[0].hi = nb;
  box_stats(g->hist, bins, &boxes[0]);
  while (nbox < room) {
    int best = -1, axis = 0;
    unsigned at;
    double half, run = 0;
    box_t *x;
    for (k = 0; k < nbox; k++)
      if (boxes[k].sse > 0 && (best < 0 || boxes[k].sse > boxes[best].sse)) best = k;
    if (best < 0) break;
    x = &boxes[best];
    if (x->var[1] > x->var[axis]) axis = 1;
    if (x->var[2] > x->var[axis]) axis = 2;
    qsort(bins + x->lo, x->hi - x->lo, sizeof *bins, axis == 0 ? cmp_r : axis == 1 ? cmp_g : cmp_b);
    half = x->n / 2;
    for (at = x->lo; at < x->hi - 1; at++) {
      run += (double)g->hist[bins[at]].n;
      if (run >= half) break;
    }
    if (at < x->hi - 1) at++;   /* bins[lo..at) and bins[at..hi), neither empty */
    boxes[nbox].lo = at;
    boxes[nbox].hi = x->hi;
    x->hi = at;
    box_stats(g->hist, bins, x);
    box_stats(g->hist, bins, &boxes[nbox]);
    nbox++;
  }
  for (k = 0; k < nbox; k++)
    for (i = 0; i < 3; i++) g->pal[k][i] = (unsigned char)lround(fmin(255, fmax(0, boxes[k].mean[i])));
  g->ncolors = nbox;
  free(boxes);
  for (pass = 0; pass < KMEANS_PASSES; pass++) {
    double sum[256][4];
    memset(sum, 0, sizeof sum);
    for (i = 0; i < nb; i++) {
      const bin_t *b = &g->hist[bins[i]];
      double n = (double)b->n;
      int j = nearest(g, (int)lround((double)b->r / n), (int)lround((double)b->g / n), (int)lround((double)b->b / n));
      sum[j][0] += n;
      sum[j][1] += (double)b->r;
      sum[j][2] += (double)b->g;
      sum[j][3] += (double)b->b;
    }
    for (k = 0; k < nbox; k++)
      if (sum[k][0] > 0)
        for (i = 0; i < 3; i++) g->pal[k][i] = (unsigned char)lround(fmin(255, sum[k][i + 1] / sum[k][0]));
  }
  free(bins);
  return 0;
}

/* The palette: the sample colors themselves when they fit (then the index of each is in the
   exact table), else a quantized one; an index for transparency when a sample had any, or
   when a slot is left over (it also lets frames skip their unchanged pixels). */
static int make_palette(ct_gif_t *g) {
  int room = g->any_transparent ? 255 : 256;
  if (g->nexact <= (unsigned)room) {
    uint32_t colors[256];
    unsigned i, n = 0;
    for (i = 0; i < EXACT_SLOTS; i++)
      if (g->exact_key[i]) colors[n++] = g->exact_key[i] & 0xffffff;
    qsort(colors, n, sizeof *colors, cmp_u32);   /* an order that does not hang on the hash */
    for (i = 0; i < n; i++) {
      g->pal[i][0] = (unsigned char)(colors[i] >> 16);
      g->pal[i][1] = (unsigned char)(colors[i] >> 8);
      g->pal[i][2] = (unsigned char)colors[i];
      g->exact_index[exact_slot(g, colors[i])] = (unsigned char)i;
    }
    g->ncolors = (int)n;
    g->exact = 1;
  } else if (quantize(g, room) != 0) {
    return -1;
  }
  g->trans = g->ncolors < 256 ? g->ncolors : -1;
  memset(g->cube, 0xff, BINS * sizeof *g->cube);   /* -1: not looked up */
  return 0;
}

/* The palette from the samples, then the screen, the palette and the loop count. */
static ct_status_t begin(ct_gif_t *g, ct_error_t *err) {
  ColorMapObject *map;
  int size = 2, i, total;
  if (make_palette(g) != 0) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  free(g->hist);
  g->hist = NULL;
  total = g->ncolors + (g->trans >= 0);
  while (size < total) size *= 2;
  if (!(map = GifMakeMapObject(size, NULL))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  for (i = 0; i < g->ncolors; i++) {
    map->Colors[i].Red = g->pal[i][0];
    map->Colors[i].Green = g->pal[i][1];
    map->Colors[i].Blue = g->pal[i][2];
  }
  EGifSetGifVersion(g->gif, true);
  i = EGifPutScreenDesc(g->gif, g->width, g->height, 8, g->trans >= 0 ? g->trans : 0, map);
  GifFreeMapObject(map);
  if (i == GIF_ERROR) return gif_error(g, g->gif->Error, err);
  if (g->o.loop != 1) {
    /* NETSCAPE2.0: repeats after the first play, 0 forever */
    unsigned rep = g->o.loop == 0 ? 0 : g->o.loop - 1;
    unsigned char sub[3] = { 1, (unsigned char)(rep & 0xff), (unsigned char)(rep >> 8) };
    if (EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(g->gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
        EGifPutExtensionBlock(g->gif, 3, sub) == GIF_ERROR || EGifPutExtensionTrailer(g->gif) == GIF_ERROR)
      return gif_error(g, g->gif->Error, err);
  }
  g->ready = 1;
  return CT_OK;
}

/* ---- frames ---------------------------------------------------------------------------- */

/* The frame's indices in g->cur: nearest colors, or Floyd-Steinberg error diffusion (errors
   kept times 16; transparent pixels take and pass on none). */
static void map_frame(ct_gif_t *g, const unsigned char *px) {
  int w = g->width, h = g->height, x, y;
  unsigned char *out = g->cur;
  if (!g->o.dither) {
    size_t i, n = (size_t)w * h;
    uint32_t last = 0xffffffffu;
    int idx = 0;
    for (i = 0; i < n; i++, px += 4) {
      uint32_t rgb;
      if (px[3] < 128 && g->trans >= 0) {
        out[i] = (unsigned char)g->trans;
        continue;
      }
      rgb = (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | px[2];
      if (rgb != last) {
        idx = lookup(g, px[0], px[1], px[2]);
        last = rgb;
      }
      out[i] = (unsigned char)idx;
    }
    return;
  }
  memset(g->errs, 0, (size_t)(w + 2) * 3 * sizeof *g->errs);
  for (y = 0; y < h; y++) {
    int *e0 = g->errs + (size_t)(y & 1) * (w + 2) * 3, *e1 = g->errs + (size_t)(~y & 1) * (w + 2) * 3;
    memset(e1, 0, (size_t)(w + 2) * 3 * sizeof *e1);
    for (x = 0; x < w; x++, px += 4, out++) {
      int c, v[3], idx;
      if (px[3] < 128 && g->trans >= 0) {
        *out = (unsigned char)g->trans;
        continue;
      }
      for (c = 0; c < 3; c++) {
        int e = e0[(x + 1) * 3 + c];
        v[c] = px[c] + (e >= 0 ? (e + 8) / 16 : -((-e + 8) / 16));
        v[c] = v[c] < 0 ? 0 : v[c] > 255 ? 255 : v[c];
      }
      idx = lookup(g, v[0], v[1], v[2]);
      *out = (unsigned char)idx;
      for (c = 0; c < 3; c++) {
        /* bounded: where the palette lacks a color, unbounded error piles up into
           specks of a far color */
        int e = v[c] - g->pal[idx][c];
        e = e < -DITHER_MAX ? -DITHER_MAX : e > DITHER_MAX ? DITHER_MAX : e;
        e0[(x + 2) * 3 + c] += e * 7;
        e1[x * 3 + c] += e * 3;
        e1[(x + 1) * 3 + c] += e * 5;
        e1[(x + 2) * 3 + c] += e;
      }
    }
  }
}

/* Writes the held frame: its control block (delay, disposal, transparency), then its
   rectangle of g->pend. */
static ct_status_t put_frame(ct_gif_t *g, int disposal, ct_error_t *err) {
  rect_t r = g->pend_rect;
  unsigned char gce[4];
  int y;
  gce[0] = (unsigned char)(disposal << 2 | (g->trans >= 0));
  gce[1] = (unsigned char)(g->pend_delay & 0xff);
  gce[2] = (unsigned char)(g->pend_delay >> 8);
  gce[3] = (unsigned char)(g->trans >= 0 ? g->trans : 0);
  if (EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, 4, gce) == GIF_ERROR ||
      EGifPutImageDesc(g->gif, r.x, r.y, r.w, r.h, false, NULL) == GIF_ERROR)
    return gif_error(g, g->gif->Error, err);
  for (y = r.y; y < r.y + r.h; y++)
    if (EGifPutLine(g->gif, g->pend + (size_t)y * g->width + r.x, r.w) == GIF_ERROR)
      return gif_error(g, g->gif->Error, err);
  return CT_OK;
}

/* The smallest rectangle holding every pixel where `a` and `b` differ; w = 0 if none.  With
   `hole` (a transparent index), only pixels opaque in `a` and transparent in `b`. */
static rect_t changes(const ct_gif_t *g, const unsigned char *a, const unsigned char *b, int hole) {
  rect_t r = { 0, 0, 0, 0 };
  int x, y, x0 = g->width, x1 = -1, y0 = -1, y1 = -1;
  for (y = 0; y < g->height; y++) {
    const unsigned char *p = a + (size_t)y * g->width, *q = b + (size_t)y * g->width;
    int first = -1, last = -1;
    if (hole < 0) {
      if (memcmp(p, q, (size_t)g->width) == 0) continue;
      for (x = 0; x < g->width && p[x] == q[x]; x++) {}
      first = x;
      for (x = g->width - 1; p[x] == q[x]; x--) {}
      last = x;
    } else {
      for (x = 0; x < g->width; x++)
        if (p[x] != hole && q[x] == hole) {
          if (first < 0) first = x;
          last = x;
        }
      if (first < 0) continue;
    }
    if (y0 < 0) y0 = y;
    y1 = y;
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
  }
  if (y0 >= 0) {
    r.x = x0;
    r.y = y0;
    r.w = x1 - x0 + 1;
    r.h = y1 - y0 + 1;
  }
  return r;
}

static rect_t rect_union(rect_t a, rect_t b) {
  rect_t r;
  r.x = a.x < b.x ? a.x : b.x;
  r.y = a.y < b.y ? a.y : b.y;
  r.w = (a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w) - r.x;
  r.h = (a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h) - r.y;
  return r;
}

/* ---- the writer ------------------------------------------------------------------------ */

ct_gif_t *ct_gif_open(const char *path, int width, int height, const ct_anim_options_t *opts, ct_error_t *err) {
  ct_gif_t *g = NULL;
  size_t px = (size_t)(width > 0 ? width : 0) * (size_t)(height > 0 ? height : 0);
  int gerr = 0;
  if (!(opts->fps > 0 && opts->fps <= CT_MAX_GIF_FPS)) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "%s: GIF plays at most %d frames per second (%g asked)", path,
                 CT_MAX_GIF_FPS, opts->fps);
    return NULL;
  }
  if (100.0 / opts->fps >= 65535) {   /* a delay is 16 bits of hundredths of a second */
    ct_set_error(err, CT_ERR_INVALID_ARG, "%s: GIF shows a frame for at most 655 seconds (%g frames per second asked)",
                 path, opts->fps);
    return NULL;
  }
  if (width < 1 || height < 1 || width > 65535 || height > 65535) {   /* GIF's 16-bit sides */
    ct_set_error(err, CT_ERR_LIMIT, "%s: GIF frames of %dx%d pixels (at most 65535 per side)", path, width, height);
    return NULL;
  }
  if (!(g = calloc(1, sizeof *g))) goto nomem;
  g->width = width;
  g->height = height;
  g->o = *opts;
  g->trans = -1;
  if (!(g->path = strdup(path)) || !(g->hist = calloc(BINS, sizeof *g->hist)) ||
      !(g->cube = malloc(BINS * sizeof *g->cube)) || !(g->prev = malloc(px)) || !(g->cur = malloc(px)) ||
      !(g->pend = malloc(px)))
    goto nomem;
  if (opts->dither && !(g->errs = malloc((size_t)(width + 2) * 6 * sizeof *g->errs))) goto nomem;
  if (!(g->file = ct_file_open_temp(path, "wb", &g->tmp, err))) {
    ct_gif_destroy(g);
    return NULL;
  }
  if (!(g->gif = EGifOpen(g, put_bytes, &gerr))) {
    ct_gif_destroy(g);
    ct_set_error(err, CT_ERR_NOMEM, "%s: GIF: %s", path, GifErrorString(gerr));
    return NULL;
  }
  return g;
nomem:
  ct_gif_destroy(g);
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return NULL;
}

ct_status_t ct_gif_sample(ct_gif_t *g, const unsigned char *rgba, ct_error_t *err) {
  if (g->ready) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: sample frames come before the frames", g->path);
  tally(g, rgba);
  g->samples++;
  return CT_OK;
}

ct_status_t ct_gif_add(ct_gif_t *g, const unsigned char *rgba, ct_error_t *err) {
  ct_status_t st;
  unsigned char *t;
  size_t i, n = (size_t)g->width * g->height;
  rect_t r;
  int y, disposal = DISPOSE_DO_NOT;
  if (g->broken) return gif_error(g, E_GIF_ERR_WRITE_FAILED, err);
  if (!g->ready) {
    if (!g->samples) tally(g, rgba);   /* no samples: the first frame makes the palette */
    if ((st = begin(g, err)) != CT_OK) return st;
  }
  map_frame(g, rgba);
  if (g->count > 0) {
    /* A pixel shown opaque that turns transparent cannot be drawn over: the held frame is
       then disposed of to the background (transparent), its rectangle grown to the holes;
       the pixels it gains write the transparent index, which leaves them as they were. */
    if (g->trans >= 0 && (r = changes(g, g->prev, g->cur, g->trans)).w) {
      g->pend_rect = rect_union(g->pend_rect, r);
      disposal = DISPOSE_BACKGROUND;
    }
    if ((st = put_frame(g, disposal, err)) != CT_OK) return st;
    if (disposal == DISPOSE_BACKGROUND)
      for (y = g->pend_rect.y; y < g->pend_rect.y + g->pend_rect.h; y++)
        memset(g->prev + (size_t)y * g->width + g->pend_rect.x, g->trans, (size_t)g->pend_rect.w);
    r = changes(g, g->prev, g->cur, -1);
    if (!r.w) r.w = r.h = 1;   /* nothing changed: one pixel, as it is */
  } else {
    r.x = r.y = 0;
    r.w = g->width;
    r.h = g->height;
  }
  /* pixels left as they are write the transparent index (when there is one): runs of it
     compress well */
  for (i = 0; i < n; i++) g->pend[i] = g->trans >= 0 && g->count > 0 && g->prev[i] == g->cur[i] ? (unsigned char)g->trans : g->cur[i];
  g->pend_rect = r;
  /* delays in hundredths of a second, rounded so that they add up to the frame times */
  g->pend_delay = (unsigned)(lround((g->count + 1) * 100.0 / g->o.fps) - lround(g->count * 100.0 / g->o.fps));
  t = g->prev;
  g->prev = g->cur;
  g->cur = t;
  g->count++;
  return CT_OK;
}

ct_status_t ct_gif_finish(ct_gif_t *g, ct_error_t *err) {
  ct_status_t st = CT_OK;
  int gerr = 0, e = 0;
  if (g->count == 0) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: an animation needs at least one frame", g->path);
  if (g->broken) return gif_error(g, E_GIF_ERR_WRITE_FAILED, err);
  if ((st = put_frame(g, DISPOSE_DO_NOT, err)) != CT_OK) return st;
  if (EGifCloseFile(g->gif, &gerr) == GIF_ERROR) {   /* frees it either way */
    g->gif = NULL;
    return gif_error(g, gerr, err);
  }
  g->gif = NULL;
  e = g->failed;
  if (fclose(g->file) != 0 && !e) e = errno ? errno : EIO;
  g->file = NULL;
  if (e) {
    g->broken = 1;
    return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", g->path, strerror(e));   /* destroy unlinks */
  }
  if (ct_fs_rename(g->tmp, g->path, err) != CT_OK) {
    g->broken = 1;
    return err ? err->status : CT_ERR_IO;
  }
  free(g->tmp);
  g->tmp = NULL;
  return CT_OK;
}

void ct_gif_destroy(ct_gif_t *g) {
  int gerr;
  if (!g) return;
  if (g->gif) EGifCloseFile(g->gif, &gerr);
  if (g->file) fclose(g->file);
  if (g->tmp) ct_fs_unlink(g->tmp);
  free(g->tmp);
  free(g->path);
  free(g->hist);
  free(g->cube);
  free(g->prev);
  free(g->cur);
  free(g->pend);
  free(g->errs);
  free(g);
}
