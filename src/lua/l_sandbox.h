/*
** l_sandbox.h: the Lua of a sandboxed run (l_sandbox.c).  Bindings layer.
*/
#ifndef L_SANDBOX_H
#define L_SANDBOX_H

#include <lua.h>

/* Opens the libraries of a sandboxed run in a new state, instead of luaL_openlibs: base
   (no dofile, loadfile; load of text only), string (no dump), table, math, utf8,
   coroutine, os (clock, time, date, difftime), and a require of chromatype's modules
   (package.preload, which ct_preload_library fills) and of Lua files below the working
   directory or `script_dir`.  No io, debug or package.  [-0, +0] */
void lct_open_sandboxed(lua_State *L, const char *script_dir);

#endif /* L_SANDBOX_H */
