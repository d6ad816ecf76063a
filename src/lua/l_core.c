/*
** l_core.c: the chromatype.core module (bindings layer): opens the Font, Canvas
** and paint bindings, and holds the warning handler and small color helpers.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "l_aux.h"
#include "l_core.h"
#include "l_xml.h"
#include "base/ct-limits.h"

/* Registry key of the warning handler: a function, false (ignore) or nil (stderr). */
static const char warning_key = 'w';

void lct_warn(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &warning_key);   /* msg handler */
  if (lua_isfunction(L, -1)) {
    lua_insert(L, -2);                               /* handler msg */
    lua_call(L, 1, 0);
    return;
  }
  if (lua_isnil(L, -1)) {
    fprintf(stderr, "chromatype: warning: %s\n", lua_tostring(L, -2));
    fflush(stderr);
  }
  lua_pop(L, 2);
}

/* on_warning(function | false | nil) -> previous handler.  nil restores the default
   (stderr), false ignores warnings. */
static int l_on_warning(lua_State *L) {
  int t = lua_type(L, 1);
  luaL_argexpected(L, t == LUA_TFUNCTION || t == LUA_TNIL || t == LUA_TNONE ||
                   (t == LUA_TBOOLEAN && !lua_toboolean(L, 1)), 1, "function, false or nil");
  lua_settop(L, 1);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &warning_key);   /* previous */
  lua_pushvalue(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &warning_key);
  return 1;
}

/* parse_color(color) -> r, g, b, a (0..1); raises on a bad color */
static int l_parse_color(lua_State *L) {
  ct_rgba_t c;
  lct_checkcolor(L, 1, &c);
  lua_pushnumber(L, c.r);
  lua_pushnumber(L, c.g);
  lua_pushnumber(L, c.b);
  lua_pushnumber(L, c.a);
  return 4;
}

/* color_string(color) -> "#rrggbbaa" */
static int l_color_string(lua_State *L) {
  ct_rgba_t c;
  lct_checkcolor(L, 1, &c);
  lct_pushcolor(L, c);
  return 1;
}

/* line_breaks(text [, language]) -> {ends...}, {mandatory...}: the byte positions p where a
   line may end (text:sub(1, p) is a line), by UAX #14, and whether each is mandatory. */
static int l_line_breaks(lua_State *L) {
  size_t len, *pos = NULL;
  unsigned char *hard = NULL;
  const char *text = luaL_checklstring(L, 1, &len);
  const char *lang = luaL_optstring(L, 2, NULL);
  unsigned n = 0, i;
  ct_error_t err;
  if (ct_line_breaks(text, len, lang, &pos, &hard, &n, &err) != CT_OK) return luaL_error(L, "%s", err.message);
  /* the arrays are C memory: copy into Lua without raising in between (stack checked first) */
  if (!lua_checkstack(L, 4)) { free(pos); free(hard); return luaL_error(L, "stack overflow"); }
  lua_createtable(L, (int)n, 0);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)pos[i]);
    lua_rawseti(L, -3, (lua_Integer)i + 1);
    lua_pushboolean(L, hard[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  free(pos);
  free(hard);
  return 2;
}

/* Pushes the byte positions `pos[0..n)` as a list and frees them. */
static int push_positions(lua_State *L, size_t *pos, unsigned n) {
  unsigned i;
  if (!lua_checkstack(L, 3)) { free(pos); return luaL_error(L, "stack overflow"); }
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)pos[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  free(pos);
  return 1;
}

/* grapheme_breaks(text) -> {ends...}: the byte positions p where a grapheme cluster ends
   (text:sub(1, p) ends between user-perceived characters), by UAX #29. */
static int l_grapheme_breaks(lua_State *L) {
  size_t len, *pos = NULL;
  const char *text = luaL_checklstring(L, 1, &len);
  unsigned n = 0;
  ct_error_t err;
  if (ct_grapheme_breaks(text, len, &pos, &n, &err) != CT_OK) return luaL_error(L, "%s", err.message);
  return push_positions(L, pos, n);
}

/* hyphenate(word [, language]) -> {positions...} | nil, msg: byte positions p where the word
   may be split (word:sub(1, p) .. "-" / word:sub(p + 1)). */
static int l_hyphenate(lua_State *L) {
  size_t len, *pos = NULL;
  const char *word = luaL_checklstring(L, 1, &len);
  const char *lang = luaL_optstring(L, 2, NULL);
  unsigned n = 0;
  ct_error_t err;
  if (ct_hyphenate(word, len, lang, &pos, &n, &err) != CT_OK) {
    luaL_pushfail(L);
    lua_pushstring(L, err.message);
    return 2;
  }
  return push_positions(L, pos, n);
}

/* bidi(text [, "auto"|"ltr"|"rtl"]) -> runs, direction: level runs in visual order, each
   {start =, stop = (1-based bytes, inclusive), level =, rtl =}, and the paragraph's
   direction ("ltr" or "rtl"). */
static int l_bidi(lua_State *L) {
  static const char *const dirs[] = { "auto", "ltr", "rtl", NULL };
  static const ct_direction_t dirv[] = { CT_DIR_AUTO, CT_DIR_LTR, CT_DIR_RTL };
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  int d = luaL_checkoption(L, 2, "auto", dirs);
  ct_bidi_run_t *runs = NULL;
  ct_direction_t resolved = CT_DIR_LTR;
  unsigned n = 0, i;
  ct_error_t err;
  if (ct_bidi_runs(text, len, dirv[d], &runs, &n, &resolved, &err) != CT_OK) return luaL_error(L, "%s", err.message);
  if (!lua_checkstack(L, 6)) { free(runs); return luaL_error(L, "stack overflow"); }
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, (lua_Integer)runs[i].start + 1);
    lua_setfield(L, -2, "start");
    lua_pushinteger(L, (lua_Integer)runs[i].end);
    lua_setfield(L, -2, "stop");
    lua_pushinteger(L, runs[i].level);
    lua_setfield(L, -2, "level");
    lua_pushboolean(L, runs[i].level & 1);
    lua_setfield(L, -2, "rtl");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  free(runs);
  lua_pushstring(L, resolved == CT_DIR_RTL ? "rtl" : "ltr");
  return 2;
}

/* script_runs(text) -> runs: the text's script runs in logical order, each {start =, stop =
   (1-based bytes, inclusive), script = ISO 15924 code}; invalid UTF-8 raises. */
static int l_script_runs(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  ct_script_run_t *runs = NULL;
  unsigned n = 0, i;
  ct_error_t err;
  ct_status_t st = ct_script_runs(text, len, &runs, &n, &err);
  if (st == CT_ERR_INVALID_ARG) return luaL_argerror(L, 1, err.message);
  if (st != CT_OK) return luaL_error(L, "%s", err.message);
  if (!lua_checkstack(L, 4)) { free(runs); return luaL_error(L, "stack overflow"); }
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, (lua_Integer)runs[i].start + 1);
    lua_setfield(L, -2, "start");
    lua_pushinteger(L, (lua_Integer)runs[i].end);
    lua_setfield(L, -2, "stop");
    lua_pushstring(L, runs[i].script);
    lua_setfield(L, -2, "script");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  free(runs);
  return 1;
}

/* ---- files, through the rules of fs.c ---------------------------------------------------- */

/* Frees a malloc'ed block when collected or closed: scratch memory across calls that may
   raise (lauxlib's UBox).  [-0, +1] */
static void **newbox(lua_State *L);

static int l_box__gc(lua_State *L) {
  void **p = lua_touserdata(L, 1);
  if (p && *p) { free(*p); *p = NULL; }
  return 0;
}

static void **newbox(lua_State *L) {
  void **p = lua_newuserdatauv(L, sizeof *p, 0);
  *p = NULL;
  if (luaL_newmetatable(L, "chromatype.Box")) {
    lua_pushcfunction(L, l_box__gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_box__gc);
    lua_setfield(L, -2, "__close");
  }
  lua_setmetatable(L, -2);
  return p;
}

/* read_file(path) -> string | nil, msg, code: a whole file (at most CT_MAX_TEXT_FILE_SIZE). */
static int l_read_file(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  ct_error_t err;
  size_t len;
  void **box = newbox(L);
  if (!(*box = ct_fs_read_all(path, CT_MAX_TEXT_FILE_SIZE, &len, &err))) return lct_pusherror(L, &err);
  lua_pushlstring(L, *box, len);
  free(*box);
  *box = NULL;
  return 1;
}

/* read_stdin() -> string | nil, msg: all of standard input. */
static int l_read_stdin(lua_State *L) {
  luaL_Buffer b;
  size_t total = 0;
  luaL_buffinit(L, &b);
  for (;;) {
    char *p = luaL_prepbuffer(&b);
    size_t got = fread(p, 1, LUAL_BUFFERSIZE, stdin);
    luaL_addsize(&b, got);
    total += got;
    if (total > CT_MAX_TEXT_FILE_SIZE) return luaL_error(L, "standard input exceeds the limit of %d bytes", (int)CT_MAX_TEXT_FILE_SIZE);
    if (got < LUAL_BUFFERSIZE) break;
  }
  if (ferror(stdin)) return luaL_fileresult(L, 0, "standard input");
  luaL_pushresult(&b);
  return 1;
}

/* file_exists(path) -> boolean: whether the path names something the run may read. */
static int l_file_exists(lua_State *L) {
  lua_pushboolean(L, ct_fs_exists(lct_checkpath(L, 1)));
  return 1;
}

/* load_file(path [, env]) -> function | nil, msg: a Lua file compiled as text (never
   bytecode), with `env` (default: the globals) as its environment. */
static int l_load_file(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  ct_error_t err;
  size_t len;
  void **box;
  int status, has_env = !lua_isnoneornil(L, 2);
  if (has_env) luaL_checktype(L, 2, LUA_TTABLE);
  box = newbox(L);
  if (!(*box = ct_fs_read_all(path, CT_MAX_TEXT_FILE_SIZE, &len, &err))) return lct_pusherror(L, &err);
  lua_pushfstring(L, "@%s", path);
  {
    const char *text = *box, *chunkname = lua_tostring(L, -1);
    if (len > 0 && text[0] == '#') {   /* a first line "#!..." is skipped, as lua.c does */
      size_t nl = strcspn(text, "\n");
      text += nl;
      len -= nl;
    }
    status = luaL_loadbufferx(L, text, len, chunkname, "t");
  }
  free(*box);
  *box = NULL;
  if (status != LUA_OK) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  if (has_env) {
    lua_pushvalue(L, 2);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  }
  return 1;
}

/* make_dirs(path) -> true | nil, msg: the directory and those above it, as mkdir -p. */
static int l_make_dirs(lua_State *L) {
  ct_error_t err;
  if (ct_fs_mkdirs(lct_checkpath(L, 1), &err) != CT_OK) return lct_pusherror(L, &err);
  lua_pushboolean(L, 1);
  return 1;
}

/* remove_temp(path) -> boolean: removes a temporary file an interrupted write left
   ("NAME.tmp-XXXXXX", see temp_files); any other name is refused (raises). */
static int l_remove_temp(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  const char *base = strrchr(path, '/');
  char target[4096];
  base = base ? base + 1 : path;
  if (!ct_file_temp_target(base, target, sizeof target))
    return luaL_argerror(L, 1, lua_pushfstring(L, "'%s' is not a temporary file name", path));
  lua_pushboolean(L, ct_fs_unlink(path) == 0);
  return 1;
}

/* write_file(path, data) -> true, or nil and a message: the bytes written to a temporary
   file beside path, then renamed (never a half-written file). */
static int l_write_file(lua_State *L) {
  const char *path = lct_checkpath(L, 1);
  size_t len;
  const char *data = luaL_checklstring(L, 2, &len);
  ct_error_t err;
  if (ct_file_write_atomic(path, data, len, &err) != CT_OK) return lct_pusherror(L, &err);
  lua_pushboolean(L, 1);
  return 1;
}

/* base64(s) -> the standard Base64 of the bytes (RFC 4648, padded), for data: URLs. */
static int l_base64(lua_State *L) {
  static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t n, i, o = 0;
  const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1, &n);
  luaL_Buffer b;
  char *out;
  luaL_argcheck(L, n <= ((size_t)1 << 30), 1, "over 1 GB");
  out = luaL_buffinitsize(L, &b, (n + 2) / 3 * 4 + 1);
  for (i = 0; i + 2 < n; i += 3) {
    uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
    out[o++] = abc[v >> 18];
    out[o++] = abc[(v >> 12) & 63];
    out[o++] = abc[(v >> 6) & 63];
    out[o++] = abc[v & 63];
  }
  if (i < n) {
    uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0);
    out[o++] = abc[v >> 18];
    out[o++] = abc[(v >> 12) & 63];
    out[o++] = i + 1 < n ? abc[(v >> 6) & 63] : '=';
    out[o++] = '=';
  }
  luaL_pushresultsize(&b, o);
  return 1;
}

/* write_stdout(s ...), write_stderr(s ...): strings (or numbers) to the stream, flushed. */
static int write_to(lua_State *L, FILE *f) {
  int i, n = lua_gettop(L);
  for (i = 1; i <= n; i++) {
    size_t len;
    const char *s = luaL_checklstring(L, i, &len);
    fwrite(s, 1, len, f);
  }
  fflush(f);
  return 0;
}
static int l_write_stdout(lua_State *L) { return write_to(L, stdout); }
static int l_write_stderr(lua_State *L) { return write_to(L, stderr); }

/* random_seed() -> integer: a fresh seed from the system (getrandom), below 2^53. */
static int l_random_seed(lua_State *L) {
  uint64_t x = 0;
  if (getrandom(&x, sizeof x, 0) != (ssize_t)sizeof x) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
  }
  lua_pushinteger(L, (lua_Integer)(x & ((UINT64_C(1) << 53) - 1)));
  return 1;
}

/* temp_files(dir) -> {[temporary] = file, ...}: the temporaries that interrupted writes
   left in `dir` (ct_file_temp_target), each with the name of the file it was to become;
   nil, msg when the directory cannot be read. */
static int l_temp_files(lua_State *L) {
  const char *dir = lct_checkpath(L, 1);
  char target[4096];
  ct_error_t err;
  size_t n, i;
  char **names = ct_fs_list(dir, &n, &err);
  if (!names) return lct_pusherror(L, &err);
  lua_newtable(L);
  for (i = 0; i < n; i++) {
    if (ct_file_temp_target(names[i], target, sizeof target)) {
      lua_pushstring(L, target);
      lua_setfield(L, -2, names[i]);
    }
  }
  ct_fs_free_list(names, n);
  return 1;
}

/* set_threads(n) -> n in effect: the threads raster pages (PNG) are drawn and compressed
   with, for the whole process; 0 or nil for the default (CHROMATYPE_THREADS, else the
   cores).  The output is the same for any count. */
static int l_set_threads(lua_State *L) {
  lua_Integer n = luaL_optinteger(L, 1, 0);
  luaL_argcheck(L, n >= 0 && n <= CT_MAX_THREADS, 1, "threads out of range (1..64, 0 for the default)");
  ct_set_threads((unsigned)n, NULL);
  lua_pushinteger(L, (lua_Integer)ct_get_threads());
  return 1;
}

/* threads() -> n: the thread count in effect. */
static int l_threads(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)ct_get_threads());
  return 1;
}

static const luaL_Reg core_funcs[] = {
  { "temp_files", l_temp_files },
  { "read_file", l_read_file },
  { "read_stdin", l_read_stdin },
  { "file_exists", l_file_exists },
  { "load_file", l_load_file },
  { "make_dirs", l_make_dirs },
  { "remove_temp", l_remove_temp },
  { "write_stdout", l_write_stdout },
  { "write_file", l_write_file },
  { "base64", l_base64 },
  { "write_stderr", l_write_stderr },
  { "random_seed", l_random_seed },
  { "set_threads", l_set_threads },
  { "threads", l_threads },
  { "bidi", l_bidi },
  { "script_runs", l_script_runs },
  { "line_breaks", l_line_breaks },
  { "grapheme_breaks", l_grapheme_breaks },
  { "hyphenate", l_hyphenate },
  { "on_warning", l_on_warning },
  { "parse_color", l_parse_color },
  { "color_string", l_color_string },
  { NULL, NULL }
};

int luaopen_chromatype_core(lua_State *L) {
  luaL_checkversion(L);
  luaL_newlib(L, core_funcs);
  lct_open_paint(L);
  lct_open_font(L);
  lct_open_canvas(L);
  lct_open_png(L);
  lct_open_xml(L);
  lct_open_fontbuild(L);
  lct_open_anim(L);
  lua_pushliteral(L, CT_VERSION_STRING);
  lua_setfield(L, -2, "version");
  return 1;
}
