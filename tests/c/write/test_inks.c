/*
** test_inks.c: spot inks in the core: parsing and checking inks, which ink and tint prints a
** color, alphas flattened to tints; and the PDF pass reading a file in place (output.c
** built here with CT_PDF_PASS_IN_MEMORY tiny, so every PDF takes the path of long
** documents).  Core unit test.
*/
#define CT_PDF_PASS_IN_MEMORY 64L
#include "write/output.c"

#include "ct-test.h"

static void parsing(void) {
  ct_ink_t ink;
  char why[200];
  CHECK(ct_ink_parse("Fluorescent Pink=#ff48b0", &ink, why, sizeof why) == 0);
  CHECK_STR(ink.name, "Fluorescent Pink");
  CHECK_NEAR(ink.color.r, 1.0, 1e-9);
  CHECK_NEAR(ink.color.g, 0x48 / 255.0, 1e-9);
  CHECK(!ink.overprint && !ink.has_cmyk);
  CHECK(ct_ink_parse("Riso Blue=#0078bf,overprint,cmyk=100/45/0/5", &ink, why, sizeof why) == 0);
  CHECK(ink.overprint && ink.has_cmyk);
  CHECK_NEAR(ink.cmyk[1], 0.45, 1e-9);
  CHECK_NEAR(ink.cmyk[3], 0.05, 1e-9);
  /* refusals, each with its reason */
  CHECK(ct_ink_parse("Pink", &ink, why, sizeof why) == -1 && strstr(why, "NAME=COLOR"));
  CHECK(ct_ink_parse("=#ff0000", &ink, why, sizeof why) == -1 && strstr(why, "needs a name"));
  CHECK(ct_ink_parse("Black=#000000", &ink, why, sizeof why) == -1 && strstr(why, "process colorant"));
  CHECK(ct_ink_parse("All=#000000", &ink, why, sizeof why) == -1);
  CHECK(ct_ink_parse("Paper=#ffffff", &ink, why, sizeof why) == -1 && strstr(why, "paper"));
  CHECK(ct_ink_parse("Ghost=#ff000080", &ink, why, sizeof why) == -1 && strstr(why, "opaque"));
  CHECK(ct_ink_parse("Red=red", &ink, why, sizeof why) == -1 && strstr(why, "color"));
  CHECK(ct_ink_parse("Red=#ff0000,shiny", &ink, why, sizeof why) == -1 && strstr(why, "unknown option 'shiny'"));
  CHECK(ct_ink_parse("Red=#ff0000,cmyk=0/100/100", &ink, why, sizeof why) == -1 && strstr(why, "four"));
  CHECK(ct_ink_parse("Red=#ff0000,cmyk=0/100/100/120", &ink, why, sizeof why) == -1);
  CHECK(ct_ink_parse("A name of more than sixty-three bytes, which no ink should ever have at all=#ff0000", &ink, why,
                     sizeof why) == -1 && strstr(why, "too long"));
}

static void matching(void) {
  ct_ink_t inks[3];
  double t = -1;
  ct_rgba_t c;
  ct_ink_parse("Red=#e63946", &inks[0], NULL, 0);
  ct_ink_parse("Blue=#1d3557", &inks[1], NULL, 0);
  ct_ink_parse("Light Red=#f39ca2", &inks[2], NULL, 0);   /* itself a 50 % tint of Red */
  /* the ink itself */
  CHECK(ct_ink_match(inks, 3, 0xe6 / 255.0, 0x39 / 255.0, 0x46 / 255.0, &t) == 0);
  CHECK_NEAR(t, 1, 1e-9);
  /* a 30 % tint: 1 - 0.3 (1 - ink) in each channel, as 8-bit hex would give it */
  CHECK(ct_ink_match(inks, 3, 1 - 0.3 * (1 - 0xe6 / 255.0), 1 - 0.3 * (1 - 0x39 / 255.0),
                     1 - 0.3 * (1 - 0x46 / 255.0), &t) == 0);
  CHECK_NEAR(t, 0.3, 1e-6);
  CHECK(ct_ink_match(inks, 2, 0xf8 / 255.0, 0xc4 / 255.0, 0xc8 / 255.0, &t) == 0);   /* #f8c4c8, rounded */
  CHECK_NEAR(t, 0.3, 0.01);
  /* a tint of two inks (Light Red is Red at 50 %): the one it is the fuller tint of */
  CHECK(ct_ink_match(inks, 3, 0xf8 / 255.0, 0xc4 / 255.0, 0xc8 / 255.0, &t) == 2);
  CHECK_NEAR(t, 0.6, 0.02);
  /* an exact ink wins over being another's tint */
  CHECK(ct_ink_match(inks, 3, 0xf3 / 255.0, 0x9c / 255.0, 0xa2 / 255.0, &t) == 2);
  CHECK_NEAR(t, 1, 1e-9);
  /* another hue, black and paper print with no ink */
  CHECK(ct_ink_match(inks, 3, 0.2, 0.8, 0.2, &t) == -1);
  CHECK(ct_ink_match(inks, 3, 0, 0, 0, &t) == -1);
  CHECK(ct_ink_match(inks, 3, 1, 1, 1, &t) == -1);
  /* an alpha on the ink's hue is the tint it prints as over paper */
  c.r = 0x1d / 255.0; c.g = 0x35 / 255.0; c.b = 0x57 / 255.0; c.a = 0.5;
  CHECK(ct_ink_flatten(inks, 3, &c) == 1);
  CHECK_NEAR(c.a, 1, 1e-12);
  CHECK(ct_ink_match(inks, 3, c.r, c.g, c.b, &t) == 1);
  CHECK_NEAR(t, 0.5, 1e-6);
  /* other colors keep their alpha */
  c.r = 0.2; c.g = 0.8; c.b = 0.2; c.a = 0.5;
  CHECK(ct_ink_flatten(inks, 3, &c) == 0 && c.a == 0.5);
}

/* A PDF above CT_PDF_PASS_IN_MEMORY goes through the pass read in place: still valid, with
   its text layer in mode 3 and its inks. */
static void in_place(void) {
  char dir[] = "/tmp/ct-test-inks-XXXXXX", path[256], cmd[600];
  ct_error_t err;
  ct_canvas_t *c;
  ct_font_t *font = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  ct_text_style_t st;
  ct_write_options_t wo;
  ct_ink_t ink;
  ct_rgba_t red = { 0xe6 / 255.0, 0x39 / 255.0, 0x46 / 255.0, 1 };
  FILE *p;
  char line[256];
  int mode3 = 0, sep = 0;
  CHECK(font != NULL);
  if (!font || !mkdtemp(dir)) return;
  c = ct_canvas_create(200, 100, &err);
  ct_text_style_init(&st);
  st.size = 40;
  CHECK(ct_canvas_fill_rect(c, 10, 10, 50, 50, red, &err) == CT_OK);
  CHECK(ct_canvas_draw_text(c, font, "ABAB", 4, &st, 20, 80, NULL, &err) == CT_OK);
  CHECK(ct_ink_parse("Face Red=#e63946", &ink, NULL, 0) == 0);
  CHECK(ct_canvas_add_ink(c, &ink, &err) == CT_OK);
  CHECK(ct_canvas_get_ink_count(c) == 1 && strcmp(ct_canvas_get_ink(c, 0)->name, "Face Red") == 0);
  snprintf(path, sizeof path, "%s/big.pdf", dir);
  ct_write_options_init(&wo);
  CHECK_MSG(ct_canvas_write(c, path, &wo, &err) == CT_OK, "%s", err.message);
  snprintf(cmd, sizeof cmd, "qpdf --check '%s' >/dev/null 2>&1", path);
  CHECK_MSG(system(cmd) == 0, "qpdf --check fails on %s", path);
  snprintf(cmd, sizeof cmd, "qpdf --qdf --object-streams=disable '%s' - 2>/dev/null", path);
  if ((p = popen(cmd, "r"))) {
    while (fgets(line, sizeof line, p)) {
      if (strncmp(line, "3 Tr", 4) == 0) mode3 = 1;
      if (strstr(line, "/Face#20Red")) sep = 1;
    }
    pclose(p);
  }
  CHECK_MSG(mode3, "no text in rendering mode 3");
  CHECK_MSG(sep, "no Separation named Face Red");
  unlink(path);
  rmdir(dir);
  ct_canvas_destroy(c);
  ct_font_destroy(font);
}

int main(void) {
  parsing();
  matching();
  in_place();
  return ct_test_report("test_inks");
}
