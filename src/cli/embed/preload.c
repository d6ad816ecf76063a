/*
** preload.c: makes the embedded Lua library requirable in a Lua state: package.preload gets
** chromatype.core (the C bindings) and every module of lua/chromatype/ compiled into the
** executable (embedded.h).  Used by the command line and the XML fuzz target.
*/
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "embedded.h"
#include "lua/l_core.h"
#include "preload.h"

/* Each module compiled once per process: the first state that loads it keeps its bytecode
   (with its line numbers) here, and later states (a batch worker makes one per record) load
   that instead of parsing the text again.  Only this file's own dumps are ever loaded as
   binary; scripts' chunks stay text only. */
typedef struct { unsigned char *code; size_t len, cap; } dump_t;
static dump_t *dumps;

static int dump_writer(lua_State *L, const void *p, size_t n, void *ud) {
  dump_t *d = ud;
  (void)L;
  if (n > d->cap - d->len) {
    size_t cap = d->cap ? d->cap : 4096;
    unsigned char *grown;
    while (n > cap - d->len) cap *= 2;
    if (!(grown = realloc(d->code, cap))) return 1;
    d->code = grown;
    d->cap = cap;
  }
  memcpy(d->code + d->len, p, n);
  d->len += n;
  return 0;
}

/* The chunk of module e on the stack, or an error; the status. */
static int load_module(lua_State *L, const ct_embedded_t *e) {
  dump_t *d = dumps ? &dumps[e - ct_embedded_lua] : NULL;
  int status;
  if (d && d->code && d->len == d->cap) return luaL_loadbufferx(L, (const char *)d->code, d->len, e->chunkname, "b");
  status = luaL_loadbufferx(L, e->source, e->size, e->chunkname, "t");
  if (status == LUA_OK && d && !d->code) {
    if (lua_dump(L, dump_writer, d, 0) != 0 || !d->code) {
      free(d->code);
      memset(d, 0, sizeof *d);
    } else {
      unsigned char *fit = realloc(d->code, d->len);
      if (fit) d->code = fit;
      d->cap = d->len;    /* complete: len == cap marks a dump that can be loaded */
    }
  }
  return status;
}

static int embedded_loader(lua_State *L) {
  const ct_embedded_t *e = lua_touserdata(L, lua_upvalueindex(1));
  if (load_module(L, e) != LUA_OK) return lua_error(L);
  lua_pushstring(L, e->module);
  lua_call(L, 1, 1);
  return 1;
}

void ct_preload_library(lua_State *L) {
  const ct_embedded_t *e;
  if (!dumps) {
    size_t n = 0;
    while (ct_embedded_lua[n].module) n++;
    dumps = calloc(n, sizeof *dumps);    /* NULL: modules are parsed every time */
  }
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
