/*
** fuzz_xml.c: XML documents.  The input is parsed by chromatype.document.from_xml (libxml2
** without network, DTDs or entities, then the document vocabulary), typeset, drawn and
** rasterized at 18 dpi; errors are expected, crashes and leaks are not.  One Lua state is
** made on the first input (the embedded library, as the command line has it) and kept, with
** a memory limit and an instruction limit so a hostile document cannot hang the fuzzer.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lua/l_limits.h"
#include "cli/embed/preload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char run_lua[] =
  "local xml = ...\n"
  "local ct = require 'chromatype'\n"
  "ct.on_warning(false)\n"
  "local document = require 'chromatype.document'\n"
  "local debug = os.getenv('FUZZ_DEBUG')\n"
  "local ok, doc = pcall(document.from_xml, xml, 'fuzz.xml')\n"
  "if not ok then if debug then print(doc) end return end\n"
  "local ok2, c = pcall(doc.render, doc)\n"
  "if debug then print(ok2, c) end\n"
  "if ok2 and c then local ok3, w = pcall(c.rasterize, c, { dpi = 18 }); if debug then print(ok3, w) end end\n";

static lua_State *state(void) {
  static lua_State *L;
  lct_limits_t lim;
  if (L) return L;
  memset(&lim, 0, sizeof lim);
  lim.max_memory = (size_t)256 << 20;
  L = lct_newstate(&lim);
  if (!L) abort();
  luaL_openlibs(L);
  ct_preload_library(L);
  return L;
}

static void budget(lua_State *L, lua_Debug *ar) {
  (void)ar;
  luaL_error(L, "instruction budget of the fuzz input spent");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lua_State *L = state();
  if (size > 65536) return 0;
  lua_sethook(L, budget, LUA_MASKCOUNT, 20000000);   /* a document's work, at most */
  if (luaL_loadbuffer(L, run_lua, sizeof run_lua - 1, "=fuzz") == LUA_OK) {
    lua_pushlstring(L, (const char *)data, size);
    (void)lua_pcall(L, 1, 0, 0);
  }
  lua_settop(L, 0);
  lua_sethook(L, NULL, 0, 0);
  lua_gc(L, LUA_GCCOLLECT);
  return 0;
}
