/*
** test_shape.c: HarfBuzz shaping through the core: advances, clusters as byte offsets,
** features, direction, script and language errors.  Core unit test.
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
  ct_font_destroy(f);
  return ct_test_report("test_shape");
}
