/*
** document.c: `chromatype DOC.xml [-o OUT]`: an XML document rendered to PDF, PNG or SVG,
** or to an animation (APNG, WebP, PNG frames), through chromatype.document.
*/
#include <string.h>

#include <lauxlib.h>

#include "cli.h"

/* Reads the document (stdin for "-"), renders it to -o (default: DOC with .pdf; stdout
   for "-"); errors print one line. */
static const char document_lua[] =
  "local path, out, dpi, format, no_text, cmyk, inks, inks_only, overprint, plates, fps, duration, at, loop, anim = ...\n"
  "local opts = { format = format, cmyk = cmyk or nil,\n"
  "  inks = #inks > 0 and inks or nil, inks_only = inks_only or nil, overprint = overprint or nil,\n"
  "  plates = plates, duration = duration, at = at, quality = anim.quality, effort = anim.effort,\n"
  "  dither = anim.dither, matte = anim.matte, workers = anim.workers, poster = anim.poster }\n"
  "if no_text then opts.text_layer = false end\n"
  "local function num(name, v)\n"
  "  if v == nil then return nil end\n"
  "  return tonumber(v) or error(name .. ': expected a number, got \\'' .. v .. '\\'', 0)\n"
  "end\n"
  "opts.dpi, opts.fps, opts.loop = num('--dpi', dpi), num('--fps', fps), num('--loop', loop)\n"
  "if not out then out = path == '-' and '-' or path:gsub('%.xml$', '') .. '.pdf' end\n"
  "local D, ok, err, _ = require('chromatype.document'), nil, nil, nil\n"
  "if path == '-' then\n"
  "  _, ok, err = D.render(io.stdin:read('a'), '<stdin>', out, opts)\n"
  "else\n"
  "  _, ok, err = D.render_file(path, out, opts)   -- read as it goes\n"
  "end\n"
  "if not ok then error(err, 0) end\n";

static const char usage_document[] =
  "chromatype DOC.xml [-o OUT.pdf|OUT.png|-] [--dpi N] [--format pdf|png|svg] [--no-text-layer] [--cmyk] "
  "[--ink NAME=#RRGGBB[,...]]... [--inks-only] [--overprint] [--plates DIR] [-f FILTER] [--seed N] "
  "[--at SECONDS]; animated: -o OUT.apng|OUT.webp|OUT.gif|OUT.mp4|OUT-%04d.png [--fps N] [--duration SECONDS] "
  "[--loop N] [--quality Q] [--effort N] [--dither] [--matte COLOR] [--poster N] [--jobs N]";

int cmd_document(int argc, char **argv) {
  opts_t o = { argc, 1, argv, usage_document, NULL };
  lua_State *L;
  const char *out = NULL, *dpi = NULL, *format = NULL, *plates = NULL;
  const char *fps = NULL, *duration = NULL, *at = NULL, *loop = NULL;
  const char *specs[CT_MAX_INKS];   /* --ink, as given (checked by add_ink) */
  ct_ink_t inks[CT_MAX_INKS];
  unsigned ninks = 0, k;
  anim_opts_t anim;
  int status, no_text = 0, cmyk = 0, inks_only = 0, overprint = 0;
  anim_opts_init(&anim);
  for (o.i = 1; o.i < argc; o.i++) {
    const char *a = argv[o.i];
    if (opt_is(&o, a, "-o", 1) || opt_is(&o, a, "--output-file", 1)) out = o.value;
    else if (opt_is(&o, a, "--dpi", 1)) dpi = o.value;
    else if (opt_is(&o, a, "--format", 1)) format = o.value;
    else if (opt_is(&o, a, "--no-text-layer", 0)) no_text = 1;
    else if (opt_is(&o, a, "--cmyk", 0)) cmyk = 1;
    else if (opt_is(&o, a, "--ink", 1)) specs[add_ink(inks, &ninks, o.value)] = o.value;
    else if (opt_is(&o, a, "--inks-only", 0)) inks_only = 1;
    else if (opt_is(&o, a, "--overprint", 0)) overprint = 1;
    else if (opt_is(&o, a, "--plates", 1)) plates = o.value;
    else if (opt_is(&o, a, "--fps", 1)) fps = o.value;
    else if (opt_is(&o, a, "--duration", 1)) duration = o.value;
    else if (opt_is(&o, a, "--at", 1)) at = o.value;
    else if (opt_is(&o, a, "--loop", 1)) loop = o.value;
    else if (take_anim_option(&o, a, &anim)) {
      /* the animation writer's options, as view takes them */
    } else die(EXIT_USAGE, "unexpected argument '%s' (usage: %s)", a, usage_document);
  }
  if (anim.nspecs || anim.frames >= 0 || anim.ease)
    die(EXIT_USAGE, "a document says what moves with <animate> elements: --animate, --frames and --ease are "
        "for `chromatype view`");
  if (plates && !plates[0]) die(EXIT_USAGE, "--plates needs a directory");
  if (PARSE_ONLY) return 0;
  set_home(argv[0]);
  cli_run_opts.output = out;
  cli_run_opts.plates = plates;
  if (!(L = new_state(&status))) return status;
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
    if (fps) lua_pushstring(L, fps); else lua_pushnil(L);
    if (duration) lua_pushstring(L, duration); else lua_pushnil(L);
    if (at) lua_pushstring(L, at); else lua_pushnil(L);
    if (loop) lua_pushstring(L, loop); else lua_pushnil(L);
    lua_newtable(L);
    push_anim_opts(L, &anim);
    status = lua_pcall(L, 15, 0, 0);
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
