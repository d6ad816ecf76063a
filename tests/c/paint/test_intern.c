/* test_intern.c: equal paint trees kept as one (intern.c): a tree is kept when it comes a
   second time and every later equal one is drawn as it; unequal trees (a color, a matrix, a
   gradient stop apart) are not taken for one; trees with a font of their own are never kept;
   the node budget is kept.  intern.c is compiled here with a budget of 40 nodes (see the
   Makefile's rule for this test). */
#define INTERN_NODES 40u
#include "paint/intern.c"

#include "ct-test.h"

static ct_paint_t *letter(unsigned gid, double r, double g, double b) {
  ct_rgba_t c = { r, g, b, 1 };
  return ct_paint_glyph_create(NULL, gid, ct_paint_solid_create(ct_color_rgba(c)));
}

static ct_paint_t *moved(ct_paint_t *child, double dx) {
  double m[6] = { 1, 0, 0, 1, dx, 0 };
  return ct_paint_transform_create(m, child);
}

static ct_paint_t *gradient(double stop) {
  ct_color_stop_t stops[2];
  ct_color_line_t line;
  double pt[6] = { 0, 0, 100, 0, 0, 100 };
  ct_rgba_t red = { 1, 0, 0, 1 }, blue = { 0, 0, 1, 1 };
  stops[0].offset = 0;
  stops[0].color = ct_color_rgba(red);
  stops[1].offset = stop;
  stops[1].color = ct_color_rgba(blue);
  line.extend = CT_EXTEND_PAD;
  line.count = 2;
  line.stops = stops;
  return ct_paint_glyph_create(NULL, 7, ct_paint_linear_create(&line, pt));   /* copies the stops */
}

/* Interns `p` and drops the caller's reference; returns what is drawn (borrowed from the
   table or NULL) and whether it is the kept tree. */
static const ct_paint_t *intern(ct_paint_interns_t **in, ct_paint_t *p) {
  ct_paint_t *k = ct_paint_intern(in, p);
  ct_paint_destroy(p);
  if (k) ct_paint_destroy(k);   /* the table still holds it */
  return k;
}

int main(void) {
  ct_paint_interns_t *in = NULL;
  ct_paint_t *a, *b, *c;
  const ct_paint_t *k1, *k2;

  /* first sight: noted, not kept; second: kept (that tree); third: the kept one */
  a = letter(3, 1, 0, 0);
  CHECK(ct_paint_intern(&in, a) == NULL);
  b = letter(3, 1, 0, 0);
  k1 = ct_paint_intern(&in, b);
  CHECK(k1 == b && b->kept == 1 && b->ref == 3);   /* ours, the table's, the one returned */
  c = letter(3, 1, 0, 0);
  k2 = ct_paint_intern(&in, c);
  CHECK(k2 == b && c->kept == 0);
  ct_paint_destroy((ct_paint_t *)k1);
  ct_paint_destroy((ct_paint_t *)k2);
  ct_paint_destroy(a);
  ct_paint_destroy(b);
  ct_paint_destroy(c);
  CHECK(in->count == 1);

  /* unequal trees are never one: another color, glyph, matrix, stop */
  CHECK(intern(&in, letter(3, 1, 0, 0.001)) == NULL);
  CHECK(intern(&in, letter(3, 1, 0, 0.001)) != NULL);
  CHECK(intern(&in, letter(4, 1, 0, 0)) == NULL);
  k1 = intern(&in, letter(4, 1, 0, 0));
  CHECK(k1 != NULL && k1->u.glyph.gid == 4);
  CHECK(intern(&in, moved(letter(3, 1, 0, 0), 5)) == NULL);
  k1 = intern(&in, moved(letter(3, 1, 0, 0), 5));
  k2 = intern(&in, moved(letter(3, 1, 0, 0), 6));
  CHECK(k1 != NULL && k2 == NULL && k1->u.transform.dx == 5);
  CHECK(intern(&in, gradient(0.5)) == NULL);
  k1 = intern(&in, gradient(0.5));
  k2 = intern(&in, gradient(0.75));
  CHECK(k1 != NULL && k2 == NULL);
  CHECK(in->count == 5);

  /* -0 and 0 are the same offset */
  CHECK(intern(&in, moved(letter(9, 0, 0, 0), -0.0)) == NULL);
  k1 = intern(&in, moved(letter(9, 0, 0, 0), 0.0));
  CHECK(k1 != NULL);

  /* a tree naming a font (its own glyphs) is not kept */
  {
    ct_error_t err;
    ct_font_t *f = ct_font_create_from_file("tests/fonts/ct-colr0.ttf", 0, &err);
    CHECK(f != NULL);
    if (f) {
      ct_rgba_t red = { 1, 0, 0, 1 };
      CHECK(intern(&in, ct_paint_glyph_create(f, 3, ct_paint_solid_create(ct_color_rgba(red)))) == NULL);
      CHECK(intern(&in, ct_paint_glyph_create(f, 3, ct_paint_solid_create(ct_color_rgba(red)))) == NULL);
      ct_font_destroy(f);
    }
  }

  /* the budget: 40 nodes in all; 14 are kept so far (six trees: 2 + 2 + 2 + 3 + 2 + 3), so
     a few more two-node trees are, and then none */
  {
    unsigned gid, kept = 0, refused = 0;
    for (gid = 100; gid < 130; gid++) {
      intern(&in, letter(gid, 0, 1, 0));
      if (intern(&in, letter(gid, 0, 1, 0))) kept++;
      else refused++;
    }
    CHECK_MSG(kept > 0 && refused > 0 && in->nodes <= 40, "kept %u, refused %u, nodes %u", kept, refused, in->nodes);
    /* what was kept stays kept */
    CHECK(intern(&in, letter(3, 1, 0, 0)) != NULL);
  }

  /* many trees seen once: only their hashes, forgotten when the notes are full */
  {
    unsigned i, kept = 0;
    for (i = 0; i < 3 * SEEN_SLOTS; i++) kept += intern(&in, moved(letter(1, 0, 0, 1), (double)i)) != NULL;
    CHECK(kept == 0 && in->nseen <= SEEN_SLOTS / 2);
  }
  ct_paint_interns_destroy(in);
  return ct_test_report("test_intern");
}
