/* test_limits.c: limits reached give an error naming them.  The canvas is compiled here with
   a small CT_MAX_GLYPHS (see the Makefile's rule for this test), as a build may set it. */
#define CT_MAX_GLYPHS 100u
#include "page/canvas.c"

#include "ct-test.h"

int main(void) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  ct_canvas_t *c;
  ct_text_style_t style;
  int i;
  if (!f) { fprintf(stderr, "%s\n", err.message); return 1; }
  c = ct_canvas_create(200, 100, &err);
  ct_text_style_init(&style);
  for (i = 0; i < 25; i++) CHECK(ct_canvas_draw_text(c, f, "ABCD", 4, &style, 10, 50, NULL, &err) == CT_OK);
  CHECK(ct_canvas_draw_text(c, f, "A", 1, &style, 10, 50, NULL, &err) == CT_ERR_LIMIT);
  CHECK_MSG(strstr(err.message, "more than 100 glyphs on one canvas") != NULL, "%s", err.message);
  ct_canvas_destroy(c);
  ct_font_destroy(f);
  return ct_test_report("test_limits");
}
