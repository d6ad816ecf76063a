/*
** textlayer.c: the invisible text layer of a PDF page: every shaped run drawn again as
** real text with its clusters (ToUnicode, ActualText), at a marker opacity the PDF pass
** (pdfpass.cc) turns into text rendering mode 3.  Write stage (PDF); reads pages, draws
** nothing visible.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pdf.h"


/* A plain outline font (DejaVu Sans, through fontconfig) whose glyphs stand in when cairo
   cannot draw a font's own glyphs as text (bitmap-only fonts; fonts with an SVG table,
   whose glyphs FreeType hands cairo empty).  The text itself comes from the clusters, as
   /ActualText; each stand-in is the DejaVu glyph whose advance is nearest the original's,
   so readers see neither gaps (spaces) nor overlaps. */
#define NSTAND 14
typedef struct { cairo_font_face_t *face; unsigned gid[NSTAND]; double adv[NSTAND]; unsigned space; } standin_t;

static const standin_t *fallback_face(void) {
  static standin_t s;
  static int tried;
  static const uint32_t cps[NSTAND] = { 'i', 'l', 't', 'f', 'r', 'c', 'n', 'o', 'a', 'm', 'M', 'W', 0x2014, 0x2588 };
  if (!tried) {
    ct_error_t err;
    char path[4096];
    unsigned index = 0, k;
    ct_font_t *f;
    tried = 1;
    if (ct_font_find("DejaVu Sans", path, sizeof path, &index, &err) == CT_OK &&
        (f = ct_font_create_from_file(path, index, &err))) {
      for (k = 0; k < NSTAND; k++) {
        if (!ct_font_get_nominal_glyph(f, cps[k], &s.gid[k])) s.gid[k] = 0;
        s.adv[k] = ct_font_get_glyph_advance(f, s.gid[k]) / f->upem;   /* em */
      }
      if (!ct_font_get_nominal_glyph(f, ' ', &s.space)) s.space = s.gid[0];
      if ((s.face = ct_font_get_cairo_face(f))) cairo_font_face_reference(s.face);
      ct_font_destroy(f);
    }
  }
  return s.face ? &s : NULL;
}

/* The stand-in for a glyph `advance` em wide, or a space for a space. */
static unsigned standin_glyph(const standin_t *s, double advance, int is_space) {
  unsigned k, best = 0;
  if (is_space) return s->space;
  for (k = 1; k < NSTAND; k++)
    if (fabs(s->adv[k] - advance) < fabs(s->adv[best] - advance)) best = k;
  return s->gid[best];
}

/* cairo clusters from HarfBuzz's, in the order of the glyphs (visual order, which is what
   PDF readers expect: pdftotext reverses right-to-left characters itself, and splits words
   it sees drawn backwards).  Each run of glyphs with one cluster value covers the bytes up
   to the next larger cluster value; `out` receives the text in glyph order (for a
   right-to-left run, the clusters reversed, each still in logical order), as cairo checks
   the clusters against the text read forwards.  Returns the number of clusters, or -1
   when they would not cover the text exactly once. */
static int make_clusters(const ct_op_t *op, cairo_text_cluster_t *cl, char *out) {
  const ct_placed_t *it = op->u.glyphs.items;
  const char *text = op->u.glyphs.text;
  unsigned n = op->u.glyphs.count, i = 0, k = 0;
  size_t len = op->u.glyphs.text_len, total = 0;
  while (i < n) {
    unsigned j = i, m;
    uint32_t start = it[i].cluster, next = (uint32_t)len;
    while (j < n && it[j].cluster == start) j++;
    for (m = 0; m < n; m++)   /* the next larger cluster value bounds this one's bytes */
      if (it[m].cluster > start && it[m].cluster < next) next = it[m].cluster;
    if (start > len || next < start) return -1;
    /* whole UTF-8 characters only */
    if (next < len && ((unsigned char)text[next] & 0xC0) == 0x80) return -1;
    if (total + (next - start) > len) return -1;
    memcpy(out + total, text + start, next - start);
    total += next - start;
    cl[k].num_bytes = (int)(next - start);
    cl[k].num_glyphs = (int)(j - i);
    k++;
    i = j;
  }
  return total == len ? (int)k : -1;
}

void ct_page_text_layer(const ct_page_t *page, cairo_t *cr) {
  unsigned i, j;
  cairo_save(cr);
  /* over everything, at the marker opacity that the PDF pass (pdfpass-content.cc) replaces with text
     rendering mode 3: no ink, no transparency.  (cairo 1.16 writes no mode 3, and drops
     text drawn at an opacity of 0.39 % or less.) */
  cairo_set_source_rgba(cr, 0, 0, 0, CT_TEXT_LAYER_ALPHA);
  /* in a group of its own (a form XObject in the PDF): the pass rewrites that form alone,
     and copies the page's drawing as it is */
  cairo_push_group(cr);
  for (i = 0; i < page->count; i++) {
    const ct_op_t *op = &page->ops[i];
    cairo_font_face_t *face;
    cairo_glyph_t *glyphs;
    cairo_text_cluster_t *clusters;
    char *vtext;
    int nclusters;
    unsigned n = op->kind == CT_OP_GLYPHS ? op->u.glyphs.count : 0;
    if (n == 0 || !op->u.glyphs.text) continue;
    face = ct_font_get_cairo_face(op->u.glyphs.font);
    glyphs = malloc(n * sizeof *glyphs);
    clusters = malloc(n * sizeof *clusters);
    vtext = malloc(op->u.glyphs.text_len + 1);
    if (glyphs && clusters && vtext && (nclusters = make_clusters(op, clusters, vtext)) > 0) {
      cairo_text_extents_t ext;
      for (j = 0; j < n; j++) {
        /* a glyph with no outline (emoji fonts often leave the base glyph empty) would be
           dropped by cairo: a stand-in with ink carries its text (as ActualText) */
        const ct_placed_t *it = &op->u.glyphs.items[j];
        unsigned gid = it->gid;
        if (face && !ct_font_get_outline(op->u.glyphs.font, gid)) gid = ct_font_get_inked_glyph(op->u.glyphs.font);
        glyphs[j].index = gid;
        glyphs[j].x = it->x;
        glyphs[j].y = it->y;
      }
      cairo_set_font_size(cr, op->u.glyphs.scale * op->u.glyphs.font->upem);
      if (face) {
        cairo_set_font_face(cr, face);
        cairo_glyph_extents(cr, glyphs, (int)n, &ext);
      }
      if (!face || (ext.width <= 0 && ext.height <= 0)) {   /* cairo would drop it: stand in */
        const standin_t *s = fallback_face();
        double size = op->u.glyphs.scale * op->u.glyphs.font->upem;
        if (!s) goto next;
        cairo_set_font_face(cr, s->face);
        for (j = 0; j < n; j++) {
          const ct_placed_t *it = &op->u.glyphs.items[j];
          double adv = ct_font_get_glyph_advance(op->u.glyphs.font, it->gid) * op->u.glyphs.scale;
          int space = it->cluster < op->u.glyphs.text_len && op->u.glyphs.text[it->cluster] == ' ';
          glyphs[j].index = standin_glyph(s, adv / size, space);
        }
      }
      cairo_show_text_glyphs(cr, vtext, (int)op->u.glyphs.text_len, glyphs, (int)n,
                             clusters, nclusters, 0);
    }
  next:
    free(vtext);
    free(glyphs);
    free(clusters);
  }
  cairo_pop_group_to_source(cr);
  cairo_paint(cr);
  cairo_restore(cr);
}
