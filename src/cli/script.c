/*
** script.c: `chromatype SCRIPT.lua [ARGS...]`: a Lua script run with the library loaded,
** as lua.c runs one (arg, a traceback on error), under the run's filters and sandbox.
*/
#include <stdio.h>

#include <lauxlib.h>

#include "cli.h"

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
  if (status == LUA_OK) status = luaL_loadfilex(L, argv[0], cli_run_opts.sandbox ? "t" : NULL);
  if (status == LUA_OK && cli_run_opts.sandbox) sandbox_chunk(L);
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
