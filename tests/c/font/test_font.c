/*
** test_font.c: opening fonts in every container, names, metrics, color formats,
** palettes, axes, errors on bad files.  Core unit test.
*/
#include "ct-test.h"
#include "ct.h"

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf;
  long n;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static void test_containers(void) {
  static const struct { const char *file; unsigned index; const char *container; const char *family; } cases[] = {
    { FONT("ct-colr0.ttf"), 0, "TrueType", "Chromatype Test" },
    { FONT("ct-colr0-cff.otf"), 0, "CFF", "Chromatype Test CFF" },
    { FONT("ct-colr0.woff"), 0, "WOFF", "Chromatype Test" },
    { FONT("ct-colr0.woff2"), 0, "WOFF2", "Chromatype Test" },
    { FONT("ct-collection.ttc"), 0, "collection", "Chromatype Test" },
    { FONT("ct-collection.ttc"), 1, "collection", "Chromatype Test Two" },
  };
  unsigned i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_error_t err;
    ct_font_info_t info;
    ct_font_t *f = ct_font_create_from_file(cases[i].file, cases[i].index, &err);
    CHECK_MSG(f != NULL, "%s: %s", cases[i].file, f ? "" : err.message);
    if (!f) continue;
    ct_font_get_info(f, &info);
    CHECK_STR(info.container, cases[i].container);
    CHECK_STR(info.family, cases[i].family);
    CHECK_STR(info.style, "Regular");
    CHECK(info.units_per_em == 1000);
    CHECK(info.ascender == 800 && info.descender == -200);
    CHECK(info.glyph_count == 10);
    CHECK(info.color_formats == CT_COLOR_COLR0);
    CHECK(info.face_index == cases[i].index);
    CHECK(ct_font_get_palette_count(f) == 3);
    CHECK(ct_font_get_palette_entry_count(f) == 4);
    ct_font_destroy(f);
  }
}

static void test_memory(void) {
  size_t len = 0;
  unsigned char *data = slurp(FONT("ct-colr0.woff2"), &len);
  ct_error_t err;
  ct_font_t *f;
  unsigned gid;
  CHECK(data != NULL);
  f = ct_font_create_from_data(data, len, 0, "mem.woff2", &err);
  free(data);   /* the font keeps its own copy */
  CHECK(f != NULL);
  if (!f) return;
  CHECK_STR(ct_font_get_path(f), "mem.woff2");
  CHECK(ct_font_get_nominal_glyph(f, 'A', &gid) && gid == 2);
  CHECK(!ct_font_get_nominal_glyph(f, 'Z', &gid) && gid == 0);
  ct_font_destroy(f);
}

static void test_palettes(void) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  ct_rgba_t c[4];
  char buf[64];
  CHECK(f != NULL);
  if (!f) return;
  CHECK(ct_font_get_palette_type(f, 0) == 0);
  CHECK(ct_font_get_palette_type(f, 1) == CT_PALETTE_TYPE_LIGHT);
  CHECK(ct_font_get_palette_type(f, 2) == CT_PALETTE_TYPE_DARK);
  CHECK(ct_font_find_palette(f, CT_PALETTE_TYPE_DARK) == 2);
  CHECK(ct_font_find_palette(f, CT_PALETTE_TYPE_LIGHT) == 1);
  CHECK(ct_font_get_palette_name(f, 0, buf, sizeof buf)); CHECK_STR(buf, "Default");
  CHECK(ct_font_get_palette_name(f, 2, buf, sizeof buf)); CHECK_STR(buf, "Dark");
  CHECK(ct_font_get_palette_entry_label(f, 0, buf, sizeof buf)); CHECK_STR(buf, "Fill");
  CHECK(ct_font_get_palette_entry_label(f, 3, buf, sizeof buf)); CHECK_STR(buf, "Sun");
  CHECK(!ct_font_get_palette_entry_label(f, 4, buf, sizeof buf) && buf[0] == '\0');
  CHECK(ct_font_get_palette_colors(f, 0, c, 4) == 4);
  CHECK_NEAR(c[0].r, 0xE0 / 255.0, 1e-9); CHECK_NEAR(c[0].g, 0x20 / 255.0, 1e-9);
  CHECK_NEAR(c[1].b, 0xE0 / 255.0, 1e-9);
  CHECK(ct_font_get_palette_colors(f, 2, c, 4) == 4);
  CHECK_NEAR(c[3].a, 0x80 / 255.0, 1e-9);   /* the semi-transparent "Sun" of "Dark" */
  ct_font_destroy(f);
}

static void test_errors(void) {
  static const struct { const char *file; unsigned index; ct_status_t status; const char *needle; } cases[] = {
    { FONT("no-such-font.ttf"), 0, CT_ERR_IO, "no-such-font.ttf: cannot open: No such file" },
    { FONT("not-a-font.ttf"), 0, CT_ERR_INVALID_FONT, "not-a-font.ttf: not a font file" },
    { FONT("ct-truncated.ttf"), 0, CT_ERR_INVALID_FONT, "ct-truncated.ttf: truncated" },
    { FONT("ct-colr0.ttf"), 1, CT_ERR_INVALID_ARG, "face index 1 out of range (the file has 1 face)" },
    { FONT("ct-collection.ttc"), 2, CT_ERR_INVALID_ARG, "face index 2 out of range (the file has 2 faces)" },
    { "tests", 0, CT_ERR_IO, "tests: cannot read" },
  };
  unsigned i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_error_t err;
    ct_font_t *f = ct_font_create_from_file(cases[i].file, cases[i].index, &err);
    CHECK_MSG(f == NULL, "%s opened", cases[i].file);
    if (f) { ct_font_destroy(f); continue; }
    CHECK_MSG(err.status == cases[i].status, "%s: status %d", cases[i].file, err.status);
    CHECK_MSG(strstr(err.message, cases[i].needle) != NULL, "'%s' lacks '%s'", err.message, cases[i].needle);
    CHECK(strchr(err.message, '\n') == NULL);
  }
}

static void test_variations(void) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  if (!f) { CHECK(0); return; }
  CHECK(ct_font_get_axis_count(f) == 0);
  CHECK(ct_font_set_variations(f, "", &err) == CT_OK);
  CHECK(ct_font_set_variations(f, "wght=700", &err) == CT_ERR_INVALID_ARG);
  CHECK(strstr(err.message, "no axes") != NULL);
  ct_font_destroy(f);
}

int main(void) {
  test_containers();
  test_memory();
  test_palettes();
  test_errors();
  test_variations();
  return ct_test_report("test_font");
}
