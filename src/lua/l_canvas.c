/*
** l_canvas.c: the chromatype.Canvas type (bindings layer): pages, rectangles, text,
** paint trees and pictures, writing PNG/PDF/SVG (PNG reading for tests: l_png.c).
** Core warnings are collected during a call and delivered after it returns.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "l_aux.h"
#include "l_limits.h"
#include "base/ct-limits.h"

/* ---- the box ------------------------------------------------------------------ */

static lct_canvas_box *checkbox(lua_State *L, int arg) {
  return luaL_checkudata(L, arg, CT_CANVAS_MT);
}

/* The open canvas at `arg`; clears warnings left by an earlier call that raised. */
static lct_canvas_box *checkcanvas(lua_State *L, int arg) {
  lct_canvas_box *box = checkbox(L, arg);
  if (!box->canvas) luaL_error(L, "attempt to use a closed canvas");
  lct_clear_warnings(box);
  return box;
}

static void aux_close(lct_canvas_box *box) {
  ct_canvas_t *canvas = box->canvas;
  box->canvas = NULL;
  ct_canvas_destroy(canvas);
  lct_clear_warnings(box);
}

static int l_canvas__gc(lua_State *L) {
  aux_close(checkbox(L, 1));
  return 0;
}

static int l_canvas__tostring(lua_State *L) {
  lct_canvas_box *box = checkbox(L, 1);
  char buf[128];
  if (!box->canvas) {
    lua_pushliteral(L, "chromatype.Canvas (closed)");
  } else {
    unsigned n = ct_canvas_get_page_count(box->canvas);
    snprintf(buf, sizeof buf, "chromatype.Canvas (%gx%g pt, %u page%s)",
             ct_canvas_get_width(box->canvas), ct_canvas_get_height(box->canvas), n,
             n == 1 ? "" : "s");
    lua_pushstring(L, buf);
  }
  return 1;
}

/* After a core call: raise on failure (dropping its warnings), else deliver them. */
static void finish(lua_State *L, lct_canvas_box *box, ct_status_t st, const ct_error_t *err) {
  if (st != CT_OK) {
    lct_clear_warnings(box);
    lct_raise(L, err);
  }
  lct_deliver_warnings(L, box);
}

/* A number for a message ("12", "0.5", "1e+09"), pushed.  [-0, +1] */
static const char *num(lua_State *L, double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.14g", v);
  return lua_pushstring(L, buf);
}

/* ---- creation ------------------------------------------------------------------ */

static const char *const canvas_fields[] = { "width", "height", "time", NULL };

/* A time in seconds for SVG animations: finite, 0..1e9.  [-0, +0] */
static double checktime(lua_State *L, int arg, const char *field, double t) {
  if (!(t >= 0 && t <= 1e9)) {
    if (field) lct_fielderror(L, arg, field, "%s s out of range (0 <= time <= 1e9)", num(L, t));
    luaL_argerror(L, arg, lua_pushfstring(L, "time %s s out of range (0 <= time <= 1e9)", num(L, t)));
  }
  return t;
}

static double sidefield(lua_State *L, int arg, const char *name) {
  double v = lct_checknumfield(L, arg, name);
  if (!(v > 0 && v <= CT_MAX_PAGE_SIDE))
    lct_fielderror(L, arg, name, "%s pt out of range (0 < side <= %s)", num(L, v),
                   num(L, CT_MAX_PAGE_SIDE));
  return v;
}

/* canvas{width=, height= (points), time= (seconds, SVG animations; 0)} -> Canvas; bad
   sizes raise */
static int l_canvas_new(lua_State *L) {
  lct_canvas_box *box;
  double w, h, t;
  ct_error_t err;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  luaL_checktype(L, 1, LUA_TTABLE);
  lct_checkoptions(L, 1, canvas_fields, 0);
  w = sidefield(L, 1, "width");
  h = sidefield(L, 1, "height");
  t = checktime(L, 1, "time", lct_optnumfield(L, 1, "time", 0));
  box = lua_newuserdatauv(L, sizeof *box, 0);
  memset(box, 0, sizeof *box);   /* closed until filled */
  luaL_setmetatable(L, CT_CANVAS_MT);
  if (!(box->canvas = ct_canvas_create(w, h, &err))) return lct_raise(L, &err);
  ct_canvas_set_warning_func(box->canvas, lct_collect_warning, box);   /* boxes do not move */
  ct_canvas_set_time(box->canvas, t);
  return 1;
}

/* ---- simple methods ---------------------------------------------------------------- */

static int l_canvas_close(lua_State *L) {
  aux_close(checkbox(L, 1));
  return 0;
}

static int l_canvas_size(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  lct_pushnum(L, ct_canvas_get_width(box->canvas));
  lct_pushnum(L, ct_canvas_get_height(box->canvas));
  return 2;
}

/* c:set_time(seconds): the time at which the glyphs drawn from now on sample the SMIL
   animations of SVG glyphs (glyphs drawn before keep theirs); returns the canvas. */
static int l_canvas_set_time(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_canvas_set_time(box->canvas, checktime(L, 2, NULL, luaL_checknumber(L, 2)));
  lua_settop(L, 1);
  return 1;
}

/* c:time() -> seconds */
static int l_canvas_time(lua_State *L) {
  lct_pushnum(L, ct_canvas_get_time(checkcanvas(L, 1)->canvas));
  return 1;
}

static int l_canvas_page_count(lua_State *L) {
  lua_pushinteger(L, ct_canvas_get_page_count(checkcanvas(L, 1)->canvas));
  return 1;
}

/* c:new_page([{width =, height =}]): a page of the current size, or of its own.  [-0, +1] */
static int l_canvas_new_page(lua_State *L) {
  static const char *const fields[] = { "width", "height", NULL };
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_error_t err;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  if (lct_checkoptions(L, 2, fields, 0)) {
    double w = lct_optnumfield(L, 2, "width", ct_canvas_get_width(box->canvas));
    double h = lct_optnumfield(L, 2, "height", ct_canvas_get_height(box->canvas));
    if (ct_canvas_new_page_sized(box->canvas, w, h, &err) != CT_OK) return luaL_error(L, "%s", err.message);
    lua_settop(L, 1);
    return 1;
  }
  finish(L, box, ct_canvas_new_page(box->canvas, &err), &err);
  lua_settop(L, 1);
  return 1;
}

/* Reads a box {x, y, w, h} from field `name` of the table at index t. */
static void checkbox4(lua_State *L, int t, const char *name, double b[4]) {
  int i;
  if (lua_getfield(L, t, name) != LUA_TTABLE)
    luaL_argerror(L, t, lua_pushfstring(L, "field '%s': {x, y, w, h} expected, got %s", name, luaL_typename(L, -1)));
  for (i = 0; i < 4; i++) {
    int isnum;
    lua_geti(L, -1, i + 1);
    b[i] = lua_tonumberx(L, -1, &isnum);
    if (!isnum) luaL_argerror(L, t, lua_pushfstring(L, "field '%s': {x, y, w, h} expected (item %d is not a number)", name, i + 1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* page_boxes{trim = {x, y, w, h}, bleed = {x, y, w, h}} -> c: the current page's TrimBox and
   BleedBox in PDF output (points, y down). */
static int l_canvas_page_boxes(lua_State *L) {
  static const char *const fields[] = { "trim", "bleed", NULL };
  lct_canvas_box *box = checkcanvas(L, 1);
  double trim[4], bleed[4];
  ct_error_t err;
  luaL_checktype(L, 2, LUA_TTABLE);
  lct_checkoptions(L, 2, fields, 1);
  checkbox4(L, 2, "trim", trim);
  if (lua_getfield(L, 2, "bleed") == LUA_TNIL) memcpy(bleed, trim, sizeof bleed);
  else checkbox4(L, 2, "bleed", bleed);
  lua_pop(L, 1);
  if (ct_canvas_set_page_boxes(box->canvas, trim, bleed, &err) != CT_OK)
    return luaL_argerror(L, 2, err.message);
  lua_settop(L, 1);
  return 1;
}

static int l_canvas_background(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_rgba_t color;
  ct_error_t err;
  lct_checkcolor(L, 2, &color);
  finish(L, box, ct_canvas_fill_background(box->canvas, color, &err), &err);
  lua_settop(L, 1);
  return 1;
}

static const char *const rect_fields[] = { "x", "y", "w", "h", "color", NULL };

/* rect{x =, y =, w =, h = [, color =]} -> c.  color = "registration" is the color of print
   marks: on every plate (ct_canvas_fill_registration). */
static int l_canvas_rect(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_rgba_t color = { 0, 0, 0, 1 };
  double x, y, w, h;
  int registration;
  ct_error_t err;
  ct_status_t st;
  luaL_checktype(L, 2, LUA_TTABLE);
  lct_checkoptions(L, 2, rect_fields, 0);
  x = lct_checknumfield(L, 2, "x");
  y = lct_checknumfield(L, 2, "y");
  w = lct_checknumfield(L, 2, "w");
  h = lct_checknumfield(L, 2, "h");
  lua_getfield(L, 2, "color");
  registration = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "registration") == 0;
  lua_pop(L, 1);
  if (registration) {
    st = ct_canvas_fill_registration(box->canvas, x, y, w, h, &err);
  } else {
    lct_optcolorfield(L, 2, "color", &color);
    st = ct_canvas_fill_rect(box->canvas, x, y, w, h, color, &err);
  }
  finish(L, box, st, &err);
  lua_settop(L, 1);
  return 1;
}

/* ---- spot inks ------------------------------------------------------------------------ */

static const char *const ink_fields[] = { "name", "color", "overprint", "cmyk", NULL };

/* "C/M/Y/K" in percent into v[4] (0..1); 0 on success, -1 if it is not four numbers. */
static int cmykstring(const char *s, double v[4]) {
  int i;
  for (i = 0; i < 4; i++) {
    char *end;
    v[i] = strtod(s, &end) / 100;
    if (end == s) return -1;
    s = end;
    if (i < 3 && *s++ != '/') return -1;
  }
  return *s ? -1 : 0;
}

/* The `cmyk` of an ink table (at the top): "C/M/Y/K" or {c, m, y, k}, in percent; the
   core's check gives the range.  NULL on success, else the problem, pushed.  [-0, +(0|1)] */
static const char *inkcmyk(lua_State *L, ct_ink_t *ink) {
  int i;
  if (lua_type(L, -1) == LUA_TSTRING) {
    if (cmykstring(lua_tostring(L, -1), ink->cmyk) != 0)
      return lua_pushfstring(L, "ink '%s': field 'cmyk': four percentages expected, e.g. \"0/70/0/0\", got '%s'",
                             ink->name, lua_tostring(L, -1));
  } else if (lua_istable(L, -1)) {
    if (lct_badkey(L, -1, NULL, 4)) {
      lua_pop(L, 1);
      return lua_pushfstring(L, "ink '%s': field 'cmyk': {c, m, y, k} expected", ink->name);
    }
    for (i = 0; i < 4; i++) {
      int isnum;
      lua_rawgeti(L, -1, i + 1);
      ink->cmyk[i] = lua_tonumberx(L, -1, &isnum) / 100;
      lua_pop(L, 1);
      if (!isnum)
        return lua_pushfstring(L, "ink '%s': field 'cmyk': {c, m, y, k} expected (item %d is not a number)",
                               ink->name, i + 1);
    }
  } else {
    return lua_pushfstring(L, "ink '%s': field 'cmyk': expected string or table, got %s", ink->name,
                           luaL_typename(L, -1));
  }
  ink->has_cmyk = 1;
  return NULL;
}

/* The ink at `idx`: a spec "NAME=COLOR[,overprint][,cmyk=C/M/Y/K]" (ct_ink_parse) or a table
   {name =, color =, overprint =, cmyk = "C/M/Y/K" | {c, m, y, k}}.  Returns NULL with *ink
   filled and checked, else the problem, pushed, without raising (callers say where the ink
   was).  [-0, +(0|1)] */
static const char *toink(lua_State *L, int idx, ct_ink_t *ink) {
  char why[256];
  const char *s, *bad;
  size_t len;
  int t;
  idx = lua_absindex(L, idx);
  memset(ink, 0, sizeof *ink);
  if (lua_type(L, idx) == LUA_TSTRING) {
    s = lua_tolstring(L, idx, &len);
    if (strlen(s) != len) return lua_pushliteral(L, "an ink spec with a zero byte");
    if (ct_ink_parse(s, ink, why, sizeof why) != 0) return lua_pushstring(L, why);
    return NULL;
  }
  if (!lua_istable(L, idx))
    return lua_pushfstring(L, "expected an ink (\"NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]\" or "
                           "{name =, color =, ...}), got %s", luaL_typename(L, idx));
  if ((bad = lct_badkey(L, idx, ink_fields, 0))) return bad;
  if (lua_getfield(L, idx, "name") != LUA_TSTRING) {
    bad = lua_pushfstring(L, "field 'name': expected string, got %s", luaL_typename(L, -1));
    lua_remove(L, -2);
    return bad;
  }
  s = lua_tolstring(L, -1, &len);
  if (len > CT_INK_NAME_MAX || strlen(s) != len) {
    bad = len > CT_INK_NAME_MAX
            ? lua_pushfstring(L, "ink '%s': name too long (at most %d bytes)", s, CT_INK_NAME_MAX)
            : lua_pushliteral(L, "an ink name with a zero byte");
    lua_remove(L, -2);
    return bad;
  }
  memcpy(ink->name, s, len + 1);
  lua_pop(L, 1);
  if (lua_getfield(L, idx, "color") == LUA_TNIL) {
    lua_pop(L, 1);
    return lua_pushfstring(L, "ink '%s': field 'color' is missing", ink->name);
  }
  if ((bad = lct_tocolor(L, -1, &ink->color))) {
    lua_pop(L, 1);
    return lua_pushfstring(L, "ink '%s': field 'color': %s", ink->name, bad);
  }
  lua_pop(L, 1);
  t = lua_getfield(L, idx, "overprint");
  if (t != LUA_TNIL && t != LUA_TBOOLEAN) {
    lua_pop(L, 1);
    return lua_pushfstring(L, "ink '%s': field 'overprint': expected boolean, got %s", ink->name,
                           lua_typename(L, t));
  }
  ink->overprint = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (lua_getfield(L, idx, "cmyk") != LUA_TNIL && (bad = inkcmyk(L, ink))) {
    lua_remove(L, -2);
    return bad;
  }
  lua_pop(L, 1);
  if (ct_ink_check(ink, why, sizeof why) != 0) return lua_pushstring(L, why);
  return NULL;
}

/* A byte of a color channel 0..1. */
static unsigned inkbyte(double v) {
  return v <= 0 ? 0 : v >= 1 ? 255 : (unsigned)lround(v * 255);
}

/* Pushes an ink as the table c:ink takes: {name =, color = "#rrggbb", overprint =, cmyk =
   {c, m, y, k} (percent) or absent}.  [-0, +1] */
static void pushink(lua_State *L, const ct_ink_t *ink) {
  char hex[8];
  int i;
  lua_createtable(L, 0, 4);
  lua_pushstring(L, ink->name);
  lua_setfield(L, -2, "name");
  snprintf(hex, sizeof hex, "#%02x%02x%02x", inkbyte(ink->color.r), inkbyte(ink->color.g),
           inkbyte(ink->color.b));
  lua_pushstring(L, hex);
  lua_setfield(L, -2, "color");
  lua_pushboolean(L, ink->overprint);
  lua_setfield(L, -2, "overprint");
  if (ink->has_cmyk) {
    lua_createtable(L, 4, 0);
    for (i = 0; i < 4; i++) {
      lct_pushnum(L, round(ink->cmyk[i] * 100 * 1e6) / 1e6);   /* 0.7 * 100 gives 70 */
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "cmyk");
  }
}

/* c:ink(spec | {name =, color =, overprint =, cmyk =}) -> c: an ink of the canvas, written
   with every PDF of it; an ink of the same name replaces the earlier one.  A bad ink
   raises with the core's message. */
static int l_canvas_ink(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  const char *why;
  ct_ink_t ink;
  ct_error_t err;
  if ((why = toink(L, 2, &ink))) return luaL_argerror(L, 2, why);
  if (ct_canvas_add_ink(box->canvas, &ink, &err) != CT_OK) return lct_raise(L, &err);
  lua_settop(L, 1);
  return 1;
}

/* c:inks() -> {{name =, color =, overprint =, cmyk =}, ...}: the canvas's inks, in the
   order they were first added. */
static int l_canvas_inks(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  unsigned n = ct_canvas_get_ink_count(box->canvas), i;
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    pushink(L, ct_canvas_get_ink(box->canvas, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* parse_ink(spec | table) -> {name =, color =, overprint =, cmyk =}: an ink checked and in
   the form c:inks() gives; a bad ink raises. */
static int l_parse_ink(lua_State *L) {
  const char *why;
  ct_ink_t ink;
  if ((why = toink(L, 1, &ink))) return luaL_argerror(L, 1, why);
  pushink(L, &ink);
  return 1;
}

/* ---- text styles ------------------------------------------------------------------ */

static const char *const format_names[] = { "auto", "colr1", "colr0", "svg", "bitmap", "mono", NULL };
static const char *const direction_names[] = { "auto", "ltr", "rtl", "ttb", "btt", NULL };

/* palette = index | "light" | "dark" | name.  Names not found raise naming the font;
   an index past the font's palettes is left to the core, whose message names it. */
static unsigned stylepalette(lua_State *L, int arg, ct_font_t *font) {
  unsigned index = 0;
  int t = lct_getfield(L, arg, "palette");
  if (t == LUA_TNUMBER) {
    int isint;
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint) lct_fielderror(L, arg, "palette", "expected integer, got %s", num(L, lua_tonumber(L, -1)));
    if (v < 0 || v > 0xFFFF) lct_fielderror(L, arg, "palette", "%I out of range (0..65535)", (LUAI_UACINT)v);
    index = (unsigned)v;
  } else if (t == LUA_TSTRING) {
    if (!lct_findpalette(L, font, -1, arg, &index)) {
      unsigned n = ct_font_get_palette_count(font), i;
      char name[256];
      luaL_Buffer b;
      luaL_buffinit(L, &b);
      for (i = 0; i < n && i < 16; i++) {
        luaL_addstring(&b, i ? ", " : ": ");
        lua_pushfstring(L, "%d", (int)i);
        luaL_addvalue(&b);
        if (ct_font_get_palette_name(font, i, name, sizeof name)) {
          luaL_addstring(&b, " '");
          luaL_addstring(&b, name);
          luaL_addchar(&b, '\'');
        }
      }
      if (n > 16) luaL_addstring(&b, ", ...");
      luaL_pushresult(&b);
      luaL_error(L, "%s: no palette named '%s' (the font has %d palette%s%s)", ct_font_get_path(font),
                 lua_tostring(L, -2), (int)n, n == 1 ? "" : "s", lua_tostring(L, -1));
    }
  } else if (t != LUA_TNIL) {
    lct_fielderror(L, arg, "palette", "expected integer or string, got %s", luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return index;
}

/* An entry index from an overrides key: an integer, or an entry label.  [-0, +0] */
static unsigned overridekey(lua_State *L, int arg, ct_font_t *font) {
  if (lua_type(L, -2) == LUA_TSTRING) {
    const char *label = lua_tostring(L, -2);
    unsigned n = ct_font_get_palette_entry_count(font), i;
    char buf[256];
    for (i = 0; i < n; i++)
      if (ct_font_get_palette_entry_label(font, i, buf, sizeof buf) && strcmp(buf, label) == 0)
        return i;
    luaL_error(L, "%s: no palette entry labelled '%s'", ct_font_get_path(font), label);
  } else if (lua_isinteger(L, -2)) {
    lua_Integer i = lua_tointeger(L, -2);
    if (i < 0 || i >= 0xFFFF)
      lct_fielderror(L, arg, "overrides", "entry %I out of range (0..65534)", (LUAI_UACINT)i);
    return (unsigned)i;
  }
  lct_fielderror(L, arg, "overrides", "keys must be entry indices (0-based) or labels, got %s",
                 luaL_typename(L, -2));
  return 0;
}

/* overrides = { [entry] = color, [label] = color }: an array in a scratch userdata
   left on the stack.  [-0, +1] */
static void styleoverrides(lua_State *L, int arg, ct_font_t *font, ct_text_style_t *st) {
  ct_palette_override_t *o;
  size_t n = 0, i = 0;
  int t;
  if (lct_getfield(L, arg, "overrides") == LUA_TNIL) return;   /* the nil stays */
  if (!lua_istable(L, -1))
    lct_fielderror(L, arg, "overrides", "expected table, got %s", luaL_typename(L, -1));
  t = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, t)) { n++; lua_pop(L, 1); }
  if (n > CT_MAX_PALETTE_OVERRIDES)
    lct_fielderror(L, arg, "overrides", "more than %d entries", (int)CT_MAX_PALETTE_OVERRIDES);
  o = lua_newuserdatauv(L, (n ? n : 1) * sizeof *o, 0);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    const char *why;
    o[i].index = overridekey(L, arg, font);
    if ((why = lct_tocolor(L, -1, &o[i].color))) {
      if (lua_type(L, -2) == LUA_TSTRING)
        lct_fielderror(L, arg, "overrides", "['%s']: %s", lua_tostring(L, -2), why);
      lct_fielderror(L, arg, "overrides", "[%I]: %s", (LUAI_UACINT)lua_tointeger(L, -2), why);
    }
    i++;
    lua_pop(L, 1);
  }
  lua_remove(L, t);
  st->overrides = o;
  st->override_count = (unsigned)n;
}

/* The style fields shared by text and paint.  Leaves one scratch value on the stack.
   [-0, +1] */
static void checkstyle(lua_State *L, int arg, ct_font_t *font, ct_text_style_t *st) {
  ct_text_style_init(st);
  st->size = lct_optnumfield(L, arg, "size", st->size);
  if (!(st->size > 0 && st->size <= CT_MAX_FONT_SIZE))
    lct_fielderror(L, arg, "size", "%s out of range (0 < size <= %s)", num(L, st->size),
                   num(L, CT_MAX_FONT_SIZE));
  st->palette = stylepalette(L, arg, font);
  lct_optcolorfield(L, arg, "color", &st->foreground);
  styleoverrides(L, arg, font, st);
}

static ct_font_t *checkfontfield(lua_State *L, int arg) {
  ct_font_t *font = lct_optfontfield(L, arg, "font");
  if (!font) lct_fielderror(L, arg, "font", "expected %s, got nil", CT_FONT_MT);
  return font;
}

static const char *const text_fields[] = {
  "font", "size", "x", "y", "palette", "overrides", "color", "format", "features", "script",
  "language", "direction", "glyphs", NULL
};

/* A number field of glyph table `g` (absent: 0), finite.  [-0, +0] */
static double glyphnum(lua_State *L, int g, const char *name, lua_Integer i) {
  int isnum;
  double v;
  lua_getfield(L, g, name);
  v = lua_isnil(L, -1) ? 0 : (double)lua_tonumberx(L, -1, &isnum);
  if (!lua_isnil(L, -1) && (!isnum || !isfinite(v)))
    lct_fielderror(L, 2, "glyphs", "[%I]: %s: a finite number expected", (LUAI_UACINT)i, name);
  lua_pop(L, 1);
  return v;
}

/* The `glyphs` field of text{}: a list of glyphs as font:shape returns them (gid, 1-based
   cluster into the text, advances and offsets in font units), into a scratch userdata left
   on the stack, or nothing when absent.  Returns 1 if the glyphs are there.  [-0, +(0|1)] */
static int textglyphs(lua_State *L, size_t len, ct_shaped_t *run) {
  lua_Integer n, i;
  int t;
  if (lct_getfield(L, 2, "glyphs") == LUA_TNIL) { lua_pop(L, 1); return 0; }
  if (!lua_istable(L, -1))
    lct_fielderror(L, 2, "glyphs", "expected a list of glyphs, got %s", luaL_typename(L, -1));
  t = lua_gettop(L);
  n = (lua_Integer)lua_rawlen(L, t);
  if (n > (lua_Integer)len + 1 && n > 4 * (lua_Integer)len)   /* clusters are in the text */
    lct_fielderror(L, 2, "glyphs", "%I glyphs for %I bytes of text", (LUAI_UACINT)n, (LUAI_UACINT)len);
  run->glyphs = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *run->glyphs, 0);
  run->count = (unsigned)n;
  run->direction = CT_DIR_LTR;
  for (i = 0; i < n; i++) {
    ct_glyph_pos_t *gp = &run->glyphs[i];
    lua_Integer gid, cl;
    int g;
    if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
      lct_fielderror(L, 2, "glyphs", "[%I]: a table expected, got %s", (LUAI_UACINT)(i + 1), luaL_typename(L, -1));
    g = lua_gettop(L);
    lua_getfield(L, g, "gid");
    gid = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
    lua_getfield(L, g, "cluster");
    cl = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
    lua_pop(L, 2);
    if (gid < 0 || gid > 0xFFFF)
      lct_fielderror(L, 2, "glyphs", "[%I]: gid: an integer 0..65535 expected", (LUAI_UACINT)(i + 1));
    if (cl < 1 || (cl > (lua_Integer)len && !(len == 0 && cl == 1)))
      lct_fielderror(L, 2, "glyphs", "[%I]: cluster: a byte of the text (1..%I) expected", (LUAI_UACINT)(i + 1),
                     (LUAI_UACINT)len);
    gp->gid = (unsigned)gid;
    gp->cluster = (uint32_t)(cl - 1);
    gp->x_advance = glyphnum(L, g, "x_advance", i + 1);
    gp->y_advance = glyphnum(L, g, "y_advance", i + 1);
    gp->x_offset = glyphnum(L, g, "x_offset", i + 1);
    gp->y_offset = glyphnum(L, g, "y_offset", i + 1);
    lua_pop(L, 1);
  }
  lua_remove(L, t);
  return 1;
}

/* text{ "text", font=, size=, x=, y=, palette=, overrides=, color=, format=, features=,
         script=, language=, direction= } -> advance in points */
static int l_canvas_text(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_text_style_t st;
  ct_font_t *font;
  const char *text;
  size_t len;
  double x, y, advance = 0;
  ct_shaped_t run;
  ct_error_t err;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  luaL_checktype(L, 2, LUA_TTABLE);
  lct_checkoptions(L, 2, text_fields, 1);
  if (lua_rawgeti(L, 2, 1) != LUA_TSTRING)
    luaL_argerror(L, 2, lua_pushfstring(L, "item [1] (the text): expected string, got %s",
                                        luaL_typename(L, -1)));
  text = lua_tolstring(L, -1, &len);
  lua_pop(L, 1);   /* the table keeps it */
  /* a layered font stack (chromatype.stack, a Lua object) draws itself: stack:draw(c, t) */
  if (lua_getfield(L, 2, "font") == LUA_TTABLE) {
    if (luaL_getmetafield(L, -1, "__name") == LUA_TSTRING && strcmp(lua_tostring(L, -1), "chromatype.Stack") == 0) {
      lua_pop(L, 1);                       /* stack */
      lua_getfield(L, -1, "draw");         /* stack draw */
      lua_insert(L, -2);                   /* draw stack */
      lua_pushvalue(L, 1);
      lua_pushvalue(L, 2);
      lua_call(L, 3, 1);                   /* advance */
      return 1;
    }
  }
  lua_settop(L, 2);
  font = checkfontfield(L, 2);
  x = lct_optnumfield(L, 2, "x", 0);
  y = lct_optnumfield(L, 2, "y", 0);
  checkstyle(L, 2, font, &st);
  st.format = (ct_format_t)lct_optenumfield(L, 2, "format", "auto", format_names);
  st.shape.features = lct_optstrfield(L, 2, "features", NULL);
  st.shape.script = lct_optstrfield(L, 2, "script", NULL);
  st.shape.language = lct_optstrfield(L, 2, "language", NULL);
  st.shape.direction = (ct_direction_t)lct_optenumfield(L, 2, "direction", "auto", direction_names);
  if (textglyphs(L, len, &run)) {        /* shaped by the caller: drawn as given */
    ct_font_info_t info;
    unsigned i;
    if (st.shape.direction == CT_DIR_RTL) run.direction = CT_DIR_RTL;
    finish(L, box, ct_canvas_draw_shaped(box->canvas, font, text, len, &run, &st, x, y, &err), &err);
    for (i = 0; i < run.count; i++) advance += run.glyphs[i].x_advance;
    ct_font_get_info(font, &info);
    advance *= st.size / (info.units_per_em ? info.units_per_em : 1000);
  } else {
    finish(L, box, ct_canvas_draw_text(box->canvas, font, text, len, &st, x, y, &advance, &err), &err);
  }
  lct_pushnum(L, advance);
  return 1;
}

static const char *const paint_fields[] = {
  "font", "size", "x", "y", "palette", "overrides", "color", NULL
};

/* paint(tree, {font=, x=, y=, size=, palette=, overrides=, color=}) */
static int l_canvas_paint(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_text_style_t st;
  ct_font_t *font;
  ct_paint_t *tree;
  double x, y;
  ct_error_t err;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  lct_checkoptions(L, 3, paint_fields, 0);
  font = checkfontfield(L, 3);
  x = lct_optnumfield(L, 3, "x", 0);
  y = lct_optnumfield(L, 3, "y", 0);
  checkstyle(L, 3, font, &st);
  tree = lct_topaint(L, 2, 2);   /* its box stays on the stack until we return */
  finish(L, box, ct_canvas_draw_paint(box->canvas, font, tree, &st, x, y, &err), &err);
  lua_settop(L, 1);
  return 1;
}

/* ---- pictures ------------------------------------------------------------------------ */

static const char *const image_fields[] = { "x", "y", "w", "h", "fit", NULL };
static const char *const fit_names[] = { "contain", "cover", "fill", NULL };

/* An optional side of the box: 0 when absent (the core takes it from the other side),
   else 0 < v <= CT_MAX_PAGE_SIDE. */
static double boxside(lua_State *L, int arg, const char *name) {
  double v = lct_optnumfield(L, arg, name, 0);
  int given = lct_getfield(L, arg, name) != LUA_TNIL;
  lua_pop(L, 1);
  if (given && !(v > 0 && v <= CT_MAX_PAGE_SIDE))
    lct_fielderror(L, arg, name, "%s pt out of range (0 < side <= %s)", num(L, v), num(L, CT_MAX_PAGE_SIDE));
  return v;
}

/* image{ path, x=, y=, w=, h=, fit="contain"|"cover"|"fill" } -> c.  A file that cannot
   be read or decoded raises "path: problem". */
static int l_canvas_image(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  const char *path;
  double x, y, w, h;
  ct_fit_t fit;
  ct_error_t err;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  luaL_checktype(L, 2, LUA_TTABLE);
  lct_checkoptions(L, 2, image_fields, 1);
  if (lua_rawgeti(L, 2, 1) != LUA_TSTRING)
    luaL_argerror(L, 2, lua_pushfstring(L, "item [1] (the file name): expected string, got %s",
                                        luaL_typename(L, -1)));
  path = lua_tostring(L, -1);
  lua_pop(L, 1);   /* the table keeps it */
  lua_rawgeti(L, 2, 1);
  lct_checkpath(L, -1);   /* no NUL inside: fs.c sees what the script wrote */
  lua_pop(L, 1);
  x = lct_optnumfield(L, 2, "x", 0);
  y = lct_optnumfield(L, 2, "y", 0);
  w = boxside(L, 2, "w");
  h = boxside(L, 2, "h");
  fit = (ct_fit_t)lct_optenumfield(L, 2, "fit", "contain", fit_names);
  finish(L, box, ct_canvas_draw_image(box->canvas, path, x, y, w, h, fit, &err), &err);
  lua_settop(L, 1);
  return 1;
}

/* ---- writing ------------------------------------------------------------------------ */

static const char *const write_fields[] = {
  "format", "dpi", "width_px", "title", "author", "subject", "keywords", "creator", "text_layer",
  "cmyk", "inks", "inks_only", "overprint", "plates", "threads", NULL
};
static const char *const output_names[] = { "auto", "png", "pdf", "svg", NULL };

/* The `inks` of write options: a list of specs or ink tables, into a scratch userdata left
   on the stack (nil when absent), which keeps the array until the call returns.  [-0, +1] */
static void writeinks(lua_State *L, int arg, ct_write_options_t *o) {
  ct_ink_t *inks;
  lua_Integer n, i;
  int t;
  if (lct_getfield(L, arg, "inks") == LUA_TNIL) return;   /* the nil stays */
  if (!lua_istable(L, -1))
    lct_fielderror(L, arg, "inks", "expected a list of inks, got %s", luaL_typename(L, -1));
  t = lua_gettop(L);
  n = (lua_Integer)lua_rawlen(L, t);
  if (lct_badkey(L, t, NULL, n)) lct_fielderror(L, arg, "inks", "%s (a list of inks expected)", lua_tostring(L, -1));
  if (n > CT_MAX_INKS) lct_fielderror(L, arg, "inks", "more than %d inks", (int)CT_MAX_INKS);
  inks = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *inks, 0);
  for (i = 0; i < n; i++) {
    const char *why;
    lua_rawgeti(L, t, i + 1);
    if ((why = toink(L, -1, &inks[i]))) lct_fielderror(L, arg, "inks", "[%I]: %s", (LUAI_UACINT)(i + 1), why);
    lua_pop(L, 1);
  }
  lua_remove(L, t);
  o->inks = inks;
  o->ink_count = (unsigned)n;
}

/* The options of c:write and c:stream at `arg`: format=, dpi=, width_px=, title=, author=,
   subject=, keywords=, creator=, text_layer=, cmyk=, inks=, inks_only=, overprint=, plates=,
   threads=.
   Leaves one scratch value on the stack.  [-0, +1] */
static void write_options(lua_State *L, int arg, ct_write_options_t *o) {
  ct_write_options_init(o);
  lct_checkoptions(L, arg, write_fields, 0);
  o->format = (ct_output_t)lct_optenumfield(L, arg, "format", "auto", output_names);
  o->dpi = lct_optnumfield(L, arg, "dpi", o->dpi);
  if (!(o->dpi > 0 && o->dpi <= CT_MAX_DPI))
    lct_fielderror(L, arg, "dpi", "%s out of range (0 < dpi <= %s)", num(L, o->dpi), num(L, CT_MAX_DPI));
  o->width_px = (int)lct_optintfield(L, arg, "width_px", 0, 1, CT_MAX_IMAGE_SIDE);
  o->threads = (unsigned)lct_optintfield(L, arg, "threads", 0, 1, CT_MAX_THREADS);
  o->title = lct_optstrfield(L, arg, "title", NULL);
  o->author = lct_optstrfield(L, arg, "author", NULL);
  o->subject = lct_optstrfield(L, arg, "subject", NULL);
  o->keywords = lct_optstrfield(L, arg, "keywords", NULL);
  o->creator = lct_optstrfield(L, arg, "creator", o->creator);
  o->no_text_layer = !lct_optboolfield(L, arg, "text_layer", 1);
  o->cmyk = lct_optboolfield(L, arg, "cmyk", 0);
  o->inks_only = lct_optboolfield(L, arg, "inks_only", 0);
  o->overprint = lct_optboolfield(L, arg, "overprint", 0);
  o->plates = lct_optstrfield(L, arg, "plates", NULL);
  if (o->plates) {
    if (!o->plates[0]) lct_fielderror(L, arg, "plates", "a directory expected, got ''");
  }
  writeinks(L, arg, o);
}

/* c:stream(path [, opts]) -> c: writes the canvas to a PDF page by page. */
static int l_canvas_stream(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  const char *path = lct_checkpath(L, 2);
  ct_write_options_t o;
  ct_error_t err;
  ct_status_t st;
  write_options(L, 3, &o);
  st = ct_canvas_stream_pdf(box->canvas, path, &o, &err);
  if (st == CT_ERR_IO) return lct_pusherror(L, &err);
  finish(L, box, st, &err);
  lua_settop(L, 1);
  return 1;
}

/* c:finish() -> true | nil, msg, code: the last page and the file of a stream. */
static int l_canvas_finish(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_error_t err;
  ct_status_t st = ct_canvas_finish(box->canvas, &err);
  if (st == CT_ERR_IO) return lct_pusherror(L, &err);
  finish(L, box, st, &err);
  lua_pushboolean(L, 1);
  return 1;
}

/* write(path [, opts]) -> true | nil, msg, code (I/O failures); wrong arguments raise */
static int l_canvas_write(lua_State *L) {
  lct_canvas_box *box = checkcanvas(L, 1);
  const char *path = lct_checkpath(L, 2);
  ct_write_options_t o;
  ct_error_t err;
  ct_status_t st;
  write_options(L, 3, &o);
  st = ct_canvas_write(box->canvas, path, &o, &err);
  if (st == CT_ERR_IO) return lct_pusherror(L, &err);
  finish(L, box, st, &err);
  lua_pushboolean(L, 1);
  return 1;
}

/* c:rasterize([{dpi =, page =}]) -> width, height, hash: draws a page in memory. */
static int l_canvas_rasterize(lua_State *L) {
  static const char *const fields[] = { "dpi", "page", NULL };
  lct_canvas_box *box = checkcanvas(L, 1);
  ct_error_t err;
  ct_status_t st;
  int w = 0, h = 0;
  uint64_t hash = 0;
  char hex[17];
  double dpi;
  lua_Integer page;
  lct_checkoptions(L, 2, fields, 0);
  dpi = lct_optnumfield(L, 2, "dpi", 72);
  if (!(dpi > 0 && dpi <= CT_MAX_DPI))
    lct_fielderror(L, 2, "dpi", "%s out of range (0 < dpi <= %s)", num(L, dpi), num(L, CT_MAX_DPI));
  page = lct_optintfield(L, 2, "page", 1, 1, CT_MAX_PAGES);
  st = ct_canvas_rasterize(box->canvas, (unsigned)(page - 1), dpi, &w, &h, &hash, &err);
  finish(L, box, st, &err);
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash);
  lua_pushinteger(L, w);
  lua_pushinteger(L, h);
  lua_pushstring(L, hex);
  return 3;
}

/* c.width, c.height, then the methods. */
static int l_canvas__index(lua_State *L) {
  lct_canvas_box *box = checkbox(L, 1);
  if (lua_type(L, 2) == LUA_TSTRING) {
    const char *key = lua_tostring(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    if (strcmp(key, "width") == 0 || strcmp(key, "height") == 0) {
      if (!box->canvas) return luaL_error(L, "attempt to use a closed canvas");
      lct_pushnum(L, key[0] == 'w' ? ct_canvas_get_width(box->canvas)
                                   : ct_canvas_get_height(box->canvas));
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

/* ---- registration ------------------------------------------------------------------- */

static const luaL_Reg canvas_methods[] = {
  { "background", l_canvas_background },
  { "rect", l_canvas_rect },
  { "ink", l_canvas_ink },
  { "inks", l_canvas_inks },
  { "text", l_canvas_text },
  { "paint", l_canvas_paint },
  { "image", l_canvas_image },
  { "new_page", l_canvas_new_page },
  { "page_boxes", l_canvas_page_boxes },
  { "page_count", l_canvas_page_count },
  { "size", l_canvas_size },
  { "set_time", l_canvas_set_time },
  { "time", l_canvas_time },
  { "write", l_canvas_write },
  { "rasterize", l_canvas_rasterize },
  { "stream", l_canvas_stream },
  { "finish", l_canvas_finish },
  { "close", l_canvas_close },
  { NULL, NULL }
};

static const luaL_Reg canvas_meta[] = {
  { "__gc", l_canvas__gc },
  { "__close", l_canvas__gc },
  { "__tostring", l_canvas__tostring },
  { NULL, NULL }
};

static const luaL_Reg canvas_funcs[] = {
  { "canvas", l_canvas_new },
  { "parse_ink", l_parse_ink },
  { NULL, NULL }
};

void lct_open_canvas(lua_State *L) {
  luaL_newmetatable(L, CT_CANVAS_MT);
  luaL_setfuncs(L, canvas_meta, 0);
  luaL_newlibtable(L, canvas_methods);
  luaL_setfuncs(L, canvas_methods, 0);
  lua_pushcclosure(L, l_canvas__index, 1);   /* the methods are its upvalue */
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  luaL_setfuncs(L, canvas_funcs, 0);
}
