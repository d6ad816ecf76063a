/*
** intern.c: paint trees made apart but equal, kept as one.  Paint stage: knows fonts,
** never color tables or pages. Owned by the canvas.
**
** A Lua filter hands the canvas a new tree for every glyph it draws (canvas:paint): a letter
** recolored the same way on every page is a thousand trees, each drawn out in full in a PDF,
** where a font's own trees are recorded once, as one form XObject.  So a canvas keeps the
** trees it is given once they come a second time: the first time only the tree's hash is
** noted; an equal tree that comes again is kept, and every later equal one is drawn as the
** kept one, which the PDF's recordings take as they take the font's own trees.  A tree
** drawn once (a glyph jittered at random) is never kept.  What a canvas keeps depends only
** on what it was given, so a document's bytes do not depend on what the process drew
** before.
**
** Kept trees are let go with the canvas.  What is kept is bounded, in nodes (INTERN_NODES;
** past it nothing more is kept), and only trees without a font of their own are kept (a
** glyph node naming a font, SVG and bitmap nodes are not).  Sprites (raster) are not made
** of kept trees: a font's sprite cache outlives the canvases.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "paint.h"

#ifndef INTERN_NODES
#define INTERN_NODES 16384u       /* nodes kept by one canvas, in all */
#endif
#define INTERN_TREE_NODES 1024u   /* a larger tree is not kept (nor hashed) */
#define SEEN_SLOTS 8192u          /* hashes of trees seen once; forgotten all at once when full */

typedef struct { uint64_t hash; ct_paint_t *paint; } slot_t;

struct ct_paint_interns {
  slot_t   *slots;          /* open addressing on the hash; paint NULL: empty */
  unsigned  cap, count;
  unsigned  nodes;          /* the weight of the kept trees, in all */
  uint64_t  seen[SEEN_SLOTS];   /* 0: empty */
  unsigned  nseen;
};

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdu;
  return h ^ (h >> 32);
}

static uint64_t mixd(uint64_t h, double d) {
  uint64_t bits;
  if (d == 0) d = 0;   /* -0 and 0 are equal: one hash */
  memcpy(&bits, &d, sizeof bits);
  return mix(h, bits);
}

static uint64_t hash_color(uint64_t h, const ct_color_t *c) {
  h = mix(h, (uint64_t)c->kind);
  h = mix(h, c->index);
  h = mixd(h, c->rgba.r);
  h = mixd(h, c->rgba.g);
  h = mixd(h, c->rgba.b);
  h = mixd(h, c->rgba.a);
  return mixd(h, c->alpha);
}

static uint64_t hash_line(uint64_t h, const ct_color_line_t *l) {
  unsigned i;
  h = mix(mix(h, (uint64_t)l->extend), l->count);
  for (i = 0; i < l->count; i++) h = hash_color(mixd(h, l->stops[i].offset), &l->stops[i].color);
  return h;
}

/* The hash of a tree that can be kept, or 0 when it cannot (a node with a font or an
   image of its own). */
static uint64_t hash_tree(const ct_paint_t *p) {
  uint64_t h = mix(0x51ed270b27e8a1c3u, (uint64_t)p->kind), c;
  unsigned i;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    h = mix(h, p->u.layers.count);
    for (i = 0; i < p->u.layers.count; i++) {
      if (!(c = hash_tree(p->u.layers.children[i]))) return 0;
      h = mix(h, c);
    }
    break;
  case CT_PAINT_GLYPH:
    if (p->u.glyph.font || !(c = hash_tree(p->u.glyph.child))) return 0;
    h = mix(mix(h, p->u.glyph.gid), c);
    break;
  case CT_PAINT_SOLID: h = hash_color(h, &p->u.solid.color); break;
  case CT_PAINT_LINEAR:
    h = hash_line(h, &p->u.linear.line);
    h = mixd(mixd(mixd(mixd(mixd(mixd(h, p->u.linear.x0), p->u.linear.y0), p->u.linear.x1), p->u.linear.y1),
                  p->u.linear.x2), p->u.linear.y2);
    break;
  case CT_PAINT_RADIAL:
    h = hash_line(h, &p->u.radial.line);
    h = mixd(mixd(mixd(mixd(mixd(mixd(h, p->u.radial.x0), p->u.radial.y0), p->u.radial.r0), p->u.radial.x1),
                  p->u.radial.y1), p->u.radial.r1);
    break;
  case CT_PAINT_SWEEP:
    h = hash_line(h, &p->u.sweep.line);
    h = mixd(mixd(mixd(mixd(h, p->u.sweep.cx), p->u.sweep.cy), p->u.sweep.start_angle), p->u.sweep.end_angle);
    break;
  case CT_PAINT_TRANSFORM:
    if (!(c = hash_tree(p->u.transform.child))) return 0;
    h = mixd(mixd(mixd(mixd(mixd(mixd(h, p->u.transform.xx), p->u.transform.yx), p->u.transform.xy),
                        p->u.transform.yy), p->u.transform.dx), p->u.transform.dy);
    h = mix(h, c);
    break;
  case CT_PAINT_COMPOSITE:
    if (!(c = hash_tree(p->u.composite.source))) return 0;
    h = mix(mix(h, (uint64_t)p->u.composite.mode), c);
    if (!(c = hash_tree(p->u.composite.backdrop))) return 0;
    h = mix(h, c);
    break;
  case CT_PAINT_CLIP:
    if (!(c = hash_tree(p->u.clip.child))) return 0;
    h = mixd(mixd(mixd(mixd(h, p->u.clip.x0), p->u.clip.y0), p->u.clip.x1), p->u.clip.y1);
    h = mix(h, c);
    break;
  case CT_PAINT_SVG: case CT_PAINT_BITMAP: case CT_PAINT_KIND_COUNT: return 0;
  }
  return h ? h : 1;
}

static int color_equal(const ct_color_t *a, const ct_color_t *b) {
  return a->kind == b->kind && a->index == b->index && a->rgba.r == b->rgba.r && a->rgba.g == b->rgba.g &&
         a->rgba.b == b->rgba.b && a->rgba.a == b->rgba.a && a->alpha == b->alpha;
}

static int line_equal(const ct_color_line_t *a, const ct_color_line_t *b) {
  unsigned i;
  if (a->extend != b->extend || a->count != b->count) return 0;
  for (i = 0; i < a->count; i++)
    if (a->stops[i].offset != b->stops[i].offset || !color_equal(&a->stops[i].color, &b->stops[i].color))
      return 0;
  return 1;
}

/* Whether two trees that can be kept draw the same: the same nodes, field by field. */
static int equal(const ct_paint_t *a, const ct_paint_t *b) {
  unsigned i;
  if (a == b) return 1;
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
  case CT_PAINT_LAYERS:
    if (a->u.layers.count != b->u.layers.count) return 0;
    for (i = 0; i < a->u.layers.count; i++)
      if (!equal(a->u.layers.children[i], b->u.layers.children[i])) return 0;
    return 1;
  case CT_PAINT_GLYPH:
    return a->u.glyph.font == b->u.glyph.font && a->u.glyph.gid == b->u.glyph.gid &&
           equal(a->u.glyph.child, b->u.glyph.child);
  case CT_PAINT_SOLID: return color_equal(&a->u.solid.color, &b->u.solid.color);
  case CT_PAINT_LINEAR:
    return line_equal(&a->u.linear.line, &b->u.linear.line) && a->u.linear.x0 == b->u.linear.x0 &&
           a->u.linear.y0 == b->u.linear.y0 && a->u.linear.x1 == b->u.linear.x1 && a->u.linear.y1 == b->u.linear.y1 &&
           a->u.linear.x2 == b->u.linear.x2 && a->u.linear.y2 == b->u.linear.y2;
  case CT_PAINT_RADIAL:
    return line_equal(&a->u.radial.line, &b->u.radial.line) && a->u.radial.x0 == b->u.radial.x0 &&
           a->u.radial.y0 == b->u.radial.y0 && a->u.radial.r0 == b->u.radial.r0 && a->u.radial.x1 == b->u.radial.x1 &&
           a->u.radial.y1 == b->u.radial.y1 && a->u.radial.r1 == b->u.radial.r1;
  case CT_PAINT_SWEEP:
    return line_equal(&a->u.sweep.line, &b->u.sweep.line) && a->u.sweep.cx == b->u.sweep.cx &&
           a->u.sweep.cy == b->u.sweep.cy && a->u.sweep.start_angle == b->u.sweep.start_angle &&
           a->u.sweep.end_angle == b->u.sweep.end_angle;
  case CT_PAINT_TRANSFORM:
    return a->u.transform.xx == b->u.transform.xx && a->u.transform.yx == b->u.transform.yx &&
           a->u.transform.xy == b->u.transform.xy && a->u.transform.yy == b->u.transform.yy &&
           a->u.transform.dx == b->u.transform.dx && a->u.transform.dy == b->u.transform.dy &&
           equal(a->u.transform.child, b->u.transform.child);
  case CT_PAINT_COMPOSITE:
    return a->u.composite.mode == b->u.composite.mode && equal(a->u.composite.source, b->u.composite.source) &&
           equal(a->u.composite.backdrop, b->u.composite.backdrop);
  case CT_PAINT_CLIP:
    return a->u.clip.x0 == b->u.clip.x0 && a->u.clip.y0 == b->u.clip.y0 && a->u.clip.x1 == b->u.clip.x1 &&
           a->u.clip.y1 == b->u.clip.y1 && equal(a->u.clip.child, b->u.clip.child);
  case CT_PAINT_SVG: case CT_PAINT_BITMAP: case CT_PAINT_KIND_COUNT: return 0;
  }
  return 0;
}

/* The slot of `hash` and a tree equal to `paint`, or the empty slot where it would go. */
static slot_t *find(ct_paint_interns_t *in, uint64_t hash, const ct_paint_t *paint) {
  unsigned i = (unsigned)hash & (in->cap - 1);
  while (in->slots[i].paint && !(in->slots[i].hash == hash && equal(in->slots[i].paint, paint)))
    i = (i + 1) & (in->cap - 1);
  return &in->slots[i];
}

static int grow(ct_paint_interns_t *in) {
  unsigned cap = in->cap ? in->cap * 2 : 64, i, j;
  slot_t *s = calloc(cap, sizeof *s);
  if (!s) return 0;
  for (i = 0; i < in->cap; i++) {
    if (!in->slots[i].paint) continue;
    for (j = (unsigned)in->slots[i].hash & (cap - 1); s[j].paint; j = (j + 1) & (cap - 1)) {}
    s[j] = in->slots[i];
  }
  free(in->slots);
  in->slots = s;
  in->cap = cap;
  return 1;
}

/* Notes `hash` as seen; returns 1 if it was seen before. */
static int seen_before(ct_paint_interns_t *in, uint64_t hash) {
  unsigned i = (unsigned)(hash >> 17) & (SEEN_SLOTS - 1);
  while (in->seen[i]) {
    if (in->seen[i] == hash) return 1;
    i = (i + 1) & (SEEN_SLOTS - 1);
  }
  if (in->nseen >= SEEN_SLOTS / 2) {   /* forget them all: only hashes, nothing points at them */
    memset(in->seen, 0, sizeof in->seen);
    in->nseen = 0;
    i = (unsigned)(hash >> 17) & (SEEN_SLOTS - 1);
  }
  in->seen[i] = hash;
  in->nseen++;
  return 0;
}

ct_paint_t *ct_paint_intern(ct_paint_interns_t **inp, ct_paint_t *paint) {
  ct_paint_interns_t *in = *inp;
  uint64_t hash;
  slot_t *s;
  if (!paint || paint->kept || paint->weight > INTERN_TREE_NODES || paint->animated) return NULL;
  if (!(hash = hash_tree(paint))) return NULL;
  if (!in && !(in = *inp = calloc(1, sizeof *in))) return NULL;
  if (in->cap) {
    s = find(in, hash, paint);
    if (s->paint) return ct_paint_reference(s->paint);
  }
  if (!seen_before(in, hash)) return NULL;
  if (in->nodes + paint->weight > INTERN_NODES) return NULL;
  if ((in->count + 1) * 2 > in->cap && !grow(in)) return NULL;
  s = find(in, hash, paint);
  s->hash = hash;
  s->paint = ct_paint_reference(paint);
  paint->kept = 1;
  in->count++;
  in->nodes += paint->weight;
  return ct_paint_reference(paint);
}

void ct_paint_interns_destroy(ct_paint_interns_t *in) {
  unsigned i;
  if (!in) return;
  for (i = 0; i < in->cap; i++) {
    if (!in->slots[i].paint) continue;
    in->slots[i].paint->kept = 0;   /* what still draws it draws its own from now on */
    ct_paint_destroy(in->slots[i].paint);
  }
  free(in->slots);
  free(in);
}
