/*
** colrwrite.c: paint trees as a COLR table (version 0 layer records and version 1 paint
** graphs), for the font writer (palettes: cpalwrite.c).  Fontmake stage: knows fonts
** and paint trees, never pages or outputs.
**
** Version 1 paints go into one heap placed after the lists.  Each paint a list points at
** (a LayerList entry, a base glyph's paint) is a block: it and the paints it points at by
** Offset24, contiguous, parents first (an Offset24 is unsigned, counted from its parent).
** The layers of a PaintColrLayers inside a block are written before the block (the glyphs
** and colors they add are still asked for parents first, as before).  A block
** whose bytes a block already holds is not written again, and a PaintColrLayers whose
** layers are a run of the LayerList already (a whole earlier list or a stretch of one)
** points at that run, as nanoemoji does.  PaintColrLayers takes at most 255 layers; longer
** lists nest.  Clip boxes become PaintGlyph of a rectangle glyph (no ClipList); trees are
** walked under the paint limits of ct-limits.h.
**
** A variable font's glyphs come with their trees at each master (colrvar.c checks their
** shape): the numbers that differ from the default's are written as PaintVar* records
** (PaintVarSolid, the gradients with VarColorLine, PaintVarTranslate, PaintVarTransform),
** their deltas as rows of the variation store.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontmake.h"

typedef struct { unsigned gid, first, count; } v0_base_t;
typedef struct { unsigned gid; size_t heap; } v1_base_t;
/* A paint of the heap a list points at: bytes [pos, pos + len), chained by hash. */
typedef struct { size_t pos, len; uint64_t hash; unsigned next; } block_t;

struct ct_colr_writer {
  v0_base_t *v0;
  unsigned   nv0, v0cap;
  ct_buf_t   v0layers;    /* LayerRecords: gid, palette index */
  unsigned   nv0layers;
  v1_base_t *v1;
  unsigned   nv1, v1cap;
  size_t    *layers;      /* LayerList: heap positions */
  unsigned  *lnext;       /* per entry: 1 + the previous entry of its lhash chain, or 0 */
  unsigned   nlayers, layers_cap;
  unsigned  *lhash;       /* by heap position: 1 + the newest entry of the chain */
  unsigned   lhash_cap;
  ct_buf_t   heap;
  block_t   *blocks;      /* the heap's blocks, each stored once */
  unsigned   nblocks, blocks_cap;
  unsigned  *bhash;       /* by hash of the bytes: 1 + the newest block of the chain */
  unsigned   bhash_cap;
  ct_colr_var_t *var;     /* NULL: a static font */
  int        failed;
};

ct_colr_writer_t *ct_colr_writer_create(void) {
  return calloc(1, sizeof(ct_colr_writer_t));
}

void ct_colr_writer_destroy(ct_colr_writer_t *w) {
  if (!w) return;
  free(w->v0);
  free(w->v1);
  free(w->layers);
  free(w->lnext);
  free(w->lhash);
  free(w->blocks);
  free(w->bhash);
  ct_buf_free(&w->v0layers);
  ct_buf_free(&w->heap);
  free(w);
}

/* A run of LayerList entries laid out for a PaintColrLayers yet to be written. */
typedef struct { unsigned first, count; } run_t;

typedef const ct_paint_t *const *masters_t;   /* a node's counterparts at each master, or NULL */

typedef struct {
  ct_colr_writer_t *w;
  ct_colr_sink_t   *sink;
  unsigned          nm;       /* masters (the variation store's regions); 0: static */
  ct_font_t        *lead;
  unsigned          work;
  const char       *why;
  run_t            *runs;     /* v1: lay() pushes, emit() takes them from `cursor` */
  unsigned          nruns, runs_cap, cursor;
  long             *ids;      /* v1: the sink's answers, asked by lay(), taken by emit() */
  unsigned          nids, ids_cap, idcur;
} walk_t;

/* The reason a glyph was refused, into the sink: often the sink's own words already
   (a refusal that passes on sink->why), which a copy onto itself would erase. */
static void set_why(ct_colr_sink_t *sink, const char *why) {
  if (why != sink->why) snprintf(sink->why, sizeof sink->why, "%s", why);
}

static int refuse(walk_t *k, const char *why) {
  if (!k->why) k->why = why && *why ? why : "the builder could not add one of its layers";   /* never an empty reason */
  return 0;
}

static int budget(walk_t *k, unsigned depth) {
  if (depth > CT_MAX_PAINT_DEPTH) return refuse(k, "the paint tree is nested too deep");
  if (++k->work > CT_MAX_PAINT_WORK) return refuse(k, "the paint tree has too many nodes");
  return 1;
}

static void mat_mul(const double a[6], const double b[6], double r[6]) {
  /* r = a after b: r(x) = a(b(x)) */
  double t[6];
  t[0] = a[0] * b[0] + a[2] * b[1];
  t[1] = a[1] * b[0] + a[3] * b[1];
  t[2] = a[0] * b[2] + a[2] * b[3];
  t[3] = a[1] * b[2] + a[3] * b[3];
  t[4] = a[0] * b[4] + a[2] * b[5] + a[4];
  t[5] = a[1] * b[4] + a[3] * b[5] + a[5];
  memcpy(r, t, sizeof t);
}

static int is_identity(const double m[6]) {
  return m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 1 && m[4] == 0 && m[5] == 0;
}

/* ---- version 0 ------------------------------------------------------------- */

/* The solid color a glyph's child fills with (through transforms), or NULL. */
static const ct_paint_t *solid_of(const ct_paint_t *p) {
  while (p && p->kind == CT_PAINT_TRANSFORM) p = p->u.transform.child;
  return p && p->kind == CT_PAINT_SOLID ? p : NULL;
}

static int flatten_v0(walk_t *k, const ct_paint_t *p, const double m[6], unsigned depth) {
  unsigned i;
  if (!budget(k, depth)) return 0;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++)
      if (!flatten_v0(k, p->u.layers.children[i], m, depth + 1)) return 0;
    return 1;
  case CT_PAINT_TRANSFORM: {
    double t[6] = { p->u.transform.xx, p->u.transform.yx, p->u.transform.xy, p->u.transform.yy,
                    p->u.transform.dx, p->u.transform.dy }, r[6];
    mat_mul(m, t, r);
    return flatten_v0(k, p->u.transform.child, r, depth + 1);
  }
  case CT_PAINT_COMPOSITE:
    if (p->u.composite.mode != CT_COMPOSITE_SRC_OVER)
      return refuse(k, "it composites layers with a mode other than source-over");
    return flatten_v0(k, p->u.composite.backdrop, m, depth + 1) &&
           flatten_v0(k, p->u.composite.source, m, depth + 1);
  case CT_PAINT_GLYPH: {
    const ct_paint_t *s = solid_of(p->u.glyph.child);
    ct_font_t *font = p->u.glyph.font ? p->u.glyph.font : k->lead;
    long gid, color;
    if (!s) return refuse(k, "it fills a glyph with a gradient or nested paint");
    if (s->u.solid.color.kind == CT_COLOR_FOREGROUND && s->u.solid.color.alpha < 1)
      return refuse(k, "it draws the text color with an alpha");
    gid = k->sink->glyph(k->sink->data, font, p->u.glyph.gid, is_identity(m) ? NULL : m);
    if (gid < 0) return refuse(k, k->sink->why);
    color = k->sink->color(k->sink->data, &s->u.solid.color, 1);
    if (color < 0) return refuse(k, k->sink->why);
    if (k->w->nv0layers >= 65535) return refuse(k, "the font has more than 65535 COLRv0 layers");
    ct_buf_u16(&k->w->v0layers, (unsigned)gid);
    ct_buf_u16(&k->w->v0layers, (unsigned)color);
    k->w->nv0layers++;
    return 1;
  }
  case CT_PAINT_SOLID:
    return refuse(k, "it fills the whole plane (a paint outside any glyph)");
  case CT_PAINT_LINEAR: case CT_PAINT_RADIAL: case CT_PAINT_SWEEP:
    return refuse(k, "it has a gradient");
  case CT_PAINT_CLIP:
    return refuse(k, "it has a clip box");
  case CT_PAINT_SVG:
    return refuse(k, "it is an SVG glyph");
  case CT_PAINT_BITMAP:
    return refuse(k, "it is a bitmap glyph");
  default:
    return refuse(k, "it has an unknown paint");
  }
}

/* Whether a tree is what COLRv0 holds: layers of glyph outlines (transformed or not)
   filled with solid colors, composited source-over.  No glyph is added to find out. */
int ct_colr_fits_v0(const ct_paint_t *p, unsigned depth) {
  unsigned i;
  const ct_paint_t *s;
  if (depth > CT_MAX_PAINT_DEPTH) return 0;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++)
      if (!ct_colr_fits_v0(p->u.layers.children[i], depth + 1)) return 0;
    return 1;
  case CT_PAINT_TRANSFORM:
    return ct_colr_fits_v0(p->u.transform.child, depth + 1);
  case CT_PAINT_COMPOSITE:
    return p->u.composite.mode == CT_COMPOSITE_SRC_OVER && ct_colr_fits_v0(p->u.composite.backdrop, depth + 1) &&
           ct_colr_fits_v0(p->u.composite.source, depth + 1);
  case CT_PAINT_GLYPH:
    s = solid_of(p->u.glyph.child);
    return s && !(s->u.solid.color.kind == CT_COLOR_FOREGROUND && s->u.solid.color.alpha < 1);
  default:
    return 0;
  }
}

int ct_colr_writer_add_v0(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree, ct_font_t *lead,
                          ct_colr_sink_t *sink) {
  static const double identity[6] = { 1, 0, 0, 1, 0, 0 };
  walk_t k = { .w = w, .sink = sink, .lead = lead };
  size_t mark = w->v0layers.len;
  unsigned first = w->nv0layers;
  if (!flatten_v0(&k, tree, identity, 0)) {
    w->v0layers.len = mark;   /* the glyph's layers so far go */
    w->nv0layers = first;
    set_why(sink, k.why);
    return 0;
  }
  if (w->nv0layers == first) return 1;   /* nothing drawn: no record */
  if (w->nv0 == w->v0cap) {
    unsigned cap = w->v0cap ? w->v0cap * 2 : 64;
    v0_base_t *v = realloc(w->v0, cap * sizeof *v);
    if (!v) {
      snprintf(sink->why, sizeof sink->why, "out of memory");
      return 0;
    }
    w->v0 = v;
    w->v0cap = cap;
  }
  w->v0[w->nv0].gid = gid;
  w->v0[w->nv0].first = first;
  w->v0[w->nv0].count = w->nv0layers - first;
  w->nv0++;
  return 1;
}

/* ---- version 1 ------------------------------------------------------------- */

static int f2dot14(walk_t *k, double v, unsigned *out) {
  if (!(v >= -2.0 && v <= 1.99994)) return refuse(k, "a value off the F2DOT14 range (-2 to 2)");
  *out = (unsigned)(lround(v * 16384.0) & 0xFFFF);
  return 1;
}


/* The next of the sink's answers lay() asked for, in the order emit() writes them. */
static long take_id(walk_t *k) {
  if (k->idcur < k->nids) return k->ids[k->idcur++];
  refuse(k, "internal error: a paint not laid out");
  return -1;
}

static int color_line(walk_t *k, const ct_color_line_t *line, size_t parent, size_t slot) {
  ct_buf_t *h = &k->w->heap;
  size_t at = h->len;
  unsigned i;
  if (line->count > 65535) return refuse(k, "a color line with too many stops");
  ct_buf_u8(h, line->extend == CT_EXTEND_REPEAT ? 1 : line->extend == CT_EXTEND_REFLECT ? 2 : 0);
  ct_buf_u16(h, line->count);
  for (i = 0; i < line->count; i++) {
    unsigned off, alpha;
    long index = take_id(k);
    if (index < 0) return 0;
    if (!f2dot14(k, line->stops[i].offset, &off) ||
        !f2dot14(k, fmin(1.0, fmax(0.0, line->stops[i].color.alpha)), &alpha)) return 0;
    ct_buf_u16(h, off);
    ct_buf_u16(h, (unsigned)index);
    ct_buf_u16(h, alpha);
  }
  ct_buf_put_u24(h, slot, (uint32_t)(at - parent));
  return 1;
}

/* ---- version 1: paints stored once ------------------------------------------ */

static uint64_t bytes_hash(const unsigned char *p, size_t n) {
  uint64_t h = 0xCBF29CE484222325ull;   /* FNV-1a */
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
  return h ^ (h >> 32);
}

static unsigned pos_slot(size_t pos, unsigned cap) {
  return (unsigned)(((uint64_t)pos * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* The chains of the block table rebuilt at twice the size, in index order: the newest
   block heads its chain, so that blocks_pop unlinks from the newest down. */
static int blocks_rehash(ct_colr_writer_t *w) {
  unsigned cap = w->bhash_cap ? w->bhash_cap * 2 : 1024, i, *t = calloc(cap, sizeof *t);
  if (!t) return 0;
  for (i = 0; i < w->nblocks; i++) {
    unsigned j = (unsigned)(w->blocks[i].hash & (cap - 1));
    w->blocks[i].next = t[j];
    t[j] = i + 1;
  }
  free(w->bhash);
  w->bhash = t;
  w->bhash_cap = cap;
  return 1;
}

/* Forgets the blocks from `keep` on (a glyph that failed). */
static void blocks_pop(ct_colr_writer_t *w, unsigned keep) {
  while (w->nblocks > keep) {
    const block_t *b = &w->blocks[--w->nblocks];
    w->bhash[b->hash & (w->bhash_cap - 1)] = b->next;
  }
}

/* The paint just written at *pos, its bytes up to the heap's end and self-contained (its
   Offset24 point inside them), stored once: if a block already holds the same bytes, they
   go and *pos becomes that block.  Only for paints referenced by Offset32 (LayerList
   entries, base glyphs), counted from lists before the heap: an Offset24 cannot point back. */
static int share(walk_t *k, size_t *pos) {
  ct_colr_writer_t *w = k->w;
  ct_buf_t *h = &w->heap;
  size_t len = h->len - *pos;
  uint64_t hash;
  unsigned j;
  if (h->failed) return 1;   /* add_v1 reports it */
  hash = bytes_hash(h->p + *pos, len);
  for (j = w->bhash_cap ? w->bhash[hash & (w->bhash_cap - 1)] : 0; j; j = w->blocks[j - 1].next) {
    const block_t *b = &w->blocks[j - 1];
    if (b->hash == hash && b->len == len && memcmp(h->p + b->pos, h->p + *pos, len) == 0) {
      h->len = *pos;
      *pos = b->pos;
      return 1;
    }
  }
  if (w->nblocks * 2 >= w->bhash_cap && !blocks_rehash(w)) return refuse(k, "out of memory");
  if (w->nblocks == w->blocks_cap) {
    unsigned cap = w->blocks_cap ? w->blocks_cap * 2 : 256;
    block_t *b = realloc(w->blocks, cap * sizeof *b);
    if (!b) return refuse(k, "out of memory");
    w->blocks = b;
    w->blocks_cap = cap;
  }
  j = (unsigned)(hash & (w->bhash_cap - 1));
  w->blocks[w->nblocks].pos = *pos;
  w->blocks[w->nblocks].len = len;
  w->blocks[w->nblocks].hash = hash;
  w->blocks[w->nblocks].next = w->bhash[j];
  w->bhash[j] = ++w->nblocks;
  return 1;
}

/* The LayerList's index by heap position, rebuilt like the block table's. */
static int layers_rehash(ct_colr_writer_t *w) {
  unsigned cap = w->lhash_cap ? w->lhash_cap * 2 : 1024, i, *t = calloc(cap, sizeof *t);
  if (!t) return 0;
  for (i = 0; i < w->nlayers; i++) {
    unsigned j = pos_slot(w->layers[i], cap);
    w->lnext[i] = t[j];
    t[j] = i + 1;
  }
  free(w->lhash);
  w->lhash = t;
  w->lhash_cap = cap;
  return 1;
}

static void layers_pop(ct_colr_writer_t *w, unsigned keep) {
  while (w->nlayers > keep) {
    w->nlayers--;
    w->lhash[pos_slot(w->layers[w->nlayers], w->lhash_cap)] = w->lnext[w->nlayers];
  }
}

static int add_layer(walk_t *k, size_t pos) {
  ct_colr_writer_t *w = k->w;
  unsigned j;
  if (w->nlayers == w->layers_cap) {
    unsigned cap = w->layers_cap ? w->layers_cap * 2 : 256, *n;
    size_t *l = realloc(w->layers, cap * sizeof *l);
    if (l) w->layers = l;
    n = l ? realloc(w->lnext, cap * sizeof *n) : NULL;
    if (!n) return refuse(k, "out of memory");
    w->lnext = n;
    w->layers_cap = cap;
  }
  if (w->nlayers * 2 >= w->lhash_cap && !layers_rehash(w)) return refuse(k, "out of memory");
  j = pos_slot(pos, w->lhash_cap);
  w->layers[w->nlayers] = pos;
  w->lnext[w->nlayers] = w->lhash[j];
  w->lhash[j] = ++w->nlayers;
  return 1;
}

/* The LayerList index of n entries pointing at `pos`: a run already listed (a whole
   earlier list or a stretch of one), else the entries appended. */
static int use_run(walk_t *k, const size_t *pos, unsigned n, unsigned *first) {
  ct_colr_writer_t *w = k->w;
  unsigned i, j;
  if (n && w->lhash_cap)
    for (j = w->lhash[pos_slot(pos[0], w->lhash_cap)]; j; j = w->lnext[j - 1])
      if (w->layers[j - 1] == pos[0] && w->nlayers - (j - 1) >= n &&
          memcmp(w->layers + (j - 1), pos, n * sizeof *pos) == 0) {
        *first = j - 1;
        return 1;
      }
  *first = w->nlayers;
  for (i = 0; i < n; i++)
    if (!add_layer(k, pos[i])) return 0;
  return 1;
}

/* ---- version 1: laying out and writing paints ------------------------------- */

/* The children a paint points at by Offset24, in the order they are written; a layers
   node of one child stands for that child (written in its place). */
static unsigned inline_kids(const ct_paint_t *p, const ct_paint_t *kids[2]) {
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    if (p->u.layers.count != 1) return 0;
    kids[0] = p->u.layers.children[0];
    return 1;
  case CT_PAINT_GLYPH: kids[0] = p->u.glyph.child; return 1;
  case CT_PAINT_CLIP: kids[0] = p->u.clip.child; return 1;
  case CT_PAINT_TRANSFORM: kids[0] = p->u.transform.child; return 1;
  case CT_PAINT_COMPOSITE:
    kids[0] = p->u.composite.source;
    kids[1] = p->u.composite.backdrop;
    return 2;
  default:
    return 0;
  }
}

static int push_run(walk_t *k, unsigned first, unsigned count) {
  if (k->nruns == k->runs_cap) {
    unsigned cap = k->runs_cap ? k->runs_cap * 2 : 16;
    run_t *r = realloc(k->runs, cap * sizeof *r);
    if (!r) return refuse(k, "out of memory");
    k->runs = r;
    k->runs_cap = cap;
  }
  k->runs[k->nruns].first = first;
  k->runs[k->nruns].count = count;
  k->nruns++;
  return 1;
}

/* The PaintColrLayers over layer entries first..first+count-1, for emit() to write: over
   255 layers nest, in PaintColrLayers of 255 written now and listed. */
static int fold_layers(walk_t *k, unsigned first, unsigned count) {
  ct_buf_t *h = &k->w->heap;
  while (count > 255) {
    unsigned groups = (count + 254) / 255, g;
    size_t *pos = malloc(groups * sizeof *pos);
    int ok = pos != NULL;
    for (g = 0; ok && g < groups; g++) {
      pos[g] = h->len;
      ct_buf_u8(h, 1);
      ct_buf_u8(h, g + 1 < groups ? 255 : count - 255 * g);
      ct_buf_u32(h, first + 255 * g);
      ok = share(k, &pos[g]);
    }
    ok = ok && use_run(k, pos, groups, &first);
    free(pos);
    if (!ok) return k->why ? 0 : refuse(k, "out of memory");
    count = groups;
  }
  return push_run(k, first, count);
}

static int paint_block(walk_t *k, const ct_paint_t *p, masters_t m, unsigned depth, size_t *pos);

/* Child `slot` of p (a layer's index; 0 for the one child; a composite's source 0 and
   backdrop 1), as inline_kids numbers them. */
static const ct_paint_t *child_at(const ct_paint_t *p, unsigned slot) {
  switch (p->kind) {
  case CT_PAINT_LAYERS: return slot < p->u.layers.count ? p->u.layers.children[slot] : NULL;
  case CT_PAINT_GLYPH: return p->u.glyph.child;
  case CT_PAINT_CLIP: return p->u.clip.child;
  case CT_PAINT_TRANSFORM: return p->u.transform.child;
  case CT_PAINT_COMPOSITE: return slot ? p->u.composite.backdrop : p->u.composite.source;
  default: return NULL;
  }
}

/* The masters' counterparts of child `slot` (malloc'ed; NULL when static, or out of
   memory with k->why set: check k->why). */
static const ct_paint_t **kids_m(walk_t *k, masters_t m, unsigned slot) {
  const ct_paint_t **v;
  unsigned j;
  if (!m) return NULL;
  if (!(v = malloc(k->nm * sizeof *v))) {
    refuse(k, "out of memory");
    return NULL;
  }
  for (j = 0; j < k->nm; j++)
    if (!(v[j] = child_at(m[j], slot))) {
      free(v);
      refuse(k, "internal error: a master of another shape");
      return NULL;
    }
  return v;
}

/* The variation rows of n fields: def[i] the default's value of field i, at[j * n + i]
   master j's, in the field's units; *base the first row, or 0xFFFFFFFF when nothing
   differs. */
static int var_base(walk_t *k, const int32_t *def, const int32_t *at, unsigned n, uint32_t *base) {
  int32_t *d;
  unsigned i, j, differ = 0;
  long first;
  *base = 0xFFFFFFFFu;
  if (!k->nm) return 1;
  for (j = 0; j < k->nm; j++)
    for (i = 0; i < n; i++) differ |= at[j * n + i] != def[i];
  if (!differ) return 1;
  if (!(d = malloc((size_t)n * k->nm * sizeof *d))) return refuse(k, "out of memory");
  for (i = 0; i < n; i++)
    for (j = 0; j < k->nm; j++) d[i * k->nm + j] = at[j * n + i] - def[i];
  first = ct_colr_var_rows(k->w->var, d, n);
  free(d);
  if (first < 0) return refuse(k, "out of memory or over 65535 varying values");
  *base = (uint32_t)first;
  return 1;
}

static int32_t f2i(double v) { return (int32_t)lround(fmin(1.0, fmax(-2.0, v)) * 16384.0); }

static int push_id(walk_t *k, long id) {
  if (id < 0) return refuse(k, k->sink->why);
  if (k->nids == k->ids_cap) {
    unsigned cap = k->ids_cap ? k->ids_cap * 2 : 64;
    long *v = realloc(k->ids, cap * sizeof *v);
    if (!v) return refuse(k, "out of memory");
    k->ids = v;
    k->ids_cap = cap;
  }
  k->ids[k->nids++] = id;
  return 1;
}

/* What the paint asks of the font being built (its glyph, its colors), asked by lay() in the
   order paints were always written, parents first, so that the glyphs and colors added come
   in that order whatever the heap's. */
static int ask(walk_t *k, const ct_paint_t *p) {
  ct_colr_sink_t *sink = k->sink;
  const ct_color_line_t *line;
  unsigned i;
  switch (p->kind) {
  case CT_PAINT_SOLID:
    return push_id(k, sink->color(sink->data, &p->u.solid.color, 0));
  case CT_PAINT_GLYPH:
    return push_id(k, sink->glyph(sink->data, p->u.glyph.font ? p->u.glyph.font : k->lead, p->u.glyph.gid, NULL));
  case CT_PAINT_CLIP:
    return push_id(k, sink->rect(sink->data, p->u.clip.x0, p->u.clip.y0, p->u.clip.x1, p->u.clip.y1));
  case CT_PAINT_LINEAR: line = &p->u.linear.line; break;
  case CT_PAINT_RADIAL: line = &p->u.radial.line; break;
  case CT_PAINT_SWEEP: line = &p->u.sweep.line; break;
  default: return 1;
  }
  if (line->count > 65535) return refuse(k, "a color line with too many stops");
  for (i = 0; i < line->count; i++)
    if (!push_id(k, sink->color(sink->data, &line->stops[i].color, 0))) return 0;
  return 1;
}

/* First pass over the paints a block writes contiguously: the layers of each
   PaintColrLayers among them go to the heap (each a block) and the LayerList now, before
   the block, and leave a run for emit(); the sink is asked for each paint's glyph and
   colors. */
static int lay(walk_t *k, const ct_paint_t *p, masters_t m, unsigned depth) {
  const ct_paint_t *kids[2], **mk;
  unsigned i, n;
  int ok;
  if (!budget(k, depth) || !ask(k, p)) return 0;
  if (p->kind == CT_PAINT_LAYERS && p->u.layers.count != 1) {
    unsigned first = 0;
    size_t *pos;
    n = p->u.layers.count;
    if (!(pos = calloc(n + 1, sizeof *pos))) return refuse(k, "out of memory");
    for (ok = 1, i = 0; ok && i < n; i++) {
      mk = kids_m(k, m, i);
      ok = !k->why && paint_block(k, p->u.layers.children[i], mk, depth + 1, &pos[i]);
      free(mk);
    }
    ok = ok && use_run(k, pos, n, &first);
    free(pos);
    return ok && fold_layers(k, first, n);
  }
  n = inline_kids(p, kids);
  for (i = 0; i < n; i++) {
    mk = kids_m(k, m, i);
    ok = !k->why && lay(k, kids[i], mk, depth + 1);
    free(mk);
    if (!ok) return 0;
  }
  return 1;
}

static int emit(walk_t *k, const ct_paint_t *p, masters_t m);

/* Writes child `which` of p (child_at) at the heap's end and points the Offset24 at `slot`
   of its parent (at `parent`) to it. */
static int emit_child(walk_t *k, const ct_paint_t *p, masters_t m, unsigned which, size_t parent, size_t slot) {
  size_t at = k->w->heap.len;
  const ct_paint_t **mk = kids_m(k, m, which);
  int ok = !k->why && emit(k, child_at(p, which), mk);
  free(mk);
  if (!ok) return 0;
  if (at - parent > 0xFFFFFF) return refuse(k, "a paint graph over 16 MB");
  ct_buf_put_u24(&k->w->heap, slot, (uint32_t)(at - parent));
  return 1;
}

/* A gradient's geometry as COLR stores it: FWORDs (radii UFWORD) or, for a sweep's angles,
   F2DOT14 steps of 180 degrees with a bias of 180; n fields, 0 when off the ranges. */
static unsigned grad_fields(walk_t *k, const ct_paint_t *p, int32_t v[6]) {
  double g[6];
  unsigned i, n = 6;
  switch (p->kind) {
  case CT_PAINT_LINEAR:
    g[0] = p->u.linear.x0; g[1] = p->u.linear.y0; g[2] = p->u.linear.x1;
    g[3] = p->u.linear.y1; g[4] = p->u.linear.x2; g[5] = p->u.linear.y2;
    break;
  case CT_PAINT_RADIAL:
    g[0] = p->u.radial.x0; g[1] = p->u.radial.y0; g[2] = p->u.radial.r0;
    g[3] = p->u.radial.x1; g[4] = p->u.radial.y1; g[5] = p->u.radial.r1;
    if (!(g[2] >= 0 && g[2] <= 65535 && g[5] >= 0 && g[5] <= 65535))
      return refuse(k, "a radius off the 16-bit range of font units");
    break;
  default:
    g[0] = p->u.sweep.cx; g[1] = p->u.sweep.cy;
    g[2] = p->u.sweep.start_angle / 180.0 - 1.0; g[3] = p->u.sweep.end_angle / 180.0 - 1.0;
    n = 4;
    if (!(g[2] >= -2.0 && g[2] <= 1.99994 && g[3] >= -2.0 && g[3] <= 1.99994))
      return refuse(k, "a value off the F2DOT14 range (-2 to 2)");
    v[2] = (int32_t)lround(g[2] * 16384.0);
    v[3] = (int32_t)lround(g[3] * 16384.0);
    break;
  }
  for (i = 0; i < n; i++) {
    if (p->kind == CT_PAINT_SWEEP && i >= 2) continue;
    if (!(g[i] >= -32768 && g[i] <= (p->kind == CT_PAINT_RADIAL && (i == 2 || i == 5) ? 65535 : 32767)))
      return refuse(k, "a coordinate off the 16-bit range of font units");
    v[i] = (int32_t)lround(g[i]);
  }
  return n;
}

static const ct_color_line_t *line_of(const ct_paint_t *p) {
  return p->kind == CT_PAINT_LINEAR ? &p->u.linear.line : p->kind == CT_PAINT_RADIAL ? &p->u.radial.line
                                                                                     : &p->u.sweep.line;
}

/* A VarColorLine: each stop's offset and alpha varying (bases from stop_base). */
static int var_color_line(walk_t *k, const ct_color_line_t *line, const uint32_t *stop_base, size_t parent,
                          size_t slot) {
  ct_buf_t *h = &k->w->heap;
  size_t at = h->len;
  unsigned i;
  ct_buf_u8(h, line->extend == CT_EXTEND_REPEAT ? 1 : line->extend == CT_EXTEND_REFLECT ? 2 : 0);
  ct_buf_u16(h, line->count);
  for (i = 0; i < line->count; i++) {
    long index = take_id(k);
    if (index < 0) return 0;
    ct_buf_u16(h, (unsigned)f2i(line->stops[i].offset) & 0xFFFF);
    ct_buf_u16(h, (unsigned)index);
    ct_buf_u16(h, (unsigned)f2i(fmin(1.0, fmax(0.0, line->stops[i].color.alpha))) & 0xFFFF);
    ct_buf_u32(h, stop_base[i]);
  }
  ct_buf_put_u24(h, slot, (uint32_t)(at - parent));
  return 1;
}

static int emit_gradient(walk_t *k, const ct_paint_t *p, masters_t m) {
  ct_buf_t *h = &k->w->heap;
  size_t at = h->len;
  const ct_color_line_t *line = line_of(p);
  int32_t v[6], *mv = NULL, sd[2], *sm = NULL;
  uint32_t base = 0xFFFFFFFFu, *stop_base = NULL;
  unsigned n = grad_fields(k, p, v), i, j, var = 0;
  int ok = 1;
  if (!n) return 0;
  if (line->count > 65535) return refuse(k, "a color line with too many stops");
  if (m) {   /* what varies: the geometry, each stop's offset and alpha */
    mv = malloc((size_t)k->nm * 6 * sizeof *mv);
    sm = malloc((size_t)k->nm * 2 * sizeof *sm);
    stop_base = malloc((line->count + 1) * sizeof *stop_base);
    if (!mv || !sm || !stop_base) ok = refuse(k, "out of memory");
    for (j = 0; ok && j < k->nm; j++) ok = grad_fields(k, m[j], mv + (size_t)j * n) == n;
    ok = ok && var_base(k, v, mv, n, &base);
    for (i = 0; ok && i < line->count; i++) {
      sd[0] = f2i(line->stops[i].offset);
      sd[1] = f2i(fmin(1.0, fmax(0.0, line->stops[i].color.alpha)));
      for (j = 0; j < k->nm; j++) {
        const ct_color_stop_t *s = &line_of(m[j])->stops[i];
        sm[2 * j] = f2i(s->offset);
        sm[2 * j + 1] = f2i(fmin(1.0, fmax(0.0, s->color.alpha)));
      }
      ok = var_base(k, sd, sm, 2, &stop_base[i]);
      var |= stop_base[i] != 0xFFFFFFFFu;
    }
    var |= base != 0xFFFFFFFFu;
  }
  if (ok) {
    ct_buf_u8(h, (p->kind == CT_PAINT_LINEAR ? 4 : p->kind == CT_PAINT_RADIAL ? 6 : 8) + (var ? 1 : 0));
    ct_buf_u24(h, 0);
    for (i = 0; i < n; i++) ct_buf_u16(h, (unsigned)v[i] & 0xFFFF);
    if (var) ct_buf_u32(h, base);
    ok = var ? var_color_line(k, line, stop_base, at, at + 1) : color_line(k, line, at, at + 1);
  }
  free(mv);
  free(sm);
  free(stop_base);
  return ok;
}

static void matrix_of(const ct_paint_t *p, double m[6]) {
  m[0] = p->u.transform.xx; m[1] = p->u.transform.yx; m[2] = p->u.transform.xy;
  m[3] = p->u.transform.yy; m[4] = p->u.transform.dx; m[5] = p->u.transform.dy;
}

static int translation(const double m[6]) { return m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 1; }

/* Fields of a translation (FWORDs, n 2) or an Affine2x3 (16.16, n 6). */
static int xform_fields(walk_t *k, const double m[6], unsigned n, int32_t *v) {
  unsigned i;
  if (n == 2) {
    for (i = 0; i < 2; i++) {
      if (!(m[4 + i] >= -32768 && m[4 + i] <= 32767)) return refuse(k, "a coordinate off the 16-bit range of font units");
      v[i] = (int32_t)lround(m[4 + i]);
    }
    return 1;
  }
  for (i = 0; i < 6; i++) {
    if (!(fabs(m[i]) < 32767.0)) return refuse(k, "a transform off the 16.16 range");
    v[i] = (int32_t)lround(m[i] * 65536.0);
  }
  return 1;
}

static int emit_transform(walk_t *k, const ct_paint_t *p, masters_t mm) {
  ct_buf_t *h = &k->w->heap;
  size_t at = h->len;
  double m[6], mj[6];
  int32_t v[6], *mv;
  uint32_t base;
  unsigned i, j, n, var = 0, moves;
  matrix_of(p, m);
  moves = translation(m);
  for (j = 0; mm && j < k->nm; j++) {
    matrix_of(mm[j], mj);
    for (i = 0; i < 6; i++) var |= mj[i] != m[i];
    moves &= translation(mj);
  }
  if (!var) {
    if (moves && m[4] == rint(m[4]) && m[5] == rint(m[5])) {
      if (!xform_fields(k, m, 2, v)) return 0;
      ct_buf_u8(h, 14);   /* PaintTranslate */
      ct_buf_u24(h, 0);
      ct_buf_u16(h, (unsigned)v[0] & 0xFFFF);
      ct_buf_u16(h, (unsigned)v[1] & 0xFFFF);
      return emit_child(k, p, mm, 0, at, at + 1);
    }
    if (!xform_fields(k, m, 6, v)) return 0;
    ct_buf_u8(h, 12);   /* PaintTransform, its Affine2x3 right after it */
    ct_buf_u24(h, 0);
    ct_buf_u24(h, 7);
    for (i = 0; i < 6; i++) ct_buf_u32(h, (uint32_t)v[i]);
    return emit_child(k, p, mm, 0, at, at + 1);
  }
  /* it varies: PaintVarTranslate when every master only moves, else PaintVarTransform */
  n = moves ? 2 : 6;
  if (!xform_fields(k, m, n, v) || !(mv = malloc((size_t)k->nm * n * sizeof *mv))) return k->why ? 0 : refuse(k, "out of memory");
  for (j = 0; j < k->nm; j++) {
    matrix_of(mm[j], mj);
    if (!xform_fields(k, mj, n, mv + (size_t)j * n)) break;
  }
  if (j < k->nm || !var_base(k, v, mv, n, &base)) {
    free(mv);
    return 0;
  }
  free(mv);
  if (moves) {
    ct_buf_u8(h, 15);
    ct_buf_u24(h, 0);
    ct_buf_u16(h, (unsigned)v[0] & 0xFFFF);
    ct_buf_u16(h, (unsigned)v[1] & 0xFFFF);
    ct_buf_u32(h, base);
  } else {
    ct_buf_u8(h, 13);   /* PaintVarTransform, its VarAffine2x3 right after it */
    ct_buf_u24(h, 0);
    ct_buf_u24(h, 7);
    for (i = 0; i < 6; i++) ct_buf_u32(h, (uint32_t)v[i]);
    ct_buf_u32(h, base);
  }
  return emit_child(k, p, mm, 0, at, at + 1);
}

/* Second pass: the paint's bytes at the heap's end, parents before children; each
   PaintColrLayers takes the next run lay() left. */
static int emit(walk_t *k, const ct_paint_t *p, masters_t m) {
  ct_buf_t *h = &k->w->heap;
  size_t at = h->len;
  long gid;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    if (p->u.layers.count == 1) {
      const ct_paint_t **mk = kids_m(k, m, 0);
      int ok = !k->why && emit(k, p->u.layers.children[0], mk);
      free(mk);
      return ok;
    }
    if (k->cursor >= k->nruns) return refuse(k, "internal error: layers not laid out");
    ct_buf_u8(h, 1);
    ct_buf_u8(h, k->runs[k->cursor].count);
    ct_buf_u32(h, k->runs[k->cursor].first);
    k->cursor++;
    return 1;
  case CT_PAINT_SOLID: {
    long index = take_id(k);
    int32_t alpha = f2i(fmin(1.0, fmax(0.0, p->u.solid.color.alpha))), *ma;
    uint32_t base = 0xFFFFFFFFu;
    unsigned j;
    if (index < 0) return 0;
    if (m) {
      if (!(ma = malloc(k->nm * sizeof *ma))) return refuse(k, "out of memory");
      for (j = 0; j < k->nm; j++) ma[j] = f2i(fmin(1.0, fmax(0.0, m[j]->u.solid.color.alpha)));
      j = var_base(k, &alpha, ma, 1, &base);
      free(ma);
      if (!j) return 0;
    }
    ct_buf_u8(h, base == 0xFFFFFFFFu ? 2 : 3);
    ct_buf_u16(h, (unsigned)index);
    ct_buf_u16(h, (unsigned)alpha & 0xFFFF);
    if (base != 0xFFFFFFFFu) ct_buf_u32(h, base);
    return 1;
  }
  case CT_PAINT_LINEAR: case CT_PAINT_RADIAL: case CT_PAINT_SWEEP:
    return emit_gradient(k, p, m);
  case CT_PAINT_GLYPH: case CT_PAINT_CLIP:
    if ((gid = take_id(k)) < 0) return 0;
    ct_buf_u8(h, 10);
    ct_buf_u24(h, 0);
    ct_buf_u16(h, (unsigned)gid);
    return emit_child(k, p, m, 0, at, at + 1);
  case CT_PAINT_TRANSFORM:
    return emit_transform(k, p, m);
  case CT_PAINT_COMPOSITE:
    ct_buf_u8(h, 32);
    ct_buf_u24(h, 0);
    ct_buf_u8(h, p->u.composite.mode);
    ct_buf_u24(h, 0);
    return emit_child(k, p, m, 0, at, at + 1) && emit_child(k, p, m, 1, at, at + 5);
  case CT_PAINT_SVG:
    return refuse(k, "it is an SVG glyph (COLR cannot hold SVG documents)");
  case CT_PAINT_BITMAP:
    return refuse(k, "it is a bitmap glyph (COLR cannot hold images)");
  default:
    return refuse(k, "it has an unknown paint");
  }
}

/* A paint referenced by Offset32 (a layer, a base glyph's paint): the layers it draws
   listed first, then its own bytes, contiguous, stored once. */
static int paint_block(walk_t *k, const ct_paint_t *p, masters_t m, unsigned depth, size_t *pos) {
  unsigned base = k->nruns, idbase = k->nids;
  if (!lay(k, p, m, depth)) return 0;
  *pos = k->w->heap.len;
  k->cursor = base;
  k->idcur = idbase;
  if (!emit(k, p, m)) return 0;
  k->nruns = base;
  k->nids = idbase;
  return share(k, pos);
}

void ct_colr_writer_set_var(ct_colr_writer_t *w, ct_colr_var_t *var) { w->var = var; }

int ct_colr_writer_add_v1_masters(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree,
                                  const ct_paint_t *const *masters, ct_font_t *lead, ct_colr_sink_t *sink) {
  walk_t k = { .w = w, .sink = sink, .lead = lead };
  size_t mark = w->heap.len, pos = 0;
  unsigned layers = w->nlayers, blocks = w->nblocks, rows = w->var ? ct_colr_var_rows_used(w->var) : 0;
  int ok;
  if (masters && !w->var) {
    snprintf(sink->why, sizeof sink->why, "internal error: masters without variations");
    return 0;
  }
  k.nm = masters ? ct_colr_var_regions(w->var) : 0;
  ok = paint_block(&k, tree, masters, 0, &pos) && !w->heap.failed;
  free(k.runs);
  free(k.ids);
  if (!ok) {
    w->heap.len = mark;   /* the glyph's paints so far go */
    w->heap.failed = 0;
    blocks_pop(w, blocks);
    layers_pop(w, layers);
    if (w->var) ct_colr_var_truncate(w->var, rows);
    set_why(sink, k.why ? k.why : "out of memory");
    return 0;
  }
  if (w->nv1 == w->v1cap) {
    unsigned cap = w->v1cap ? w->v1cap * 2 : 64;
    v1_base_t *v = realloc(w->v1, cap * sizeof *v);
    if (!v) {
      snprintf(sink->why, sizeof sink->why, "out of memory");
      return 0;
    }
    w->v1 = v;
    w->v1cap = cap;
  }
  w->v1[w->nv1].gid = gid;
  w->v1[w->nv1].heap = pos;
  w->nv1++;
  return 1;
}

int ct_colr_writer_add_v1(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree, ct_font_t *lead,
                          ct_colr_sink_t *sink) {
  return ct_colr_writer_add_v1_masters(w, gid, tree, NULL, lead, sink);
}


static int v0_cmp(const void *a, const void *b) {
  const v0_base_t *x = a, *y = b;
  return x->gid < y->gid ? -1 : x->gid > y->gid;
}

static int v1_cmp(const void *a, const void *b) {
  const v1_base_t *x = a, *y = b;
  return x->gid < y->gid ? -1 : x->gid > y->gid;
}

int ct_colr_writer_finish(ct_colr_writer_t *w, ct_buf_t *out) {
  size_t start = out->len;
  unsigned i;
  int v1 = w->nv1 > 0;
  size_t header = v1 ? 34 : 14, base0 = header, layer0 = base0 + (size_t)w->nv0 * 6;
  size_t blist = layer0 + w->v0layers.len, llist = blist + 4 + (size_t)w->nv1 * 6;
  size_t heap = llist + (w->nlayers ? 4 + (size_t)w->nlayers * 4 : 0);   /* no LayerList when empty */

  /* qsort's array must not be NULL even when empty (UBSan) */
  if (w->nv0 > 1) qsort(w->v0, w->nv0, sizeof *w->v0, v0_cmp);
  if (w->nv1 > 1) qsort(w->v1, w->nv1, sizeof *w->v1, v1_cmp);
  for (i = 1; i < w->nv0; i++)
    if (w->v0[i].gid == w->v0[i - 1].gid) return 0;
  ct_buf_u16(out, v1 ? 1 : 0);
  ct_buf_u16(out, w->nv0);
  ct_buf_u32(out, w->nv0 ? (uint32_t)base0 : 0);
  ct_buf_u32(out, w->nv0layers ? (uint32_t)layer0 : 0);
  ct_buf_u16(out, w->nv0layers);
  if (v1) {
    ct_buf_u32(out, (uint32_t)blist);
    ct_buf_u32(out, w->nlayers ? (uint32_t)llist : 0);
    ct_buf_u32(out, 0);   /* no ClipList: renderers find the bounds */
    ct_buf_u32(out, 0);   /* no DeltaSetIndexMap: variation index = row */
    ct_buf_u32(out, 0);   /* the ItemVariationStore: patched */
  }
  for (i = 0; i < w->nv0; i++) {
    ct_buf_u16(out, w->v0[i].gid);
    ct_buf_u16(out, w->v0[i].first);
    ct_buf_u16(out, w->v0[i].count);
  }
  ct_buf_bytes(out, w->v0layers.p, w->v0layers.len);
  if (v1) {
    ct_buf_u32(out, w->nv1);
    for (i = 0; i < w->nv1; i++) {
      ct_buf_u16(out, w->v1[i].gid);
      ct_buf_u32(out, (uint32_t)(heap + w->v1[i].heap - blist));
    }
    if (w->nlayers) {
      ct_buf_u32(out, w->nlayers);
      for (i = 0; i < w->nlayers; i++) ct_buf_u32(out, (uint32_t)(heap + w->layers[i] - llist));
    }
    ct_buf_bytes(out, w->heap.p, w->heap.len);
    if (w->var && ct_colr_var_rows_used(w->var)) {
      size_t store = out->len - start;
      if (!ct_colr_var_encode(w->var, out)) return 0;
      ct_buf_put_u32(out, start + 30, (uint32_t)store);
    }
  }
  return !out->failed && !w->heap.failed && !w->v0layers.failed;
}
