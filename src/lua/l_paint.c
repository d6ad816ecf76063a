/*
** l_paint.c: paint trees between C (ct_paint_t) and plain Lua tables (bindings
** layer).  Lua -> C validates every field and names its path in errors; both
** directions guard depth and keep shared subtrees shared (memo tables).
*/
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>

#include "l_aux.h"
#include "l_limits.h"
#include "base/ct-limits.h"

/* ---- boxes owning C nodes while Lua code may raise ------------------------------- */

static int paintbox__gc(lua_State *L) {
  ct_paint_t **slot = luaL_checkudata(L, 1, CT_PAINTBOX_MT);
  ct_paint_t *p = *slot;
  *slot = NULL;
  ct_paint_destroy(p);
  return 0;
}

ct_paint_t **lct_newpaintbox(lua_State *L) {
  ct_paint_t **slot = lua_newuserdatauv(L, sizeof *slot, 0);
  *slot = NULL;
  luaL_setmetatable(L, CT_PAINTBOX_MT);
  return slot;
}

/* ---- Lua -> C ------------------------------------------------------------------- */

/* Segments of the path of the value being read: a field name or a list index. */
#define MAX_SEGS (CT_MAX_PAINT_DEPTH * 2 + 8)

typedef struct {
  lua_State *L;
  int        arg;     /* the argument errors are reported against */
  int        memo;    /* abs index: source table -> its box */
  unsigned   depth;
  unsigned   nseg;
  struct { const char *name; lua_Integer index; } seg[MAX_SEGS];
} tocx;

static void push_name(tocx *c, const char *name) {
  if (c->nseg < MAX_SEGS) { c->seg[c->nseg].name = name; c->seg[c->nseg].index = 0; }
  c->nseg++;
}

static void push_index(tocx *c, lua_Integer i) {
  if (c->nseg < MAX_SEGS) { c->seg[c->nseg].name = NULL; c->seg[c->nseg].index = i; }
  c->nseg++;
}

static void pop_seg(tocx *c) { c->nseg--; }

/* Raises "path: <what>" against the argument; `what` is on the stack top. */
static int fail(tocx *c) {
  lua_State *L = c->L;
  luaL_Buffer b;
  unsigned i, n = c->nseg < MAX_SEGS ? c->nseg : MAX_SEGS;
  luaL_buffinit(L, &b);
  for (i = 0; i < n; i++) {
    if (c->seg[i].name) {
      if (i) luaL_addchar(&b, '.');
      luaL_addstring(&b, c->seg[i].name);
    } else {
      lua_pushfstring(L, "[%I]", (LUAI_UACINT)c->seg[i].index);
      luaL_addvalue(&b);
    }
  }
  if (n) luaL_addstring(&b, ": ");
  lua_pushvalue(L, -2);   /* what: below the buffer's placeholder */
  luaL_addvalue(&b);
  luaL_pushresult(&b);
  return luaL_argerror(L, c->arg, lua_tostring(L, -1));
}

static int failf(tocx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(c->L, fmt, ap);
  va_end(ap);
  return fail(c);
}

/* The value at `idx` must have type `t`, else "expected <name>, got <type>". */
static void expect(tocx *c, int idx, int t, const char *name) {
  if (lua_type(c->L, idx) != t) failf(c, "expected %s, got %s", name, luaL_typename(c->L, idx));
}

static void checkkeys(tocx *c, int t, const char *const fields[], lua_Integer npos) {
  if (lct_badkey(c->L, t, fields, npos)) fail(c);
}

/* Field `name` of the table at `t` as a finite number; `def` if absent and
   `required` is 0.  [-0, +0] */
static double numfield(tocx *c, int t, const char *name, int required, double def) {
  lua_State *L = c->L;
  double v;
  push_name(c, name);
  if (lua_getfield(L, t, name) == LUA_TNIL && !required) {
    lua_pop(L, 1);
    pop_seg(c);
    return def;
  }
  expect(c, -1, LUA_TNUMBER, "number");
  v = lua_tonumber(L, -1);
  if (!isfinite(v)) failf(c, "expected a finite number");
  lua_pop(L, 1);
  pop_seg(c);
  return v;
}

/* A list of exactly `n` finite numbers in field `name` (points, matrices, boxes). */
static void numlist(tocx *c, int t, const char *name, double *out, int n) {
  lua_State *L = c->L;
  int i;
  push_name(c, name);
  lua_getfield(L, t, name);
  expect(c, -1, LUA_TTABLE, "table");
  checkkeys(c, -1, NULL, n);
  for (i = 0; i < n; i++) {
    push_index(c, i + 1);
    lua_rawgeti(L, -1, i + 1);
    expect(c, -1, LUA_TNUMBER, "number");
    out[i] = lua_tonumber(L, -1);
    if (!isfinite(out[i])) failf(c, "expected a finite number");
    lua_pop(L, 1);
    pop_seg(c);
  }
  lua_pop(L, 1);
  pop_seg(c);
}

static const char *const color_fields[] = { "palette", "foreground", "rgba", "alpha", NULL };

/* The color table in field `name` of the table at `t`.  [-0, +0] */
static ct_color_t colorfield(tocx *c, int t, const char *name) {
  lua_State *L = c->L;
  ct_color_t color;
  double alpha;
  int kinds = 0, ct;
  push_name(c, name);
  lua_getfield(L, t, name);
  expect(c, -1, LUA_TTABLE, "table");
  ct = lua_absindex(L, -1);
  checkkeys(c, ct, color_fields, 0);
  alpha = numfield(c, ct, "alpha", 0, 1.0);
  if (!(alpha >= 0 && alpha <= 1)) {
    push_name(c, "alpha");
    failf(c, "alpha out of range (0..1)");
  }
  memset(&color, 0, sizeof color);
  if (lua_getfield(L, ct, "palette") != LUA_TNIL) {
    int isint = 0;
    lua_Integer i = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &isint) : 0;
    push_name(c, "palette");
    if (!isint) failf(c, "expected integer, got %s", luaL_typename(L, -1));
    if (i < 0 || i > 0xFFFF) failf(c, "palette entry out of range (0..65535, 65535 = foreground)");
    pop_seg(c);
    color = ct_color_palette((unsigned)i, alpha);
    kinds++;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, ct, "foreground") != LUA_TNIL) {
    push_name(c, "foreground");
    if (lua_type(L, -1) != LUA_TBOOLEAN || !lua_toboolean(L, -1))
      failf(c, "expected true, got %s", luaL_typename(L, -1));
    pop_seg(c);
    color = ct_color_foreground(alpha);
    kinds++;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, ct, "rgba") != LUA_TNIL) {
    ct_rgba_t rgba;
    const char *why;
    push_name(c, "rgba");
    if ((why = lct_tocolor(L, -1, &rgba))) failf(c, "%s", why);
    pop_seg(c);
    color = ct_color_rgba(rgba);
    color.alpha = alpha;
    kinds++;
  }
  lua_pop(L, 1);
  if (kinds != 1)
    failf(c, "expected exactly one of palette=, foreground= or rgba=");
  lua_pop(L, 1);
  pop_seg(c);
  return color;
}

static const char *const stop_fields[] = { "offset", "color", NULL };
static const char *const extend_names[] = { "pad", "repeat", "reflect", NULL };

/* The color line of a gradient node at `t`: stops in a scratch userdata left on the
   stack (collected later).  [-0, +1] */
static void colorline(tocx *c, int t, ct_color_line_t *line) {
  lua_State *L = c->L;
  lua_Integer n, i;
  int list;
  memset(line, 0, sizeof *line);
  push_name(c, "extend");
  if (lua_getfield(L, t, "extend") != LUA_TNIL) {
    const char *s;
    int k;
    expect(c, -1, LUA_TSTRING, "string");
    s = lua_tostring(L, -1);
    for (k = 0; extend_names[k] && strcmp(extend_names[k], s) != 0; k++) {}
    if (!extend_names[k]) failf(c, "unknown extend '%s' (expected pad, repeat or reflect)", s);
    line->extend = (ct_extend_t)k;
  }
  lua_pop(L, 1);
  pop_seg(c);

  push_name(c, "stops");
  lua_getfield(L, t, "stops");
  expect(c, -1, LUA_TTABLE, "table");
  list = lua_absindex(L, -1);
  n = (lua_Integer)lua_rawlen(L, list);
  if (n > 0xFFFF) failf(c, "more than 65535 stops");
  checkkeys(c, list, NULL, n);
  line->stops = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *line->stops, 0);
  line->count = (unsigned)n;
  for (i = 1; i <= n; i++) {
    int st;
    ct_color_stop_t *s = &line->stops[i - 1];
    push_index(c, i);
    lua_rawgeti(L, list, i);
    expect(c, -1, LUA_TTABLE, "table");
    st = lua_absindex(L, -1);
    checkkeys(c, st, stop_fields, 0);
    s->offset = numfield(c, st, "offset", 1, 0);
    s->color = colorfield(c, st, "color");
    lua_pop(L, 1);
    pop_seg(c);
  }
  lua_remove(L, list);   /* leaves the scratch stops on top */
  pop_seg(c);
}

static const char *const node_fields[CT_PAINT_KIND_COUNT][8] = {
  [CT_PAINT_LAYERS] = { "kind", "children", NULL },
  [CT_PAINT_GLYPH] = { "kind", "gid", "child", "font", NULL },
  [CT_PAINT_SOLID] = { "kind", "color", NULL },
  [CT_PAINT_LINEAR] = { "kind", "stops", "extend", "p0", "p1", "p2", NULL },
  [CT_PAINT_RADIAL] = { "kind", "stops", "extend", "c0", "r0", "c1", "r1", NULL },
  [CT_PAINT_SWEEP] = { "kind", "stops", "extend", "center", "start_angle", "end_angle", NULL },
  [CT_PAINT_TRANSFORM] = { "kind", "matrix", "child", NULL },
  [CT_PAINT_COMPOSITE] = { "kind", "mode", "source", "backdrop", NULL },
  [CT_PAINT_CLIP] = { "kind", "box", "child", NULL },
  [CT_PAINT_SVG] = { "kind", "gid", "handle", "layer", "layers", NULL },
  [CT_PAINT_BITMAP] = { "kind", "gid", "font", NULL },
};

static ct_paint_t *convert(tocx *c, int idx);

/* Converts the node in field `name` of the table at `t`; pushes its box.  [-0, +1] */
static ct_paint_t *childfield(tocx *c, int t, const char *name) {
  ct_paint_t *p;
  push_name(c, name);
  lua_getfield(c->L, t, name);
  p = convert(c, -1);          /* pushes the box above the node table */
  lua_remove(c->L, -2);
  pop_seg(c);
  return p;
}

/* The `gid` and optional `font` fields of glyph and bitmap nodes; the tree's table keeps
   the font alive until the node references it.  [-0, +0] */
static unsigned gid_font_fields(tocx *c, int t, ct_font_t **font) {
  lua_State *L = c->L;
  lua_Integer gid;
  int isint = 0;
  *font = NULL;
  push_name(c, "gid");
  lua_getfield(L, t, "gid");
  gid = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &isint) : 0;
  if (!isint) failf(c, "expected integer, got %s", luaL_typename(L, -1));
  if (gid < 0 || gid > 0xFFFF) failf(c, "glyph id out of range (0..65535)");
  lua_pop(L, 1);
  pop_seg(c);
  push_name(c, "font");
  if (lua_getfield(L, t, "font") != LUA_TNIL) {
    lct_font_box *fb = luaL_testudata(L, -1, CT_FONT_MT);
    if (!fb) failf(c, "expected %s, got %s", CT_FONT_MT, luaL_typename(L, -1));
    if (!(*font = fb->font)) failf(c, "attempt to use a closed font");
  }
  lua_pop(L, 1);
  pop_seg(c);
  return (unsigned)gid;
}

static ct_paint_t *nomem(tocx *c) {
  luaL_error(c->L, "not enough memory");
  return NULL;
}

/* The builders of convert()'s larger kinds: each sets *slot, the box on the stack top that
   owns the node from then on, from the node table at `t`, and returns the node.  They
   raise on a bad field or a failed allocation. */

/* A layers node: its children in order.  [-0, +0] */
static ct_paint_t *layers_node(tocx *c, int t, ct_paint_t **slot) {
  lua_State *L = c->L;
  ct_paint_t *child;
  lua_Integer n, i;
  int list;
  push_name(c, "children");
  lua_getfield(L, t, "children");
  expect(c, -1, LUA_TTABLE, "table");
  list = lua_absindex(L, -1);
  n = (lua_Integer)lua_rawlen(L, list);
  if (n > 65535) failf(c, "more than 65535 children");
  checkkeys(c, list, NULL, n);
  if (!(*slot = ct_paint_layers_create((unsigned)n))) return nomem(c);
  for (i = 1; i <= n; i++) {
    push_index(c, i);
    lua_rawgeti(L, list, i);
    child = convert(c, -1);
    if (ct_paint_layers_append(*slot, ct_paint_reference(child)) != CT_OK) return nomem(c);
    lua_pop(L, 2);   /* child box and child table */
    pop_seg(c);
  }
  lua_pop(L, 1);
  pop_seg(c);
  return *slot;
}

/* A linear gradient: p0, p1 and an optional p2.  [-0, +0] */
static ct_paint_t *linear_node(tocx *c, int t, ct_paint_t **slot) {
  lua_State *L = c->L;
  ct_color_line_t line;
  double p[6];
  colorline(c, t, &line);
  numlist(c, t, "p0", p, 2);
  numlist(c, t, "p1", p + 2, 2);
  lua_getfield(L, t, "p2");
  if (lua_isnil(L, -1)) {   /* two-point gradient: isolines perpendicular to p0->p1 */
    p[4] = p[0] - (p[3] - p[1]);
    p[5] = p[1] + (p[2] - p[0]);
  } else {
    numlist(c, t, "p2", p + 4, 2);
  }
  lua_pop(L, 1);
  if (!(*slot = ct_paint_linear_create(&line, p))) return nomem(c);
  lua_pop(L, 1);   /* scratch stops */
  return *slot;
}

/* A radial gradient: two circles, their radii >= 0.  [-0, +0] */
static ct_paint_t *radial_node(tocx *c, int t, ct_paint_t **slot) {
  lua_State *L = c->L;
  ct_color_line_t line;
  double v[6];
  colorline(c, t, &line);
  numlist(c, t, "c0", v, 2);
  v[2] = numfield(c, t, "r0", 1, 0);
  numlist(c, t, "c1", v + 3, 2);
  v[5] = numfield(c, t, "r1", 1, 0);
  if (v[2] < 0 || v[5] < 0) {
    push_name(c, v[2] < 0 ? "r0" : "r1");
    failf(c, "radius must be >= 0");
  }
  if (!(*slot = ct_paint_radial_create(&line, v))) return nomem(c);
  lua_pop(L, 1);
  return *slot;
}

/* A sweep gradient: a center and two angles.  [-0, +0] */
static ct_paint_t *sweep_node(tocx *c, int t, ct_paint_t **slot) {
  lua_State *L = c->L;
  ct_color_line_t line;
  double center[2], a0, a1;
  colorline(c, t, &line);
  numlist(c, t, "center", center, 2);
  a0 = numfield(c, t, "start_angle", 1, 0);
  a1 = numfield(c, t, "end_angle", 1, 0);
  if (!(*slot = ct_paint_sweep_create(&line, center[0], center[1], a0, a1))) return nomem(c);
  lua_pop(L, 1);
  return *slot;
}

/* A composite node: its mode by name, its source and backdrop.  [-0, +0] */
static ct_paint_t *composite_node(tocx *c, int t, ct_paint_t **slot) {
  lua_State *L = c->L;
  ct_paint_t *src, *dst;
  const char *mname;
  int mode;
  push_name(c, "mode");
  lua_getfield(L, t, "mode");
  expect(c, -1, LUA_TSTRING, "string");
  mname = lua_tostring(L, -1);
  if ((mode = ct_composite_mode_from_name(mname)) < 0)
    failf(c, "unknown composite mode '%s'", mname);
  lua_pop(L, 1);
  pop_seg(c);
  src = childfield(c, t, "source");
  dst = childfield(c, t, "backdrop");
  if (!(*slot = ct_paint_composite_create((ct_composite_mode_t)mode, ct_paint_reference(src),
                                          ct_paint_reference(dst))))
    return nomem(c);
  lua_pop(L, 2);
  return *slot;
}

/* An svg node, opaque: the handle of a node that came from font:paint().  [-0, +0] */
static ct_paint_t *svg_node(tocx *c, int t, ct_paint_t **slot) {
  lua_State *L = c->L;
  ct_paint_t **h, *whole, *child;
  lua_Integer n, i;
  int same;
  push_name(c, "handle");
  lua_getfield(L, t, "handle");
  h = luaL_testudata(L, -1, CT_PAINTBOX_MT);
  if (!h || !*h || (*h)->kind != CT_PAINT_SVG)
    failf(c, "expected the handle of an svg node from font:paint(), got %s", luaL_typename(L, -1));
  whole = *h;
  lua_pop(L, 1);
  pop_seg(c);
  push_name(c, "layers");
  if (lua_getfield(L, t, "layers") == LUA_TNIL || whole->u.svg.layer >= 0) {
    lua_pop(L, 1);
    pop_seg(c);
    *slot = ct_paint_reference(whole);   /* untouched: one librsvg call */
    return *slot;
  }
  expect(c, -1, LUA_TTABLE, "table");
  n = (lua_Integer)lua_rawlen(L, -1);
  /* the layers as font:paint() gave them, in order: still the whole glyph in one call */
  same = n == (lua_Integer)ct_svg_glyph_get_layer_count(whole->u.svg.glyph);
  for (i = 1; same && i <= n; i++) {
    ct_paint_t **lh;
    lua_rawgeti(L, -1, i);
    same = lua_type(L, -1) == LUA_TTABLE && lua_getfield(L, -1, "handle") == LUA_TUSERDATA &&
           (lh = luaL_testudata(L, -1, CT_PAINTBOX_MT)) && *lh && (*lh)->kind == CT_PAINT_SVG &&
           (*lh)->u.svg.glyph == whole->u.svg.glyph && (*lh)->u.svg.layer == (int)(i - 1);
    lua_pop(L, 2);
  }
  if (same) {
    lua_pop(L, 1);
    pop_seg(c);
    *slot = ct_paint_reference(whole);
    return *slot;
  }
  /* changed (recolored, moved, hidden, reordered): the layers one by one */
  if (!(*slot = ct_paint_layers_create((unsigned)n))) return nomem(c);
  for (i = 1; i <= n; i++) {
    push_index(c, i);
    lua_rawgeti(L, -1, i);
    child = convert(c, -1);
    lua_remove(L, -2);
    if (ct_paint_layers_append(*slot, ct_paint_reference(child)) != CT_OK) return nomem(c);
    lua_pop(L, 1);
    pop_seg(c);
  }
  lua_pop(L, 1);
  pop_seg(c);
  return *slot;
}

/* Converts the node at `idx`; pushes the box owning the result.  [-0, +1] */
static ct_paint_t *convert(tocx *c, int idx) {
  lua_State *L = c->L;
  ct_paint_t **slot, *child;
  const char *kname;
  int t = lua_absindex(L, idx), kind;

  luaL_checkstack(L, 12, "paint tree too deep");
  expect(c, t, LUA_TTABLE, "table");
  lua_pushvalue(L, t);
  if (lua_rawget(L, c->memo) == LUA_TUSERDATA)   /* shared subtree: converted once */
    return *(ct_paint_t **)lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (c->depth >= CT_MAX_PAINT_DEPTH)
    return failf(c, "paint tree deeper than %d levels (a cycle?)", (int)CT_MAX_PAINT_DEPTH), NULL;
  c->depth++;

  push_name(c, "kind");
  lua_getfield(L, t, "kind");
  expect(c, -1, LUA_TSTRING, "string");
  kname = lua_tostring(L, -1);
  kind = ct_paint_kind_from_name(kname);
  if (kind < 0 || kind >= CT_PAINT_KIND_COUNT)
    return failf(c, "unknown paint kind '%s'", kname), NULL;
  lua_pop(L, 1);
  pop_seg(c);
  checkkeys(c, t, node_fields[kind], 0);

  slot = lct_newpaintbox(L);   /* owns the node from here on */
  switch ((ct_paint_kind_t)kind) {
  case CT_PAINT_LAYERS:
    layers_node(c, t, slot);
    break;
  case CT_PAINT_GLYPH: {
    ct_font_t *font;
    unsigned gid = gid_font_fields(c, t, &font);
    child = childfield(c, t, "child");
    if (!(*slot = ct_paint_glyph_create(font, gid, ct_paint_reference(child))))
      return nomem(c);
    lua_pop(L, 1);
    break;
  }
  case CT_PAINT_SOLID:
    if (!(*slot = ct_paint_solid_create(colorfield(c, t, "color")))) return nomem(c);
    break;
  case CT_PAINT_LINEAR:
    linear_node(c, t, slot);
    break;
  case CT_PAINT_RADIAL:
    radial_node(c, t, slot);
    break;
  case CT_PAINT_SWEEP:
    sweep_node(c, t, slot);
    break;
  case CT_PAINT_TRANSFORM: {
    double m[6];
    numlist(c, t, "matrix", m, 6);
    child = childfield(c, t, "child");
    if (!(*slot = ct_paint_transform_create(m, ct_paint_reference(child)))) return nomem(c);
    lua_pop(L, 1);
    break;
  }
  case CT_PAINT_COMPOSITE:
    composite_node(c, t, slot);
    break;
  case CT_PAINT_CLIP: {
    double b[4];
    numlist(c, t, "box", b, 4);
    child = childfield(c, t, "child");
    if (!(*slot = ct_paint_clip_create(b[0], b[1], b[2], b[3], ct_paint_reference(child))))
      return nomem(c);
    lua_pop(L, 1);
    break;
  }
  case CT_PAINT_SVG:   /* opaque: the handle of a node that came from font:paint() */
    svg_node(c, t, slot);
    break;
  case CT_PAINT_BITMAP: {
    ct_font_t *font;
    unsigned gid = gid_font_fields(c, t, &font);
    if (!(*slot = ct_paint_bitmap_create(font, gid))) return nomem(c);
    break;
  }
  case CT_PAINT_KIND_COUNT:
    break;
  }
  lua_pushvalue(L, t);
  lua_pushvalue(L, -2);
  lua_rawset(L, c->memo);
  c->depth--;
  return *slot;
}

ct_paint_t *lct_topaint(lua_State *L, int idx, int arg) {
  tocx c;
  ct_paint_t *p;
  idx = lua_absindex(L, idx);
  memset(&c, 0, sizeof c);
  c.L = L;
  c.arg = arg;
  if (lua_type(L, idx) != LUA_TTABLE) luaL_typeerror(L, arg, "table (a paint tree)");
  lua_newtable(L);
  c.memo = lua_gettop(L);
  p = convert(&c, idx);
  lua_remove(L, c.memo);   /* the box stays */
  return p;
}

/* ---- C -> Lua ------------------------------------------------------------------- */

typedef struct {
  lua_State       *L;
  const ct_font_t *font;
  int              memo;   /* abs index: node or font pointer -> table or Font */
  unsigned         depth;
} pushcx;

static void setnum(lua_State *L, const char *k, double v) {   /* [-0, +0] */
  lct_pushnum(L, v);
  lua_setfield(L, -2, k);
}

static void setpoint(lua_State *L, const char *k, double x, double y) {   /* [-0, +0] */
  lua_createtable(L, 2, 0);
  lct_pushnum(L, x);
  lua_rawseti(L, -2, 1);
  lct_pushnum(L, y);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, -2, k);
}

static void pushcolor(lua_State *L, const ct_color_t *color) {   /* [-0, +1] */
  lua_createtable(L, 0, 2);
  switch (color->kind) {
  case CT_COLOR_PALETTE:
    if (color->index == CT_PALETTE_FOREGROUND) {
      lua_pushboolean(L, 1);
      lua_setfield(L, -2, "foreground");
    } else {
      lua_pushinteger(L, color->index);
      lua_setfield(L, -2, "palette");
    }
    break;
  case CT_COLOR_FOREGROUND:
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "foreground");
    break;
  case CT_COLOR_RGBA:
    lct_pushcolor(L, color->rgba);
    lua_setfield(L, -2, "rgba");
    break;
  }
  setnum(L, "alpha", color->alpha);
}

static void setline(lua_State *L, const ct_color_line_t *line) {   /* [-0, +0] */
  static const char *const ext[] = { "pad", "repeat", "reflect" };
  unsigned i;
  lua_pushstring(L, ext[(unsigned)line->extend < 3 ? line->extend : 0]);
  lua_setfield(L, -2, "extend");
  lua_createtable(L, (int)line->count, 0);
  for (i = 0; i < line->count; i++) {
    lua_createtable(L, 0, 2);
    setnum(L, "offset", line->stops[i].offset);
    pushcolor(L, &line->stops[i].color);
    lua_setfield(L, -2, "color");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "stops");
}

static void pushnode(pushcx *c, const ct_paint_t *p);

static void setchild(pushcx *c, const char *k, const ct_paint_t *p) {   /* [-0, +0] */
  pushnode(c, p);
  lua_setfield(c->L, -2, k);
}

static void pushnode(pushcx *c, const ct_paint_t *p) {   /* [-0, +1] */
  lua_State *L = c->L;
  unsigned i;
  luaL_checkstack(L, 8, "paint tree too deep");
  if (!p) luaL_error(L, "paint tree has an empty child");
  if (lua_rawgetp(L, c->memo, p) == LUA_TTABLE) return;   /* shared subtree */
  lua_pop(L, 1);
  if (c->depth >= CT_MAX_PAINT_DEPTH)
    luaL_error(L, "paint tree deeper than %d levels", (int)CT_MAX_PAINT_DEPTH);
  c->depth++;
  lua_createtable(L, 0, 6);
  lua_pushstring(L, ct_paint_kind_name(p->kind));
  lua_setfield(L, -2, "kind");
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    lua_createtable(L, (int)p->u.layers.count, 0);
    for (i = 0; i < p->u.layers.count; i++) {
      pushnode(c, p->u.layers.children[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "children");
    break;
  case CT_PAINT_GLYPH:
    lua_pushinteger(L, p->u.glyph.gid);
    lua_setfield(L, -2, "gid");
    if (p->u.glyph.font && p->u.glyph.font != c->font) {
      if (lua_rawgetp(L, c->memo, p->u.glyph.font) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        lct_pushfont(L, p->u.glyph.font);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, c->memo, p->u.glyph.font);
      }
      lua_setfield(L, -2, "font");
    }
    setchild(c, "child", p->u.glyph.child);
    break;
  case CT_PAINT_SOLID:
    pushcolor(L, &p->u.solid.color);
    lua_setfield(L, -2, "color");
    break;
  case CT_PAINT_LINEAR:
    setline(L, &p->u.linear.line);
    setpoint(L, "p0", p->u.linear.x0, p->u.linear.y0);
    setpoint(L, "p1", p->u.linear.x1, p->u.linear.y1);
    setpoint(L, "p2", p->u.linear.x2, p->u.linear.y2);
    break;
  case CT_PAINT_RADIAL:
    setline(L, &p->u.radial.line);
    setpoint(L, "c0", p->u.radial.x0, p->u.radial.y0);
    setnum(L, "r0", p->u.radial.r0);
    setpoint(L, "c1", p->u.radial.x1, p->u.radial.y1);
    setnum(L, "r1", p->u.radial.r1);
    break;
  case CT_PAINT_SWEEP:
    setline(L, &p->u.sweep.line);
    setpoint(L, "center", p->u.sweep.cx, p->u.sweep.cy);
    setnum(L, "start_angle", p->u.sweep.start_angle);
    setnum(L, "end_angle", p->u.sweep.end_angle);
    break;
  case CT_PAINT_TRANSFORM: {
    const double m[6] = { p->u.transform.xx, p->u.transform.yx, p->u.transform.xy,
                          p->u.transform.yy, p->u.transform.dx, p->u.transform.dy };
    lua_createtable(L, 6, 0);
    for (i = 0; i < 6; i++) {
      lct_pushnum(L, m[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "matrix");
    setchild(c, "child", p->u.transform.child);
    break;
  }
  case CT_PAINT_COMPOSITE:
    lua_pushstring(L, ct_composite_mode_name(p->u.composite.mode));
    lua_setfield(L, -2, "mode");
    setchild(c, "source", p->u.composite.source);
    setchild(c, "backdrop", p->u.composite.backdrop);
    break;
  case CT_PAINT_CLIP: {
    const double b[4] = { p->u.clip.x0, p->u.clip.y0, p->u.clip.x1, p->u.clip.y1 };
    lua_createtable(L, 4, 0);
    for (i = 0; i < 4; i++) {
      lct_pushnum(L, b[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "box");
    setchild(c, "child", p->u.clip.child);
    break;
  }
  case CT_PAINT_SVG: {
    ct_paint_t **h;
    unsigned n = ct_svg_glyph_get_layer_count(p->u.svg.glyph);
    lua_pushinteger(L, p->u.svg.gid);
    lua_setfield(L, -2, "gid");
    h = lct_newpaintbox(L);   /* keeps the document's glyph alive for the way back */
    *h = ct_paint_reference((ct_paint_t *)(uintptr_t)p);
    lua_setfield(L, -2, "handle");
    if (p->u.svg.layer >= 0) {
      lua_pushinteger(L, p->u.svg.layer + 1);
      lua_setfield(L, -2, "layer");
    } else {
      /* the glyph element's drawable children, to recolor, move, hide or reorder */
      lua_createtable(L, (int)n, 0);
      for (i = 0; i < n; i++) {
        lua_createtable(L, 0, 4);
        lua_pushliteral(L, "svg");
        lua_setfield(L, -2, "kind");
        lua_pushinteger(L, p->u.svg.gid);
        lua_setfield(L, -2, "gid");
        lua_pushinteger(L, (lua_Integer)i + 1);
        lua_setfield(L, -2, "layer");
        h = lct_newpaintbox(L);
        if (!(*h = ct_paint_svg_create(p->u.svg.glyph, (int)i))) luaL_error(L, "not enough memory");
        lua_setfield(L, -2, "handle");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
      }
      lua_setfield(L, -2, "layers");
    }
    break;
  }
  case CT_PAINT_BITMAP:
    lua_pushinteger(L, p->u.bitmap.gid);
    lua_setfield(L, -2, "gid");
    if (p->u.bitmap.font && p->u.bitmap.font != c->font) {
      lct_pushfont(L, p->u.bitmap.font);
      lua_setfield(L, -2, "font");
    }
    break;
  case CT_PAINT_KIND_COUNT:
    break;
  }
  lua_pushvalue(L, -1);
  lua_rawsetp(L, c->memo, p);
  c->depth--;
}

void lct_pushpaint(lua_State *L, const ct_paint_t *paint, const ct_font_t *font) {
  pushcx c;
  c.L = L;
  c.font = font;
  c.depth = 0;
  lua_newtable(L);
  c.memo = lua_gettop(L);
  pushnode(&c, paint);
  lua_remove(L, c.memo);
}

/* normalize_paint(tree) -> tree: validates a tree and returns it in canonical form
   (every field present, colors as "#rrggbbaa"). */
static int l_paint_normalize(lua_State *L) {
  ct_paint_t *p;
  lct_mem_pace(L);   /* C memory that Lua does not see: collected before making more */
  p = lct_topaint(L, 1, 1);
  lct_pushpaint(L, p, NULL);
  return 1;
}

static const luaL_Reg paint_funcs[] = {
  { "normalize_paint", l_paint_normalize },
  { NULL, NULL }
};

void lct_open_paint(lua_State *L) {
  lct_gc_metatable(L, CT_PAINTBOX_MT, paintbox__gc);
  luaL_setfuncs(L, paint_funcs, 0);
}
