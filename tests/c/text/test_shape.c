/*
** test_shape.c: HarfBuzz shaping through the core: advances, clusters as byte offsets,
** features, direction, script and language errors; grapheme boundaries; glyphs shaped elsewhere
** drawn as given (ct_canvas_draw_shaped).  Core unit test.
*/
#include "ct-test.h"
#include "ct.h"

int main(void) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  ct_shape_options_t o;
  ct_shaped_t run;
  if (!f) { fprintf(stderr, "%s\n", err.message); return 1; }
  memset(&o, 0, sizeof o);

  CHECK(ct_shape(f, "AB C", 4, &o, &run, &err) == CT_OK);
  CHECK(run.count == 4);
  CHECK(run.direction == CT_DIR_LTR);
  CHECK(run.glyphs[0].gid == 2 && run.glyphs[1].gid == 3 && run.glyphs[2].gid == 1 && run.glyphs[3].gid == 4);
  CHECK(run.glyphs[0].x_advance == 800 && run.glyphs[2].x_advance == 300);
  CHECK(run.glyphs[3].cluster == 3);
  ct_shaped_fini(&run);

  /* clusters are byte offsets: a 2-byte character before 'A', drawn as .notdef */
  CHECK(ct_shape(f, "\xC3\xA9" "A", 3, &o, &run, &err) == CT_OK);
  CHECK(run.count == 2 && run.glyphs[0].gid == 0 && run.glyphs[1].cluster == 2);
  ct_shaped_fini(&run);

  /* right to left: glyphs come out in visual order, clusters descending */
  o.direction = CT_DIR_RTL;
  CHECK(ct_shape(f, "AB", 2, &o, &run, &err) == CT_OK);
  CHECK(run.direction == CT_DIR_RTL && run.glyphs[0].gid == 3 && run.glyphs[0].cluster == 1);
  ct_shaped_fini(&run);
  o.direction = CT_DIR_AUTO;

  /* features parse (HarfBuzz syntax) and bad ones are reported */
  o.features = "+liga,-kern,ss01=1,aalt[3:5]=2";
  CHECK(ct_shape(f, "AB", 2, &o, &run, &err) == CT_OK);
  ct_shaped_fini(&run);
  o.features = "+liga,=bad";
  CHECK(ct_shape(f, "AB", 2, &o, &run, &err) == CT_ERR_INVALID_ARG);
  CHECK(strstr(err.message, "bad feature '=bad'") != NULL);
  o.features = NULL;

  o.script = "Latin1";
  CHECK(ct_shape(f, "AB", 2, &o, &run, &err) == CT_ERR_INVALID_ARG);
  CHECK(strstr(err.message, "bad script 'Latin1'") != NULL);
  o.script = "Latn";
  o.language = "tr";
  CHECK(ct_shape(f, "AB", 2, &o, &run, &err) == CT_OK && run.count == 2);
  ct_shaped_fini(&run);

  /* empty text */
  CHECK(ct_shape(f, "", 0, &o, &run, &err) == CT_OK && run.count == 0);
  ct_shaped_fini(&run);

  /* grapheme boundaries: e + combining acute is one, a ZWJ sequence is one */
  {
    size_t *ends = NULL;
    unsigned n = 0;
    CHECK(ct_grapheme_breaks("e\xCC\x81" "a", 4, &ends, &n, &err) == CT_OK);
    CHECK(n == 2 && ends[0] == 3 && ends[1] == 4);
    free(ends);
    ends = NULL;
    CHECK(ct_grapheme_breaks("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9" "x", 12, &ends, &n, &err) == CT_OK);
    CHECK(n == 2 && ends[0] == 11 && ends[1] == 12);
    free(ends);
    ends = NULL;
    CHECK(ct_grapheme_breaks("", 0, &ends, &n, &err) == CT_OK && n == 0);
    free(ends);
  }

  /* glyphs shaped elsewhere: drawn as given; a cluster past the text is refused */
  {
    ct_canvas_t *c = ct_canvas_create(100, 50, &err);
    ct_text_style_t st;
    ct_glyph_pos_t g[2] = { { 2, 0, 500, 0, 0, 0 }, { 3, 1, 800, 0, 0, 0 } };
    ct_shaped_t given = { g, 2, CT_DIR_LTR };
    CHECK(c != NULL);
    ct_text_style_init(&st);
    CHECK(ct_canvas_draw_shaped(c, f, "AB", 2, &given, &st, 10, 20, &err) == CT_OK);
    g[1].cluster = 2;
    CHECK(ct_canvas_draw_shaped(c, f, "AB", 2, &given, &st, 10, 20, &err) == CT_ERR_INVALID_ARG);
    CHECK(strstr(err.message, "cluster 2 is past the text") != NULL);
    ct_canvas_destroy(c);
  }
  ct_font_destroy(f);
  return ct_test_report("test_shape");
}
