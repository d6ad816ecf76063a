/*
** l_core.h: the entry point of the chromatype Lua C module (bindings layer).
** require "chromatype.core" in plain lua5.4; package.preload in the executable.
*/
#ifndef L_CORE_H
#define L_CORE_H

#include <lua.h>

/* Opens the module: registers the Font, Canvas and paint metatables and returns
   the module table.  [-0, +1] */
int luaopen_chromatype_core(lua_State *L);

#endif /* L_CORE_H */
