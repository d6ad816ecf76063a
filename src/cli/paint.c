/*
** paint.c: `chromatype paint FONT TEXT`: the paint tree of each shaped glyph, one indented
** line per node, and the warnings met building it.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_paint[] =
  "usage: chromatype paint FONT TEXT [OPTIONS]\n"
  "Prints the paint tree of each glyph of the shaped TEXT, one indented line per node, and\n"
  "the warnings met building it (cycles, limits, bad offsets).\n"
  "\n"
  "      --unicodes=U+XXXX,...  text as code points instead of TEXT\n"
  "      --format=FMT           auto, colr1, colr0, svg, bitmap, mono (default: auto)\n"
  "      --variations=LIST      axis values: wght=700,wdth=80\n"
  "      --features=LIST        OpenType features: +liga,-kern,...\n"
  "      --face-index=N         face of a collection (default: 0)\n"
  "  -h, --help               this help\n";

int cmd_paint(int argc, char **argv) {
  opts_t o = { argc, 1, argv, usage_paint, NULL };
  const char *path = NULL, *text = NULL, *variations = NULL;
  char *unicodes = NULL;
  unsigned face_index = 0, i;
  ct_format_t format = CT_FORMAT_AUTO;
  ct_shape_options_t shape;
  ct_shaped_t run;
  ct_error_t err;
  ct_font_t *font;
  memset(&shape, 0, sizeof shape);
  for (; o.i < argc; o.i++) {
    const char *a = argv[o.i];
    if (a[0] != '-') {
      if (!path) path = a;
      else if (!text) text = a;
      else die(EXIT_USAGE, "paint: unexpected argument '%s'", a);
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_paint, stdout);
      return 0;
    } else if (opt_is(&o, a, "--unicodes", 1) || opt_is(&o, a, "-u", 1)) {
      TRACK(unicodes, NULL);
      free(unicodes);
      unicodes = parse_unicodes(o.value);
    } else if (opt_is(&o, a, "--format", 1)) {
      int f = ct_format_from_name(o.value);
      if (f < 0) die(EXIT_USAGE, "bad value '%s' for --format (want auto, colr1, colr0, svg, bitmap or mono)", o.value);
      format = (ct_format_t)f;
    } else if (opt_is(&o, a, "--variations", 1)) {
      variations = o.value;
    } else if (opt_is(&o, a, "--features", 1)) {
      shape.features = o.value;
    } else if (opt_is(&o, a, "--face-index", 1) || opt_is(&o, a, "-y", 1)) {
      face_index = (unsigned)parse_long("--face-index", o.value, 0, 65535);
    } else {
      die(EXIT_USAGE, "paint: unknown option '%s' (see 'chromatype paint --help')", a);
    }
  }
  if (!path) die(EXIT_USAGE, "paint: no font given (see 'chromatype paint --help')");
  if (unicodes) text = unicodes;
  if (!text) die(EXIT_USAGE, "paint: no text given (TEXT or --unicodes)");
  if (PARSE_ONLY) return 0;
  font = open_font(path, face_index);
  if (variations && ct_font_set_variations(font, variations, &err) != CT_OK) die(1, "%s", err.message);
  if (ct_shape(font, text, strlen(text), &shape, &run, &err) != CT_OK) die(1, "%s", err.message);
  for (i = 0; i < run.count; i++) {
    ct_paint_t *p = ct_font_get_glyph_paint(font, run.glyphs[i].gid, format, &err);
    char name[128], *tr, *w;
    if (!p) die(1, "out of memory");
    ct_font_get_glyph_name(font, run.glyphs[i].gid, name, sizeof name);
    printf("# glyph %u %s (cluster %u)\n", run.glyphs[i].gid, name, run.glyphs[i].cluster);
    if (!(tr = ct_paint_trace(p))) die(1, "out of memory");
    fputs(tr, stdout);
    free(tr);
    while ((w = ct_font_take_warning(font))) {
      fprintf(stderr, "%s: warning: %s\n", progname, w);
      free(w);
    }
    ct_paint_destroy(p);
  }
  ct_shaped_fini(&run);
  ct_font_destroy(font);
  free(unicodes);
  if (fflush(stdout) != 0) die(1, "cannot write to standard output: %s", strerror(errno));
  return 0;
}
