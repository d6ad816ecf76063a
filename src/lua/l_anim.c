/*
** l_anim.c: chromatype.Animation, the core's animation writer for Lua (bindings layer).
** chromatype.animate (ct.animate) drives it: one canvas per frame, added and dropped.
**   local a = core.animation(path, { width = px, height = px, fps = 30, frames = N,
**                                    loop = 0, quality = -1, format = "webp", dither = false,
**                                    matte = "#ffffff" })
**   a:add(canvas [, { dpi = 72, poster = false }])   a:finish()   a:close()
*/
#include <stdio.h>
#include <string.h>

#include "l_aux.h"
#include "base/ct-limits.h"

#define CT_ANIM_MT "chromatype.Animation"

typedef struct {
  ct_anim_t *anim;
} lct_anim_box;

static lct_anim_box *checkbox(lua_State *L) {
  return luaL_checkudata(L, 1, CT_ANIM_MT);
}

static ct_anim_t *checkanim(lua_State *L) {
  lct_anim_box *box = checkbox(L);
  if (!box->anim) luaL_error(L, "attempt to use a closed animation");
  return box->anim;
}

/* Closes without finishing: nothing is left on disk. */
static int l_anim__gc(lua_State *L) {
  lct_anim_box *box = checkbox(L);
  ct_anim_t *a = box->anim;
  box->anim = NULL;
  ct_anim_destroy(a);
  return 0;
}

static const char *const anim_fields[] = { "width", "height", "fps", "frames", "loop", "quality", "effort", "format",
                                           "dither", "matte", NULL };
static const char *const format_names[] = { "auto", "apng", "webp", "gif", "frames", "video", NULL };

/* core.animation(path, opts) -> Animation | nil, msg, code */
static int l_animation(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  ct_anim_options_t o;
  lct_anim_box *box;
  lua_Integer w, h;
  ct_error_t err;
  luaL_checktype(L, 2, LUA_TTABLE);
  lct_checkoptions(L, 2, anim_fields, 0);
  ct_anim_options_init(&o);
  w = lct_optintfield(L, 2, "width", 0, 1, CT_MAX_IMAGE_SIDE);
  h = lct_optintfield(L, 2, "height", 0, 1, CT_MAX_IMAGE_SIDE);
  o.fps = lct_optnumfield(L, 2, "fps", 30);
  o.frames = (unsigned)lct_optintfield(L, 2, "frames", 0, 0, CT_MAX_ANIM_FRAMES);
  o.loop = (unsigned)lct_optintfield(L, 2, "loop", 0, 0, 65535);
  o.quality = (int)lct_optintfield(L, 2, "quality", -1, -1, 100);
  o.effort = (int)lct_optintfield(L, 2, "effort", 0, 0, 6);
  o.format = (ct_anim_format_t)lct_optenumfield(L, 2, "format", "auto", format_names);
  o.dither = lct_optboolfield(L, 2, "dither", 0);
  lct_optcolorfield(L, 2, "matte", &o.matte);
  if (w == 0 || h == 0) return luaL_argerror(L, 2, "width and height (pixels) are required");
  box = lua_newuserdatauv(L, sizeof *box, 0);
  box->anim = NULL;
  luaL_setmetatable(L, CT_ANIM_MT);
  if (!(box->anim = ct_anim_create(path, (int)w, (int)h, &o, &err))) return lct_pusherror(L, &err);
  return 1;
}

static const char *const add_fields[] = { "dpi", "poster", "page", NULL };

/* a:add(canvas [, {dpi =, poster =, page =}]) -> a | nil, msg, code */
static int l_anim_add(lua_State *L) {
  ct_anim_t *a = checkanim(L);
  lct_canvas_box *cb = luaL_checkudata(L, 2, CT_CANVAS_MT);
  double dpi;
  int poster;
  lua_Integer page;
  ct_error_t err;
  if (!cb->canvas) return luaL_error(L, "attempt to use a closed canvas");
  lct_checkoptions(L, 3, add_fields, 0);
  dpi = lct_optnumfield(L, 3, "dpi", 72);
  poster = lct_optboolfield(L, 3, "poster", 0);
  page = lct_optintfield(L, 3, "page", 1, 1, CT_MAX_PAGES);
  if (!(dpi > 0 && dpi <= CT_MAX_DPI)) return lct_fielderror(L, 3, "dpi", "out of range");
  if (ct_anim_add_canvas(a, cb->canvas, (unsigned)(page - 1), dpi, poster, &err)) return lct_pusherror(L, &err);
  lua_settop(L, 1);
  return 1;
}

/* The drawing of a:render: calls draw(frame) -> canvas in protected mode and rasterizes the
   canvas's first page; in a worker process or here. */
typedef struct {
  lua_State *L;
  int        draw;        /* stack index of the function */
  int        warn;        /* stack index of the warning function (or 0) */
  double     dpi;
  int        width, height;
} render_ud;

static int close_canvas(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, CT_CANVAS_MT);
  lua_getfield(L, -1, "__close");
  lua_pushvalue(L, 1);
  lua_call(L, 1, 0);
  return 0;
}

static ct_status_t fail(ct_error_t *err, const char *msg) {
  if (err) {
    err->status = CT_ERR_CALLBACK;
    snprintf(err->message, sizeof err->message, "%s", msg);
  }
  return CT_ERR_CALLBACK;
}

static ct_status_t render_draw(void *user, unsigned frame, unsigned char *rgba, ct_error_t *err) {
  render_ud *u = user;
  lua_State *L = u->L;
  lct_canvas_box *cb;
  ct_status_t st;
  int top = lua_gettop(L);
  lua_pushvalue(L, u->draw);
  lua_pushinteger(L, frame);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    st = fail(err, lua_isstring(L, -1) ? lua_tostring(L, -1) : "error in the drawing function");
    lua_settop(L, top);
    return st;
  }
  cb = luaL_testudata(L, -1, CT_CANVAS_MT);
  if (!cb || !cb->canvas) {
    char msg[96];
    lua_settop(L, top);
    snprintf(msg, sizeof msg, "frame %u: the drawing function returned no open canvas", frame);
    return fail(err, msg);
  }
  st = ct_anim_render_rgba(cb->canvas, 0, u->dpi, u->width, u->height, rgba, err);
  /* the canvas (and what it holds) is released now, not at the next collection */
  lua_pushcfunction(L, close_canvas);
  lua_insert(L, -2);
  lua_pcall(L, 1, 0, 0);
  lua_settop(L, top);
  return st;
}

static void render_warning(void *user, const char *msg) {
  render_ud *u = user;
  lua_State *L = u->L;
  if (!u->warn) return;
  lua_pushvalue(L, u->warn);
  lua_pushstring(L, msg);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
}

static const char *const render_fields[] = { "frames", "poster", "workers", "dpi", "draw", "warning", NULL };

/* a:render{frames = N, draw = function(frame) -> canvas, dpi =, poster =, workers =,
   warning = function(msg)} -> a | nil, msg, code.  Frames 0..N-1 drawn by `draw` (in worker
   processes, one per core unless `workers` says otherwise), rasterized at `dpi` and added in
   order; `warning` receives what core.anim_warning sent during the render, once each. */
static int l_anim_render(lua_State *L) {
  ct_anim_t *a = checkanim(L);
  render_ud u;
  ct_anim_farm_t farm;
  lua_Integer frames, poster, workers;
  ct_error_t err;
  luaL_checktype(L, 2, LUA_TTABLE);
  lct_checkoptions(L, 2, render_fields, 0);
  frames = lct_optintfield(L, 2, "frames", 0, 1, CT_MAX_ANIM_FRAMES);
  poster = lct_optintfield(L, 2, "poster", -1, -1, CT_MAX_ANIM_FRAMES);
  workers = lct_optintfield(L, 2, "workers", 0, 0, CT_MAX_ANIM_WORKERS);
  if (frames == 0) return lct_fielderror(L, 2, "frames", "required");
  if (poster >= frames) return lct_fielderror(L, 2, "poster", "not one of the frames");
  memset(&u, 0, sizeof u);
  u.L = L;
  u.dpi = lct_optnumfield(L, 2, "dpi", 72);
  if (!(u.dpi > 0 && u.dpi <= CT_MAX_DPI)) return lct_fielderror(L, 2, "dpi", "out of range");
  ct_anim_get_size(a, &u.width, &u.height);
  lua_settop(L, 2);
  lua_getfield(L, 2, "draw");
  if (!lua_isfunction(L, 3)) return lct_fielderror(L, 2, "draw", "a function expected");
  u.draw = 3;
  lua_getfield(L, 2, "warning");
  if (!lua_isnil(L, 4)) {
    if (!lua_isfunction(L, 4)) return lct_fielderror(L, 2, "warning", "a function expected");
    u.warn = 4;
  }
  farm.workers = (unsigned)workers;
  farm.draw = render_draw;
  farm.warning = render_warning;
  farm.user = &u;
  if (ct_anim_render(a, (unsigned)frames, (int)poster, &farm, &err) != CT_OK) {
    if (err.status == CT_ERR_CALLBACK) return luaL_error(L, "%s", err.message);   /* draw's own error */
    return lct_pusherror(L, &err);
  }
  lua_settop(L, 1);
  return 1;
}

/* anim_warning(msg) -> true if an animation render took it (else false: no render runs) */
static int l_anim_warning(lua_State *L) {
  lua_pushboolean(L, ct_anim_farm_warning(luaL_checkstring(L, 1)));
  return 1;
}

/* default_workers() -> the cores online */
static int l_anim_workers(lua_State *L) {
  lua_pushinteger(L, ct_anim_farm_default_workers());
  return 1;
}

static int l_anim_finish(lua_State *L) {
  lct_anim_box *box = checkbox(L);
  ct_anim_t *a = box->anim;
  ct_error_t err;
  ct_status_t st;
  if (!a) return luaL_error(L, "attempt to use a closed animation");
  st = ct_anim_finish(a, &err);
  box->anim = NULL;
  ct_anim_destroy(a);
  if (st) return lct_pusherror(L, &err);
  lua_pushboolean(L, 1);
  return 1;
}

static int l_anim_count(lua_State *L) {
  lua_pushinteger(L, ct_anim_get_frame_count(checkanim(L)));
  return 1;
}

static const luaL_Reg anim_methods[] = {
  { "add", l_anim_add },
  { "render", l_anim_render },
  { "finish", l_anim_finish },
  { "frame_count", l_anim_count },
  { "close", l_anim__gc },
  { NULL, NULL }
};

void lct_open_anim(lua_State *L) {
  luaL_newmetatable(L, CT_ANIM_MT);
  lua_pushcfunction(L, l_anim__gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, l_anim__gc);
  lua_setfield(L, -2, "__close");
  luaL_newlib(L, anim_methods);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_pushcfunction(L, l_animation);
  lua_setfield(L, -2, "animation");
  lua_pushcfunction(L, l_anim_warning);
  lua_setfield(L, -2, "anim_warning");
  lua_pushcfunction(L, l_anim_workers);
  lua_setfield(L, -2, "anim_workers");
}
