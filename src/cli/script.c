/*
** script.c: `chromatype SCRIPT.lua [ARGS...]`: a Lua script run with the library loaded,
** as lua.c runs one (arg, a traceback on error), under the run's filters and sandbox.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "cli.h"

/* Loads the script as text (bytecode too outside the sandbox), read through fs.c: in a
   sandboxed run by its rules.  [-0, +1] the chunk or the message */
static int load_script(lua_State *L, const char *path) {
  ct_error_t err;
  size_t len, skip = 0;
  unsigned char *text = ct_fs_read_all(path, 256u << 20, &len, &err);
  int status;
  if (!text) {
    lua_pushstring(L, err.message);
    return LUA_ERRFILE;
  }
  if (len > 0 && text[0] == '#') skip = strcspn((const char *)text, "\n");   /* "#!...", as lua.c */
  lua_pushfstring(L, "@%s", path);
  status = luaL_loadbufferx(L, (const char *)text + skip, len - skip, lua_tostring(L, -1),
                            cli_run_opts.sandbox ? "t" : NULL);
  free(text);
  lua_remove(L, -2);
  return status;
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

int cmd_script(int argc, char **argv) {
  lua_State *L;
  int i, status;
  if (PARSE_ONLY) return 0;
  set_home(argv[0]);
  if (!(L = new_state(&status))) return status;
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
  if (status == LUA_OK) status = load_script(L, argv[0]);
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
