/*
** l_aux.h: helpers shared by the Lua bindings (bindings layer): userdata boxes,
** option tables that reject unknown keys, colors, errors, palettes, paint trees.
** Every helper states its stack effect as [-popped, +pushed].
*/
#ifndef L_AUX_H
#define L_AUX_H

#include <lua.h>
#include <lauxlib.h>

#include "ct.h"

#define CT_FONT_MT     "chromatype.Font"
#define CT_CANVAS_MT   "chromatype.Canvas"
#define CT_PAINTBOX_MT "chromatype.PaintBox"   /* internal: owns a C paint node */

/* ---- userdata boxes ---------------------------------------------------- */

/* A Font: NULL once closed. */
typedef struct {
  ct_font_t *font;
} lct_font_box;

/* Warnings collected during one core call, delivered to Lua after it returns. */
#define LCT_MAX_WARNINGS 32

/* A Canvas: NULL once closed. */
typedef struct {
  ct_canvas_t *canvas;
  char        *warn[LCT_MAX_WARNINGS];   /* malloc'ed copies, owned by the box */
  unsigned     nwarn, dropped;
} lct_canvas_box;

/* The open font at `arg` (raises if not a Font or closed).  [-0, +0] */
ct_font_t *lct_checkfont(lua_State *L, int arg);
/* The font at stack index `idx` if it is a Font userdata, else NULL; raises
   "attempt to use a closed font" if closed.  [-0, +0] */
ct_font_t *lct_tofont(lua_State *L, int idx);
/* Pushes a new Font holding a new reference to `font`.  [-0, +1] */
void lct_pushfont(lua_State *L, ct_font_t *font);

/* ---- option tables (luaposix checkfieldnames style) -------------------- */

/* Checks that argument `arg` is a table of options or absent (none or nil), and
   that its keys are all in `fields` (NULL-terminated) or integers 1..npos.
   Returns 1 if a table is there, 0 if absent.  Raises naming the key.  [-0, +0] */
int lct_checkoptions(lua_State *L, int arg, const char *const fields[], lua_Integer npos);

/* If the table at `t` has a key that is not in `fields` or 1..npos, pushes a
   description ("unknown field 'sise'") and returns it; else returns NULL.  [-0, +(0|1)] */
const char *lct_badkey(lua_State *L, int t, const char *const fields[], lua_Integer npos);

/* Typed getters of field `name` of the option table at argument `arg` (which may
   be absent: then the default).  Errors raise as
   "bad argument #N to 'f' (field 'name': expected number, got string)".
   String results point into the table, valid while it is on the stack. [-0, +0] */
int         lct_getfield(lua_State *L, int arg, const char *name);       /* [-0, +1] */
int         lct_fielderror(lua_State *L, int arg, const char *name, const char *fmt, ...);
lua_Number  lct_optnumfield(lua_State *L, int arg, const char *name, lua_Number def);
lua_Number  lct_checknumfield(lua_State *L, int arg, const char *name);
lua_Integer lct_optintfield(lua_State *L, int arg, const char *name, lua_Integer def,
                            lua_Integer min, lua_Integer max);
const char *lct_optstrfield(lua_State *L, int arg, const char *name, const char *def);
int         lct_optboolfield(lua_State *L, int arg, const char *name, int def);
int         lct_optenumfield(lua_State *L, int arg, const char *name, const char *def,
                             const char *const names[]);
/* The color of a field (see lct_tocolor); returns 0 and leaves `out` alone if absent. */
int         lct_optcolorfield(lua_State *L, int arg, const char *name, ct_rgba_t *out);
/* The open Font of a field; NULL if absent. */
ct_font_t  *lct_optfontfield(lua_State *L, int arg, const char *name);

/* ---- numbers, colors, errors -------------------------------------------- */

/* Pushes a number as an integer when it is one exactly.  [-0, +1] */
void lct_pushnum(lua_State *L, double v);

/* Converts the value at `idx` to a color: a string "#RRGGBB", "#RRGGBBAA", "RRGGBB",
   "#RGB" (ct_rgba_parse), or a table {r, g, b [, a]} or {r=, g=, b= [, a=]} of numbers
   in 0..1.  Returns NULL on success, else a static description of the problem
   ("bad color string", ...) without raising.  [-0, +0] */
const char *lct_tocolor(lua_State *L, int idx, ct_rgba_t *out);
/* The color at argument `arg`; raises naming the argument.  [-0, +0] */
void lct_checkcolor(lua_State *L, int arg, ct_rgba_t *out);
/* Pushes "#rrggbbaa".  [-0, +1] */
void lct_pushcolor(lua_State *L, ct_rgba_t c);

/* Expected failure: pushes nil, message, code ("io", "invalid_font", ...); returns 3. */
int lct_pusherror(lua_State *L, const ct_error_t *err);
/* Misuse or internal failure: raises the message (never as a format).  */
int lct_raise(lua_State *L, const ct_error_t *err);
/* A short code for a status: "io", "invalid_font", "invalid_arg", ... */
const char *lct_status_code(ct_status_t status);

/* ---- palettes ------------------------------------------------------------ */

/* Finds a palette by the value at `idx`: an index (returned if in range), "light",
   "dark" (by type, then by name) or a palette name.  Returns 1 and sets *out if found,
   0 if not; raises on a value of another type or a negative index.  [-0, +0] */
int lct_findpalette(lua_State *L, ct_font_t *font, int idx, int arg, unsigned *out);

/* ---- warnings ------------------------------------------------------------ */

/* The ct_warning_func_t that collects into a canvas box (never calls Lua). */
void lct_collect_warning(void *box, const char *message);
/* Frees collected warnings without delivering them. */
void lct_clear_warnings(lct_canvas_box *box);
/* Delivers the collected warnings to the handler of ct.on_warning.  May raise
   (the handler's own errors); the box keeps what is not yet delivered.  [-0, +0] */
void lct_deliver_warnings(lua_State *L, lct_canvas_box *box);
/* Sends the string at the top to the warning handler and pops it.  [-1, +0] */
void lct_warn(lua_State *L);

/* ---- paint trees (l_paint.c) ------------------------------------------- */

/* Converts the Lua paint tree at `idx` to a C tree, validating every field; errors
   raise against argument `arg`, naming the field path ("children[2].child.color:
   expected table, got string").  Pushes a box that owns the tree (collected with
   it) and returns the tree, borrowed from the box.  [-0, +1] */
ct_paint_t *lct_topaint(lua_State *L, int idx, int arg);
/* Pushes an empty box (NULL) that destroys the tree put into it when collected;
   returns its slot.  [-0, +1] */
ct_paint_t **lct_newpaintbox(lua_State *L);
/* Pushes the C tree as plain tables; glyph nodes naming a font other than `font`
   get a Font userdata in `font=`.  Raises if deeper than CT_MAX_PAINT_DEPTH.  [-0, +1] */
void lct_pushpaint(lua_State *L, const ct_paint_t *paint, const ct_font_t *font);

/* ---- per-file openers: register metatables and add module functions to the
   table at the top.  [-0, +0] */
void lct_open_font(lua_State *L);
void lct_open_canvas(lua_State *L);
void lct_open_png(lua_State *L);   /* l_png.c */
void lct_open_paint(lua_State *L);
void lct_open_fontbuild(lua_State *L);
void lct_open_anim(lua_State *L);

/* A file name argument: a string without NUL bytes, not empty (raises otherwise).  The
   files themselves are checked where they are opened (src/base/fs.c). */
const char *lct_checkpath(lua_State *L, int arg);

/* A metatable `name` (luaL_newmetatable) for a box that only needs freeing: its __gc is
   `gc`.  [-0, +0] */
void lct_gc_metatable(lua_State *L, const char *name, lua_CFunction gc);
const char *lct_optpath(lua_State *L, int arg, const char *def);

#endif /* L_AUX_H */
