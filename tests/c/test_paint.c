/*
** test_paint.c: paint trees of COLRv0 glyphs as golden text traces (tests/paint/ *.txt;
** CT_REGENERATE=1 rewrites them), node construction and reference counting.  Core unit test.
*/
#include "ct-test.h"
#include "ct.h"

typedef struct { char *buf; size_t len, cap; } str_t;

static void put(str_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(str_t *s, const char *fmt, ...) {
  va_list ap;
  int n;
  if (s->cap - s->len < 512) {
    s->cap = s->cap * 2 + 4096;
    s->buf = realloc(s->buf, s->cap);
  }
  va_start(ap, fmt);
  n = vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
  va_end(ap);
  s->len += (size_t)n;
}

static void trace_color(str_t *s, const ct_color_t *c) {
  if (c->kind == CT_COLOR_PALETTE) put(s, "palette %u", c->index);
  else if (c->kind == CT_COLOR_FOREGROUND) put(s, "foreground");
  else put(s, "rgba %.3g %.3g %.3g %.3g", c->rgba.r, c->rgba.g, c->rgba.b, c->rgba.a);
  put(s, " alpha %.3g", c->alpha);
}

/* One indented line per node. */
static void trace(str_t *s, const ct_paint_t *p, int depth) {
  unsigned i;
  put(s, "%*s%s", depth * 2, "", ct_paint_kind_name(p->kind));
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    put(s, " %u\n", p->u.layers.count);
    for (i = 0; i < p->u.layers.count; i++) trace(s, p->u.layers.children[i], depth + 1);
    return;
  case CT_PAINT_GLYPH:
    put(s, " gid %u\n", p->u.glyph.gid);
    trace(s, p->u.glyph.child, depth + 1);
    return;
  case CT_PAINT_SOLID:
    put(s, " ");
    trace_color(s, &p->u.solid.color);
    put(s, "\n");
    return;
  default:
    put(s, "\n");
  }
}

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
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK_MSG(strcmp(buf, text) == 0, "%s differs:\n--- expected\n%s--- got\n%s", path, buf, text);
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
    str_t s = { NULL, 0, 0 };
    unsigned g;
    if (!f) { CHECK(0); continue; }
    ct_shape(f, cases[i].chars, strlen(cases[i].chars), NULL, &run, &err);
    for (g = 0; g < run.count; g++) {
      ct_paint_t *p = ct_font_get_glyph_paint(f, run.glyphs[g].gid, cases[i].format, &err);
      char name[64];
      ct_font_get_glyph_name(f, run.glyphs[g].gid, name, sizeof name);
      put(&s, "# glyph %u %s (%s)\n", run.glyphs[g].gid, name, ct_format_name(cases[i].format));
      trace(&s, p, 0);
      /* cached: the same tree comes back */
      {
        ct_paint_t *again = ct_font_get_glyph_paint(f, run.glyphs[g].gid, cases[i].format, &err);
        CHECK(again == p);
        ct_paint_destroy(again);
      }
      ct_paint_destroy(p);
    }
    golden(cases[i].name, s.buf ? s.buf : "");
    free(s.buf);
    ct_shaped_fini(&run);
    ct_font_destroy(f);
  }
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

int main(void) {
  test_traces();
  test_nodes();
  return ct_test_report("test_paint");
}
