/*
** l_fontbuild.c: chromatype.FontBuilder, the core's font writer for Lua (bindings layer).
** chromatype.fontmake (ct.save_font) drives it: stacks, palettes, baked filters and
** paint trees all arrive here as palettes and one paint tree per lead glyph.
**   local b = core.font_builder(lead)
**   b:set_palettes{ { colors = {...}, type = "light", name = "Day" }, ..., labels = {...} }
**   b:set_glyph(gid, tree)     b:set_family("Name")
**   b:set_axes({ {tag = "EXTR", min = 0, default = 0, max = 100, name = "Extrusion"} }, { {EXTR = 100} })
**   b:set_glyph_masters(gid, { tree at each master })
**   b:add_variants(gid, { tree of each variant })   (a randomized font: GSUB calt and rand)
**   b:write(path, { formats = { "colr0", "colr1", "svg" }, woff2 = false, text = "ABC" })
** and the builder of a font made from artwork (SVG drawings; chromatype.fontmake.artwork):
**   local b, warnings = core.artwork_builder({ {name =, path = | data =, codepoints =, glyph_name =}, ...}, opts)
** with the folder listing it needs (core.list_dir, core.is_dir).
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/ct-limits.h"
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

/* b:set_axes({ {tag =, min =, default =, max =, name =, hidden =}, ... }, { {TAG = value, ...}, ... }):
   effect axes and the masters the glyphs' trees will be given at (an axis a master does
   not name is at its default); b:set_axes({}) makes the font static again. */
static int l_builder_set_axes(lua_State *L) {
  ct_font_builder_t *b = checkbuilder(L);
  lua_Integer na, nm, i, j;
  ct_axis_t *axes;
  double *m;
  ct_error_t err;
  ct_status_t st;
  luaL_checktype(L, 2, LUA_TTABLE);
  na = (lua_Integer)lua_rawlen(L, 2);
  if (na == 0) {
    ct_font_builder_set_axes(b, NULL, 0, NULL, 0, &err);
    return 0;
  }
  luaL_checktype(L, 3, LUA_TTABLE);
  nm = (lua_Integer)lua_rawlen(L, 3);
  luaL_argcheck(L, na <= 16, 2, "at most 16 axes");
  luaL_argcheck(L, nm >= 1 && nm <= 255, 3, "1 to 255 masters expected");
  axes = lua_newuserdatauv(L, (size_t)na * sizeof *axes, 0);
  m = lua_newuserdatauv(L, (size_t)na * (size_t)nm * sizeof *m, 0);
  memset(axes, 0, (size_t)na * sizeof *axes);
  for (i = 0; i < na; i++) {
    const char *s;
    lua_rawgeti(L, 2, i + 1);
    if (!lua_istable(L, -1)) return luaL_argerror(L, 2, "a list of axis tables expected");
    lua_getfield(L, -1, "tag");
    s = lua_tostring(L, -1);
    if (!s || strlen(s) != 4) return luaL_error(L, "axis %d: a tag of four characters expected", (int)i + 1);
    memcpy(axes[i].tag_str, s, 5);
    lua_pop(L, 1);
    lua_getfield(L, -1, "min");
    axes[i].min = luaL_checknumber(L, -1);
    lua_getfield(L, -2, "default");
    axes[i].def = luaL_optnumber(L, -1, axes[i].min);
    lua_getfield(L, -3, "max");
    axes[i].max = luaL_checknumber(L, -1);
    lua_getfield(L, -4, "name");
    snprintf(axes[i].name, sizeof axes[i].name, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "");
    lua_getfield(L, -5, "hidden");
    axes[i].hidden = lua_toboolean(L, -1);
    lua_pop(L, 6);
  }
  for (j = 0; j < nm; j++) {
    lua_rawgeti(L, 3, j + 1);
    if (!lua_istable(L, -1)) return luaL_argerror(L, 3, "a list of master locations {TAG = value} expected");
    for (i = 0; i < na; i++) {
      lua_getfield(L, -1, axes[i].tag_str);
      m[j * na + i] = lua_isnil(L, -1) ? axes[i].def : luaL_checknumber(L, -1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  st = ct_font_builder_set_axes(b, axes, (unsigned)na, m, (unsigned)nm, &err);
  lua_pop(L, 2);
  if (st) return lct_raise(L, &err);
  return 0;
}

/* b:set_glyph_masters(gid, {tree at master 1, ...}) (nil: the glyph does not vary) */
static int l_builder_set_glyph_masters(lua_State *L) {
  ct_font_builder_t *b = checkbuilder(L);
  lua_Integer gid = luaL_checkinteger(L, 2), n, i;
  ct_paint_t **trees;
  ct_error_t err;
  ct_status_t st;
  luaL_argcheck(L, gid >= 0 && gid <= 0xFFFF, 2, "glyph id out of range");
  if (lua_isnoneornil(L, 3)) {
    if (ct_font_builder_set_glyph_masters(b, (unsigned)gid, NULL, &err)) return lct_raise(L, &err);
    return 0;
  }
  luaL_checktype(L, 3, LUA_TTABLE);
  n = (lua_Integer)lua_rawlen(L, 3);
  luaL_argcheck(L, n >= 1 && n <= 255, 3, "1 to 255 trees expected");
  trees = lua_newuserdatauv(L, (size_t)n * sizeof *trees, 0);
  luaL_checkstack(L, (int)(2 * n + 4), "too many masters");
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 3, i + 1);
    trees[i] = lct_topaint(L, lua_gettop(L), 3);   /* kept alive by the stack until set */
  }
  st = ct_font_builder_set_glyph_masters(b, (unsigned)gid, trees, &err);
  if (st) return lct_raise(L, &err);
  return 0;
}

/* b:add_variants(base, {tree, ...}) -> the first variant's glyph id: a randomized font's
   variants of lead glyph `base` (ascending bases, the same count each). */
static int l_builder_add_variants(lua_State *L) {
  ct_font_builder_t *b = checkbuilder(L);
  lua_Integer gid = luaL_checkinteger(L, 2), n, i;
  ct_paint_t **trees;
  unsigned first = 0;
  ct_error_t err;
  luaL_argcheck(L, gid >= 0 && gid <= 0xFFFF, 2, "glyph id out of range");
  luaL_checktype(L, 3, LUA_TTABLE);
  n = (lua_Integer)lua_rawlen(L, 3);
  luaL_argcheck(L, n >= 1 && n <= 64, 3, "1 to 64 trees expected");
  trees = lua_newuserdatauv(L, (size_t)n * sizeof *trees, 0);
  luaL_checkstack(L, (int)(2 * n + 4), "too many variants");
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 3, i + 1);
    trees[i] = lct_topaint(L, lua_gettop(L), 3);
  }
  if (ct_font_builder_add_variants(b, (unsigned)gid, trees, (unsigned)n, &first, &err)) return lct_raise(L, &err);
  lua_pushinteger(L, first);
  return 1;
}

/* b:kept_variations() -> whether the last write kept the variable lead's axes */
static int l_builder_kept_variations(lua_State *L) {
  lua_pushboolean(L, ct_font_builder_kept_variations(checkbuilder(L)));
  return 1;
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

/* ---- fonts from artwork ------------------------------------------------------------- */

#define CT_ART_SCRATCH_MT "chromatype.ArtworkScratch"

/* What a call of artwork_builder holds outside Lua's heap: the files read and the
   warnings (freed by __gc if the call raises). */
typedef struct {
  unsigned        n;
  unsigned char **files;   /* n, each malloc'ed (ct_fs_read_all) or NULL */
  char           *warn;    /* NUL-separated messages */
  size_t          wlen, wcap;
  unsigned        nwarn;
  int             wfailed;
} art_scratch_t;

static int l_art_scratch__gc(lua_State *L) {
  art_scratch_t *s = luaL_checkudata(L, 1, CT_ART_SCRATCH_MT);
  unsigned i;
  for (i = 0; i < s->n && s->files; i++) free(s->files[i]);
  s->n = 0;
  free(s->warn);
  s->warn = NULL;
  return 0;
}

/* The warning callback: no Lua call (it runs inside the core). */
static void art_warn(void *data, const char *msg) {
  art_scratch_t *s = data;
  size_t n = strlen(msg) + 1;
  if (s->wfailed) return;
  if (s->wlen + n > s->wcap) {
    size_t cap = s->wcap ? s->wcap * 2 : 1024;
    char *w;
    while (cap < s->wlen + n) cap *= 2;
    if (!(w = realloc(s->warn, cap))) {
      s->wfailed = 1;
      return;
    }
    s->warn = w;
    s->wcap = cap;
  }
  memcpy(s->warn + s->wlen, msg, n);
  s->wlen += n;
  s->nwarn++;
}

static const char *const art_source_fields[] = { "name", "data", "path", "codepoints", "glyph_name", NULL };
static const char *const art_option_fields[] = { "upem", "ascent", "descent", "advance", "keep_going",
  "flatten_gradients", "flat_only", "threads", NULL };

/* Source `i` (the table at `t`) into src[i] (its codepoints in cps); raises on misuse.
   Strings point into the table, which stays on the stack. */
static void art_source(lua_State *L, int t, lua_Integer i, ct_artwork_source_t *src, uint32_t *cps) {
  const char *bad;
  lua_Integer k, n;
  size_t len;
  if (lua_type(L, t) != LUA_TTABLE)
    luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: table expected)", (int)i);
  if ((bad = lct_badkey(L, t, art_source_fields, 0)))
    luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: %s)", (int)i, bad);
  lua_getfield(L, t, "path");
  lua_getfield(L, t, "data");
  if (lua_isnil(L, -1) == lua_isnil(L, -2) || (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TSTRING) ||
      (!lua_isnil(L, -2) && lua_type(L, -2) != LUA_TSTRING))
    luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: a string 'data' or 'path' expected)", (int)i);
  if (!lua_isnil(L, -1)) {
    src->data = (const unsigned char *)lua_tolstring(L, -1, &len);
    src->len = len;
  }
  src->name = lua_isnil(L, -2) ? NULL : lua_tostring(L, -2);
  lua_pop(L, 2);
  lua_getfield(L, t, "name");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: name: string expected)", (int)i);
    src->name = lua_tostring(L, -1);
  }
  lua_pop(L, 1);
  if (!src->name) luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: a 'name' expected with 'data')", (int)i);
  lua_getfield(L, t, "glyph_name");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: glyph_name: string expected)", (int)i);
    src->glyph_name = lua_tostring(L, -1);
  }
  lua_pop(L, 1);
  src->codepoints = cps;
  if (lua_getfield(L, t, "codepoints") == LUA_TTABLE) {
    n = (lua_Integer)lua_rawlen(L, -1);
    if (n > 64) luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: over 64 code points)", (int)i);
    for (k = 1; k <= n; k++) {
      int isnum;
      lua_Integer c;
      lua_rawgeti(L, -1, k);
      c = lua_tointegerx(L, -1, &isnum);
      if (!isnum || c < 1 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d (%s): code point %d: a character "
                   "(1..0x10FFFF, no surrogate) expected)", (int)i, src->name, (int)k);
      cps[k - 1] = (uint32_t)c;
      lua_pop(L, 1);
    }
    src->ncodepoints = (unsigned)n;
  } else if (!lua_isnil(L, -1)) {
    luaL_error(L, "bad argument #1 to 'artwork_builder' (source %d: codepoints: a list expected)", (int)i);
  }
  lua_pop(L, 1);
}

/* core.artwork_builder(sources, opts) -> builder, warnings | nil, msg, code */
static int l_artwork_builder(lua_State *L) {
  ct_artwork_font_options_t o;
  ct_artwork_source_t *src;
  uint32_t *cps;
  art_scratch_t *s;
  lct_builder_box *box;
  ct_font_builder_t *b;
  ct_error_t err;
  lua_Integer n, i;
  size_t at;
  luaL_checktype(L, 1, LUA_TTABLE);
  n = (lua_Integer)lua_rawlen(L, 1);
  luaL_argcheck(L, n >= 1 && n < 65535, 1, "1 to 65534 sources expected");
  ct_artwork_font_options_init(&o);
  if (lct_checkoptions(L, 2, art_option_fields, 0)) {
    o.upem = (unsigned)lct_optintfield(L, 2, "upem", o.upem, 16, 16384);
    o.ascent = lct_optnumfield(L, 2, "ascent", o.ascent);
    o.descent = lct_optnumfield(L, 2, "descent", o.descent);
    o.advance = lct_optnumfield(L, 2, "advance", 0);
    o.keep_going = lct_optboolfield(L, 2, "keep_going", 0);
    o.flatten_gradients = lct_optboolfield(L, 2, "flatten_gradients", 0);
    o.flat_only = lct_optboolfield(L, 2, "flat_only", 0);
    o.threads = (unsigned)lct_optintfield(L, 2, "threads", 0, 0, CT_MAX_THREADS);
  }
  lua_settop(L, 2);
  src = lua_newuserdatauv(L, (size_t)n * sizeof *src, 0);            /* 3: scratch */
  cps = lua_newuserdatauv(L, (size_t)n * 64 * sizeof *cps, 0);       /* 4 */
  memset(src, 0, (size_t)n * sizeof *src);
  s = lua_newuserdatauv(L, sizeof *s, 0);                            /* 5 */
  memset(s, 0, sizeof *s);
  luaL_setmetatable(L, CT_ART_SCRATCH_MT);
  s->files = lua_newuserdatauv(L, (size_t)n * sizeof *s->files, 0); /* 6 */
  memset(s->files, 0, (size_t)n * sizeof *s->files);
  s->n = (unsigned)n;
  for (i = 1; i <= n; i++) {   /* the strings kept stay alive in the tables of argument 1 */
    lua_rawgeti(L, 1, i);
    art_source(L, lua_gettop(L), i, &src[i - 1], cps + (size_t)(i - 1) * 64);
    lua_pop(L, 1);
  }
  /* every argument valid: the files */
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 1, i + 1);
    if (!src[i].data) {
      size_t len = 0;
      lua_getfield(L, -1, "path");
      if (!(s->files[i] = ct_fs_read_all(lua_tostring(L, -1), CT_MAX_ARTWORK_FILE_SIZE, &len, &err)))
        return lct_pusherror(L, &err);
      src[i].data = s->files[i];
      src[i].len = len;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  box = lua_newuserdatauv(L, sizeof *box, 1);
  box->b = NULL;
  luaL_setmetatable(L, CT_FONTBUILDER_MT);
  if (!(b = ct_font_builder_create_from_artwork(src, (unsigned)n, &o, art_warn, s, &err))) return lct_pusherror(L, &err);
  box->b = b;
  lua_createtable(L, (int)s->nwarn, 0);
  for (i = 0, at = 0; i < (lua_Integer)s->nwarn; i++) {
    lua_pushstring(L, s->warn + at);
    lua_rawseti(L, -2, i + 1);
    at += strlen(s->warn + at) + 1;
  }
  for (i = 0; i < n; i++) {   /* the bytes were borrowed for the call only */
    free(s->files[i]);
    s->files[i] = NULL;
  }
  return 2;
}

/* core.is_dir(path) -> boolean | nil, msg, code (the path does not exist, or is refused) */
static int l_is_dir(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  struct stat sb;
  ct_error_t err;
  if (ct_fs_stat(path, &sb, &err)) return lct_pusherror(L, &err);
  lua_pushboolean(L, S_ISDIR(sb.st_mode));
  return 1;
}

/* core.list_dir(path) -> {names...} (unsorted, without . and ..) | nil, msg, code */
static int l_list_dir(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  ct_error_t err;
  size_t n, i;
  char **names = ct_fs_list(path, &n, &err);
  if (!names) return lct_pusherror(L, &err);
  lua_createtable(L, n > 1000000 ? 1000000 : (int)n, 0);   /* a memory error here leaks the list once */
  for (i = 0; i < n; i++) {
    lua_pushstring(L, names[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  ct_fs_free_list(names, n);
  return 1;
}

static const luaL_Reg builder_methods[] = {
  { "set_palettes", l_builder_set_palettes },
  { "set_glyph", l_builder_set_glyph },
  { "set_axes", l_builder_set_axes },
  { "set_glyph_masters", l_builder_set_glyph_masters },
  { "add_variants", l_builder_add_variants },
  { "kept_variations", l_builder_kept_variations },
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
  lct_gc_metatable(L, CT_ART_SCRATCH_MT, l_art_scratch__gc);
  lua_pushcfunction(L, l_artwork_builder);
  lua_setfield(L, -2, "artwork_builder");
  lua_pushcfunction(L, l_is_dir);
  lua_setfield(L, -2, "is_dir");
  lua_pushcfunction(L, l_list_dir);
  lua_setfield(L, -2, "list_dir");
}
