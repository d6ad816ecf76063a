/*
** l_sandbox.c: the Lua of a sandboxed run.  The whole state is the sandbox: it is made
** without io, os (but clock, time, date, difftime), debug and package, without dofile and
** loadfile, with a load that takes text only and a require that gives chromatype's own
** modules and Lua files below the working directory or the script's folder, read through
** the rules of fs.c.  The library, the command line's code, every filter and template run
** in this one world, so there is no host to reach and nothing shared to change: what a
** script alters, it alters for itself.  Bindings layer.
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "l_aux.h"
#include "l_sandbox.h"
#include "base/ct-limits.h"

#define DIRS_KEY "chromatype.sandbox_dirs"

/* load(chunk [, name [, mode [, env]]]): the base library's load, never binary. */
static int sb_load(lua_State *L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));        /* the real load */
  lua_pushvalue(L, 1);
  if (n >= 2) lua_pushvalue(L, 2); else lua_pushnil(L);
  lua_pushliteral(L, "t");
  if (n >= 4) {
    lua_pushvalue(L, 4);
    lua_call(L, 4, LUA_MULTRET);
  } else {
    lua_call(L, 3, LUA_MULTRET);
  }
  return lua_gettop(L) - n;
}

/* Loads DIR + REL + SUFFIX if the file exists: pushes its chunk and its path and returns 1,
   or pushes nothing and returns 0.  Raises on a file refused or a syntax error. */
static int try_module(lua_State *L, const char *dir, const char *rel, const char *suffix) {
  ct_error_t err;
  size_t len;
  unsigned char *text;
  const char *path = lua_pushfstring(L, "%s%s%s", dir, rel, suffix);
  int fd = ct_fs_open_read(path, &err), status;
  if (fd < 0) {
    /* a refusal says so, and so does a name that is there but no regular file (a FIFO) */
    if (err.status == CT_ERR_DENIED || ct_fs_exists(path)) return lct_raise(L, &err);
    lua_pop(L, 1);
    return 0;
  }
  close(fd);
  if (!(text = ct_fs_read_all(path, CT_MAX_TEXT_FILE_SIZE, &len, &err))) return lct_raise(L, &err);
  lua_pushfstring(L, "@%s", path);
  status = luaL_loadbufferx(L, (const char *)text, len, lua_tostring(L, -1), "t");
  free(text);
  if (status != LUA_OK) return lua_error(L);
  lua_remove(L, -2);     /* the chunk name */
  lua_insert(L, -2);     /* chunk, path */
  return 1;
}

/* require(name): a loaded module, a chromatype module, or NAME.lua / NAME/init.lua (dots
   as folders) below the working directory or the script's folder. */
static int sb_require(lua_State *L) {
  size_t i, n;
  const char *name = luaL_checklstring(L, 1, &n);
  luaL_Buffer rel;
  const char *relpath;
  lua_settop(L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);   /* 2 */
  if (lua_getfield(L, 2, name) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);  /* 3 */
  if (lua_getfield(L, 3, name) != LUA_TNIL) {                /* chromatype's own */
    lua_pushvalue(L, 1);
    lua_pushliteral(L, ":preload:");
    lua_call(L, 2, 1);
  } else {
    int found = 0;
    lua_pop(L, 1);
    if (n == 0 || strlen(name) != n || name[0] == '.' || name[n - 1] == '.' || strstr(name, "..") ||
        strchr(name, '/') || strchr(name, '\\'))
      return luaL_error(L, "sandbox: require '%s': a module is named NAME or NAME.PART", name);
    luaL_buffinit(L, &rel);
    for (i = 0; i < n; i++) luaL_addchar(&rel, name[i] == '.' ? '/' : name[i]);
    luaL_pushresult(&rel);                                    /* 4: a/b */
    relpath = lua_tostring(L, 4);
    lua_getfield(L, LUA_REGISTRYINDEX, DIRS_KEY);             /* 5: {"", "/script/dir/"} */
    for (i = 1; !found && lua_rawgeti(L, 5, (lua_Integer)i) == LUA_TSTRING; i++) {
      const char *dir = lua_tostring(L, -1);
      lua_pop(L, 1);   /* the table keeps it */
      found = try_module(L, dir, relpath, ".lua") || try_module(L, dir, relpath, "/init.lua");
    }
    if (!found)
      return luaL_error(L, "module '%s' not found (a sandboxed run has chromatype's modules and %s.lua or %s/init.lua "
                        "below the working directory or the script's folder)", name, relpath, relpath);
    lua_pushvalue(L, 1);   /* chunk(name, path), as package's searchers call it */
    lua_insert(L, -2);
    lua_call(L, 2, 1);
  }
  if (!lua_isnil(L, -1)) lua_setfield(L, 2, name);
  else lua_pop(L, 1);
  if (lua_getfield(L, 2, name) == LUA_TNIL) {                 /* a module that returned nothing */
    lua_pushboolean(L, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, 2, name);
  }
  return 1;
}

/* Opens `name` with `open`, as a global, in the registry's loaded table.  [-0, +0] */
static void open_lib(lua_State *L, const char *name, lua_CFunction open) {
  luaL_requiref(L, name, open, 1);
  lua_pop(L, 1);
}

void lct_open_sandboxed(lua_State *L, const char *script_dir) {
  static const char *const os_kept[] = { "clock", "time", "date", "difftime", NULL };
  int i;
  open_lib(L, LUA_GNAME, luaopen_base);
  open_lib(L, LUA_STRLIBNAME, luaopen_string);
  open_lib(L, LUA_TABLIBNAME, luaopen_table);
  open_lib(L, LUA_MATHLIBNAME, luaopen_math);
  open_lib(L, LUA_UTF8LIBNAME, luaopen_utf8);
  open_lib(L, LUA_COLIBNAME, luaopen_coroutine);

  lua_pushnil(L);
  lua_setglobal(L, "dofile");
  lua_pushnil(L);
  lua_setglobal(L, "loadfile");
  lua_getglobal(L, "load");
  lua_pushcclosure(L, sb_load, 1);
  lua_setglobal(L, "load");
  lua_getglobal(L, LUA_STRLIBNAME);
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");   /* no bytecode out, as none goes in */
  lua_pop(L, 1);

  /* os: the clock and dates only (no getenv: the environment may hold secrets) */
  luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);
  lua_newtable(L);
  for (i = 0; os_kept[i]; i++) {
    lua_getfield(L, -2, os_kept[i]);
    lua_setfield(L, -2, os_kept[i]);
  }
  lua_remove(L, -2);
  lua_pushvalue(L, -1);
  lua_setglobal(L, LUA_OSLIBNAME);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_insert(L, -2);
  lua_setfield(L, -2, LUA_OSLIBNAME);   /* the whole os is gone from the loaded table too */
  lua_pop(L, 1);

  /* where require looks for the script's own modules */
  lua_createtable(L, 2, 0);
  lua_pushliteral(L, "");
  lua_rawseti(L, -2, 1);
  if (script_dir && *script_dir) {
    lua_pushfstring(L, "%s/", script_dir);
    lua_rawseti(L, -2, 2);
  }
  lua_setfield(L, LUA_REGISTRYINDEX, DIRS_KEY);
  lua_pushcfunction(L, sb_require);
  lua_setglobal(L, "require");
}
