/*
** l_aux.c: helpers shared by the Lua bindings (bindings layer): option tables,
** colors, errors, palette lookup by name, and the warning queue of canvases.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l_aux.h"

/* ---- fonts ---------------------------------------------------------------- */

ct_font_t *lct_checkfont(lua_State *L, int arg) {
  lct_font_box *box = luaL_checkudata(L, arg, CT_FONT_MT);
  if (!box->font) luaL_error(L, "attempt to use a closed font");
  return box->font;
}

ct_font_t *lct_tofont(lua_State *L, int idx) {
  lct_font_box *box = luaL_testudata(L, idx, CT_FONT_MT);
  if (!box) return NULL;
  if (!box->font) luaL_error(L, "attempt to use a closed font");
  return box->font;
}

void lct_pushfont(lua_State *L, ct_font_t *font) {
  lct_font_box *box = lua_newuserdatauv(L, sizeof *box, 0);
  box->font = NULL;                    /* closed until filled */
  luaL_setmetatable(L, CT_FONT_MT);
  box->font = ct_font_reference(font);
}

/* ---- option tables ---------------------------------------------------------- */

const char *lct_badkey(lua_State *L, int t, const char *const fields[], lua_Integer npos) {
  t = lua_absindex(L, t);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    int ok = 0, i;
    lua_pop(L, 1);   /* the value */
    if (lua_type(L, -1) == LUA_TSTRING) {
      const char *k = lua_tostring(L, -1);
      for (i = 0; fields && fields[i]; i++)
        if (strcmp(fields[i], k) == 0) { ok = 1; break; }
      if (!ok) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);   /* pushes a placeholder: the key stays below */
        luaL_addstring(&b, "unknown field '");
        luaL_addstring(&b, k);
        luaL_addchar(&b, '\'');
        if (fields && fields[0]) {
          luaL_addstring(&b, " (expected ");
          for (i = 0; fields[i]; i++) {
            if (i) luaL_addstring(&b, fields[i + 1] ? ", " : " or ");
            luaL_addstring(&b, fields[i]);
          }
          luaL_addchar(&b, ')');
        }
        luaL_pushresult(&b);
        lua_replace(L, -2);      /* drop the key */
        return lua_tostring(L, -1);
      }
    } else if (lua_isinteger(L, -1)) {
      lua_Integer k = lua_tointeger(L, -1);
      if (k >= 1 && k <= npos) continue;
      lua_pop(L, 1);
      return lua_pushfstring(L, "unexpected item [%I]", (LUAI_UACINT)k);
    } else {
      const char *tn = luaL_typename(L, -1);
      lua_pop(L, 1);
      return lua_pushfstring(L, "unexpected key of type %s", tn);
    }
  }
  return NULL;
}

int lct_checkoptions(lua_State *L, int arg, const char *const fields[], lua_Integer npos) {
  const char *bad;
  if (lua_isnoneornil(L, arg)) return 0;
  luaL_checktype(L, arg, LUA_TTABLE);
  if ((bad = lct_badkey(L, arg, fields, npos))) luaL_argerror(L, arg, bad);
  return 1;
}

int lct_getfield(lua_State *L, int arg, const char *name) {
  if (lua_type(L, arg) != LUA_TTABLE) {
    lua_pushnil(L);
    return LUA_TNIL;
  }
  return lua_getfield(L, arg, name);
}

int lct_fielderror(lua_State *L, int arg, const char *name, const char *fmt, ...) {
  va_list ap;
  const char *what;
  va_start(ap, fmt);
  what = lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  return luaL_argerror(L, arg, lua_pushfstring(L, "field '%s': %s", name, what));
}

static int typeerror(lua_State *L, int arg, const char *name, const char *expected) {
  return lct_fielderror(L, arg, name, "expected %s, got %s", expected, luaL_typename(L, -1));
}

lua_Number lct_optnumfield(lua_State *L, int arg, const char *name, lua_Number def) {
  lua_Number v;
  int t = lct_getfield(L, arg, name);
  if (t == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (t != LUA_TNUMBER) typeerror(L, arg, name, "number");
  v = lua_tonumber(L, -1);
  if (!isfinite(v)) lct_fielderror(L, arg, name, "expected a finite number, got %f", v);
  lua_pop(L, 1);
  return v;
}

lua_Number lct_checknumfield(lua_State *L, int arg, const char *name) {
  if (lct_getfield(L, arg, name) == LUA_TNIL) typeerror(L, arg, name, "number");
  lua_pop(L, 1);
  return lct_optnumfield(L, arg, name, 0);
}

lua_Integer lct_optintfield(lua_State *L, int arg, const char *name, lua_Integer def,
                            lua_Integer min, lua_Integer max) {
  lua_Integer v = 0;
  int isint = 0;
  int t = lct_getfield(L, arg, name);
  if (t == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (t == LUA_TNUMBER) v = lua_tointegerx(L, -1, &isint);
  if (!isint) typeerror(L, arg, name, "integer");
  if (v < min || v > max)
    lct_fielderror(L, arg, name, "%I out of range (%I..%I)", (LUAI_UACINT)v, (LUAI_UACINT)min,
                   (LUAI_UACINT)max);
  lua_pop(L, 1);
  return v;
}

int lct_optboolfield(lua_State *L, int arg, const char *name, int def) {
  int v = def;
  if (lct_getfield(L, arg, name) != LUA_TNIL) {
    if (!lua_isboolean(L, -1)) typeerror(L, arg, name, "boolean");
    v = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  return v;
}

const char *lct_optstrfield(lua_State *L, int arg, const char *name, const char *def) {
  const char *s;
  int t = lct_getfield(L, arg, name);
  if (t == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (t != LUA_TSTRING) typeerror(L, arg, name, "string");
  s = lua_tostring(L, -1);   /* still referenced by the table */
  lua_pop(L, 1);
  return s;
}

int lct_optenumfield(lua_State *L, int arg, const char *name, const char *def,
                     const char *const names[]) {
  const char *s = lct_optstrfield(L, arg, name, def);
  int i;
  for (i = 0; names[i]; i++)
    if (strcmp(names[i], s) == 0) return i;
  {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (i = 0; names[i]; i++) {
      if (i) luaL_addstring(&b, names[i + 1] ? ", " : " or ");
      luaL_addchar(&b, '\'');
      luaL_addstring(&b, names[i]);
      luaL_addchar(&b, '\'');
    }
    luaL_pushresult(&b);
    return lct_fielderror(L, arg, name, "invalid option '%s' (expected %s)", s, lua_tostring(L, -1));
  }
}

int lct_optcolorfield(lua_State *L, int arg, const char *name, ct_rgba_t *out) {
  const char *why;
  if (lct_getfield(L, arg, name) == LUA_TNIL) { lua_pop(L, 1); return 0; }
  if ((why = lct_tocolor(L, -1, out))) {
    if (lua_type(L, -1) == LUA_TSTRING)
      lct_fielderror(L, arg, name, "%s '%s'", why, lua_tostring(L, -1));
    lct_fielderror(L, arg, name, "%s", why);
  }
  lua_pop(L, 1);
  return 1;
}

ct_font_t *lct_optfontfield(lua_State *L, int arg, const char *name) {
  ct_font_t *font;
  if (lct_getfield(L, arg, name) == LUA_TNIL) { lua_pop(L, 1); return NULL; }
  if (!(font = lct_tofont(L, -1))) typeerror(L, arg, name, CT_FONT_MT);
  lua_pop(L, 1);   /* the table keeps the userdata alive */
  return font;
}

/* ---- numbers and colors ------------------------------------------------------ */

void lct_pushnum(lua_State *L, double v) {
  if (v == floor(v) && v >= -9007199254740992.0 && v <= 9007199254740992.0)
    lua_pushinteger(L, (lua_Integer)v);
  else
    lua_pushnumber(L, v);
}

static const char *const rgba_names[] = { "r", "g", "b", "a", NULL };

/* One channel of a color table: positional [i] or named; 0..1.  [-0, +0] */
static const char *channel(lua_State *L, int t, int positional, int i, double *out) {
  int type = positional ? lua_rawgeti(L, t, i + 1) : lua_getfield(L, t, rgba_names[i]);
  double v;
  if (type == LUA_TNIL && i == 3) { lua_pop(L, 1); *out = 1.0; return NULL; }
  if (type != LUA_TNUMBER) {
    lua_pop(L, 1);
    return i == 3 ? "color table: alpha must be a number"
                  : "color table: expected numbers r, g, b (0..1)";
  }
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!(v >= 0.0 && v <= 1.0)) return "color table: channel out of range 0..1";
  *out = v;
  return NULL;
}

const char *lct_tocolor(lua_State *L, int idx, ct_rgba_t *out) {
  ct_rgba_t c;
  const char *why;
  int positional;
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
  case LUA_TSTRING:
    if (ct_rgba_parse(lua_tostring(L, idx), &c) != 0)
      return "bad color (expected \"#RRGGBB\", \"#RRGGBBAA\" or \"#RGB\")";
    *out = c;
    return NULL;
  case LUA_TTABLE:
    positional = lua_rawgeti(L, idx, 1) != LUA_TNIL;
    lua_pop(L, 1);
    if (lct_badkey(L, idx, positional ? NULL : rgba_names, positional ? 4 : 0)) {
      lua_pop(L, 1);
      return "color table: expected {r, g, b [, a]} or {r=, g=, b= [, a=]}";
    }
    if ((why = channel(L, idx, positional, 0, &c.r)) || (why = channel(L, idx, positional, 1, &c.g)) ||
        (why = channel(L, idx, positional, 2, &c.b)) || (why = channel(L, idx, positional, 3, &c.a)))
      return why;
    *out = c;
    return NULL;
  default:
    return "expected a color (string \"#RRGGBB[AA]\" or table {r, g, b [, a]})";
  }
}

void lct_checkcolor(lua_State *L, int arg, ct_rgba_t *out) {
  const char *why = lct_tocolor(L, arg, out);
  if (why) {
    if (lua_type(L, arg) == LUA_TSTRING)
      luaL_argerror(L, arg, lua_pushfstring(L, "%s: '%s'", why, lua_tostring(L, arg)));
    luaL_argerror(L, arg, lua_pushfstring(L, "%s, got %s", why, luaL_typename(L, arg)));
  }
}

static unsigned byte_of(double v) {
  if (!(v > 0)) return 0;
  if (v >= 1) return 255;
  return (unsigned)lround(v * 255.0);
}

void lct_pushcolor(lua_State *L, ct_rgba_t c) {
  char buf[16];
  snprintf(buf, sizeof buf, "#%02x%02x%02x%02x", byte_of(c.r), byte_of(c.g), byte_of(c.b),
           byte_of(c.a));
  lua_pushstring(L, buf);
}

/* ---- errors ----------------------------------------------------------------- */

const char *lct_status_code(ct_status_t status) {
  switch (status) {
  case CT_OK:               return "ok";
  case CT_ERR_NOMEM:        return "nomem";
  case CT_ERR_IO:           return "io";
  case CT_ERR_INVALID_FONT: return "invalid_font";
  case CT_ERR_INVALID_ARG:  return "invalid_arg";
  case CT_ERR_NOT_FOUND:    return "not_found";
  case CT_ERR_LIMIT:        return "limit";
  case CT_ERR_BACKEND:      return "backend";
  case CT_ERR_INVALID_IMAGE: return "invalid_image";
  case CT_ERR_CALLBACK: return "callback";
  case CT_ERR_DENIED:   return "denied";
  }
  return "unknown";
}

int lct_pusherror(lua_State *L, const ct_error_t *err) {
  if (err->status == CT_ERR_DENIED) {   /* a refusal is never an expected failure: raised, as it is */
    lua_pushstring(L, err->message);
    return lua_error(L);
  }
  lua_pushnil(L);
  lua_pushstring(L, err->message[0] ? err->message : ct_status_string(err->status));
  lua_pushstring(L, lct_status_code(err->status));
  return 3;
}

int lct_raise(lua_State *L, const ct_error_t *err) {
  return luaL_error(L, "%s", err->message[0] ? err->message : ct_status_string(err->status));
}

/* ---- palettes ------------------------------------------------------------------ */

int lct_findpalette(lua_State *L, ct_font_t *font, int idx, int arg, unsigned *out) {
  unsigned n = ct_font_get_palette_count(font), i;
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TNUMBER) {
    int isint;
    lua_Integer v = lua_tointegerx(L, idx, &isint);
    if (!isint) luaL_argerror(L, arg, "palette index must be an integer");
    if (v < 0) luaL_argerror(L, arg, "palette index must be >= 0");
    if (v >= (lua_Integer)n) return 0;
    *out = (unsigned)v;
    return 1;
  }
  if (lua_type(L, idx) == LUA_TSTRING) {
    const char *s = lua_tostring(L, idx);
    char name[256];
    int found = -1;
    if (strcmp(s, "light") == 0) found = ct_font_find_palette(font, CT_PALETTE_TYPE_LIGHT);
    else if (strcmp(s, "dark") == 0) found = ct_font_find_palette(font, CT_PALETTE_TYPE_DARK);
    if (found >= 0) { *out = (unsigned)found; return 1; }
    for (i = 0; i < n; i++) {
      if (ct_font_get_palette_name(font, i, name, sizeof name) && strcmp(name, s) == 0) {
        *out = i;
        return 1;
      }
    }
    return 0;
  }
  return luaL_argerror(L, arg, lua_pushfstring(L, "palette: expected integer or string, got %s",
                                                luaL_typename(L, idx)));
}

/* ---- warnings ----------------------------------------------------------------- */

/* Called by the core during a drawing call: copies the message, never calls Lua. */
void lct_collect_warning(void *data, const char *message) {
  lct_canvas_box *box = data;
  char *copy;
  if (box->nwarn >= LCT_MAX_WARNINGS || !(copy = malloc(strlen(message) + 1))) {
    box->dropped++;
    return;
  }
  strcpy(copy, message);
  box->warn[box->nwarn++] = copy;
}

void lct_clear_warnings(lct_canvas_box *box) {
  unsigned i;
  for (i = 0; i < box->nwarn; i++) {
    free(box->warn[i]);
    box->warn[i] = NULL;
  }
  box->nwarn = 0;
  box->dropped = 0;
}

void lct_deliver_warnings(lua_State *L, lct_canvas_box *box) {
  unsigned i;
  for (i = 0; i < box->nwarn; i++) {
    if (!box->warn[i]) continue;
    lua_pushstring(L, box->warn[i]);   /* may raise: the box still owns the message */
    free(box->warn[i]);
    box->warn[i] = NULL;
    lct_warn(L);                       /* may raise: the rest stay in the box */
  }
  box->nwarn = 0;
  if (box->dropped) {
    unsigned n = box->dropped;
    box->dropped = 0;
    lua_pushfstring(L, "%d more warnings not shown", (int)n);
    lct_warn(L);
  }
}

/* ---- file names ------------------------------------------------------------------ */

const char *lct_checkpath(lua_State *L, int arg) {
  size_t len;
  const char *p = luaL_checklstring(L, arg, &len);
  if (strlen(p) != len) luaL_argerror(L, arg, "a file name with a NUL byte");
  if (len == 0) luaL_argerror(L, arg, "an empty file name");
  return p;
}

const char *lct_optpath(lua_State *L, int arg, const char *def) {
  return lua_isnoneornil(L, arg) ? def : lct_checkpath(L, arg);
}

void lct_gc_metatable(lua_State *L, const char *name, lua_CFunction gc) {
  luaL_newmetatable(L, name);
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
}
