/*
** svg-draw.c: an SVG glyph drawn with librsvg: the palette put in for var(--colorN) and
** currentColor (librsvg 2.54 resolves neither), SMIL sampled at the time drawn, handles cached.
** Must not read the SVG table's bytes nor sanitize (svg.c, svg-sanitize.c).  Glyph stage (OT-SVG).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>
#include <librsvg/rsvg.h>

#include "svg-internal.h"

/* ---- drawing ------------------------------------------------------------ */

static void add_color(sbuf_t *b, ct_rgba_t c) {
  char tmp[96];
  int n = snprintf(tmp, sizeof tmp, "rgba(%d,%d,%d,%.4g)", (int)lround(c.r * 255), (int)lround(c.g * 255),
                   (int)lround(c.b * 255), c.a);
  ct_svg_sb_add(b, tmp, (size_t)n);
}

/* var(--colorN, fallback) -> the palette's entry N (or the fallback when the palette has
   no entry N); currentColor, context-fill and context-stroke -> the text color. */
static char *substitute(const ct_svg_glyph_t *g, const ct_resolved_palette_t *pal) {
  sbuf_t b = { NULL, 0, 0, 0 };
  const char *s = g->source, *end = s + g->len;
  while (s < end) {
    const char *v = strstr(s, "var(--color");
    const char *cc = strstr(s, "currentColor");
    const char *cf = strstr(s, "context-fill");
    const char *cs = strstr(s, "context-stroke");
    const char *next = end;
    if (v && v < next) next = v;
    if (cc && cc < next) next = cc;
    if (cf && cf < next) next = cf;
    if (cs && cs < next) next = cs;
    ct_svg_sb_add(&b, s, (size_t)(next - s));
    if (next == end) break;
    if (next == v) {
      char *stop;
      unsigned long n = strtoul(v + 11, &stop, 10);
      const char *close, *comma;
      int depth = 1;
      /* the matching parenthesis (a fallback may hold rgb(...)) */
      for (close = v + 4; close < end && depth > 0; close++) {
        if (*close == '(') depth++;
        else if (*close == ')') depth--;
      }
      if (depth != 0 || stop == v + 11) {   /* not a var() we know: keep the text */
        ct_svg_sb_add(&b, v, 4);
        s = v + 4;
        continue;
      }
      if (n < pal->count) {
        add_color(&b, pal->colors[n]);
      } else if ((comma = memchr(stop, ',', (size_t)(close - 1 - stop)))) {
        const char *f = comma + 1;
        while (*f == ' ') f++;
        ct_svg_sb_add(&b, f, (size_t)(close - 1 - f));
      } else {
        ct_svg_sb_add(&b, "black", 5);
      }
      s = close;
    } else {
      add_color(&b, pal->foreground);
      s = next + (next == cc ? 12 : next == cf ? 12 : 14);
    }
  }
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

static uint64_t hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h ^ n;
}

/* The glyph's document (palette already substituted) made static at `time` (smil.c):
   parsed again, sampled, written out.  A malloc'ed string, or NULL. */
static char *sample_text(const char *src, size_t len, double time, size_t *out_len) {
  xmlDocPtr x = NULL;
  xmlChar *mem = NULL;
  int n = 0;
  char why[256], *out = NULL;
  if (!ct_svg_push_parse((const uint8_t *)src, len, "glyph.svg", &x, why, sizeof why) || !x) return NULL;
  ct_smil_sample(x, time);
  xmlDocDumpMemory(x, &mem, &n);
  xmlFreeDoc(x);
  if (mem && n >= 0 && (out = malloc((size_t)n + 1))) {
    memcpy(out, mem, (size_t)n);
    out[n] = '\0';
    *out_len = (size_t)n;
  }
  if (mem) xmlFree(mem);
  return out;
}

/* A librsvg handle for the glyph with the palette applied (and, when it is animated,
   sampled at `time`), cached by its text (and time). */
static RsvgHandle *handle_for(ct_svg_table_t *t, const ct_svg_glyph_t *g, const ct_resolved_palette_t *pal,
                              double time) {
  char *text = g->has_vars ? substitute(g, pal) : NULL, *sampled = NULL;
  const char *src = g->has_vars ? text : g->source;
  size_t len = src ? strlen(src) : 0;
  uint64_t key;
  unsigned i;
  RsvgHandle *h;
  GError *err = NULL;
  if (!src) return NULL;
  key = hash(src, len) ^ ((uint64_t)g->head.gid << 1);
  if (g->nanims) {   /* static glyphs keep one handle whatever the time */
    uint64_t bits;
    if (time == 0) time = 0;   /* -0 */
    memcpy(&bits, &time, sizeof bits);
    key = (key ^ bits) * 1099511628211ull + 0x9e3779b97f4a7c15ull;
  }
  for (i = 0; i < HANDLE_SLOTS; i++)
    if (t->handles[i].handle && t->handles[i].key == key) {
      free(text);
      return t->handles[i].handle;
    }
  if (g->nanims) {
    if (!(sampled = sample_text(src, len, time, &len))) {
      free(text);
      return NULL;
    }
    src = sampled;
  }
  h = rsvg_handle_new_from_data((const guint8 *)src, len, &err);
  free(text);
  free(sampled);
  if (!h) {
    if (err) g_error_free(err);
    return NULL;
  }
  i = t->next_slot++ % HANDLE_SLOTS;
  if (t->handles[i].handle) g_object_unref(t->handles[i].handle);
  t->handles[i].handle = h;
  t->handles[i].key = key;
  return h;
}

/* Draws in font units, y up: the SVG's em square has y down with the baseline at 0.
   `layer` -1 draws the whole glyph in one call, else its drawable child number `layer`. */
int ct_svg_render(cairo_t *cr, ct_font_t *font, const ct_svg_glyph_t *g, int layer,
                  const ct_resolved_palette_t *pal, double time) {
  RsvgHandle *h;
  RsvgRectangle viewport;
  GError *err = NULL;
  cairo_matrix_t m;
  const char *sub;   /* the element drawn */
  int doc_up;
  gboolean ok;
  ct_svg_table_t *t = ct_font_get_cache(font, CT_FONT_CACHE_SVG);
  if (g->empty) return 1;   /* a zero or absurd viewBox: nothing, as in Firefox */
  if (!t || !(h = handle_for(t, g, pal, time))) return 0;
  /* the frame of svgview.c, drawn into the same rectangle: the document's units are the
     font's */
  viewport.x = -(double)g->upem;
  viewport.y = -2.0 * g->upem;
  viewport.width = 3.0 * g->upem;
  viewport.height = 4.0 * g->upem;
  /* librsvg 2.54 fails a group with opacity, a mask or a filter ("InvalidSize": it
     vanished) when the matrix flips y.  The font's y is up and SVG's down: on a target
     whose y is down (pages, raster sprites) the matrix is flipped here; on one whose y is
     up (the font-unit recordings of PDF and SVG output) the document is (CT_SVG_FRAME_UP).
     Layers, drawn one by one, always flip the matrix. */
  cairo_get_matrix(cr, &m);
  doc_up = layer < 0 && m.yy > 0;
  if (layer >= 0) {
    if (!(sub = (unsigned)layer < g->head.nlayers ? g->layer_ids[layer] : NULL)) return 0;
  } else {
    sub = doc_up ? CT_SVG_FRAME_UP : CT_SVG_FRAME_DOWN;
  }
  cairo_save(cr);
  if (!doc_up) cairo_scale(cr, 1, -1);
  ok = rsvg_handle_render_layer(h, cr, sub, &viewport, &err);
  cairo_restore(cr);
  if (err) g_error_free(err);
  return ok != 0;
}
