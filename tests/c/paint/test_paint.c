/*
** test_paint.c: paint trees of COLRv0 glyphs as golden text traces (tests/paint/ *.txt;
** CT_REGENERATE=1 rewrites them), node construction and reference counting.  Core unit test.
*/
#include <unistd.h>

#include "ct-test.h"
#include "ct.h"
#include "base/ct-limits.h"

static void golden(const char *name, const char *text) {
  char path[256];
  FILE *f;
  snprintf(path, sizeof path, "tests/paint/%s.txt", name);
  if (getenv("CT_REGENERATE")) {
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
  }
  f = fopen(path, "r");
  CHECK_MSG(f != NULL, "%s missing (CT_REGENERATE=1 make check writes it)", path);
  if (f) {
    size_t cap = strlen(text) + 2;
    char *buf = malloc(cap);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    if (strcmp(buf, text) != 0) {   /* show the first differing line */
      size_t i = 0, start = 0;
      while (buf[i] && buf[i] == text[i]) { if (buf[i] == '\n') start = i + 1; i++; }
      CHECK_MSG(0, "%s differs at:\n  expected: %.*s\n  got:      %.*s", path,
                (int)strcspn(buf + start, "\n"), buf + start, (int)strcspn(text + start, "\n"), text + start);
    } else {
      CHECK(1);
    }
    free(buf);
  }
}

static void test_traces(void) {
  static const struct { const char *file, *name, *chars; ct_format_t format; } cases[] = {
    { FONT("ct-colr0.ttf"), "ct-colr0", "ABCD", CT_FORMAT_AUTO },
    { FONT("ct-colr0.ttf"), "ct-colr0-mono", "AC", CT_FORMAT_MONO },
    { FONT("twemoji-colr0.woff2"), "twemoji-colr0", "\xE2\x98\xBA\xF0\x9F\x98\x8E", CT_FORMAT_COLR0 },
  };
  unsigned i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_error_t err;
    ct_font_t *f = ct_font_create_from_file(cases[i].file, 0, &err);
    ct_shaped_t run;
    char *s = NULL;
    size_t len = 0;
    unsigned g;
    if (!f) { CHECK(0); continue; }
    ct_shape(f, cases[i].chars, strlen(cases[i].chars), NULL, &run, &err);
    for (g = 0; g < run.count; g++) {
      ct_paint_t *p = ct_font_get_glyph_paint(f, run.glyphs[g].gid, cases[i].format, &err);
      char name[64];
      ct_font_get_glyph_name(f, run.glyphs[g].gid, name, sizeof name);
      {
        char *tr = ct_paint_trace(p), head[128];
        int n = snprintf(head, sizeof head, "# glyph %u %s (%s)\n", run.glyphs[g].gid, name,
                         ct_format_name(cases[i].format));
        s = realloc(s, len + (size_t)n + strlen(tr) + 1);
        memcpy(s + len, head, (size_t)n);
        strcpy(s + len + (size_t)n, tr);
        len += (size_t)n + strlen(tr);
        free(tr);
      }
      /* cached: the same tree comes back */
      {
        ct_paint_t *again = ct_font_get_glyph_paint(f, run.glyphs[g].gid, cases[i].format, &err);
        CHECK(again == p);
        ct_paint_destroy(again);
      }
      ct_paint_destroy(p);
    }
    golden(cases[i].name, s ? s : "");
    free(s);
    ct_shaped_fini(&run);
    ct_font_destroy(f);
  }
}

/* Every COLRv1 glyph of a font (by glyph id), optionally at a variation location. */
static void test_colr1_font(const char *file, const char *name, const char *variations) {
  ct_error_t err;
  ct_font_t *f;
  ct_font_info_t info;
  char *s = NULL;
  size_t len = 0;
  unsigned gid;
  if (access(file, F_OK) != 0) {
    printf("test_paint: skip %s: %s not found (../shared absent?)\n", name, file);
    return;
  }
  f = ct_font_create_from_file(file, 0, &err);
  if (!f) { CHECK_MSG(0, "%s", err.message); return; }
  if (variations) CHECK(ct_font_set_variations(f, variations, &err) == CT_OK);
  ct_font_get_info(f, &info);
  for (gid = 0; gid < info.glyph_count; gid++) {
    ct_paint_t *p = ct_font_get_glyph_paint(f, gid, CT_FORMAT_COLR1, &err);
    char *tr, head[160], gname[64], *w;
    int n;
    /* a glyph without COLRv1 comes back as its outline in the text color */
    if (p->kind == CT_PAINT_GLYPH && p->u.glyph.gid == gid && p->u.glyph.child->kind == CT_PAINT_SOLID &&
        p->u.glyph.child->u.solid.color.kind == CT_COLOR_FOREGROUND) {
      ct_paint_destroy(p);
      continue;
    }
    ct_font_get_glyph_name(f, gid, gname, sizeof gname);
    tr = ct_paint_trace(p);
    n = snprintf(head, sizeof head, "# glyph %u %s\n", gid, gname);
    s = realloc(s, len + (size_t)n + strlen(tr) + 1);
    memcpy(s + len, head, (size_t)n);
    strcpy(s + len + (size_t)n, tr);
    len += (size_t)n + strlen(tr);
    free(tr);
    while ((w = ct_font_take_warning(f))) {   /* warnings are part of the trace */
      n = snprintf(head, sizeof head, "# warning: ");
      s = realloc(s, len + (size_t)n + strlen(w) + 2);
      memcpy(s + len, head, (size_t)n);
      len += (size_t)n;
      len += (size_t)sprintf(s + len, "%s\n", strstr(w, ": glyph") ? strstr(w, ": glyph") + 2 : w);
      free(w);
    }
    ct_paint_destroy(p);
  }
  golden(name, s ? s : "");
  free(s);
  ct_font_destroy(f);
}

static void test_nodes(void) {
  ct_paint_t *layers = ct_paint_layers_create(0);
  ct_paint_t *solid = ct_paint_solid_create(ct_color_palette(2, 0.5));
  double m[6] = { 1, 0, 0, 1, 10, 20 };
  unsigned i;
  CHECK(layers && solid);
  for (i = 0; i < 100; i++)
    CHECK(ct_paint_layers_append(layers, ct_paint_glyph_create(NULL, i, ct_paint_reference(solid))) == CT_OK);
  CHECK(layers->u.layers.count == 100);
  CHECK(solid->ref == 101);
  {
    ct_paint_t *t = ct_paint_transform_create(m, layers);
    CHECK(t && t->u.transform.dx == 10 && t->u.transform.child == layers);
    ct_paint_destroy(t);   /* frees the layers and their references to solid */
  }
  CHECK(solid->ref == 1);
  CHECK(ct_color_palette(0xFFFF, 1).kind == CT_COLOR_FOREGROUND);
  ct_paint_destroy(solid);
  CHECK(ct_paint_kind_from_name("sweep") == CT_PAINT_SWEEP);
  CHECK(ct_paint_kind_from_name("nope") == -1);
  CHECK(ct_composite_mode_from_name("hsl_luminosity") == CT_COMPOSITE_HSL_LUMINOSITY);
  CHECK(strcmp(ct_composite_mode_name(CT_COMPOSITE_MULTIPLY), "multiply") == 0);
  CHECK(ct_format_from_name("mono") == CT_FORMAT_MONO);
  /* a NULL child is refused and the other references are released */
  CHECK(ct_paint_glyph_create(NULL, 1, NULL) == NULL);
  CHECK(ct_paint_composite_create(CT_COMPOSITE_SRC, ct_paint_solid_create(ct_color_foreground(1)), NULL) == NULL);
}

#define CF "../shared/fonts/color-fonts/"

/* A tree whose every level holds its child twice, 63 levels: 2^63 nodes to walk.  The
   trace stops after CT_MAX_PAINT_WORK of them and says so (issue 33). */
static void test_shared_trace(void) {
  ct_paint_t *p = ct_paint_solid_create(ct_color_foreground(1));
  unsigned i, lines = 0;
  char *tr, *q;
  for (i = 0; i < 63 && p; i++) {
    ct_paint_t *l = ct_paint_layers_create(2);
    CHECK(l && ct_paint_layers_append(l, ct_paint_reference(p)) == CT_OK);
    CHECK(ct_paint_layers_append(l, p) == CT_OK);
    p = l;
  }
  tr = ct_paint_trace(p);
  CHECK(tr != NULL);
  for (q = tr; q && *q; q++) lines += *q == '\n';
  CHECK_MSG(lines == CT_MAX_PAINT_WORK + 1, "%u lines", lines);
  CHECK(tr && strstr(tr, "the trace stops after 16384 nodes (CT_MAX_PAINT_WORK)\n"));
  free(tr);
  ct_paint_destroy(p);
}

int main(void) {
  test_traces();
  test_shared_trace();
  test_colr1_font(CF "test_glyphs-glyf_colr_1.ttf", "test_glyphs-glyf_colr_1", NULL);
  test_colr1_font(CF "test_glyphs-glyf_colr_1_variable.ttf", "test_glyphs-glyf_colr_1_variable-axes",
                  "SWPS=45,ROTA=45,TLDX=200,GRX0=-300,APH1=-0.5");
  test_colr1_font(CF "samples-glyf_colr_1.ttf", "samples-glyf_colr_1", NULL);
  test_colr1_font(FONT("ct-colr1.ttf"), "ct-colr1", NULL);
  test_colr1_font(FONT("ct-colr1-var.ttf"), "ct-colr1-var", NULL);
  test_colr1_font(FONT("ct-colr1-var.ttf"), "ct-colr1-var-axes", "SWPS=90,ALPH=0.5");
  test_colr1_font(FONT("hostile-cycle.ttf"), "hostile-cycle", NULL);
  test_colr1_font(FONT("hostile-badformat.ttf"), "hostile-badformat", NULL);
  test_nodes();
  return ct_test_report("test_paint");
}
