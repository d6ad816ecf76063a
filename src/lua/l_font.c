/*
** l_font.c: the chromatype.Font type (bindings layer): opening fonts, names and
** metrics, palettes, axes, glyph lookup, shaping and glyph paint trees.
*/
#include <stdlib.h>
#include <string.h>

#include "l_aux.h"
#include "l_limits.h"

/* ---- the box ------------------------------------------------------------------ */

static lct_font_box *newbox(lua_State *L) {   /* [-0, +1] */
  lct_font_box *box = lua_newuserdatauv(L, sizeof *box, 0);
  box->font = NULL;   /* closed until filled */
  luaL_setmetatable(L, CT_FONT_MT);
  return box;
}

/* The one close of __gc, __close and close(): idempotent. */
static void aux_close(lct_font_box *box) {
  ct_font_t *font = box->font;
  box->font = NULL;
  ct_font_destroy(font);
}

static int l_font__gc(lua_State *L) {
  aux_close(luaL_checkudata(L, 1, CT_FONT_MT));
  return 0;
}

static int l_font_close(lua_State *L) {
  aux_close(luaL_checkudata(L, 1, CT_FONT_MT));
  return 0;
}

static int l_font__tostring(lua_State *L) {
  lct_font_box *box = luaL_checkudata(L, 1, CT_FONT_MT);
  ct_font_info_t info;
  if (!box->font) {
    lua_pushliteral(L, "chromatype.Font (closed)");
    return 1;
  }
  ct_font_get_info(box->font, &info);
  lua_pushfstring(L, "chromatype.Font (%s%s%s: %s)", info.family[0] ? info.family : "?",
                  info.style[0] ? " " : "", info.style, ct_font_get_path(box->font));
  return 1;
}

/* ---- opening --------------------------------------------------------------------- */

static const char *const open_fields[] = { "index", NULL };
static const char *const data_fields[] = { "index", "name", NULL };

/* open_font(path [, {index=}]) -> Font | nil, msg, code */
static int l_font_open(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  lct_font_box *box;
  ct_error_t err;
  unsigned index;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  lct_checkoptions(L, 2, open_fields, 0);
  /* the upper 16 bits of a FreeType face index select named instances */
  index = (unsigned)lct_optintfield(L, 2, "index", 0, 0, 0xFFFF);
  box = newbox(L);
  box->font = ct_font_create(path, index, &err);   /* a path, or a name for fontconfig */
  if (!box->font) return lct_pusherror(L, &err);
  return 1;
}

/* font_from_data(bytes [, {index=, name=}]) -> Font | nil, msg, code */
static int l_font_from_data(lua_State *L) {
  size_t len;
  const char *data = luaL_checklstring(L, 1, &len);
  const char *name;
  lct_font_box *box;
  ct_error_t err;
  unsigned index;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  lct_checkoptions(L, 2, data_fields, 0);
  index = (unsigned)lct_optintfield(L, 2, "index", 0, 0, 0xFFFF);
  name = lct_optstrfield(L, 2, "name", "<memory>");
  box = newbox(L);
  box->font = ct_font_create_from_data(data, len, index, name, &err);
  if (!box->font) return lct_pusherror(L, &err);
  return 1;
}

/* ---- names and metrics --------------------------------------------------------- */

static void setstr(lua_State *L, const char *k, const char *v) {   /* [-0, +0] */
  lua_pushstring(L, v);
  lua_setfield(L, -2, k);
}

static void setint(lua_State *L, const char *k, lua_Integer v) {   /* [-0, +0] */
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}

static int l_font_info(lua_State *L) {
  static const struct { unsigned bit; const char *name; } formats[] = {
    { CT_COLOR_COLR0, "COLRv0" }, { CT_COLOR_COLR1, "COLRv1" }, { CT_COLOR_SVG, "SVG" },
    { CT_COLOR_CBDT, "CBDT" }, { CT_COLOR_SBIX, "sbix" }
  };
  ct_font_t *font = lct_checkfont(L, 1);
  ct_font_info_t info;
  unsigned i;
  int n = 0;
  ct_font_get_info(font, &info);
  lua_createtable(L, 0, 18);
  setstr(L, "family", info.family);
  setstr(L, "style", info.style);
  setstr(L, "full_name", info.full_name);
  setstr(L, "postscript_name", info.postscript_name);
  setstr(L, "version", info.version);
  setstr(L, "path", ct_font_get_path(font));
  setint(L, "units_per_em", info.units_per_em);
  setint(L, "ascender", info.ascender);
  setint(L, "descender", info.descender);
  setint(L, "line_gap", info.line_gap);
  setint(L, "glyph_count", info.glyph_count);
  setint(L, "face_index", info.face_index);
  setint(L, "face_count", info.face_count);
  setstr(L, "container", info.container ? info.container : "");
  lua_pushboolean(L, info.is_variable);
  lua_setfield(L, -2, "variable");
  lua_createtable(L, 5, 0);
  for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
    if (!(info.color_formats & formats[i].bit)) continue;
    lua_pushstring(L, formats[i].name);
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "formats");
  return 1;
}

/* ---- palettes ------------------------------------------------------------------- */

static int l_font_palette_count(lua_State *L) {
  lua_pushinteger(L, ct_font_get_palette_count(lct_checkfont(L, 1)));
  return 1;
}

static const char *type_name(unsigned type) {
  switch (type & (CT_PALETTE_TYPE_LIGHT | CT_PALETTE_TYPE_DARK)) {
  case CT_PALETTE_TYPE_LIGHT: return "light";
  case CT_PALETTE_TYPE_DARK: return "dark";
  case CT_PALETTE_TYPE_LIGHT | CT_PALETTE_TYPE_DARK: return "light,dark";
  default: return NULL;
  }
}

static int l_font_palettes(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned npal = ct_font_get_palette_count(font);
  unsigned nent = ct_font_get_palette_entry_count(font), p, i;
  ct_rgba_t *colors = NULL;
  char name[256];
  /* scratch colors in a userdata: collected even if a push below raises */
  if (nent) colors = lua_newuserdatauv(L, (size_t)nent * sizeof *colors, 0);
  else lua_pushnil(L);
  lua_createtable(L, (int)npal, 0);
  for (p = 0; p < npal; p++) {
    const char *type = type_name(ct_font_get_palette_type(font, p));
    lua_createtable(L, 0, 4);
    setint(L, "index", p);
    if (ct_font_get_palette_name(font, p, name, sizeof name)) setstr(L, "name", name);
    if (type) setstr(L, "type", type);
    lua_createtable(L, (int)nent, 0);
    if (nent) {
      unsigned have = ct_font_get_palette_colors(font, p, colors, nent);
      for (i = 0; i < nent && i < have; i++) {
        lct_pushcolor(L, colors[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
      }
    }
    lua_setfield(L, -2, "colors");
    lua_rawseti(L, -2, (lua_Integer)p + 1);
  }
  return 1;
}

/* font:closure(text) -> {gid, ...}: the glyphs a subset for `text` keeps. */
static int l_font_closure(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  const char *text = luaL_checkstring(L, 2);
  unsigned n = ct_font_get_glyph_closure(font, text, NULL, 0), i;
  unsigned *gids = lua_newuserdatauv(L, (n ? n : 1) * sizeof *gids, 0);   /* scratch */
  n = ct_font_get_glyph_closure(font, text, gids, n);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_pushinteger(L, gids[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

static int l_font_entry_labels(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned n = ct_font_get_palette_entry_count(font), i;
  char label[256];
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    if (ct_font_get_palette_entry_label(font, i, label, sizeof label)) lua_pushstring(L, label);
    else lua_pushboolean(L, 0);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* find_palette("light"|"dark"|name|index) -> 0-based index | nil */
static int l_font_find_palette(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned index;
  luaL_checkany(L, 2);
  if (lct_findpalette(L, font, 2, 2, &index)) lua_pushinteger(L, index);
  else lua_pushnil(L);
  return 1;
}

/* ---- variations ------------------------------------------------------------------ */

static int l_font_axes(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned n = ct_font_get_axis_count(font), i;
  int k = 0;
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    ct_axis_t a;
    if (ct_font_get_axis(font, i, &a) != 0) continue;
    lua_createtable(L, 0, 7);
    setstr(L, "tag", a.tag_str);
    setstr(L, "name", a.name);
    lct_pushnum(L, a.min);
    lua_setfield(L, -2, "min");
    lct_pushnum(L, a.def);
    lua_setfield(L, -2, "default");
    lct_pushnum(L, a.max);
    lua_setfield(L, -2, "max");
    lct_pushnum(L, a.value);
    lua_setfield(L, -2, "value");
    lua_pushboolean(L, a.hidden);
    lua_setfield(L, -2, "hidden");
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

/* The variation spec at stack index `idx`, "wght=700,wdth=80" or {wght=700, wdth=80}, as a
   string: a table is turned into one, which replaces it on the stack. */
static const char *variation_spec(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TTABLE) {
    /* "tag=value" pieces into a list, then joined (a luaL_Buffer must stay on top) */
    lua_Integer n = 0, i;
    luaL_Buffer b;
    lua_newtable(L);   /* pieces */
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      if (lua_type(L, -2) != LUA_TSTRING)
        return (luaL_argerror(L, idx, lua_pushfstring(L, "axis tags must be strings, got %s",
                                                      luaL_typename(L, -2))), NULL);
      if (lua_type(L, -1) != LUA_TNUMBER)
        return (luaL_argerror(L, idx, lua_pushfstring(L, "axis '%s': expected number, got %s",
                                                      lua_tostring(L, -2), luaL_typename(L, -1))), NULL);
      lua_pushfstring(L, "%s=%f", lua_tostring(L, -2), (LUAI_UACNUMBER)lua_tonumber(L, -1));
      lua_rawseti(L, -4, ++n);
      lua_pop(L, 1);
    }
    luaL_buffinit(L, &b);
    for (i = 1; i <= n; i++) {
      if (i > 1) luaL_addchar(&b, ',');
      lua_rawgeti(L, -2, i);   /* the list sits below the buffer's placeholder */
      luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    lua_replace(L, idx);
    lua_pop(L, 1);     /* the pieces */
  } else if (lua_type(L, idx) != LUA_TSTRING) {
    return (luaL_typeerror(L, idx, "string or table"), NULL);
  }
  return lua_tostring(L, idx);
}

/* set_variations("wght=700,wdth=80" | {wght=700}) -> font; errors raise */
static int l_font_set_variations(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  const char *spec = variation_spec(L, 2);
  ct_error_t err;
  if (ct_font_get_axis_count(font) == 0 && spec[0])
    return luaL_error(L, "%s: the font has no variation axes", ct_font_get_path(font));
  if (ct_font_set_variations(font, spec, &err) != CT_OK) return lct_raise(L, &err);
  lua_settop(L, 1);
  return 1;
}

/* instance([variations]) -> a new Font at this one's location with `variations` on top;
   errors raise */
static int l_font_instance(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  const char *spec = lua_isnoneornil(L, 2) ? NULL : variation_spec(L, 2);
  lct_font_box *box;
  ct_error_t err;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  if (spec && spec[0] && ct_font_get_axis_count(font) == 0)
    return luaL_error(L, "%s: the font has no variation axes", ct_font_get_path(font));
  box = newbox(L);
  box->font = ct_font_create_instance(font, spec, &err);
  if (!box->font) return lct_raise(L, &err);
  return 1;
}

/* ---- glyphs ------------------------------------------------------------------------ */

/* Decodes exactly one UTF-8 character; returns -1 if `s` is not one. */
static long one_char(const unsigned char *s, size_t len) {
  unsigned long c;
  size_t n, i;
  if (len == 0) return -1;
  if (s[0] < 0x80) { n = 1; c = s[0]; }
  else if ((s[0] & 0xE0) == 0xC0) { n = 2; c = s[0] & 0x1Fu; }
  else if ((s[0] & 0xF0) == 0xE0) { n = 3; c = s[0] & 0x0Fu; }
  else if ((s[0] & 0xF8) == 0xF0) { n = 4; c = s[0] & 0x07u; }
  else return -1;
  if (len != n) return -1;
  for (i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return -1;
    c = (c << 6) | (s[i] & 0x3Fu);
  }
  /* overlong forms, surrogates and values past U+10FFFF */
  if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
      (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
    return -1;
  return (long)c;
}

/* glyph(codepoint | "c") -> gid | nil */
static int l_font_glyph(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned gid;
  long cp;
  if (lua_type(L, 2) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, 2, &len);
    cp = one_char((const unsigned char *)s, len);
    luaL_argcheck(L, cp >= 0, 2, "expected a single UTF-8 character");
  } else {
    lua_Integer v = luaL_checkinteger(L, 2);
    luaL_argcheck(L, v >= 0 && v <= 0x10FFFF, 2, "code point out of range (0..0x10FFFF)");
    cp = (long)v;
  }
  if (ct_font_get_nominal_glyph(font, (uint32_t)cp, &gid)) lua_pushinteger(L, gid);
  else lua_pushnil(L);
  return 1;
}

/* font:codepoints() -> ascending list of the code points the font maps.  [-0, +1] */
static int l_font_codepoints(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned n = ct_font_get_codepoints(font, NULL, 0), i;
  uint32_t *cps;
  lua_createtable(L, (int)n, 0);
  if (n == 0) return 1;
  cps = lua_newuserdatauv(L, n * sizeof *cps, 0);   /* scratch owned by Lua: safe if we raise */
  ct_font_get_codepoints(font, cps, n);
  for (i = 0; i < n; i++) {
    lua_pushinteger(L, cps[i]);
    lua_rawseti(L, -3, (lua_Integer)i + 1);
  }
  lua_pop(L, 1);
  return 1;
}

/* A glyph id argument: 0..65535 and in the font.  [-0, +0] */
static unsigned checkgid(lua_State *L, int arg, ct_font_t *font) {
  lua_Integer gid = luaL_checkinteger(L, arg);
  luaL_argcheck(L, gid >= 0 && gid <= 0xFFFF, arg, "glyph id out of range (0..65535)");
  if ((unsigned)gid >= ct_font_get_glyph_count(font))
    luaL_argerror(L, arg, lua_pushfstring(L, "glyph id %d out of range (the font has %d glyphs)",
                                          (int)gid, (int)ct_font_get_glyph_count(font)));
  return (unsigned)gid;
}

/* svg_animation([gid]) -> count, duration: the SMIL animation elements of glyph gid's SVG
   document (of the whole font without gid) and their simple duration in seconds (the
   latest begin + dur x repeatCount, an indefinite repeat once); 0, 0 when there are none.
   What the sanitizer removed stays queued as the font's warnings (delivered when its
   glyphs are drawn). */
static int l_font_svg_animation(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  int gid = lua_isnoneornil(L, 2) ? -1 : (int)checkgid(L, 2, font);
  double duration = 0;
  unsigned count = ct_font_get_svg_animation(font, gid, &duration);
  lua_pushinteger(L, (lua_Integer)count);
  lct_pushnum(L, duration);
  return 2;
}

static int l_font_glyph_name(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned gid = checkgid(L, 2, font);
  char name[256];
  if (ct_font_get_glyph_name(font, gid, name, sizeof name) && name[0]) lua_pushstring(L, name);
  else lua_pushnil(L);
  return 1;
}

static int l_font_advance(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned gid = checkgid(L, 2, font);
  lct_pushnum(L, ct_font_get_glyph_advance(font, gid));
  return 1;
}

/* alternates(gid [, features]) -> {{gid =, feature =}, ...}: the glyph's alternate forms
   from GSUB; features a string "salt,ss01" or a list (default: rand, aalt, salt, swsh,
   jalt, ssXX, cvXX, ...). */
#define MAX_ALT 256
#define MAX_ALT_FEATURES 32
static int l_font_alternates(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned gid = checkgid(L, 2, font);
  const char *feats[MAX_ALT_FEATURES + 1];
  ct_alternate_t alts[MAX_ALT];
  unsigned n, i, nf = 0;
  int t = lua_type(L, 3);
  luaL_argexpected(L, t == LUA_TNONE || t == LUA_TNIL || t == LUA_TSTRING || t == LUA_TTABLE, 3,
                   "string or list of feature tags");
  if (t == LUA_TSTRING) {
    /* split "salt,ss01" into Lua strings kept on the stack */
    const char *p = lua_tostring(L, 3);
    while (*p) {
      const char *e = p;
      while (*e && *e != ',' && *e != ' ') e++;
      if (e > p) {
        luaL_argcheck(L, e - p <= 4, 3, "feature tags have at most 4 characters");
        luaL_argcheck(L, nf < MAX_ALT_FEATURES, 3, "too many features");
        feats[nf++] = lua_pushlstring(L, p, (size_t)(e - p));
      }
      p = *e ? e + 1 : e;
    }
  } else if (t == LUA_TTABLE) {
    lua_Integer k, len = luaL_len(L, 3);
    luaL_argcheck(L, len <= MAX_ALT_FEATURES, 3, "too many features");
    for (k = 1; k <= len; k++) {
      size_t l;
      lua_geti(L, 3, k);
      feats[nf] = lua_tolstring(L, -1, &l);
      luaL_argcheck(L, feats[nf] && l >= 1 && l <= 4, 3, "feature tags are strings of 1 to 4 characters");
      nf++;
    }
  }
  feats[nf] = NULL;
  n = ct_font_get_alternates(font, gid, t == LUA_TSTRING || t == LUA_TTABLE ? feats : NULL, alts, MAX_ALT);
  if (n > MAX_ALT) n = MAX_ALT;
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, alts[i].gid);
    lua_setfield(L, -2, "gid");
    lua_pushstring(L, alts[i].feature);
    lua_setfield(L, -2, "feature");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* features(["GSUB" | "GPOS"]) -> list of the font's feature tags in that table */
static int l_font_features(lua_State *L) {
  static const char *const tables[] = { "GSUB", "GPOS", NULL };
  ct_font_t *font = lct_checkfont(L, 1);
  int gpos = luaL_checkoption(L, 2, "GSUB", tables);
  char tags[256][5];
  unsigned n = ct_font_get_feature_tags(font, gpos, tags, 256), i;
  if (n > 256) n = 256;
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_pushstring(L, tags[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* ---- shaping ------------------------------------------------------------------------ */

#define SHAPED_MT "chromatype.ShapedBox"   /* internal: owns a ct_shaped_t */

static int shaped__gc(lua_State *L) {
  ct_shaped_fini(luaL_checkudata(L, 1, SHAPED_MT));
  return 0;
}

static const char *const shape_fields[] = { "features", "script", "language", "direction", NULL };
static const char *const direction_names[] = { "auto", "ltr", "rtl", "ttb", "btt", NULL };

static int l_font_shape(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  size_t len;
  const char *text = luaL_checklstring(L, 2, &len);
  ct_shape_options_t opts;
  ct_shaped_t *run;
  ct_error_t err;
  unsigned i;
  memset(&opts, 0, sizeof opts);
  lct_checkoptions(L, 3, shape_fields, 0);
  opts.features = lct_optstrfield(L, 3, "features", NULL);
  opts.script = lct_optstrfield(L, 3, "script", NULL);
  opts.language = lct_optstrfield(L, 3, "language", NULL);
  opts.direction = (ct_direction_t)lct_optenumfield(L, 3, "direction", "auto", direction_names);
  run = lua_newuserdatauv(L, sizeof *run, 0);   /* owns the glyphs if a push raises */
  memset(run, 0, sizeof *run);
  luaL_setmetatable(L, SHAPED_MT);
  if (ct_shape(font, text, len, &opts, run, &err) != CT_OK) return lct_raise(L, &err);
  lua_createtable(L, (int)run->count, 0);
  for (i = 0; i < run->count; i++) {
    const ct_glyph_pos_t *g = &run->glyphs[i];
    lua_createtable(L, 0, 6);
    setint(L, "gid", g->gid);
    setint(L, "cluster", (lua_Integer)g->cluster + 1);
    lct_pushnum(L, g->x_advance);
    lua_setfield(L, -2, "x_advance");
    lct_pushnum(L, g->y_advance);
    lua_setfield(L, -2, "y_advance");
    lct_pushnum(L, g->x_offset);
    lua_setfield(L, -2, "x_offset");
    lct_pushnum(L, g->y_offset);
    lua_setfield(L, -2, "y_offset");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  ct_shaped_fini(run);
  return 1;
}

/* ---- paint trees ------------------------------------------------------------------- */

static const char *const paint_fields[] = { "format", NULL };
static const char *const format_names[] = { "auto", "colr1", "colr0", "svg", "bitmap", "mono", NULL };

/* paint(gid [, {format=}]) -> tree of plain tables */
static int l_font_paint(lua_State *L) {
  ct_font_t *font = lct_checkfont(L, 1);
  unsigned gid = checkgid(L, 2, font);
  ct_paint_t **slot;
  ct_format_t format;
  ct_error_t err;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  lct_checkoptions(L, 3, paint_fields, 0);
  format = (ct_format_t)lct_optenumfield(L, 3, "format", "auto", format_names);
  slot = lct_newpaintbox(L);
  err.status = CT_OK;
  err.message[0] = '\0';
  if (!(*slot = ct_font_get_glyph_paint(font, gid, format, &err))) {
    if (err.status == CT_OK) err.status = CT_ERR_NOMEM;
    return lct_raise(L, &err);
  }
  lct_pushpaint(L, *slot, font);
  ct_paint_destroy(*slot);
  *slot = NULL;
  return 1;
}

/* ---- registration ----------------------------------------------------------------- */

static const luaL_Reg font_methods[] = {
  { "info", l_font_info },
  { "palettes", l_font_palettes },
  { "palette_count", l_font_palette_count },
  { "entry_labels", l_font_entry_labels },
  { "closure", l_font_closure },
  { "find_palette", l_font_find_palette },
  { "axes", l_font_axes },
  { "set_variations", l_font_set_variations },
  { "instance", l_font_instance },
  { "glyph", l_font_glyph },
  { "codepoints", l_font_codepoints },
  { "glyph_name", l_font_glyph_name },
  { "advance", l_font_advance },
  { "svg_animation", l_font_svg_animation },
  { "alternates", l_font_alternates },
  { "features", l_font_features },
  { "shape", l_font_shape },
  { "paint", l_font_paint },
  { "close", l_font_close },
  { NULL, NULL }
};

static const luaL_Reg font_meta[] = {
  { "__gc", l_font__gc },
  { "__close", l_font__gc },
  { "__tostring", l_font__tostring },
  { "__index", NULL },   /* placeholder: the methods table */
  { NULL, NULL }
};

static const luaL_Reg font_funcs[] = {
  { "open_font", l_font_open },
  { "font_from_data", l_font_from_data },
  { NULL, NULL }
};

void lct_open_font(lua_State *L) {
  luaL_newmetatable(L, CT_FONT_MT);   /* also sets __name, used by luaL_typeerror */
  luaL_setfuncs(L, font_meta, 0);
  luaL_newlibtable(L, font_methods);
  luaL_setfuncs(L, font_methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lct_gc_metatable(L, SHAPED_MT, shaped__gc);
  luaL_setfuncs(L, font_funcs, 0);
}
