/*
** view.c: `chromatype view FONT TEXT`, one line of text rendered with hb-view's options,
** to PNG, PDF or SVG.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static const char usage_view[] =
  "usage: chromatype view FONT TEXT [OPTIONS]\n"
  "       chromatype view FONT --unicodes=U+1F600,U+1F601 [OPTIONS]\n"
  "Renders one line of text, like HarfBuzz's hb-view, with the font's color glyphs.\n"
  "\n"
  "  -o, --output-file=FILE     output file; '-' is standard output (default: '-')\n"
  "  -O, --output-format=FMT    png, pdf or svg (default: from the file name, else png)\n"
  "      --font-size=SIZE       em size in points; 1 pt = 1 px at 72 dpi (default: 256)\n"
  "      --font-palette=N       CPAL palette index, or 'light', 'dark', or a palette name (default: 0)\n"
  "      --custom-palette=IDX=RRGGBBAA,...\n"
  "                             override palette entries\n"
  "      --foreground=RRGGBB[AA] text color, also palette index 0xFFFF (default: 000000)\n"
  "      --background=RRGGBB[AA] background; 00000000 is transparent (default: FFFFFF)\n"
  "      --margin=T[,R[,B[,L]]] margins in points, like CSS (default: 16)\n"
  "      --unicodes=U+XXXX,...  text as code points instead of TEXT\n"
  "      --text=TEXT            the text (instead of the positional TEXT)\n"
  "      --features=LIST        OpenType features: +liga,-kern,ss01=1,...\n"
  "      --variations=LIST      axis values: wght=700,wdth=80\n"
  "      --script=ISO15924      script (default: guessed)\n"
  "      --language=BCP47       language\n"
  "      --direction=DIR        ltr, rtl, ttb or btt (default: from the script)\n"
  "      --face-index=N         face of a collection (default: 0)\n"
  "      --format=FMT           color format: auto, colr1, colr0, svg, bitmap, mono (mono = the\n"
  "                             plain base glyph in the text color; default: auto)\n"
  "      --dpi=N                PNG resolution (default: 72)\n"
  "      --time=SECONDS         OT-SVG glyphs' SMIL animations at this time (default: 0)\n"
  "      --no-text-layer        PDF: leave out the invisible text that makes it copyable\n"
  "      --cmyk                 PDF: process colors in CMYK (ICC; spot inks kept), for print shops\n"
  "      --ink=NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]\n"
  "                             PDF: a spot ink (repeatable): the ink's color and its lighter\n"
  "                             tints print on its own plate; cmyk= is its alternate color\n"
  "      --inks-only            PDF: a color that no ink prints is an error\n"
  "      --overprint            PDF: every ink overprints (mixes with the inks under it)\n"
  "      --plates=DIR           one grayscale plate per ink, and preview.png, in DIR\n"
  "  -h, --help                 this help\n"
  "      --version              the version\n"
  "\n";

/* What the command line asks of one view: cmd_view's options, as parsed and checked. */
typedef struct {
  anim_opts_t anim;
  int animated, time_set;
  double seconds;
  const char *fg_s, *bg_s, *dir_s, *fmt_s;
  const char *font_path, *text, *out, *features, *variations;
  const char *palette, *script, *language, *custom;
  char *unicodes;
  ct_output_t ofmt;
  ct_text_style_t style;
  ct_write_options_t wo;
  ct_palette_override_t *overrides;
  ct_ink_t inks[CT_MAX_INKS];
  unsigned ninks;
  ct_rgba_t background;
  double margin[4];
  unsigned face_index;
} view_opts_t;

/* The command line into *vo; dies on a usage error.  1: --help or --version was printed
   (the command is done). */
static int view_parse_options(int argc, char **argv, view_opts_t *vo) {
  opts_t o = { argc, 1, argv, usage_view, NULL };
  unsigned i;

  for (; o.i < argc; o.i++) {
    const char *a = argv[o.i];
    if (a[0] != '-' || strcmp(a, "-") == 0) {
      if (!vo->font_path) vo->font_path = a;
      else if (!vo->text) vo->text = a;
      else die(EXIT_USAGE, "view: unexpected argument '%s' (quote text with spaces)", a);
    } else if (strcmp(a, "--") == 0) {
      for (o.i++; o.i < argc; o.i++) {
        if (!vo->font_path) vo->font_path = argv[o.i];
        else if (!vo->text) vo->text = argv[o.i];
        else die(EXIT_USAGE, "view: unexpected argument '%s'", argv[o.i]);
      }
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_view, stdout);
      fputs(anim_usage, stdout);
      return 1;
    } else if (strcmp(a, "--version") == 0) {
      printf("chromatype %s\n", CT_VERSION_STRING);
      return 1;
    } else if (opt_is(&o, a, "-o", 1) || opt_is(&o, a, "--output-file", 1)) {
      vo->out = o.value;
    } else if (opt_is(&o, a, "-O", 1) || opt_is(&o, a, "--output-format", 1)) {
      int f = ct_output_from_name(o.value);
      if (f < 0) die(EXIT_USAGE, "bad value '%s' for --output-format (want png, pdf or svg)", o.value);
      vo->ofmt = (ct_output_t)f;
    } else if (opt_is(&o, a, "--font-size", 1)) {
      vo->style.size = parse_double("--font-size", o.value, 0.01, 100000);
    } else if (opt_is(&o, a, "--font-palette", 1)) {
      vo->palette = o.value;
    } else if (opt_is(&o, a, "--custom-palette", 1)) {
      vo->custom = o.value;
    } else if (opt_is(&o, a, "--foreground", 1)) {
      vo->style.foreground = parse_color("--foreground", o.value);
      vo->fg_s = o.value;
    } else if (opt_is(&o, a, "--background", 1)) {
      vo->background = parse_color("--background", o.value);
      vo->bg_s = o.value;
    } else if (opt_is(&o, a, "--margin", 1)) {
      parse_margin(o.value, vo->margin);
    } else if (opt_is(&o, a, "--unicodes", 1) || opt_is(&o, a, "-u", 1)) {
      TRACK(vo->unicodes, NULL);
      free(vo->unicodes);
      vo->unicodes = parse_unicodes(o.value);
    } else if (opt_is(&o, a, "--text", 1)) {
      vo->text = o.value;
    } else if (opt_is(&o, a, "--features", 1)) {
      vo->features = o.value;
    } else if (opt_is(&o, a, "--variations", 1)) {
      vo->variations = o.value;
    } else if (opt_is(&o, a, "--script", 1)) {
      vo->script = o.value;
    } else if (opt_is(&o, a, "--language", 1)) {
      vo->language = o.value;
    } else if (opt_is(&o, a, "--direction", 1)) {
      static const char *const dirs[] = { "ltr", "rtl", "ttb", "btt" };
      for (i = 0; i < 4 && strcmp(o.value, dirs[i]) != 0; i++) {}
      if (i == 4) die(EXIT_USAGE, "bad value '%s' for --direction (want ltr, rtl, ttb or btt)", o.value);
      vo->style.shape.direction = (ct_direction_t)(CT_DIR_LTR + i);
      vo->dir_s = o.value;
    } else if (opt_is(&o, a, "--face-index", 1) || opt_is(&o, a, "-y", 1)) {
      vo->face_index = (unsigned)parse_long("--face-index", o.value, 0, 65535);
    } else if (opt_is(&o, a, "--format", 1)) {
      int f = ct_format_from_name(o.value);
      if (f < 0) die(EXIT_USAGE, "bad value '%s' for --format (want auto, colr1, colr0, svg, bitmap or mono)", o.value);
      vo->style.format = (ct_format_t)f;
      vo->fmt_s = o.value;
    } else if (opt_is(&o, a, "--dpi", 1)) {
      vo->wo.dpi = parse_double("--dpi", o.value, 1, 9600);
    } else if (opt_is(&o, a, "--no-text-layer", 0)) {
      vo->wo.no_text_layer = 1;
    } else if (opt_is(&o, a, "--cmyk", 0)) {
      vo->wo.cmyk = 1;
    } else if (opt_is(&o, a, "--ink", 1)) {
      add_ink(vo->inks, &vo->ninks, o.value);
    } else if (opt_is(&o, a, "--inks-only", 0)) {
      vo->wo.inks_only = 1;
    } else if (opt_is(&o, a, "--overprint", 0)) {
      vo->wo.overprint = 1;
    } else if (opt_is(&o, a, "--plates", 1)) {
      if (!o.value[0]) die(EXIT_USAGE, "--plates needs a directory");
      vo->wo.plates = o.value;
    } else if (opt_is(&o, a, "--time", 1)) {
      vo->seconds = parse_double("--time", o.value, 0, 3600);
      vo->time_set = 1;
    } else if (take_anim_option(&o, a, &vo->anim)) {
      /* --animate and the animation's options */
    } else {
      die(EXIT_USAGE, "view: unknown option '%s' (see 'chromatype view --help')", a);
    }
  }
  return 0;
}

/* What the options need of each other, and what follows from them (the style's and the
   writer's fields, whether the view is an animation); dies on a usage error. */
static void view_check_options(view_opts_t *vo) {
  if (!vo->font_path) die(EXIT_USAGE, "view: no font given (see 'chromatype view --help')");
  if (vo->unicodes) {
    if (vo->text && vo->text != vo->unicodes) die(EXIT_USAGE, "view: give TEXT or --unicodes, not both");
    vo->text = vo->unicodes;
  }
  if (!vo->text) die(EXIT_USAGE, "view: no text given (TEXT, --text or --unicodes)");
  if (vo->custom) vo->overrides = parse_custom_palette(vo->custom, &vo->style.override_count);
  vo->style.overrides = vo->overrides;
  vo->style.shape.features = vo->features;
  vo->style.shape.script = vo->script;
  vo->style.shape.language = vo->language;
  vo->wo.format = vo->ofmt;
  vo->wo.inks = vo->ninks ? vo->inks : NULL;
  vo->wo.ink_count = vo->ninks;
  /* an animation: --animate, or a file only animations are written to (.webp, .gif, ...: a
     font with animated SVG glyphs plays them) */
  {
    size_t n = strlen(vo->out);
    int png = n >= 4 && strcasecmp(vo->out + n - 4, ".png") == 0 && !strchr(vo->out, '%');   /* a still, or APNG */
    vo->animated = vo->anim.nspecs > 0 || (ct_anim_format_from_path(vo->out) != CT_ANIM_AUTO && !png);
  }
  if (vo->animated && vo->time_set)
    die(EXIT_USAGE, "view: --time is for stills (an animation's frames have their own)");
  if (vo->animated && (vo->ninks || vo->wo.plates || vo->wo.cmyk || vo->wo.no_text_layer || vo->wo.inks_only ||
                       vo->wo.overprint || vo->ofmt))
    die(EXIT_USAGE, "view: --animate writes an animation; the PDF options and --output-format do not apply");
}

/* `view --animate` (or an animation's output file): the line drawn by view_animation(). */
static int view_animated(const view_opts_t *vo) {
  view_req_t v;
  int rc;
  memset(&v, 0, sizeof v);
  v.font = vo->font_path;
  v.index = vo->face_index;
  v.text = vo->text;
  v.size = vo->style.size;
  v.palette = vo->palette;
  v.custom = vo->custom;
  v.foreground = vo->fg_s;
  v.background = vo->bg_s;
  v.features = vo->features;
  v.variations = vo->variations;
  v.script = vo->script;
  v.language = vo->language;
  v.direction = vo->dir_s;
  v.format = vo->fmt_s;
  v.output = vo->out;
  v.dpi = vo->wo.dpi > 0 ? vo->wo.dpi : 72;
  memcpy(v.margin, vo->margin, sizeof vo->margin);
  rc = view_animation(&v, &vo->anim);
  free(vo->overrides);
  free(vo->unicodes);
  return rc;
}

/* A still: the line drawn once on a canvas the size of hb-view's geometry, and written. */
static int view_still(view_opts_t *vo) {
  double advance = 0, width, height, asc, desc;
  ct_font_info_t info;
  ct_font_t *font;
  ct_canvas_t *canvas;
  ct_shaped_t run;
  ct_error_t err;
  unsigned i;

  font = open_font(vo->font_path, vo->face_index);
  if (vo->variations && ct_font_set_variations(font, vo->variations, &err) != CT_OK) die(1, "%s", err.message);
  if (vo->palette) vo->style.palette = resolve_palette(font, vo->palette);
  ct_font_get_info(font, &info);

  /* hb-view's geometry: the line's advance and the font's ascender/descender, plus margins. */
  if (ct_shape(font, vo->text, strlen(vo->text), &vo->style.shape, &run, &err) != CT_OK)
    die(1, "%s", err.message);
  for (i = 0; i < run.count; i++) advance += run.glyphs[i].x_advance;
  ct_shaped_fini(&run);
  advance *= vo->style.size / info.units_per_em;
  asc = info.ascender * vo->style.size / info.units_per_em;
  desc = -info.descender * vo->style.size / info.units_per_em;
  width = vo->margin[3] + advance + vo->margin[1];
  height = vo->margin[0] + asc + desc + vo->margin[2];
  if (width < 1) width = 1;
  if (height < 1) height = 1;

  canvas = ct_canvas_create(width, height, &err);
  if (!canvas) die(1, "%s", err.message);
  ct_canvas_set_warning_func(canvas, warn_stderr, NULL);
  ct_canvas_set_time(canvas, vo->seconds);
  if (vo->background.a > 0 && ct_canvas_fill_background(canvas, vo->background, &err) != CT_OK)
    die(1, "%s", err.message);
  if (ct_canvas_draw_text(canvas, font, vo->text, strlen(vo->text), &vo->style, vo->margin[3], vo->margin[0] + asc,
                          NULL, &err) != CT_OK)
    die(1, "%s", err.message);
  if (strcmp(vo->out, "-") == 0 && vo->wo.format == CT_OUTPUT_AUTO) vo->wo.format = CT_OUTPUT_PNG;
  if (ct_canvas_write(canvas, vo->out, &vo->wo, &err) != CT_OK) die(1, "%s", err.message);
  ct_canvas_destroy(canvas);
  ct_font_destroy(font);
  free(vo->overrides);
  free(vo->unicodes);
  return 0;
}

int cmd_view(int argc, char **argv) {
  view_opts_t vo = { .out = "-", .ofmt = CT_OUTPUT_AUTO, .background = { 1, 1, 1, 1 },
                     .margin = { 16, 16, 16, 16 } };

  anim_opts_init(&vo.anim);
  ct_text_style_init(&vo.style);
  ct_write_options_init(&vo.wo);
  vo.style.size = 256;
  if (view_parse_options(argc, argv, &vo)) return 0;
  view_check_options(&vo);
  if (PARSE_ONLY) return 0;
  if (vo.animated) return view_animated(&vo);
  return view_still(&vo);
}
