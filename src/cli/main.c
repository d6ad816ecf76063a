/*
** main.c: the chromatype command line: `view` (hb-view's options), `info`, and
** running Lua scripts with the library loaded.  Uses the core and the Lua bindings.
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include "../ct.h"
#include "../embedded.h"
#include "../preload.h"
#include "../lua/l_limits.h"
#include "../lua/l_core.h"

#define EXIT_USAGE 2

#ifndef CT_FILTER_DIR
#define CT_FILTER_DIR "/usr/local/share/chromatype/filters"
#endif

static const char *progname = "chromatype";

/* tests/fuzz/fuzz_cli.c compiles this file with CT_FUZZ_CLI: die() returns to the fuzzer
   instead of exiting, and the commands stop when their options are parsed. */
#ifdef CT_FUZZ_CLI
#include <setjmp.h>
static jmp_buf cli_jmp;
static int cli_parse_only;
#define PARSE_ONLY cli_parse_only
/* what the option parsers allocate (the program frees it by exiting), freed by the fuzzer
   after each input: die() may leave through longjmp at any point */
#define CLI_TRACK_MAX 256
static void *cli_tracked[CLI_TRACK_MAX];
static int cli_ntracked;
static void cli_track(uintptr_t old, void *p) {
  int i;
  for (i = 0; old && i < cli_ntracked; i++) {
    if ((uintptr_t)cli_tracked[i] == old) { cli_tracked[i] = p; return; }
  }
  if (p && cli_ntracked < CLI_TRACK_MAX) cli_tracked[cli_ntracked++] = p;
}
static void cli_free_tracked(void) {
  while (cli_ntracked > 0) free(cli_tracked[--cli_ntracked]);
}
#define TRACK(old, p) cli_track((uintptr_t)(old), (p))
#else
#define PARSE_ONLY 0
#define TRACK(old, p) ((void)(old), (void)(p))
#endif

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

static void die(int code, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
#ifdef CT_FUZZ_CLI
  longjmp(cli_jmp, code ? code : 1);
#endif
  exit(code);
}

static void warn_stderr(void *data, const char *msg) {
  (void)data;
  fprintf(stderr, "%s: warning: %s\n", progname, msg);
}

static const char usage_main[] =
  "usage: chromatype SCRIPT.lua [ARGS...]      run a Lua script with the chromatype library\n"
  "       chromatype DOC.xml [-o OUT] [--dpi N] [--format F] [--no-text-layer] [--cmyk]\n"
  "                  [--ink NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]]... [--inks-only]\n"
  "                  [--overprint] [--plates DIR]\n"
  "                                            render an XML document to PDF, PNG or SVG;\n"
  "                                            --ink: a spot ink, printed from its own plate\n"
  "       chromatype [-f FILTER]... [--seed N|random] [--watch] SCRIPT.lua|DOC.xml ...\n"
  "                                            the same through Lua filters (FILE.lua or\n"
  "                                            FILE.lua:key=value,...; ready ones by name),\n"
  "                                            with a random seed; --watch renders again\n"
  "                                            when an input changes\n"
  "       chromatype --sandbox [--max-memory SIZE] [--max-instructions N] [--timeout S]\n"
  "                  SCRIPT.lua|DOC.xml ...    scripts and filters from untrusted sources:\n"
  "                                            pure Lua and the chromatype API, files only\n"
  "                                            below the working directory, limits on Lua\n"
  "                                            memory (1G), instructions (5e9), time (300 s)\n"
  "       chromatype batch TEMPLATE --data RECORDS -o 'out/{id}.pdf' [--jobs N] [--shard K/N]\n"
  "                                            one document per record, in parallel\n"
  "       chromatype view FONT TEXT [OPTIONS]  render one line of text (hb-view's options)\n"
  "       chromatype info FONT [--json]        formats, palettes, names, axes of a font\n"
  "       chromatype paint FONT TEXT [OPTIONS] the paint tree of each glyph, as text\n"
  "       chromatype --help | --version\n"
  "\n"
  "'chromatype COMMAND --help' lists the options of view, info and paint.\n";

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
  "      --no-text-layer        PDF: leave out the invisible text that makes it copyable\n"
  "      --cmyk                 PDF: process colors in CMYK (ICC; spot inks kept), for print shops\n"
  "      --ink=NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]\n"
  "                             PDF: a spot ink (repeatable): the ink's color and its lighter\n"
  "                             tints print on its own plate; cmyk= is its alternate color\n"
  "      --inks-only            PDF: a color that no ink prints is an error\n"
  "      --overprint            PDF: every ink overprints (mixes with the inks under it)\n"
  "      --plates=DIR           one grayscale plate per ink, and preview.png, in DIR\n"
  "  -h, --help                 this help\n"
  "      --version              the version\n";

static const char usage_info[] =
  "usage: chromatype info FONT [--face-index=N] [--json]\n"
  "Reports names, metrics, glyph count, color formats, palettes (index, type, name, entries\n"
  "as hex with their labels) and variation axes.\n"
  "\n"
  "      --face-index=N   face of a collection (default: 0)\n"
  "      --json           machine-readable output\n"
  "  -h, --help           this help\n";

/* ---- option parsing --------------------------------------------------- */

typedef struct {
  int          argc, i;
  char       **argv;
  const char  *usage;
  const char  *value;     /* the current option's value */
} opts_t;

/* Matches `name` (with or without "=value"); takes the value from the next argument
   when `has_value` and it was not attached. */
static int opt_is(opts_t *o, const char *arg, const char *name, int has_value) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0) return 0;
  if (arg[n] == '=') {
    if (!has_value) die(EXIT_USAGE, "option '%s' takes no value", name);
    o->value = arg + n + 1;
    return 1;
  }
  if (arg[n] != '\0') return 0;
  if (has_value) {
    if (o->i + 1 >= o->argc) die(EXIT_USAGE, "option '%s' needs a value", name);
    o->value = o->argv[++o->i];
  }
  return 1;
}

static long parse_long(const char *opt, const char *s, long min, long max) {
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max)
    die(EXIT_USAGE, "bad value '%s' for %s (want an integer from %ld to %ld)", s, opt, min, max);
  return v;
}

static double parse_double(const char *opt, const char *s, double min, double max) {
  char *end;
  double v;
  errno = 0;
  v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
    die(EXIT_USAGE, "bad value '%s' for %s (want a number from %g to %g)", s, opt, min, max);
  return v;
}

static ct_rgba_t parse_color(const char *opt, const char *s) {
  ct_rgba_t c;
  if (ct_rgba_parse(s, &c) != 0)
    die(EXIT_USAGE, "bad color '%s' for %s (want RRGGBB or RRGGBBAA)", s, opt);
  return c;
}

/* "0=FF0000FF,3=00FF0080" */
static ct_palette_override_t *parse_custom_palette(const char *s, unsigned *count) {
  ct_palette_override_t *ov = NULL;
  unsigned n = 0;
  const char *p = s;
  while (p && *p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[64], *eq, *stop;
    unsigned long idx;
    if (len == 0 || len >= sizeof item)
      die(EXIT_USAGE, "bad --custom-palette entry '%.*s' (want IDX=RRGGBBAA)", (int)len, p);
    memcpy(item, p, len);
    item[len] = '\0';
    eq = strchr(item, '=');
    if (!eq) die(EXIT_USAGE, "bad --custom-palette entry '%s' (want IDX=RRGGBBAA)", item);
    *eq = '\0';
    errno = 0;
    idx = strtoul(item, &stop, 10);
    if (errno || stop == item || *stop || idx > 65534)
      die(EXIT_USAGE, "bad palette index '%s' in --custom-palette (want 0..65534)", item);
    {
      uintptr_t was = (uintptr_t)ov;    /* (its value only, for the fuzzer's bookkeeping) */
      ct_palette_override_t *grown = realloc(ov, (n + 1) * sizeof *ov);
      if (!grown) die(1, "out of memory");
      TRACK(was, grown);
      ov = grown;
    }
    ov[n].index = (unsigned)idx;
    ov[n].color = parse_color("--custom-palette", eq + 1);
    n++;
    p = end ? end + 1 : NULL;
  }
  *count = n;
  return ov;
}

/* "U+1F600,U+1F601,263A" -> UTF-8 */
static char *parse_unicodes(const char *s) {
  size_t cap = strlen(s) * 4 + 8, len = 0;
  char *out = malloc(cap);
  const char *p = s;
  if (!out) die(1, "out of memory");
  TRACK(NULL, out);
  while (*p) {
    char *end;
    unsigned long cp;
    while (*p == ',' || *p == ' ') p++;
    if (!*p) break;
    if ((p[0] == 'U' || p[0] == 'u') && p[1] == '+') p += 2;
    else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    errno = 0;
    cp = strtoul(p, &end, 16);
    if (errno || end == p || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
        (*end && *end != ',' && *end != ' '))
      die(EXIT_USAGE, "bad code point '%.*s' in --unicodes (want U+XXXX,...)",
          (int)strcspn(p, ", "), p);
    if (cp < 0x80) out[len++] = (char)cp;
    else if (cp < 0x800) {
      out[len++] = (char)(0xC0 | (cp >> 6));
      out[len++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out[len++] = (char)(0xE0 | (cp >> 12));
      out[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[len++] = (char)(0x80 | (cp & 0x3F));
    } else {
      out[len++] = (char)(0xF0 | (cp >> 18));
      out[len++] = (char)(0x80 | ((cp >> 12) & 0x3F));
      out[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[len++] = (char)(0x80 | (cp & 0x3F));
    }
    p = end;
  }
  out[len] = '\0';
  return out;
}

static void parse_margin(const char *s, double m[4]) {
  double v[4];
  int n = 0;
  const char *p = s;
  while (*p && n < 4) {
    char *end;
    v[n] = strtod(p, &end);
    if (end == p || !isfinite(v[n]) || v[n] < 0 || v[n] > 10000 || (*end && *end != ',' && *end != ' '))
      die(EXIT_USAGE, "bad value '%s' for --margin (want 1 to 4 numbers, e.g. 16 or 8,16)", s);
    n++;
    p = *end ? end + 1 : end;
  }
  if (n == 0 || *p) die(EXIT_USAGE, "bad value '%s' for --margin (want 1 to 4 numbers)", s);
  /* CSS order: top, right, bottom, left */
  m[0] = v[0];
  m[1] = n > 1 ? v[1] : v[0];
  m[2] = n > 2 ? v[2] : v[0];
  m[3] = n > 3 ? v[3] : m[1];
}

static ct_font_t *open_font(const char *path, unsigned index) {
  ct_error_t err;
  ct_font_t *font = ct_font_create(path, index, &err);   /* a path, or a name for fontconfig */
  if (!font) die(1, "%s", err.message);
  return font;
}

/* A palette by index, type ("light", "dark") or name. */
static unsigned resolve_palette(ct_font_t *font, const char *s) {
  unsigned n = ct_font_get_palette_count(font), i;
  char *end;
  unsigned long v;
  char name[256];
  int found;
  errno = 0;
  v = strtoul(s, &end, 10);
  if (end != s && !*end && !errno) {
    if (v >= (n ? n : 1))
      die(1, "%s: palette %lu out of range (the font has %u palette%s%s)", ct_font_get_path(font), v,
          n, n == 1 ? "" : "s", n ? "" : ": it has no CPAL table");
    return (unsigned)v;
  }
  if (strcmp(s, "light") == 0 || strcmp(s, "dark") == 0) {
    found = ct_font_find_palette(font, s[0] == 'l' ? CT_PALETTE_TYPE_LIGHT : CT_PALETTE_TYPE_DARK);
    if (found < 0) die(1, "%s: no palette of type '%s'", ct_font_get_path(font), s);
    return (unsigned)found;
  }
  for (i = 0; i < n; i++)
    if (ct_font_get_palette_name(font, i, name, sizeof name) && strcmp(name, s) == 0) return i;
  die(1, "%s: no palette named '%s'", ct_font_get_path(font), s);
}

/* --ink SPEC (view and documents): checked at once, a bad spec is a usage error; an ink of
   a name given before replaces it.  Returns its index in inks[] (at most CT_MAX_INKS). */
static unsigned add_ink(ct_ink_t inks[], unsigned *n, const char *spec) {
  char why[256];
  ct_ink_t ink;
  unsigned i;
  if (ct_ink_parse(spec, &ink, why, sizeof why) != 0) die(EXIT_USAGE, "--ink: %s", why);
  for (i = 0; i < *n && strcmp(inks[i].name, ink.name) != 0; i++) {}
  if (i == CT_MAX_INKS) die(EXIT_USAGE, "--ink: more than %d inks", CT_MAX_INKS);
  inks[i] = ink;
  if (i == *n) (*n)++;
  return i;
}

/* ---- view ------------------------------------------------------------- */

static int cmd_view(int argc, char **argv) {
  opts_t o = { argc, 1, argv, usage_view, NULL };
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
    } else if (opt_is(&o, a, "--background", 1)) {
      background = parse_color("--background", o.value);
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
    } else if (opt_is(&o, a, "--face-index", 1) || opt_is(&o, a, "-y", 1)) {
      face_index = (unsigned)parse_long("--face-index", o.value, 0, 65535);
    } else if (opt_is(&o, a, "--format", 1)) {
      int f = ct_format_from_name(o.value);
      if (f < 0) die(EXIT_USAGE, "bad value '%s' for --format (want auto, colr1, colr0, svg, bitmap or mono)", o.value);
      style.format = (ct_format_t)f;
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
  if (PARSE_ONLY) return 0;

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

/* ---- info ------------------------------------------------------------- */

static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

static void hex_color(char *buf, ct_rgba_t c) {
  snprintf(buf, 10, "%02X%02X%02X%02X", (unsigned)lround(c.r * 255), (unsigned)lround(c.g * 255),
           (unsigned)lround(c.b * 255), (unsigned)lround(c.a * 255));
}

static const char *palette_type_name(unsigned t) {
  switch (t) {
  case CT_PALETTE_TYPE_LIGHT: return "light";
  case CT_PALETTE_TYPE_DARK: return "dark";
  case CT_PALETTE_TYPE_LIGHT | CT_PALETTE_TYPE_DARK: return "light,dark";
  default: return NULL;
  }
}

static const struct { unsigned bit; const char *name; } format_names[] = {
  { CT_COLOR_COLR0, "COLRv0" }, { CT_COLOR_COLR1, "COLRv1" }, { CT_COLOR_SVG, "SVG" },
  { CT_COLOR_CBDT, "CBDT" }, { CT_COLOR_SBIX, "sbix" }
};

static int cmd_info(int argc, char **argv) {
  opts_t o = { argc, 1, argv, usage_info, NULL };
  const char *path = NULL;
  unsigned face_index = 0, i, j, npal, nent, naxes;
  int json = 0, first;
  ct_font_t *font;
  ct_font_info_t info;
  ct_rgba_t *colors;
  char buf[256], hex[10];

  for (; o.i < argc; o.i++) {
    const char *a = argv[o.i];
    if (a[0] != '-') {
      if (path) die(EXIT_USAGE, "info: unexpected argument '%s'", a);
      path = a;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_info, stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("chromatype %s\n", CT_VERSION_STRING);
      return 0;
    } else if (opt_is(&o, a, "--json", 0)) {
      json = 1;
    } else if (opt_is(&o, a, "--face-index", 1) || opt_is(&o, a, "-y", 1)) {
      face_index = (unsigned)parse_long("--face-index", o.value, 0, 65535);
    } else {
      die(EXIT_USAGE, "info: unknown option '%s' (see 'chromatype info --help')", a);
    }
  }
  if (!path) die(EXIT_USAGE, "info: no font given (see 'chromatype info --help')");
  if (PARSE_ONLY) return 0;
  font = open_font(path, face_index);
  ct_font_get_info(font, &info);
  npal = ct_font_get_palette_count(font);
  nent = ct_font_get_palette_entry_count(font);
  naxes = ct_font_get_axis_count(font);
  colors = calloc(nent ? nent : 1, sizeof *colors);
  if (!colors) die(1, "out of memory");

  if (json) {
    printf("{\n  \"file\": "); json_string(path);
    printf(",\n  \"face_index\": %u, \"face_count\": %u,\n  \"container\": ", info.face_index, info.face_count);
    json_string(info.container);
    printf(",\n  \"family\": "); json_string(info.family);
    printf(", \"style\": "); json_string(info.style);
    printf(",\n  \"full_name\": "); json_string(info.full_name);
    printf(", \"postscript_name\": "); json_string(info.postscript_name);
    printf(", \"version\": "); json_string(info.version);
    printf(",\n  \"units_per_em\": %u, \"ascender\": %d, \"descender\": %d, \"line_gap\": %d, \"glyph_count\": %u,\n",
           info.units_per_em, info.ascender, info.descender, info.line_gap, info.glyph_count);
    printf("  \"color_formats\": [");
    for (i = 0, first = 1; i < sizeof format_names / sizeof format_names[0]; i++)
      if (info.color_formats & format_names[i].bit) {
        printf("%s\"%s\"", first ? "" : ", ", format_names[i].name);
        first = 0;
      }
    printf("],\n  \"palette_entry_labels\": [");
    for (j = 0; j < nent; j++) {
      printf("%s", j ? ", " : "");
      if (ct_font_get_palette_entry_label(font, j, buf, sizeof buf)) json_string(buf);
      else printf("null");
    }
    printf("],\n  \"palettes\": [");
    for (i = 0; i < npal; i++) {
      const char *t = palette_type_name(ct_font_get_palette_type(font, i));
      printf("%s\n    {\"index\": %u, \"type\": ", i ? "," : "", i);
      if (t) json_string(t); else printf("null");
      printf(", \"name\": ");
      if (ct_font_get_palette_name(font, i, buf, sizeof buf)) json_string(buf); else printf("null");
      printf(", \"colors\": [");
      ct_font_get_palette_colors(font, i, colors, nent);
      for (j = 0; j < nent; j++) {
        hex_color(hex, colors[j]);
        printf("%s\"%s\"", j ? ", " : "", hex);
      }
      printf("]}");
    }
    printf("%s],\n  \"axes\": [", npal ? "\n  " : "");
    for (i = 0; i < naxes; i++) {
      ct_axis_t ax;
      ct_font_get_axis(font, i, &ax);
      printf("%s\n    {\"tag\": \"%s\", \"name\": ", i ? "," : "", ax.tag_str);
      json_string(ax.name);
      printf(", \"min\": %g, \"default\": %g, \"max\": %g, \"hidden\": %s}", ax.min, ax.def, ax.max,
             ax.hidden ? "true" : "false");
    }
    printf("%s]\n}\n", naxes ? "\n  " : "");
  } else {
    printf("File:          %s", path);
    if (info.face_count > 1) printf(" (face %u of %u)", info.face_index, info.face_count);
    printf("\nContainer:     %s\n", info.container);
    printf("Family:        %s\nStyle:         %s\n", info.family, info.style);
    printf("Full name:     %s\nPostScript:    %s\nVersion:       %s\n", info.full_name,
           info.postscript_name, info.version);
    printf("Units per em:  %u\nAscender:      %d\nDescender:     %d\nLine gap:      %d\n",
           info.units_per_em, info.ascender, info.descender, info.line_gap);
    printf("Glyphs:        %u\nColor formats:", info.glyph_count);
    for (i = 0, first = 1; i < sizeof format_names / sizeof format_names[0]; i++)
      if (info.color_formats & format_names[i].bit) {
        printf("%s%s", first ? " " : ", ", format_names[i].name);
        first = 0;
      }
    printf("%s\n", first ? " none (monochrome)" : "");
    printf("Palettes:      %u (%u entr%s each)\n", npal, nent, nent == 1 ? "y" : "ies");
    for (i = 0; i < npal; i++) {
      const char *t = palette_type_name(ct_font_get_palette_type(font, i));
      int named = ct_font_get_palette_name(font, i, buf, sizeof buf);
      printf("  palette %u", i);
      if (named) printf(" \"%s\"", buf);
      if (t) printf(" [%s background]", t);
      printf("\n");
      ct_font_get_palette_colors(font, i, colors, nent);
      for (j = 0; j < nent; j++) {
        hex_color(hex, colors[j]);
        printf("    %3u  #%s", j, hex);
        if (ct_font_get_palette_entry_label(font, j, buf, sizeof buf)) printf("  %s", buf);
        printf("\n");
      }
    }
    printf("Axes:          %u\n", naxes);
    for (i = 0; i < naxes; i++) {
      ct_axis_t ax;
      ct_font_get_axis(font, i, &ax);
      printf("  %s  %g..%g, default %g  %s%s\n", ax.tag_str, ax.min, ax.max, ax.def, ax.name,
             ax.hidden ? " (hidden)" : "");
    }
  }
  free(colors);
  ct_font_destroy(font);
  if (fflush(stdout) != 0) die(1, "cannot write to standard output: %s", strerror(errno));
  return 0;
}

/* ---- paint ------------------------------------------------------------ */

static int cmd_paint(int argc, char **argv) {
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

/* ---- scripts ---------------------------------------------------------- */

/* ---- options every run takes: filters, the seed, --watch ------------------ */

#define MAX_FILTERS 64

static struct {
  const char *filters[MAX_FILTERS];
  int nfilters;
  const char *seed;
  int watch;
  int sandbox;
  const char *max_memory, *max_instructions, *timeout;
  const char *output;         /* -o of a document: writable in the sandbox */
  const char *plates;         /* --plates of a document: writable in the sandbox */
} run_opts;

/* Defaults of --sandbox for limits not given. */
#define SANDBOX_MEMORY       "1G"
#define SANDBOX_INSTRUCTIONS "5000000000"
#define SANDBOX_TIMEOUT      "300"

/* A Lua state under the limits of the command line; exits on a bad limit. */
static lua_State *new_state(void) {
  lct_limits_t lim;
  const char *mem = run_opts.max_memory, *ins = run_opts.max_instructions, *tmo = run_opts.timeout;
  lua_State *L;
  memset(&lim, 0, sizeof lim);
  if (run_opts.sandbox) {
    if (!mem) mem = SANDBOX_MEMORY;
    if (!ins) ins = SANDBOX_INSTRUCTIONS;
    if (!tmo) tmo = SANDBOX_TIMEOUT;
  }
  if (mem && !lct_parse_size(mem, &lim.max_memory))
    die(EXIT_USAGE, "--max-memory: expected a size such as 512M or 2G (at least 1M), got '%s'", mem);
  if (ins) {
    char *end;
    double v = strtod(ins, &end);     /* 5000000000 or 5e9 */
    if (*end != '\0' || !(v >= 100000) || v > 1e18 || v != floor(v))
      die(EXIT_USAGE, "--max-instructions: expected a whole number of at least 100000, got '%s'", ins);
    lim.max_instructions = (unsigned long long)v;
  }
  if (tmo) {
    char *end;
    lim.max_seconds = strtod(tmo, &end);
    if (*end != '\0' || !(lim.max_seconds > 0) || lim.max_seconds > 1e6)
      die(EXIT_USAGE, "--timeout: expected seconds (0 < s <= 1000000), got '%s'", tmo);
  }
  if (!(L = lct_newstate(&lim))) die(1, "cannot create a Lua state: out of memory");
  luaL_openlibs(L);
  ct_preload_library(L);
  return L;
}

/* Prints a run's error: the limit that stopped it, if one did, else the message. */
static void report_error(lua_State *L, const char *what) {
  const char *limit = lct_limit_message();
  const char *msg = lua_tostring(L, -1);
  if (limit) fprintf(stderr, "%s: %s: %s\n", progname, what, limit);
  else fprintf(stderr, "%s: %s\n", progname, msg ? msg : "(error object is not a string)");
}

/* Takes argv[*i] (and its value) if it is -f/--filter, --seed or --watch; returns 1 if so. */
static int take_run_option(int argc, char **argv, int *i) {
  const char *a = argv[*i];
  const char *v = NULL;
  if ((strcmp(a, "-f") == 0 || strcmp(a, "--filter") == 0)) {
    if (*i + 1 >= argc) die(EXIT_USAGE, "%s needs a filter file (FILE.lua or FILE.lua:key=value,...)", a);
    v = argv[++*i];
  } else if (strncmp(a, "--filter=", 9) == 0) {
    v = a + 9;
  } else if (strcmp(a, "--seed") == 0) {
    if (*i + 1 >= argc) die(EXIT_USAGE, "--seed needs an integer or 'random'");
    run_opts.seed = argv[++*i];
    return 1;
  } else if (strncmp(a, "--seed=", 7) == 0) {
    run_opts.seed = a + 7;
    return 1;
  } else if (strcmp(a, "--watch") == 0) {
    run_opts.watch = 1;
    return 1;
  } else if (strcmp(a, "--sandbox") == 0) {
    run_opts.sandbox = 1;
    return 1;
  } else if (strcmp(a, "--max-memory") == 0 || strcmp(a, "--max-instructions") == 0 ||
             strcmp(a, "--timeout") == 0) {
    if (*i + 1 >= argc) die(EXIT_USAGE, "%s needs a value", a);
    if (a[2] == 'm' && a[6] == 'm') run_opts.max_memory = argv[++*i];
    else if (a[2] == 'm') run_opts.max_instructions = argv[++*i];
    else run_opts.timeout = argv[++*i];
    return 1;
  } else if (strncmp(a, "--max-memory=", 13) == 0) {
    run_opts.max_memory = a + 13;
    return 1;
  } else if (strncmp(a, "--max-instructions=", 19) == 0) {
    run_opts.max_instructions = a + 19;
    return 1;
  } else if (strncmp(a, "--timeout=", 10) == 0) {
    run_opts.timeout = a + 10;
    return 1;
  } else {
    return 0;
  }
  if (run_opts.nfilters == MAX_FILTERS) die(EXIT_USAGE, "too many filters (at most %d)", MAX_FILTERS);
  run_opts.filters[run_opts.nfilters++] = v;
  return 1;
}

/* Where the ready filters are: beside the executable (the build tree's filters/) and the
   installed data directory. */
static void filter_path(char *buf, size_t size) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  buf[0] = '\0';
  if (n > 0) {
    char *slash;
    exe[n] = '\0';
    if ((slash = strrchr(exe, '/'))) *slash = '\0';
    /* both fit: buf holds 8192, exe at most 4095 */
    if (strlen(exe) * 2 + 32 < size) {
      strcpy(buf, exe);
      strcat(buf, "/../filters;");
      strcat(buf, exe);
      strcat(buf, "/filters;");
    }
  }
  if (strlen(buf) + strlen(CT_FILTER_DIR) < size) strcat(buf, CT_FILTER_DIR);
}

static const char setup_lua[] =
  "local path, seed, watch, sandbox, home, output, plates = ...\n"
  "local filter = require 'chromatype.filter'\n"
  "filter.path = path\n"
  "if sandbox then\n"
  "  local sb = require 'chromatype.sandbox'\n"
  "  sb.enable(home, output)\n"
  "  if plates then sb.outputs[plates] = true end\n"
  "end\n"
  "if seed then\n"
  "  local n\n"
  "  if seed == 'random' then\n"
  "    n = require('chromatype.random').fresh_seed()\n"
  "    io.stderr:write('chromatype: seed ', n, '\\n')\n"
  "  else\n"
  "    n = math.tointeger(tonumber(seed))\n"
  "    if not n then error(\"--seed: expected an integer or 'random', got '\" .. seed .. \"'\", 0) end\n"
  "  end\n"
  "  filter.cli_seed = n\n"
  "end\n"
  "for i = 8, select('#', ...) do\n"
  "  local f, err = filter.load((select(i, ...)))\n"
  "  if not f then error(err, 0) end\n"
  "  filter.defaults[#filter.defaults + 1] = f\n"
  "end\n";

/* The directory of the script or document the run reads (absolute), for the sandbox. */
static char run_home[4096];

static void set_home(const char *input) {
  char buf[4096], *slash;
  run_home[0] = '\0';
  if (!input || strcmp(input, "-") == 0) return;
  if (!realpath(input, buf)) return;
  if ((slash = strrchr(buf, '/'))) *slash = '\0';
  snprintf(run_home, sizeof run_home, "%s", buf);
}

/* Loads the -f filters and the seed into chromatype.filter, and turns the sandbox on;
   raises on a bad filter. [-0, +0] */
static int setup_run(lua_State *L) {
  char path[8192];
  int i;
  filter_path(path, sizeof path);
  if (luaL_loadbuffer(L, setup_lua, sizeof setup_lua - 1, "=setup") != LUA_OK) return lua_error(L);
  lua_pushstring(L, path);
  if (run_opts.seed) lua_pushstring(L, run_opts.seed); else lua_pushnil(L);
  lua_pushboolean(L, run_opts.watch);
  lua_pushboolean(L, run_opts.sandbox);
  lua_pushstring(L, run_home);
  if (run_opts.output) lua_pushstring(L, run_opts.output); else lua_pushnil(L);
  if (run_opts.plates) lua_pushstring(L, run_opts.plates); else lua_pushnil(L);
  for (i = 0; i < run_opts.nfilters; i++) lua_pushstring(L, run_opts.filters[i]);
  lua_call(L, 7 + run_opts.nfilters, 0);
  return 0;
}

/* Sets the run up (filters, seed, sandbox) and loads `code` as a chunk; returns the status
   (the chunk, or the error, is on the stack). */
static int load_run(lua_State *L, const char *code, size_t size, const char *name) {
  int status;
  lua_pushcfunction(L, setup_run);
  status = lua_pcall(L, 0, 0, 0);
  if (status == LUA_OK) status = luaL_loadbuffer(L, code, size, name);
  return status;
}

/* Runs the chunk on top of the stack in the sandbox's environment. [-0, +0] */
static int sandbox_chunk(lua_State *L) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "chromatype.sandbox");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "env");
  lua_call(L, 0, 1);
  lua_remove(L, -2);
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  return 0;
}

/* ---- --watch: the files a run read, and polling them ---------------------- */

#define MAX_INPUTS 4096

static struct {
  char *path[MAX_INPUTS];
  struct stat st[MAX_INPUTS];
  int ok[MAX_INPUTS];
  unsigned n;
} inputs;

static void inputs_add(const char *p) {
  unsigned i;
  for (i = 0; i < inputs.n; i++)
    if (strcmp(inputs.path[i], p) == 0) return;
  if (inputs.n == MAX_INPUTS || !(inputs.path[inputs.n] = strdup(p))) return;
  inputs.ok[inputs.n] = stat(p, &inputs.st[inputs.n]) == 0;
  inputs.n++;
}

/* Notes the files the finished run read: chromatype.inputs (fonts, filters, images).  [-0, +0] */
static void collect_inputs(lua_State *L) {
  int top = lua_gettop(L);
  lua_getglobal(L, "package");
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "loaded");
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "chromatype");
      if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "inputs");
        if (lua_istable(L, -1)) {
          lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);
          for (i = 1; i <= n; i++) {
            if (lua_rawgeti(L, -1, i) == LUA_TSTRING) inputs_add(lua_tostring(L, -1));
            lua_pop(L, 1);
          }
        }
      }
    }
  }
  lua_settop(L, top);
}

/* Whether an input changed since it was noted (and notes it again). */
static const char *inputs_changed(void) {
  unsigned i;
  for (i = 0; i < inputs.n; i++) {
    struct stat st;
    int ok = stat(inputs.path[i], &st) == 0;
    if (ok != inputs.ok[i] || (ok && (st.st_mtim.tv_sec != inputs.st[i].st_mtim.tv_sec ||
                                      st.st_mtim.tv_nsec != inputs.st[i].st_mtim.tv_nsec ||
                                      st.st_size != inputs.st[i].st_size)))
      return inputs.path[i];
  }
  return NULL;
}

static void inputs_clear(void) {
  unsigned i;
  for (i = 0; i < inputs.n; i++) free(inputs.path[i]);
  inputs.n = 0;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs cmd, then again each time one of the files it read changes; Ctrl-C stops (or, for
   tests, CHROMATYPE_WATCH_RUNS=N after N runs, returning the last status). */
static int watch(int (*cmd)(int, char **), int argc, char **argv, const char *main_input) {
  const char *limit;
  if (PARSE_ONLY) return cmd(argc, argv);
  limit = getenv("CHROMATYPE_WATCH_RUNS");
  long runs = 0, max_runs = limit ? strtol(limit, NULL, 10) : 0;
  for (;;) {
    const char *changed;
    double t0 = now_ms();
    int status;
    inputs_clear();
    if (main_input) inputs_add(main_input);
    status = cmd(argc, argv);
    fprintf(stderr, "%s: %s in %.0f ms; watching %u file%s (Ctrl-C stops)\n", progname,
            status == 0 ? "rendered" : "failed", now_ms() - t0, inputs.n, inputs.n == 1 ? "" : "s");
    fflush(stderr);
    if (max_runs > 0 && ++runs >= max_runs) return status;
    while (!(changed = inputs_changed())) {
      struct timespec ts = { 0, 200 * 1000 * 1000 };
      nanosleep(&ts, NULL);
    }
    fprintf(stderr, "%s: %s changed\n", progname, changed);
    {
      struct timespec settle = { 0, 100 * 1000 * 1000 };   /* let an editor finish writing */
      nanosleep(&settle, NULL);
    }
  }
}

static int msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (!msg) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

static int cmd_script(int argc, char **argv) {
  lua_State *L;
  int i, status;
  if (PARSE_ONLY) return 0;
  set_home(argv[0]);
  L = new_state();
  /* arg, as lua.c makes it: arg[0] the script, arg[1..] its arguments */
  lua_createtable(L, argc, 1);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i);
  }
  lua_pushstring(L, progname);
  lua_rawseti(L, -2, -1);
  lua_setglobal(L, "arg");

  lua_pushcfunction(L, msghandler);
  lua_pushcfunction(L, setup_run);
  status = lua_pcall(L, 0, 0, 0);
  if (status == LUA_OK) status = luaL_loadfilex(L, argv[0], run_opts.sandbox ? "t" : NULL);
  if (status == LUA_OK && run_opts.sandbox) sandbox_chunk(L);
  if (status == LUA_OK) {
    for (i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
    status = lua_pcall(L, argc - 1, 0, 1);
  }
  collect_inputs(L);
  if (status != LUA_OK) {
    report_error(L, argv[0]);
    lua_close(L);
    return 1;
  }
  lua_close(L);
  return 0;
}

/* ---- documents: chromatype DOC.xml [-o OUT] (chromatype.document) ------ */

static int is_document(const char *a) {
  size_t n = strlen(a);
  return strcmp(a, "-") == 0 || (n > 4 && strcmp(a + n - 4, ".xml") == 0);
}

/* Reads the document (stdin for "-"), renders it to -o (default: DOC with .pdf; stdout
   for "-"); errors print one line. */
static const char document_lua[] =
  "local path, out, dpi, format, no_text, cmyk, inks, inks_only, overprint, plates = ...\n"
  "local opts = { format = format, text_layer = not no_text or nil, cmyk = cmyk or nil,\n"
  "  inks = #inks > 0 and inks or nil, inks_only = inks_only or nil, overprint = overprint or nil,\n"
  "  plates = plates }\n"
  "if no_text then opts.text_layer = false end\n"
  "if dpi then opts.dpi = tonumber(dpi) or error('--dpi: expected a number, got \\'' .. dpi .. '\\'', 0) end\n"
  "local h, e = io.stdin, nil\n"
  "if path ~= '-' then h, e = io.open(path, 'rb') end\n"
  "if not h then error(e, 0) end\n"
  "local xml = h:read('a')\n"
  "if h ~= io.stdin then h:close() end\n"
  "if not out then out = path == '-' and '-' or path:gsub('%.xml$', '') .. '.pdf' end\n"
  "local _, ok, err = require('chromatype.document').render(xml, path == '-' and '<stdin>' or path, out, opts)\n"
  "if not ok then error(err, 0) end\n";

static int cmd_document(int argc, char **argv) {
  lua_State *L;
  const char *out = NULL, *dpi = NULL, *format = NULL, *plates = NULL;
  const char *specs[CT_MAX_INKS];   /* --ink, as given (checked by add_ink) */
  ct_ink_t inks[CT_MAX_INKS];
  unsigned ninks = 0, k;
  int i, status, no_text = 0, cmyk = 0, inks_only = 0, overprint = 0;
  for (i = 1; i < argc; i++) {
    if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output-file") == 0) && i + 1 < argc) out = argv[++i];
    else if (strncmp(argv[i], "--output-file=", 14) == 0) out = argv[i] + 14;
    else if (strcmp(argv[i], "--dpi") == 0 && i + 1 < argc) dpi = argv[++i];
    else if (strncmp(argv[i], "--dpi=", 6) == 0) dpi = argv[i] + 6;
    else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) format = argv[++i];
    else if (strncmp(argv[i], "--format=", 9) == 0) format = argv[i] + 9;
    else if (strcmp(argv[i], "--no-text-layer") == 0) no_text = 1;
    else if (strcmp(argv[i], "--cmyk") == 0) cmyk = 1;
    else if (strcmp(argv[i], "--ink") == 0 && i + 1 < argc) { i++; specs[add_ink(inks, &ninks, argv[i])] = argv[i]; }
    else if (strncmp(argv[i], "--ink=", 6) == 0) specs[add_ink(inks, &ninks, argv[i] + 6)] = argv[i] + 6;
    else if (strcmp(argv[i], "--inks-only") == 0) inks_only = 1;
    else if (strcmp(argv[i], "--overprint") == 0) overprint = 1;
    else if (strcmp(argv[i], "--plates") == 0 && i + 1 < argc) plates = argv[++i];
    else if (strncmp(argv[i], "--plates=", 9) == 0) plates = argv[i] + 9;
    else die(EXIT_USAGE, "unexpected argument '%s' (usage: chromatype DOC.xml [-o OUT.pdf|OUT.png|-] "
             "[--dpi N] [--format pdf|png|svg] [--no-text-layer] [--cmyk] [--ink NAME=#RRGGBB[,...]]... "
             "[--inks-only] [--overprint] [--plates DIR] [-f FILTER] [--seed N])", argv[i]);
  }
  if (plates && !plates[0]) die(EXIT_USAGE, "--plates needs a directory");
  if (PARSE_ONLY) return 0;
  set_home(argv[0]);
  run_opts.output = out;
  run_opts.plates = plates;
  L = new_state();
  status = load_run(L, document_lua, sizeof document_lua - 1, "=document");
  if (status == LUA_OK) {
    lua_pushstring(L, argv[0]);
    if (out) lua_pushstring(L, out); else lua_pushnil(L);
    if (dpi) lua_pushstring(L, dpi); else lua_pushnil(L);
    if (format) lua_pushstring(L, format); else lua_pushnil(L);
    lua_pushboolean(L, no_text);
    lua_pushboolean(L, cmyk);
    lua_createtable(L, (int)ninks, 0);
    for (k = 0; k < ninks; k++) {
      lua_pushstring(L, specs[k]);
      lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_pushboolean(L, inks_only);
    lua_pushboolean(L, overprint);
    if (plates) lua_pushstring(L, plates); else lua_pushnil(L);
    status = lua_pcall(L, 10, 0, 0);
  }
  collect_inputs(L);
  if (status != LUA_OK) {
    report_error(L, argv[0]);
    lua_close(L);
    return 1;
  }
  lua_close(L);
  return 0;
}

/* ---- batch: one document per record, in worker processes --------------------- */

static const char usage_batch[] =
  "usage: chromatype batch TEMPLATE --data RECORDS -o PATTERN [OPTIONS]\n"
  "Renders TEMPLATE (an XML document with {field}s, or a Lua script that gets `record`) once\n"
  "per record of RECORDS (.csv with a header line, or .jsonl), to the file PATTERN names\n"
  "('out/{id}.pdf': fields of the record, {index} its number).  A failing record is reported\n"
  "and the batch goes on.  See docs/batch.md.\n"
  "\n"
  "  -d, --data FILE        the records (.csv, .jsonl or .ndjson; - reads CSV from stdin)\n"
  "  -o, --output PATTERN   the output file of each record (.pdf, .png or .svg)\n"
  "  -j, --jobs N           worker processes (default: the number of CPUs, at most 256)\n"
  "      --shard K/N        only the records whose number i has (i - 1) %% N == K - 1, for\n"
  "                         array jobs across machines (GNU parallel, Slurm, Kubernetes)\n"
  "      --resume           skip records whose output exists\n"
  "      --max-records N    refuse more records than N (default 1000000)\n"
  "      --dpi N            PNG resolution\n"
  "      --ink NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K], --inks-only, --overprint\n"
  "                         spot inks of XML templates, as for documents (no --plates)\n"
  "      --quiet            no progress display (failures and the summary still print)\n"
  "  -f FILTER, --seed N, --sandbox, --max-memory, --max-instructions, --timeout\n"
  "                         as for documents (chromatype --help)\n"
  "  -h, --help             this help\n"
  "\n"
  "Exit status: 0 every record done or skipped, 3 some records failed, 1 the batch could not\n"
  "run (template or records unreadable), 2 a usage error.\n";

#define EXIT_SOME_FAILED 3
#define MAX_JOBS 256

static const char batch_lua[] =
  "local template, data, output, k, n, w, j, resume, limit, dpi, inks, inks_only, overprint = ...\n"
  "local opts = { template = template, data = data, output = output, shard = { k, n },\n"
  "  worker = { w, j }, resume = resume, limit = limit, dpi = dpi,\n"
  "  inks = #inks > 0 and inks or nil, inks_only = inks_only or nil, overprint = overprint or nil,\n"
  "  seed = require('chromatype.filter').cli_seed }\n"
  "if not require('chromatype.batch').worker(opts) then os.exit(1) end\n";

typedef struct {
  const char *tmpl, *data, *output;
  long k, n, jobs, limit;
  double dpi;
  int resume, quiet;
  const char *ink_specs[CT_MAX_INKS];   /* --ink, as given (checked by add_ink) */
  ct_ink_t inks[CT_MAX_INKS];
  unsigned ninks;
  int inks_only, overprint;
} batch_opts_t;

/* A worker: its records to standard output (a pipe to the parent), as events. */
static int batch_worker(const batch_opts_t *bo, long w) {
  lua_State *L;
  int status;
  unsigned i;
  set_home(bo->tmpl);
  L = new_state();
  status = load_run(L, batch_lua, sizeof batch_lua - 1, "=batch");
  if (status == LUA_OK) {
    lua_pushstring(L, bo->tmpl);
    lua_pushstring(L, bo->data);
    lua_pushstring(L, bo->output);
    lua_pushinteger(L, bo->k);
    lua_pushinteger(L, bo->n);
    lua_pushinteger(L, w);
    lua_pushinteger(L, bo->jobs);
    lua_pushboolean(L, bo->resume);
    lua_pushinteger(L, bo->limit);
    if (bo->dpi > 0) lua_pushnumber(L, bo->dpi); else lua_pushnil(L);
    lua_createtable(L, (int)bo->ninks, 0);
    for (i = 0; i < bo->ninks; i++) {
      lua_pushstring(L, bo->ink_specs[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_pushboolean(L, bo->inks_only);
    lua_pushboolean(L, bo->overprint);
    status = lua_pcall(L, 13, 0, 0);
  }
  if (status != LUA_OK) {
    const char *limit = lct_limit_message();
    const char *msg = limit ? limit : lua_tostring(L, -1);
    printf("fatal\t%s\n", msg ? msg : "(error object is not a string)");
    fflush(stdout);
    lua_close(L);
    return 1;
  }
  lua_close(L);
  return 0;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
  long total, done, failed, skipped, totals, jobs;
  int fatal;                /* a worker could not run the batch at all */
  int tty, quiet;
  double t0, last_draw;
  long next_plain;          /* the count at which a plain progress line is due */
  char seen_warn[64][160];  /* warnings already shown (each once) */
  unsigned nwarn;
  long warn_more;
} batch_state_t;

static void batch_clear_line(batch_state_t *s) {
  if (s->tty && !s->quiet) fputs("\r\033[K", stderr);
}

static void batch_progress(batch_state_t *s, int force) {
  long n = s->done + s->failed + s->skipped;
  double t = now_seconds(), el = t - s->t0, rate = el > 0 ? (double)n / el : 0;
  if (s->quiet || (s->totals < s->jobs && !force)) return;
  if (s->tty) {
    char bar[31];
    int i, fill;
    if (!force && t - s->last_draw < 0.1) return;
    s->last_draw = t;
    fill = s->total > 0 ? (int)(30.0 * (double)n / (double)s->total) : 0;
    for (i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r\033[K[%s] %ld/%ld %3.0f%% %.1f/s", bar, n, s->total,
            s->total > 0 ? 100.0 * (double)n / (double)s->total : 0.0, rate);
    if (rate > 0 && n < s->total) fprintf(stderr, " ETA %.0fs", (double)(s->total - n) / rate);
    if (s->failed) fprintf(stderr, " (%ld failed)", s->failed);
  } else if (n >= s->next_plain && s->total > 0) {
    fprintf(stderr, "batch: %ld/%ld (%.0f%%), %.1f records/s\n", n, s->total, 100.0 * (double)n / (double)s->total, rate);
    s->next_plain = n + (s->total >= 10 ? s->total / 10 : 1);
  }
  fflush(stderr);
}

/* One event line from a worker. */
static void batch_event(batch_state_t *s, char *line, const batch_opts_t *bo) {
  char *f[4] = { NULL, NULL, NULL, NULL };
  int nf = 0;
  char *p = line;
  while (nf < 4) {
    f[nf++] = p;
    if (nf == 4) break;
    p = strchr(p, '\t');
    if (!p) break;
    *p++ = '\0';
  }
  if (strcmp(f[0], "total") == 0 && f[1]) {
    s->total += atol(f[1]);
    s->totals++;
  } else if (strcmp(f[0], "done") == 0) {
    s->done++;
  } else if (strcmp(f[0], "skipped") == 0) {
    s->skipped++;
  } else if (strcmp(f[0], "failed") == 0 && f[1]) {
    s->failed++;
    batch_clear_line(s);
    if (f[2] && strcmp(f[2], "-") != 0 && !(f[3] && strncmp(f[3], bo->data, strlen(bo->data)) == 0))
      fprintf(stderr, "%s: record %s (%s:%s): %s\n", progname, f[1], bo->data, f[2], f[3] ? f[3] : "");
    else
      fprintf(stderr, "%s: record %s: %s\n", progname, f[1], f[3] ? f[3] : "");
  } else if (strcmp(f[0], "warn") == 0 && f[2]) {
    unsigned i;
    char key[160];
    snprintf(key, sizeof key, "%s", f[2]);
    for (i = 0; i < s->nwarn && strcmp(s->seen_warn[i], key) != 0; i++) {}
    if (i < s->nwarn) return;
    if (s->nwarn < 64) {
      memcpy(s->seen_warn[s->nwarn++], key, sizeof key);
      batch_clear_line(s);
      fprintf(stderr, "%s: warning: record %s: %s\n", progname, f[1], f[2]);
    } else {
      s->warn_more++;
    }
  } else if (strcmp(f[0], "fatal") == 0 && f[1]) {
    batch_clear_line(s);
    fprintf(stderr, "%s: %s\n", progname, f[1]);
    s->fatal = 1;
    return;
  }
  batch_progress(s, 0);
}

static int cmd_batch(int argc, char **argv) {
  batch_opts_t bo;
  batch_state_t *s;
  int i, crashed = 0;
  pid_t pids[MAX_JOBS];
  int fds[MAX_JOBS];
  static struct { char data[16384]; size_t len; } bufs[MAX_JOBS];
  long w, open_count;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

  memset(&bo, 0, sizeof bo);
  bo.k = bo.n = 1;
  bo.jobs = ncpu > 0 ? (ncpu > MAX_JOBS ? MAX_JOBS : ncpu) : 1;
  bo.limit = 1000000;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    int k = i;
    if (take_run_option(argc, argv, &k)) { i = k; continue; }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { fputs(usage_batch, stdout); return 0; }
    if ((strcmp(a, "-d") == 0 || strcmp(a, "--data") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
         strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 || strcmp(a, "--shard") == 0 ||
         strcmp(a, "--max-records") == 0 || strcmp(a, "--dpi") == 0)) {
      const char *v;
      if (i + 1 >= argc) die(EXIT_USAGE, "batch: %s needs a value", a);
      v = argv[++i];
      if (a[1] == 'd' || strcmp(a, "--data") == 0) bo.data = v;
      else if (a[1] == 'o' || strcmp(a, "--output") == 0) bo.output = v;
      else if (a[1] == 'j' || strcmp(a, "--jobs") == 0) bo.jobs = parse_long("--jobs", v, 1, MAX_JOBS);
      else if (strcmp(a, "--max-records") == 0) bo.limit = parse_long("--max-records", v, 1, 100000000);
      else if (strcmp(a, "--dpi") == 0) {
        char *end;
        bo.dpi = strtod(v, &end);
        if (*end != '\0' || !(bo.dpi > 0) || bo.dpi > 9600) die(EXIT_USAGE, "batch: --dpi: expected 0 < dpi <= 9600, got '%s'", v);
      } else {
        char *slash = strchr(v, '/');
        if (!slash) die(EXIT_USAGE, "batch: --shard: expected K/N (1 <= K <= N), got '%s'", v);
        *slash = '\0';
        bo.k = parse_long("--shard K", v, 1, 1000000);
        bo.n = parse_long("--shard N", slash + 1, 1, 1000000);
        *slash = '/';
        if (bo.k > bo.n) die(EXIT_USAGE, "batch: --shard: K must be from 1 to N, got '%s'", v);
      }
    } else if (strcmp(a, "--ink") == 0 || strncmp(a, "--ink=", 6) == 0) {
      const char *v = a[5] == '=' ? a + 6 : NULL;
      if (!v) {
        if (i + 1 >= argc) die(EXIT_USAGE, "batch: --ink needs a value");
        v = argv[++i];
      }
      bo.ink_specs[add_ink(bo.inks, &bo.ninks, v)] = v;
    } else if (strcmp(a, "--inks-only") == 0) {
      bo.inks_only = 1;
    } else if (strcmp(a, "--overprint") == 0) {
      bo.overprint = 1;
    } else if (strcmp(a, "--resume") == 0) {
      bo.resume = 1;
    } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      bo.quiet = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      die(EXIT_USAGE, "batch: unknown option '%s' (see 'chromatype batch --help')", a);
    } else if (!bo.tmpl) {
      bo.tmpl = a;
    } else {
      die(EXIT_USAGE, "batch: unexpected argument '%s' (one template)", a);
    }
  }
  if (!bo.tmpl) die(EXIT_USAGE, "batch: a template is needed (chromatype batch TEMPLATE --data RECORDS -o PATTERN)");
  if (!bo.data) die(EXIT_USAGE, "batch: --data RECORDS is needed (.csv or .jsonl)");
  if (!bo.output) die(EXIT_USAGE, "batch: -o PATTERN is needed (e.g. 'out/{id}.pdf')");
  if (!strchr(bo.output, '{')) die(EXIT_USAGE, "batch: -o '%s' names no field: every record would write the same file (e.g. 'out/{index}.pdf')", bo.output);
  if (strcmp(bo.data, "-") == 0 && bo.jobs > 1) bo.jobs = 1;   /* standard input is read once */
  if (PARSE_ONLY) return 0;
  if (access(bo.tmpl, R_OK) != 0) die(1, "%s: cannot open: %s", bo.tmpl, strerror(errno));
  if (strcmp(bo.data, "-") != 0 && access(bo.data, R_OK) != 0) die(1, "%s: cannot open: %s", bo.data, strerror(errno));

  if (!(s = calloc(1, sizeof *s))) die(1, "out of memory");
  s->tty = isatty(2);
  s->quiet = bo.quiet;
  s->jobs = bo.jobs;
  s->next_plain = 1;
  s->t0 = now_seconds();
  fflush(stdout);
  fflush(stderr);
  for (w = 0; w < bo.jobs; w++) {
    int pfd[2];
    if (pipe(pfd) != 0) die(1, "batch: cannot make a pipe: %s", strerror(errno));
    pids[w] = fork();
    if (pids[w] < 0) die(1, "batch: cannot start a worker: %s", strerror(errno));
    if (pids[w] == 0) {
      long v;
      close(pfd[0]);
      for (v = 0; v < w; v++) close(fds[v]);
      if (dup2(pfd[1], 1) < 0) _exit(1);
      close(pfd[1]);
      _exit(batch_worker(&bo, w + 1));
    }
    close(pfd[1]);
    fds[w] = pfd[0];
    bufs[w].len = 0;
  }
  /* read the workers' events as they come, a line buffer per worker */
  open_count = bo.jobs;
  while (open_count > 0) {
    fd_set rd;
    int maxfd = -1;
    FD_ZERO(&rd);
    for (w = 0; w < bo.jobs; w++) {
      if (fds[w] >= 0) { FD_SET(fds[w], &rd); if (fds[w] > maxfd) maxfd = fds[w]; }
    }
    if (select(maxfd + 1, &rd, NULL, NULL, NULL) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (w = 0; w < bo.jobs; w++) {
      ssize_t got;
      char *nl, *start;
      if (fds[w] < 0 || !FD_ISSET(fds[w], &rd)) continue;
      if (bufs[w].len == sizeof bufs[w].data - 1) bufs[w].len = 0;   /* an absurd line: dropped */
      got = read(fds[w], bufs[w].data + bufs[w].len, sizeof bufs[w].data - 1 - bufs[w].len);
      if (got <= 0) {
        if (got < 0 && errno == EINTR) continue;
        close(fds[w]);
        fds[w] = -1;
        open_count--;
        continue;
      }
      bufs[w].len += (size_t)got;
      bufs[w].data[bufs[w].len] = '\0';
      start = bufs[w].data;
      while ((nl = strchr(start, '\n'))) {
        *nl = '\0';
        batch_event(s, start, &bo);
        start = nl + 1;
      }
      bufs[w].len -= (size_t)(start - bufs[w].data);
      memmove(bufs[w].data, start, bufs[w].len);
    }
  }
  for (w = 0; w < bo.jobs; w++) {
    int st = 0;
    if (waitpid(pids[w], &st, 0) > 0 && (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && !s->fatal))) crashed = 1;
  }
  batch_progress(s, 1);
  batch_clear_line(s);
  {
    double el = now_seconds() - s->t0;
    long n = s->done + s->failed + s->skipped;
    if (s->warn_more) fprintf(stderr, "%s: %ld more different warnings not shown\n", progname, s->warn_more);
    if (!s->fatal)
      fprintf(stderr, "%s: batch: %ld done, %ld failed, %ld skipped of %ld in %.1f s (%.1f records/s, %ld worker%s%s)\n",
              progname, s->done, s->failed, s->skipped, s->total, el, el > 0 ? (double)n / el : 0.0, bo.jobs,
              bo.jobs == 1 ? "" : "s", bo.n > 1 ? ", one shard" : "");
    if (crashed && !s->fatal) fprintf(stderr, "%s: batch: a worker stopped unexpectedly\n", progname);
  }
  i = s->fatal ? 1 : (s->failed > 0 || crashed || s->done + s->skipped + s->failed < s->total) ? EXIT_SOME_FAILED : 0;
  free(s);
  return i;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_main, stderr);
    return EXIT_USAGE;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    fputs(usage_main, stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("chromatype %s\n", CT_VERSION_STRING);
    return 0;
  }
  {
    /* -f, --seed and --watch before a script or document */
    int i = 1;
    while (i < argc && take_run_option(argc, argv, &i)) i++;
    if (i > 1) {
      if (i >= argc) die(EXIT_USAGE, "a script or document must follow the options (see 'chromatype --help')");
      argv += i - 1;
      argc -= i - 1;
    }
  }
  if (strcmp(argv[1], "view") == 0) return cmd_view(argc - 1, argv + 1);
  if (strcmp(argv[1], "info") == 0) return cmd_info(argc - 1, argv + 1);
  if (strcmp(argv[1], "paint") == 0) return cmd_paint(argc - 1, argv + 1);
  if (strcmp(argv[1], "batch") == 0) return cmd_batch(argc - 1, argv + 1);
  if (is_document(argv[1])) {
    /* run options may also follow the document: take them out of its own options */
    int i, j = 2;
    for (i = 2; i < argc; i++) {
      int k = i;
      if (take_run_option(argc, argv, &k)) { i = k; continue; }
      argv[j++] = argv[i];
    }
    argc = j;
    argv[argc] = NULL;
    if (!run_opts.watch) return cmd_document(argc - 1, argv + 1);
    if (strcmp(argv[1], "-") == 0) die(EXIT_USAGE, "--watch needs a document file, not standard input");
    return watch(cmd_document, argc - 1, argv + 1, argv[1]);
  }
  if (argv[1][0] == '-') die(EXIT_USAGE, "unknown option '%s' (see 'chromatype --help')", argv[1]);
  if (!run_opts.watch) return cmd_script(argc - 1, argv + 1);
  return watch(cmd_script, argc - 1, argv + 1, argv[1]);
}
