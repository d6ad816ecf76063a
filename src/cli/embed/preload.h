/* preload.h: the embedded Lua library in package.preload (see preload.c). */
#ifndef CT_PRELOAD_H
#define CT_PRELOAD_H

#include <lua.h>

/* package.preload gets chromatype.core and the embedded Lua modules. [-0, +0] */
void ct_preload_library(lua_State *L);

#endif /* CT_PRELOAD_H */
