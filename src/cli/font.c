/*
** font.c: `chromatype font SOURCE -o OUT.ttf`: a color font made from a stack (given with
** --layer, or defined by an XML document or a Lua script), from a font with new palettes, or
** with filters baked in, or from artwork: SVG drawings, one per glyph (--svg;
** chromatype.fontmake and chromatype.fontmake.artwork; docs/fonts.md).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "cli.h"

static const char usage_font[] =
  "Usage: chromatype font SOURCE -o OUT.ttf|OUT.woff2 [options]\n"
  "       chromatype font --layer FONT=COLOR --layer FONT=COLOR... [--lead N] -o OUT [options]\n"
  "       chromatype font --svg DIR|FILE [FILE...] -o OUT [artwork options]\n"
  "Writes a color font (COLR/CPAL, OT-SVG) from what chromatype draws.\n"
  "SOURCE: a font (new palettes, filters baked in, another color format), an XML document\n"
  "that defines a <stack>, or a Lua script that returns a stack (ct.stack{...}).\n"
  "Artwork: SVG drawings, one glyph each, the characters from the file names (emoji_u1f600.svg,\n"
  "1f468-200d-1f469.svg, u1F600.svg, U+1F600.svg, uni0041.svg, A.svg; other names: glyphs\n"
  "without a character) or from --map; sequences (ZWJ, keycaps, flags) become ligatures.\n"
  "  --svg DIR|FILE [FILE...]   the drawings: a folder's .svg files, or files (what follows\n"
  "                             --svg without a dash is more artwork)\n"
  "  --map FILE                 which characters each file draws: CSV (file,characters,glyph name)\n"
  "                             or JSON ({\"f.svg\": \"U+1F600 U+FE0F\"} or {\"f.svg\": {\"chars\":, \"name\":}})\n"
  "  --upem N                   units per em, 16..16384 (default 1024)\n"
  "  --ascent N                 the ascent in font units (default 0.8 em)\n"
  "  --descent N                the descent below the baseline, font units: -205 and 205 both\n"
  "                             mean 205 below (default 0.2 em)\n"
  "  --advance N                every glyph's advance (default: each drawing's width)\n"
  "  --keep-going               skip a drawing that cannot be read (a warning), write the rest\n"
  "  --flatten-gradients        gradients become their mean color (COLRv0 holds no gradient)\n"
  "  -o, --output-file OUT      the font: .ttf/.otf, or .woff2\n"
  "  --layer FONT[=COLOR]       a stack layer, bottom first (repeatable); COLOR its color\n"
  "  --lead N                   the layer whose font leads (metrics, glyph ids, layout; default 1)\n"
  "  --stack NAME               which <stack> of an XML document\n"
  "  --palette 'NAME:IDX=#RRGGBBAA,...'  an extra palette over palette 0 (repeatable);\n"
  "                             IDX an entry number, or the #RRGGBB of palette 0 it replaces\n"
  "  --palette-type light|dark  the type of the extra palettes\n"
  "  --label 'IDX=TEXT'         the label of palette entry IDX (repeatable)\n"
  "  -f, --filter FILTER[:opts] a filter to bake into every glyph (repeatable)\n"
  "  --format colr0,colr1,svg   the color formats (default: COLRv0 if every glyph fits, else COLRv1)\n"
  "  --text TEXT                keep only the glyphs TEXT needs\n"
  "  --family NAME              the family name (default: the lead's + \" Chromatic\" or \" Color\")\n"
  "  --variations 'TAG=V,...'   instance the lead (and layer) fonts that have these axes\n"
  "  --seed N                   the seed the filters see\n"
  "  --randomize N              bake N more variants of each glyph, the filters drawing from a\n"
  "                             random stream (misregistration, alternates...): GSUB calt cycles a\n"
  "                             run through them, so repeated letters differ; rand offers them\n"
  "  --specimen OUT.html        also a specimen page of the font (every palette, a slider per\n"
  "                             axis, the axes animated; the font inside the page)\n"
  "Effects as axes: a filter option LO..HI@TAG varies along the axis TAG (a variable COLRv1 font):\n"
  "  --axis 'TAG=MIN:DEFAULT:MAX[,name=NAME]'  an axis (repeatable; TAG=MIN:MAX: the default is MIN)\n"
  "  --masters N                the filters are baked at N points an axis, its ends included\n"
  "                             (default 2; more where the effect is not linear)\n"
  "  e.g. -f 'shadow:steps=8,offset=0.02em..0.12em@EXTR' --axis 'EXTR=0:0:100,name=Extrusion'\n"
  "See docs/fonts.md.\n";

#define MAX_SPECS 64

/* Runs fontmake.cli with the options; the -f filters are the run's (chromatype.filter's
   defaults, loaded by setup_run), baked in rather than run. */
static const char font_lua[] =
  "local t = ...\n"
  "t.filters = require('chromatype.filter').defaults\n"
  "t.seed = require('chromatype.filter').cli_seed\n"
  "local ok, err = require('chromatype.fontmake').cli(t)\n"
  "if not ok then error(err, 0) end\n";

static void push_list(lua_State *L, const char *const *v, unsigned n, const char *field) {
  unsigned k;
  lua_createtable(L, (int)n, 0);
  for (k = 0; k < n; k++) {
    lua_pushstring(L, v[k]);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  lua_setfield(L, -2, field);
}

static void set_str(lua_State *L, const char *field, const char *v) {
  if (!v) return;
  lua_pushstring(L, v);
  lua_setfield(L, -2, field);
}

static void add_spec(const char *what, const char *v, const char *list[], unsigned *n) {
  if (*n >= MAX_SPECS) die(EXIT_USAGE, "too many %s options (at most %d)", what, MAX_SPECS);
  if (!v[0]) die(EXIT_USAGE, "%s needs a value", what);
  list[(*n)++] = v;
}

/* The artwork options (--svg and what goes with it). */
typedef struct {
  const char **svg;
  unsigned     nsvg;
  const char  *map;
  int          in_svg, keep_going, flatten, have_ascent, have_descent;
  long         upem;
  double       ascent, descent, advance;
} art_opts_t;

/* Takes an artwork option at argv[o->i]; 1 if it was one. */
static int take_art_option(opts_t *o, const char *a, art_opts_t *t) {
  if (opt_is(o, a, "--svg", 1)) {
    if (!o->value[0]) die(EXIT_USAGE, "--svg needs a folder or a file");
    t->svg[t->nsvg++] = o->value;
    t->in_svg = 1;
  } else if (opt_is(o, a, "--map", 1)) {
    t->map = o->value;
  } else if (opt_is(o, a, "--upem", 1)) {
    t->upem = parse_long("--upem", o->value, 16, 16384);
  } else if (opt_is(o, a, "--ascent", 1)) {
    t->ascent = parse_double("--ascent", o->value, -32767, 32767);
    t->have_ascent = 1;
  } else if (opt_is(o, a, "--descent", 1)) {
    t->descent = parse_double("--descent", o->value, -32767, 32767);
    if (t->descent > 0) t->descent = -t->descent;   /* below the baseline either way */
    t->have_descent = 1;
  } else if (opt_is(o, a, "--advance", 1)) {
    t->advance = parse_double("--advance", o->value, 1, 65535);
  } else if (opt_is(o, a, "--keep-going", 0)) {
    t->keep_going = 1;
  } else if (opt_is(o, a, "--flatten-gradients", 0)) {
    t->flatten = 1;
  } else {
    return 0;
  }
  return 1;
}

static void set_num(lua_State *L, const char *field, int have, double v) {
  if (!have) return;
  lua_pushnumber(L, v);
  lua_setfield(L, -2, field);
}

/* The artwork options into the table on top.  [-0, +0] */
static void push_art(lua_State *L, const art_opts_t *t) {
  if (!t->nsvg) return;
  push_list(L, t->svg, t->nsvg, "svg");
  set_str(L, "map", t->map);
  if (t->upem) {
    lua_pushinteger(L, t->upem);
    lua_setfield(L, -2, "upem");
  }
  set_num(L, "ascent", t->have_ascent, t->ascent);
  set_num(L, "descent", t->have_descent, t->descent);
  set_num(L, "advance", t->advance > 0, t->advance);
  lua_pushboolean(L, t->keep_going);
  lua_setfield(L, -2, "keep_going");
  lua_pushboolean(L, t->flatten);
  lua_setfield(L, -2, "flatten_gradients");
}

/* The options of fonts that vary (--axis, --masters, --randomize) and the specimen page. */
typedef struct {
  const char *axes[MAX_SPECS], *specimen;
  unsigned    naxes;
  long        masters, randomize;
} vary_opts_t;

/* Takes one of those at argv[o->i]; 1 if it was one. */
static int take_vary_option(opts_t *o, const char *a, vary_opts_t *v) {
  if (opt_is(o, a, "--specimen", 1)) {
    if (!o->value[0]) die(EXIT_USAGE, "--specimen needs an HTML file");
    v->specimen = o->value;
  } else if (opt_is(o, a, "--axis", 1)) {
    add_spec("--axis", o->value, v->axes, &v->naxes);
  } else if (opt_is(o, a, "--randomize", 1)) {
    v->randomize = parse_long("--randomize", o->value, 1, 64);
  } else if (opt_is(o, a, "--masters", 1)) {
    v->masters = parse_long("--masters", o->value, 2, 17);
  } else {
    return 0;
  }
  return 1;
}

static void set_int(lua_State *L, const char *field, long v) {
  if (!v) return;
  lua_pushinteger(L, v);
  lua_setfield(L, -2, field);
}

int cmd_font(int argc, char **argv) {
  opts_t o = { argc, 1, argv, usage_font, NULL };
  const char *source = NULL, *out = NULL, *stack = NULL, *type = NULL, *formats = NULL, *text = NULL;
  const char *family = NULL, *variations = NULL;
  art_opts_t art;
  vary_opts_t vary;
  const char *layers[MAX_SPECS], *palettes[MAX_SPECS], *labels[MAX_SPECS];
  unsigned nlayers = 0, npalettes = 0, nlabels = 0;
  long lead = 0;
  lua_State *L;
  int status;

  memset(&art, 0, sizeof art);
  memset(&vary, 0, sizeof vary);
  art.svg = (const char **)calloc((size_t)argc + 1, sizeof *art.svg);
  if (!art.svg) die(1, "out of memory");
  TRACK(NULL, art.svg);   /* die() leaves without freeing it */
  for (o.i = 1; o.i < argc; o.i++) {
    const char *a = argv[o.i];
    if (a[0] != '-' || !a[1]) {
      if (art.in_svg) {
        art.svg[art.nsvg++] = a;
        continue;
      }
    } else {
      art.in_svg = 0;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_font, stdout);
      TRACK(art.svg, NULL);
      free(art.svg);
      return 0;
    } else if (opt_is(&o, a, "-o", 1) || opt_is(&o, a, "--output-file", 1)) {
      out = o.value;
    } else if (opt_is(&o, a, "--layer", 1)) {
      add_spec("--layer", o.value, layers, &nlayers);
    } else if (opt_is(&o, a, "--lead", 1)) {
      lead = parse_long("--lead", o.value, 1, MAX_SPECS);
    } else if (opt_is(&o, a, "--stack", 1)) {
      stack = o.value;
    } else if (opt_is(&o, a, "--palette", 1)) {
      add_spec("--palette", o.value, palettes, &npalettes);
    } else if (opt_is(&o, a, "--label", 1)) {
      add_spec("--label", o.value, labels, &nlabels);
    } else if (opt_is(&o, a, "--palette-type", 1)) {
      if (strcmp(o.value, "light") != 0 && strcmp(o.value, "dark") != 0)
        die(EXIT_USAGE, "--palette-type: expected light or dark, got '%s'", o.value);
      type = o.value;
    } else if (opt_is(&o, a, "--format", 1)) {
      /* checked here: a usage error, not a failure of the run */
      const char *p = o.value;
      while (*p) {
        size_t n = strcspn(p, ",");
        if (!((n == 5 && (strncmp(p, "colr0", 5) == 0 || strncmp(p, "colr1", 5) == 0)) ||
              (n == 3 && strncmp(p, "svg", 3) == 0)))
          die(EXIT_USAGE, "--format: unknown format '%.*s' (expected colr0, colr1, svg, separated by commas)",
              (int)n, p);
        p += n + (p[n] == ',');
      }
      formats = o.value;
    } else if (opt_is(&o, a, "--text", 1)) {
      text = o.value;
    } else if (opt_is(&o, a, "--family", 1)) {
      family = o.value;
    } else if (opt_is(&o, a, "--variations", 1)) {
      variations = o.value;
    } else if (take_vary_option(&o, a, &vary)) {
      /* --axis, --masters, --randomize, --specimen */
    } else if (take_art_option(&o, a, &art)) {
      /* --svg and its options */
    } else if (take_run_option(argc, argv, &o.i)) {
      /* -f, --seed, --sandbox and the limits: the run's */
    } else if (a[0] == '-' && a[1]) {
      die(EXIT_USAGE, "font: unknown option '%s' (see 'chromatype font --help')", a);
    } else if (!source) {
      source = a;
    } else {
      die(EXIT_USAGE, "font: one SOURCE expected, got '%s' and '%s'", source, a);
    }
  }
  if (!out) die(EXIT_USAGE, "font: -o OUT.ttf is required (see 'chromatype font --help')");
  if (art.nsvg && (source || nlayers || stack || cli_run_opts.nfilters))
    die(EXIT_USAGE, "font: --svg goes alone: no SOURCE, --layer, --stack or --filter with it");
  if (!art.nsvg && (art.map || art.upem || art.have_ascent || art.have_descent || art.advance > 0 ||
                    art.keep_going || art.flatten))
    die(EXIT_USAGE, "font: --map, --upem, --ascent, --descent, --advance, --keep-going and --flatten-gradients go with --svg");
  if (art.nsvg && (npalettes || nlabels || type || variations || vary.naxes || vary.masters || vary.specimen ||
                   vary.randomize))
    die(EXIT_USAGE, "font: --palette, --label, --palette-type, --variations, --axis, --masters, --randomize and --specimen do not go with --svg");
  if (art.have_ascent && art.have_descent && !(art.ascent > art.descent))
    die(EXIT_USAGE, "font: --ascent must be above --descent");
  if (cli_run_opts.watch) die(EXIT_USAGE, "font: --watch is for scripts and documents");
  if (PARSE_ONLY || !art.nsvg) {
    TRACK(art.svg, NULL);
    free(art.svg);
    art.svg = NULL;
  }
  if (PARSE_ONLY) return 0;

  set_home(source ? source : art.nsvg ? art.svg[0] : out);
  cli_run_opts.output = out;
  if (!(L = new_state(&status))) {
    if (art.svg) {
      TRACK(art.svg, NULL);
      free(art.svg);
    }
    return status;
  }
  status = load_run(L, font_lua, sizeof font_lua - 1, "=font");
  if (status == LUA_OK) {
    lua_createtable(L, 0, 16);
    set_str(L, "source", source);
    set_str(L, "output", out);
    set_str(L, "stack", stack);
    set_str(L, "palette_type", type);
    set_str(L, "formats", formats);
    set_str(L, "text", text);
    set_str(L, "family", family);
    set_str(L, "variations", variations);
    set_str(L, "specimen", vary.specimen);
    if (lead) {
      lua_pushinteger(L, lead);
      lua_setfield(L, -2, "lead");
    }
    push_list(L, layers, nlayers, "layers");
    push_list(L, palettes, npalettes, "palettes");
    push_list(L, labels, nlabels, "labels");
    push_list(L, vary.axes, vary.naxes, "axes");
    set_int(L, "masters", vary.masters);
    set_int(L, "randomize", vary.randomize);
    push_art(L, &art);
    status = lua_pcall(L, 1, 0, 0);
  }
  collect_inputs(L);
  if (art.svg) {
    TRACK(art.svg, NULL);
    free(art.svg);
  }
  if (status != LUA_OK) {
    report_error(L, "font");
    lua_close(L);
    return 1;
  }
  lua_close(L);
  return 0;
}
