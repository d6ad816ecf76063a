/*
** l_fontbuild.c: chromatype.FontBuilder, the core's font writer for Lua (bindings layer).
** chromatype.fontmake (ct.save_font) drives it: stacks, palettes, baked filters and
** paint trees all arrive here as palettes and one paint tree per lead glyph.
**   local b = core.font_builder(lead)
**   b:set_palettes{ { colors = {...}, type = "light", name = "Day" }, ..., labels = {...} }
**   b:set_glyph(gid, tree)     b:set_family("Name")
**   b:write(path, { formats = { "colr0", "colr1", "svg" }, woff2 = false, text = "ABC" })
*/
#include <stdlib.h>
#include <string.h>

#include "l_aux.h"

#define CT_FONTBUILDER_MT "chromatype.FontBuilder"

typedef struct {
  ct_font_builder_t *b;
} lct_builder_box;

static ct_font_builder_t *checkbuilder(lua_State *L) {
  lct_builder_box *box = luaL_checkudata(L, 1, CT_FONTBUILDER_MT);
  if (!box->b) luaL_error(L, "attempt to use a closed font builder");
  return box->b;
}

static int l_builder__gc(lua_State *L) {
  lct_builder_box *box = luaL_checkudata(L, 1, CT_FONTBUILDER_MT);
  ct_font_builder_t *b = box->b;
  box->b = NULL;
  ct_font_builder_destroy(b);
  return 0;
}

/* core.font_builder(lead): a builder whose palettes start as the lead's. */
static int l_font_builder(lua_State *L) {
  ct_font_t *lead = lct_checkfont(L, 1);
  lct_builder_box *box = lua_newuserdatauv(L, sizeof *box, 1);
  ct_error_t err;
  box->b = NULL;
  luaL_setmetatable(L, CT_FONTBUILDER_MT);
  lua_pushvalue(L, 1);   /* the lead stays alive with the builder */
  lua_setiuservalue(L, -2, 1);
  if (!(box->b = ct_font_builder_create(lead, &err))) return lct_pusherror(L, &err);
  return 1;
}

static unsigned palette_type(lua_State *L, int t, lua_Integer i) {
  const char *s;
  unsigned type = 0;
  lua_getfield(L, t, "type");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  s = lua_tostring(L, -1);
  if (!s || (strcmp(s, "light") && strcmp(s, "dark")))
    luaL_error(L, "bad argument #1 to 'set_palettes' (palette %d: type: 'light' or 'dark' expected)", (int)i);
  type = strcmp(s, "light") == 0 ? CT_PALETTE_TYPE_LIGHT : CT_PALETTE_TYPE_DARK;
  lua_pop(L, 1);
  return type;
}

/* b:set_palettes{ {colors = {...}, type =, name =}, ..., labels = {...} } */
static int l_builder_set_palettes(lua_State *L) {
  ct_font_builder_t *b = checkbuilder(L);
  lua_Integer n, entries = 0, i, e;
  ct_rgba_t *colors;
  ct_error_t err;
  luaL_checktype(L, 2, LUA_TTABLE);
  n = (lua_Integer)lua_rawlen(L, 2);
  luaL_argcheck(L, n >= 1 && n <= 0xFFFF, 2, "1 to 65535 palettes expected");
  for (i = 1; i <= n; i++) {
    lua_Integer k;
    if (lua_rawgeti(L, 2, i) != LUA_TTABLE) luaL_error(L, "bad argument #1 to 'set_palettes' (palette %d: table expected)", (int)i);
    if (lua_getfield(L, -1, "colors") != LUA_TTABLE)
      luaL_error(L, "bad argument #1 to 'set_palettes' (palette %d: colors: table expected)", (int)i);
    k = (lua_Integer)lua_rawlen(L, -1);
    if (i == 1) entries = k;
    if (k != entries || k < 1 || k * n > 0xFFFF)
      luaL_error(L, "bad argument #1 to 'set_palettes' (palette %d: %d colors; every palette needs the same number, "
                 "at most 65535 in all)", (int)i, (int)k);
    lua_pop(L, 2);
  }
  colors = lua_newuserdatauv(L, (size_t)(entries * n) * sizeof *colors, 0);   /* scratch */
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, 2, i);
    lua_getfield(L, -1, "colors");
    for (e = 1; e <= entries; e++) {
      const char *why;
      lua_rawgeti(L, -1, e);
      if ((why = lct_tocolor(L, -1, &colors[(i - 1) * entries + e - 1])))
        luaL_error(L, "bad argument #1 to 'set_palettes' (palette %d, color %d: %s)", (int)i, (int)e, why);
      lua_pop(L, 1);
    }
    lua_pop(L, 2);
  }
  if (ct_font_builder_set_palettes(b, (unsigned)entries, (unsigned)n, colors, &err)) return lct_raise(L, &err);
  for (i = 1; i <= n; i++) {
    unsigned type;
    const char *name;
    lua_rawgeti(L, 2, i);
    type = palette_type(L, lua_gettop(L), i);
    lua_getfield(L, -1, "name");
    name = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
    if (ct_font_builder_set_palette_info(b, (unsigned)i - 1, type, name, &err)) return lct_raise(L, &err);
    lua_pop(L, 2);
  }
  if (lua_getfield(L, 2, "labels") == LUA_TTABLE) {
    for (e = 1; e <= entries; e++) {
      lua_rawgeti(L, -1, e);
      if (lua_type(L, -1) == LUA_TSTRING &&
          ct_font_builder_set_entry_label(b, (unsigned)e - 1, lua_tostring(L, -1), &err))
        return lct_raise(L, &err);
      lua_pop(L, 1);
    }
  }
  return 0;
}

/* b:set_glyph(gid, tree) */
static int l_builder_set_glyph(lua_State *L) {
  ct_font_builder_t *b = checkbuilder(L);
  lua_Integer gid = luaL_checkinteger(L, 2);
  ct_paint_t *tree;
  ct_error_t err;
  luaL_argcheck(L, gid >= 0 && gid <= 0xFFFF, 2, "glyph id out of range");
  tree = lua_isnil(L, 3) ? NULL : lct_topaint(L, 3, 3);
  if (ct_font_builder_set_glyph(b, (unsigned)gid, tree, &err)) return lct_raise(L, &err);
  return 0;
}

static int l_builder_set_family(lua_State *L) {
  ct_font_builder_t *b = checkbuilder(L);
  ct_error_t err;
  if (ct_font_builder_set_family(b, luaL_optstring(L, 2, NULL), &err)) return lct_raise(L, &err);
  return 0;
}

static const char *const write_fields[] = { "formats", "woff2", "text", NULL };
static const char *const format_names[] = { "colr0", "colr1", "svg", NULL };

/* b:write(path, {formats = {...}, woff2 =, text =}): true, or nil, message, code. */
static int l_builder_write(lua_State *L) {
  ct_font_builder_t *b = checkbuilder(L);
  const char *path = lct_checkpath(L, 2);
  ct_font_write_options_t o;
  ct_error_t err;
  ct_font_write_options_init(&o);
  if (lct_checkoptions(L, 3, write_fields, 0)) {
    if (lct_getfield(L, 3, "formats") == LUA_TTABLE) {
      lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);
      for (i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        o.formats |= 1u << luaL_checkoption(L, -1, NULL, format_names);
        lua_pop(L, 1);
      }
    } else if (!lua_isnil(L, -1)) {
      return lct_fielderror(L, 3, "formats", "expected a list of 'colr0', 'colr1', 'svg'");
    }
    lua_pop(L, 1);
    o.woff2 = lct_optboolfield(L, 3, "woff2", 0);
    o.text = lct_optstrfield(L, 3, "text", NULL);
  }
  if (ct_font_builder_write(b, path, &o, &err)) return lct_pusherror(L, &err);
  lua_pushboolean(L, 1);
  return 1;
}

static const luaL_Reg builder_methods[] = {
  { "set_palettes", l_builder_set_palettes },
  { "set_glyph", l_builder_set_glyph },
  { "set_family", l_builder_set_family },
  { "write", l_builder_write },
  { "close", l_builder__gc },
  { NULL, NULL }
};

void lct_open_fontbuild(lua_State *L) {
  luaL_newmetatable(L, CT_FONTBUILDER_MT);
  lua_pushcfunction(L, l_builder__gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, l_builder__gc);
  lua_setfield(L, -2, "__close");
  luaL_newlib(L, builder_methods);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_pushcfunction(L, l_font_builder);
  lua_setfield(L, -2, "font_builder");
}
