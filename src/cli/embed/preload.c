/*
** preload.c: makes the embedded Lua library requirable in a Lua state: package.preload gets
** chromatype.core (the C bindings) and every module of lua/chromatype/ compiled into the
** executable (embedded.h).  Used by the command line and the XML fuzz target.
*/
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "embedded.h"
#include "lua/l_core.h"
#include "preload.h"

static int embedded_loader(lua_State *L) {
  const ct_embedded_t *e = lua_touserdata(L, lua_upvalueindex(1));
  if (luaL_loadbuffer(L, e->source, e->size, e->chunkname) != LUA_OK) return lua_error(L);
  lua_pushstring(L, e->module);
  lua_call(L, 1, 1);
  return 1;
}

void ct_preload_library(lua_State *L) {
  const ct_embedded_t *e;
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_chromatype_core);
  lua_setfield(L, -2, "chromatype.core");
  for (e = ct_embedded_lua; e->module; e++) {
    size_t n = strlen(e->module);
    lua_pushlightuserdata(L, (void *)(size_t)e);
    lua_pushcclosure(L, embedded_loader, 1);
    if (n > 5 && strcmp(e->module + n - 5, ".init") == 0) lua_pushlstring(L, e->module, n - 5);
    else lua_pushstring(L, e->module);
    lua_insert(L, -2);
    lua_settable(L, -3);
  }
  lua_pop(L, 1);
}
