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

int cmd_view(int argc, char **argv) {
  opts_t o = { argc, 1, argv, usage_view, NULL };
  anim_opts_t anim;
  int animated, time_set = 0;
  double seconds = 0;
  const char *fg_s = NULL, *bg_s = NULL, *dir_s = NULL, *fmt_s = NULL;
  const char *font_path = NULL, *text = NULL, *out = "-", *features = NULL, *variations = NULL;
  const char *palette = NULL, *script = NULL, *language = NULL, *custom = NULL;
  char *unicodes = NULL;
  ct_output_t ofmt = CT_OUTPUT_AUTO;
  ct_text_style_t style;
  ct_write_options_t wo;
  ct_palette_override_t *overrides = NULL;
  ct_ink_t inks[CT_MAX_INKS];
  unsigned ninks = 0;
  ct_rgba_t background = { 1, 1, 1, 1 };
  double margin[4] = { 16, 16, 16, 16 }, advance = 0, width, height, asc, desc;
  unsigned face_index = 0;
  ct_font_info_t info;
  ct_font_t *font;
  ct_canvas_t *canvas;
  ct_shaped_t run;
  ct_error_t err;
  unsigned i;

  anim_opts_init(&anim);
  ct_text_style_init(&style);
  ct_write_options_init(&wo);
  style.size = 256;
  for (; o.i < argc; o.i++) {
    const char *a = argv[o.i];
    if (a[0] != '-' || strcmp(a, "-") == 0) {
      if (!font_path) font_path = a;
      else if (!text) text = a;
      else die(EXIT_USAGE, "view: unexpected argument '%s' (quote text with spaces)", a);
    } else if (strcmp(a, "--") == 0) {
      for (o.i++; o.i < argc; o.i++) {
        if (!font_path) font_path = argv[o.i];
        else if (!text) text = argv[o.i];
        else die(EXIT_USAGE, "view: unexpected argument '%s'", argv[o.i]);
      }
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_view, stdout);
      fputs(anim_usage, stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("chromatype %s\n", CT_VERSION_STRING);
      return 0;
    } else if (opt_is(&o, a, "-o", 1) || opt_is(&o, a, "--output-file", 1)) {
      out = o.value;
    } else if (opt_is(&o, a, "-O", 1) || opt_is(&o, a, "--output-format", 1)) {
      int f = ct_output_from_name(o.value);
      if (f < 0) die(EXIT_USAGE, "bad value '%s' for --output-format (want png, pdf or svg)", o.value);
      ofmt = (ct_output_t)f;
    } else if (opt_is(&o, a, "--font-size", 1)) {
      style.size = parse_double("--font-size", o.value, 0.01, 100000);
    } else if (opt_is(&o, a, "--font-palette", 1)) {
      palette = o.value;
    } else if (opt_is(&o, a, "--custom-palette", 1)) {
      custom = o.value;
    } else if (opt_is(&o, a, "--foreground", 1)) {
      style.foreground = parse_color("--foreground", o.value);
      fg_s = o.value;
    } else if (opt_is(&o, a, "--background", 1)) {
      background = parse_color("--background", o.value);
      bg_s = o.value;
    } else if (opt_is(&o, a, "--margin", 1)) {
      parse_margin(o.value, margin);
    } else if (opt_is(&o, a, "--unicodes", 1) || opt_is(&o, a, "-u", 1)) {
      TRACK(unicodes, NULL);
      free(unicodes);
      unicodes = parse_unicodes(o.value);
    } else if (opt_is(&o, a, "--text", 1)) {
      text = o.value;
    } else if (opt_is(&o, a, "--features", 1)) {
      features = o.value;
    } else if (opt_is(&o, a, "--variations", 1)) {
      variations = o.value;
    } else if (opt_is(&o, a, "--script", 1)) {
      script = o.value;
    } else if (opt_is(&o, a, "--language", 1)) {
      language = o.value;
    } else if (opt_is(&o, a, "--direction", 1)) {
      static const char *const dirs[] = { "ltr", "rtl", "ttb", "btt" };
      for (i = 0; i < 4 && strcmp(o.value, dirs[i]) != 0; i++) {}
      if (i == 4) die(EXIT_USAGE, "bad value '%s' for --direction (want ltr, rtl, ttb or btt)", o.value);
      style.shape.direction = (ct_direction_t)(CT_DIR_LTR + i);
      dir_s = o.value;
    } else if (opt_is(&o, a, "--face-index", 1) || opt_is(&o, a, "-y", 1)) {
      face_index = (unsigned)parse_long("--face-index", o.value, 0, 65535);
    } else if (opt_is(&o, a, "--format", 1)) {
      int f = ct_format_from_name(o.value);
      if (f < 0) die(EXIT_USAGE, "bad value '%s' for --format (want auto, colr1, colr0, svg, bitmap or mono)", o.value);
      style.format = (ct_format_t)f;
      fmt_s = o.value;
    } else if (opt_is(&o, a, "--dpi", 1)) {
      wo.dpi = parse_double("--dpi", o.value, 1, 9600);
    } else if (opt_is(&o, a, "--no-text-layer", 0)) {
      wo.no_text_layer = 1;
    } else if (opt_is(&o, a, "--cmyk", 0)) {
      wo.cmyk = 1;
    } else if (opt_is(&o, a, "--ink", 1)) {
      add_ink(inks, &ninks, o.value);
    } else if (opt_is(&o, a, "--inks-only", 0)) {
      wo.inks_only = 1;
    } else if (opt_is(&o, a, "--overprint", 0)) {
      wo.overprint = 1;
    } else if (opt_is(&o, a, "--plates", 1)) {
      if (!o.value[0]) die(EXIT_USAGE, "--plates needs a directory");
      wo.plates = o.value;
    } else if (opt_is(&o, a, "--time", 1)) {
      seconds = parse_double("--time", o.value, 0, 3600);
      time_set = 1;
    } else if (take_anim_option(&o, a, &anim)) {
      /* --animate and the animation's options */
    } else {
      die(EXIT_USAGE, "view: unknown option '%s' (see 'chromatype view --help')", a);
    }
  }
  if (!font_path) die(EXIT_USAGE, "view: no font given (see 'chromatype view --help')");
  if (unicodes) {
    if (text && text != unicodes) die(EXIT_USAGE, "view: give TEXT or --unicodes, not both");
    text = unicodes;
  }
  if (!text) die(EXIT_USAGE, "view: no text given (TEXT, --text or --unicodes)");
  if (custom) overrides = parse_custom_palette(custom, &style.override_count);
  style.overrides = overrides;
  style.shape.features = features;
  style.shape.script = script;
  style.shape.language = language;
  wo.format = ofmt;
  wo.inks = ninks ? inks : NULL;
  wo.ink_count = ninks;
  /* an animation: --animate, or a file only animations are written to (.webp, .gif, ...: a
     font with animated SVG glyphs plays them) */
  {
    size_t n = strlen(out);
    int png = n >= 4 && strcasecmp(out + n - 4, ".png") == 0 && !strchr(out, '%');   /* a still, or APNG */
    animated = anim.nspecs > 0 || (ct_anim_format_from_path(out) != CT_ANIM_AUTO && !png);
  }
  if (animated && time_set) die(EXIT_USAGE, "view: --time is for stills (an animation's frames have their own)");
  if (animated && (ninks || wo.plates || wo.cmyk || wo.no_text_layer || wo.inks_only || wo.overprint || ofmt))
    die(EXIT_USAGE, "view: --animate writes an animation; the PDF options and --output-format do not apply");
  if (PARSE_ONLY) return 0;
  if (animated) {
    view_req_t v;
    int rc;
    memset(&v, 0, sizeof v);
    v.font = font_path;
    v.index = face_index;
    v.text = text;
    v.size = style.size;
    v.palette = palette;
    v.custom = custom;
    v.foreground = fg_s;
    v.background = bg_s;
    v.features = features;
    v.variations = variations;
    v.script = script;
    v.language = language;
    v.direction = dir_s;
    v.format = fmt_s;
    v.output = out;
    v.dpi = wo.dpi > 0 ? wo.dpi : 72;
    memcpy(v.margin, margin, sizeof margin);
    rc = view_animation(&v, &anim);
    free(overrides);
    free(unicodes);
    return rc;
  }

  font = open_font(font_path, face_index);
  if (variations && ct_font_set_variations(font, variations, &err) != CT_OK) die(1, "%s", err.message);
  if (palette) style.palette = resolve_palette(font, palette);
  ct_font_get_info(font, &info);

  /* hb-view's geometry: the line's advance and the font's ascender/descender, plus margins. */
  if (ct_shape(font, text, strlen(text), &style.shape, &run, &err) != CT_OK) die(1, "%s", err.message);
  for (i = 0; i < run.count; i++) advance += run.glyphs[i].x_advance;
  ct_shaped_fini(&run);
  advance *= style.size / info.units_per_em;
  asc = info.ascender * style.size / info.units_per_em;
  desc = -info.descender * style.size / info.units_per_em;
  width = margin[3] + advance + margin[1];
  height = margin[0] + asc + desc + margin[2];
  if (width < 1) width = 1;
  if (height < 1) height = 1;

  canvas = ct_canvas_create(width, height, &err);
  if (!canvas) die(1, "%s", err.message);
  ct_canvas_set_warning_func(canvas, warn_stderr, NULL);
  ct_canvas_set_time(canvas, seconds);
  if (background.a > 0 && ct_canvas_fill_background(canvas, background, &err) != CT_OK)
    die(1, "%s", err.message);
  if (ct_canvas_draw_text(canvas, font, text, strlen(text), &style, margin[3], margin[0] + asc, NULL,
                          &err) != CT_OK)
    die(1, "%s", err.message);
  if (strcmp(out, "-") == 0 && wo.format == CT_OUTPUT_AUTO) wo.format = CT_OUTPUT_PNG;
  if (ct_canvas_write(canvas, out, &wo, &err) != CT_OK) die(1, "%s", err.message);
  ct_canvas_destroy(canvas);
  ct_font_destroy(font);
  free(overrides);
  free(unicodes);
  return 0;
}
