/*
** document.c: `chromatype DOC.xml [-o OUT]`: an XML document rendered to PDF, PNG or SVG
** through chromatype.document.
*/
#include <string.h>

#include <lauxlib.h>

#include "cli.h"

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

int cmd_document(int argc, char **argv) {
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
  cli_run_opts.output = out;
  cli_run_opts.plates = plates;
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
