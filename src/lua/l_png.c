/*
** l_png.c: PNG files read back into Lua (bindings layer), for tests and scripts that check
** what they drew: chromatype.read_png (size and pixels) and read_png_pixel.  Reads through
** fs.c, as every file of a sandboxed run is.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "l_aux.h"
#include "base/ct-limits.h"

#define SURFACE_MT "chromatype.SurfaceBox"   /* internal: owns a cairo image surface */

static int surface__gc(lua_State *L) {
  cairo_surface_t **slot = luaL_checkudata(L, 1, SURFACE_MT);
  cairo_surface_t *s = *slot;
  *slot = NULL;
  if (s) cairo_surface_destroy(s);
  return 0;
}

/* Loads a PNG into a boxed surface (pushed); returns NULL with nil, msg pushed
   instead when it cannot be read.  [-0, +1|+2] */
typedef struct { const unsigned char *p; size_t left; } pngsrc_t;

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int len) {
  pngsrc_t *src = closure;
  if (len > src->left) return CAIRO_STATUS_READ_ERROR;
  memcpy(data, src->p, len);
  src->p += len;
  src->left -= len;
  return CAIRO_STATUS_SUCCESS;
}

/* Whether the PNG's header (IHDR) declares more pixels than memory may hold: only then is
   cairo's "out of memory" believed. */
static int huge_png(const unsigned char *b, size_t len) {
  double w, h;
  if (len < 24 || memcmp(b + 12, "IHDR", 4) != 0) return 0;
  w = (double)((uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19]);
  h = (double)((uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23]);
  return w * h > CT_MAX_IMAGE_FILE_PIXELS;
}

static cairo_surface_t *loadpng(lua_State *L, const char *path) {
  cairo_surface_t **slot = lua_newuserdatauv(L, sizeof *slot, 0);
  cairo_status_t s;
  cairo_format_t f;
  ct_error_t err;
  size_t len;
  unsigned char *bytes;
  pngsrc_t src;
  *slot = NULL;
  luaL_setmetatable(L, SURFACE_MT);
  if (!(bytes = ct_fs_read_all(path, CT_MAX_IMAGE_FILE_SIZE, &len, &err))) {
    if (err.status == CT_ERR_DENIED) lct_raise(L, &err);
    lua_pushnil(L);
    lua_pushstring(L, err.message);
    return NULL;
  }
  /* cairo 1.16 reports every libpng error as "out of memory": what is not a PNG, or is
     damaged, is said here */
  if (len < 8 || memcmp(bytes, "\x89PNG\r\n\x1a\n", 8) != 0) {
    free(bytes);
    lua_pushnil(L);
    lua_pushfstring(L, "%s: cannot read PNG: not a PNG file (no PNG signature)", path);
    return NULL;
  }
  src.p = bytes;
  src.left = len;
  *slot = cairo_image_surface_create_from_png_stream(png_read, &src);
  s = cairo_surface_status(*slot);
  f = cairo_image_surface_get_format(*slot);
  if (s != CAIRO_STATUS_SUCCESS || (f != CAIRO_FORMAT_ARGB32 && f != CAIRO_FORMAT_RGB24)) {
    const char *why = s != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(s) : "unsupported pixel format";
    if (s == CAIRO_STATUS_NO_MEMORY && !huge_png(bytes, len)) why = "damaged or truncated PNG data";
    free(bytes);
    lua_pushnil(L);
    lua_pushfstring(L, "%s: cannot read PNG: %s", path, why);
    return NULL;
  }
  free(bytes);
  cairo_surface_flush(*slot);
  return *slot;
}

/* Frees the image of loadpng's userdata at `idx` now: the collector sees a pointer, not the
   pixels, and test loops reading thousands of PNGs would otherwise hold hundreds of MB. */
static void droppng(lua_State *L, int idx) {
  cairo_surface_t **slot = luaL_checkudata(L, idx, SURFACE_MT);
  if (*slot) cairo_surface_destroy(*slot);
  *slot = NULL;
}

/* Unpremultiplied RGBA of one pixel. */
static void getpixel(cairo_surface_t *s, int x, int y, unsigned char rgba[4]) {
  const unsigned char *row = cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s);
  uint32_t v;
  unsigned a, i;
  memcpy(&v, row + (size_t)x * 4, 4);
  a = cairo_image_surface_get_format(s) == CAIRO_FORMAT_RGB24 ? 255 : v >> 24;
  rgba[0] = (unsigned char)(v >> 16);
  rgba[1] = (unsigned char)(v >> 8);
  rgba[2] = (unsigned char)v;
  rgba[3] = (unsigned char)a;
  for (i = 0; i < 3; i++)
    rgba[i] = a == 0 ? 0 : (unsigned char)((rgba[i] * 255u + a / 2) / a);
}

/* read_png_pixel(path, x, y) -> r, g, b, a (0..255, unpremultiplied) | nil, msg */
static int l_read_png_pixel(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  lua_Integer x = luaL_checkinteger(L, 2), y = luaL_checkinteger(L, 3);
  cairo_surface_t *s = loadpng(L, path);
  unsigned char rgba[4];
  int w, h, i, box = lua_gettop(L);
  if (!s) return 2;
  w = cairo_image_surface_get_width(s);
  h = cairo_image_surface_get_height(s);
  luaL_argcheck(L, x >= 0 && x < w, 2, lua_pushfstring(L, "x out of range (0..%d)", w - 1));
  luaL_argcheck(L, y >= 0 && y < h, 3, lua_pushfstring(L, "y out of range (0..%d)", h - 1));
  getpixel(s, (int)x, (int)y, rgba);
  droppng(L, box);
  for (i = 0; i < 4; i++) lua_pushinteger(L, rgba[i]);
  return 4;
}

/* read_png(path) -> width, height, pixels (string of unpremultiplied RGBA rows) | nil, msg */
static int l_read_png(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  cairo_surface_t *s = loadpng(L, path);
  luaL_Buffer b;
  int w, h, x, y, box = lua_gettop(L);
  if (!s) return 2;
  w = cairo_image_surface_get_width(s);
  h = cairo_image_surface_get_height(s);
  lua_pushinteger(L, w);
  lua_pushinteger(L, h);
  luaL_buffinit(L, &b);
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      unsigned char rgba[4];
      getpixel(s, x, y, rgba);
      luaL_addlstring(&b, (const char *)rgba, 4);
    }
  }
  droppng(L, box);
  luaL_pushresult(&b);
  return 3;
}

static const luaL_Reg png_funcs[] = {
  { "read_png_pixel", l_read_png_pixel },
  { "read_png", l_read_png },
  { NULL, NULL }
};

void lct_open_png(lua_State *L) {
  lct_gc_metatable(L, SURFACE_MT, surface__gc);
  luaL_setfuncs(L, png_funcs, 0);
}
