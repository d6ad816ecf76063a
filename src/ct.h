/*
** ct.h: the one public header of the chromatype core (src/base/ ... src/fontmake/),
** grouped by stage (docs/ARCHITECTURE.md).
** Fonts, palettes, paint trees, shaping and canvases; pure C, no Lua.
** Nothing here prints or exits; no function longjmps.  See LICENSE.
*/
#ifndef CT_H
#define CT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CT_VERSION_STRING "0.1.0"

/* ==== base (src/base/) ===================================================

   ---- status and errors ------------------------------------------------ */

typedef enum {
  CT_OK = 0,
  CT_ERR_NOMEM,
  CT_ERR_IO,              /* a file could not be read or written */
  CT_ERR_INVALID_FONT,    /* not a font, truncated, or rejected by FreeType */
  CT_ERR_INVALID_ARG,     /* a value out of range (palette index, size, ...) */
  CT_ERR_NOT_FOUND,       /* glyph, table or name absent */
  CT_ERR_LIMIT,           /* a limit of ct-limits.h was hit */
  CT_ERR_BACKEND,         /* cairo, FreeType or HarfBuzz failed */
  CT_ERR_INVALID_IMAGE,   /* a picture file that is not an image, corrupt or refused */
  CT_ERR_CALLBACK,        /* a caller's function (a script's) failed: the message is its error */
  CT_ERR_DENIED           /* a file the sandbox's rules refuse (fs.c) */
} ct_status_t;

/* Detail for a failure: filled by functions taking a ct_error_t * (may be NULL). */
typedef struct {
  ct_status_t status;
  char message[512];
} ct_error_t;

const char *ct_status_string(ct_status_t status);

/* ---- files (base/fs.c) ------------------------------------------------ */

/* Every file the core and the bindings open, create, rename, remove or list goes through
   these.  Unrestricted (the default) they are the plain POSIX calls.  After
   ct_fs_restrict (a sandboxed run; set once, for the life of the process) a path is
   resolved beneath a root, never by its text: a relative path beneath the working
   directory (roots[0]), an absolute one beneath the root whose folder it names; '..' and
   symbolic links may not lead out of the root (openat2 RESOLVE_BENEATH, or the same walk in
   userspace without it), writing is only beneath writable roots, and a file with
   other names (hard links) is not read except beneath system roots.  Refusals are
   CT_ERR_DENIED with a message "sandbox: reading 'PATH' refused (why)"; other failures
   CT_ERR_IO naming the path.  No function here prints, exits or longjmps. */
#define CT_FS_WRITABLE 1u   /* the run may create, rename and remove files beneath it */
#define CT_FS_SYSTEM   2u   /* a font folder: links within the system folders are followed */

typedef struct { const char *path; unsigned flags; } ct_fs_root_t;

struct stat;

ct_status_t ct_fs_restrict(const ct_fs_root_t *roots, unsigned n, ct_error_t *err);
/* Files named in `as_written` (a directory as the command line wrote it) go to `dirfd`
   instead (borrowed for the life of the process): the supervisor's scratch folder for an
   output outside the working directory (src/cli/sandbox.c). */
ct_status_t ct_fs_map_dir(const char *as_written, int dirfd, ct_error_t *err);
int ct_fs_restricted(void);

/* A regular file opened for reading (O_RDONLY | O_CLOEXEC); -1 with `err` filled.  Anything
   else (a FIFO, a device, a socket, a directory) is refused before a byte is read, and
   a FIFO never blocks the open: every input of the core and the bindings comes here. */
int ct_fs_open_read(const char *path, ct_error_t *err);
FILE *ct_fs_fopen_read(const char *path, ct_error_t *err);
/* The whole file, malloc'ed with a NUL after its `*len` bytes; CT_ERR_LIMIT past `max`. */
unsigned char *ct_fs_read_all(const char *path, size_t max, size_t *len, ct_error_t *err);
ct_status_t ct_fs_stat(const char *path, struct stat *sb, ct_error_t *err);
int ct_fs_exists(const char *path);
/* The names in a directory (without "." and ".."), a malloc'ed NULL-terminated list to
   free with ct_fs_free_list. */
char **ct_fs_list(const char *path, size_t *count, ct_error_t *err);
void ct_fs_free_list(char **names, size_t count);
/* A new empty file named `path` + `tag` + six letters, in the umask's mode, open for
   reading and writing; its name in *name (malloc'ed, the caller's).  -1 with `err`.
   When `path` is a device, FIFO or socket (/dev/null), the temporary goes to $TMPDIR
   (or /tmp) instead, and a sandboxed run is refused. */
int ct_fs_create_temp(const char *path, const char *tag, char **name, ct_error_t *err);
FILE *ct_fs_fopen_temp(const char *path, const char *tag, const char *mode, char **name, ct_error_t *err);
/* Renames within the rules (both names must be writable); a symbolic link at `to` is
   replaced, never followed.  A `to` that is a device, FIFO or socket (also through a
   link) is never replaced: `from` is copied into it and removed, and a failed write
   (ENOSPC) is an error naming `to`; a sandboxed run is refused. */
ct_status_t ct_fs_rename(const char *from, const char *to, ct_error_t *err);
int ct_fs_unlink(const char *path);   /* 0, or -1 with errno */
ct_status_t ct_fs_mkdir(const char *path, ct_error_t *err);
ct_status_t ct_fs_mkdirs(const char *path, ct_error_t *err);

/* ---- the sandbox (base/sandbox.c) -------------------------------------- */

/* Confines this process for good (Linux): the path rules of fs.c with the working
   directory `cwd` read and written, `read` folders read (the script's, the ready filters')
   and fontconfig's font folders read; then no_new_privs, no capabilities, Landlock (the
   same folders, the system's libraries and data read, nothing executed, no TCP; signals
   and abstract sockets scoped where the kernel has ABI 6) when the kernel has it, and a
   seccomp filter (no execve, sockets, namespaces, links, ptrace without Landlock, ...).
   `maps` send files named in a directory outside to a scratch folder (`write`, also
   written).  Fills `report` with what took effect.  Threads started before are not
   confined: call it first. */
typedef struct { const char *as_written; int fd; } ct_sandbox_map_t;

typedef struct {
  const char              *cwd;
  const char *const       *read;
  unsigned                 nread;
  const char *const       *write;
  unsigned                 nwrite;
  const ct_sandbox_map_t  *maps;
  unsigned                 nmaps;
} ct_sandbox_t;

typedef struct {
  int landlock_abi;   /* 0: the kernel has no Landlock */
  int seccomp;
} ct_sandbox_report_t;

ct_status_t ct_sandbox_enter(const ct_sandbox_t *sb, ct_sandbox_report_t *report, ct_error_t *err);
/* The kernel's Landlock ABI version, 0 without Landlock. */
int ct_sandbox_landlock_abi(void);

/* ==== font (src/font/) ===================================================

   ---- colors ----------------------------------------------------------- */

typedef struct { double r, g, b, a; } ct_rgba_t;   /* straight alpha, 0..1 */

#define CT_PALETTE_FOREGROUND 0xFFFFu    /* CPAL index meaning the text color */

/* Parses "RRGGBB", "RRGGBBAA", "#RGB", "#RRGGBB[AA]"; returns 0 on success. */
int ct_rgba_parse(const char *s, ct_rgba_t *out);

/* ---- fonts ------------------------------------------------------------ */

typedef struct ct_font ct_font_t;

typedef enum {
  CT_COLOR_COLR0  = 1 << 0,
  CT_COLOR_COLR1  = 1 << 1,
  CT_COLOR_SVG    = 1 << 2,
  CT_COLOR_CBDT   = 1 << 3,
  CT_COLOR_SBIX   = 1 << 4
} ct_color_formats_t;

typedef enum {
  CT_PALETTE_TYPE_LIGHT = 1,   /* usable with a light background */
  CT_PALETTE_TYPE_DARK  = 2    /* usable with a dark background */
} ct_palette_type_t;

typedef struct {
  uint32_t tag;                /* e.g. 'wght' */
  char     tag_str[5];
  double   min, def, max;
  double   value;              /* the font's current location on the axis */
  char     name[128];
  int      hidden;
} ct_axis_t;

typedef struct {
  char     family[256];
  char     style[256];
  char     full_name[256];
  char     postscript_name[256];
  char     version[256];
  unsigned units_per_em;
  int      ascender, descender, line_gap;   /* font units, hhea/OS2 */
  unsigned glyph_count;
  unsigned face_index, face_count;
  unsigned color_formats;                   /* ct_color_formats_t bits */
  const char *container;                    /* "TrueType", "CFF", "WOFF", "WOFF2", "collection" */
  int      is_variable;
} ct_font_info_t;

/* Opens face `index` of a font file (TrueType, CFF, collections, WOFF, WOFF2).
   Returns a new reference or NULL with `err` filled (message names the file). */
ct_font_t *ct_font_create_from_file(const char *path, unsigned index, ct_error_t *err);

/* Opens a font by path, or by name through fontconfig ("Noto Color Emoji",
   "Bungee:style=Regular") when the argument is no path and no file of that name exists. A
   name fontconfig can only approximate is an error naming its nearest family. */
ct_font_t *ct_font_create(const char *path_or_name, unsigned index, ct_error_t *err);
/* The file and face index fontconfig has for a font name. */
ct_status_t ct_font_find(const char *name, char *path, size_t size, unsigned *index, ct_error_t *err);

/* The same from memory; `data` is copied, so the caller keeps ownership.
   `name` is used in messages (e.g. "<memory>"). */
ct_font_t *ct_font_create_from_data(const void *data, size_t size, unsigned index,
                                    const char *name, ct_error_t *err);

ct_font_t *ct_font_reference(ct_font_t *font);   /* NULL-safe */
void       ct_font_destroy(ct_font_t *font);     /* NULL-safe; drops one reference */

const char *ct_font_get_path(const ct_font_t *font);    /* the file name or the given name */
void        ct_font_get_info(ct_font_t *font, ct_font_info_t *info);

unsigned ct_font_get_axis_count(ct_font_t *font);
int      ct_font_get_axis(ct_font_t *font, unsigned i, ct_axis_t *axis);
/* Sets variation coordinates from "wght=700,wdth=80" (unknown axes are an error).
   Clears cached outlines. */
ct_status_t ct_font_set_variations(ct_font_t *font, const char *spec, ct_error_t *err);
/* A new font from the same bytes (no file is read again) at this font's location, with
   `spec` ("wght=700", may be NULL) on top: its own faces and caches, so that one font can
   be used at several instances at once. */
ct_font_t *ct_font_create_instance(ct_font_t *font, const char *spec, ct_error_t *err);

/* Alternate forms of glyph `gid` offered by GSUB lookups (single and alternate
   substitutions) of `features` (a NULL-terminated list of tags), or, when `features` is
   NULL, of rand, aalt, salt, swsh, cswh, jalt, titl, ornm, ssXX and cvXX.  Writes up to
   `max` distinct glyphs with the feature that offers each; returns how many there are. */
typedef struct {
  unsigned gid;
  char     feature[5];
} ct_alternate_t;

unsigned ct_font_get_alternates(ct_font_t *font, unsigned gid, const char *const *features,
                                ct_alternate_t *out, unsigned max);

/* The distinct feature tags of the font's GSUB (gpos = 0) or GPOS table; up to `max` into
   `tags`; returns how many there are. */
unsigned ct_font_get_feature_tags(ct_font_t *font, int gpos, char (*tags)[5], unsigned max);

/* The code points the font maps (its cmap), ascending: fills up to `max` of them into
   `out` (may be NULL) and returns how many there are. */
unsigned ct_font_get_codepoints(ct_font_t *font, uint32_t *out, unsigned max);
unsigned ct_font_get_glyph_count(const ct_font_t *font);

/* Glyph lookups. */
int      ct_font_get_nominal_glyph(ct_font_t *font, uint32_t codepoint, unsigned *gid);
int      ct_font_get_glyph_name(ct_font_t *font, unsigned gid, char *buf, size_t size);
double   ct_font_get_glyph_advance(ct_font_t *font, unsigned gid);  /* font units */

/* SMIL animation in OT-SVG glyphs (kept by the sanitizer, sampled at the time of the canvas
   they are drawn on, see ct_canvas_set_time).  Returns the number of animation elements in
   glyph `gid`'s document (as cut for that glyph), or in every SVG document of the font when
   `gid` is negative; 0 when there are none.  *duration (may be NULL) receives the simple
   duration in seconds: the latest begin + dur x repeatCount over the elements, an
   indefinite repeat counted once, 0 when none.  Parses the SVG documents on first use
   (what the sanitizer removed is queued as font warnings).  Does not raise. */
unsigned ct_font_get_svg_animation(ct_font_t *font, int gid, double *duration);
/* The font's duration as above (every document), 0 when it has no SVG animations. */
double   ct_font_get_svg_animation_duration(ct_font_t *font);

/* ---- palettes (CPAL; font/palette.c) ---------------------------------- */

unsigned ct_font_get_palette_count(ct_font_t *font);
unsigned ct_font_get_palette_entry_count(ct_font_t *font);
unsigned ct_font_get_palette_type(ct_font_t *font, unsigned palette);   /* ct_palette_type_t bits */
/* Name of a palette or an entry label from the name table (UTF-8); returns 0 and ""
   when the font has none. */
int ct_font_get_palette_name(ct_font_t *font, unsigned palette, char *buf, size_t size);
int ct_font_get_palette_entry_label(ct_font_t *font, unsigned entry, char *buf, size_t size);
/* Fills up to `count` colors of `palette`; returns how many the palette has. */
unsigned ct_font_get_palette_colors(ct_font_t *font, unsigned palette, ct_rgba_t *colors,
                                    unsigned count);
/* Finds the first palette of a type; returns -1 if none. */
int ct_font_find_palette(ct_font_t *font, unsigned type);

/* Draw-time palette choice: base palette, entry overrides and the text color. */
typedef struct {
  unsigned  index;
  ct_rgba_t color;
} ct_palette_override_t;

/* ==== paint (src/paint/; trees made by src/glyph/) =======================

   ---- the paint tree --------------------------------------------------- */

typedef enum {
  CT_PAINT_LAYERS = 0,   /* children bottom to top */
  CT_PAINT_GLYPH,        /* a glyph outline clips its child */
  CT_PAINT_SOLID,        /* fills with a color */
  CT_PAINT_LINEAR,
  CT_PAINT_RADIAL,
  CT_PAINT_SWEEP,
  CT_PAINT_TRANSFORM,    /* affine matrix applied to the child */
  CT_PAINT_COMPOSITE,    /* source composited onto backdrop */
  CT_PAINT_CLIP,         /* rectangle clips the child */
  CT_PAINT_SVG,          /* an OT-SVG glyph, drawn by librsvg with the palette applied */
  CT_PAINT_BITMAP,       /* a CBDT or sbix bitmap glyph, strike chosen at draw time */
  CT_PAINT_KIND_COUNT
} ct_paint_kind_t;

/* A color of the tree: a palette entry (symbolic until drawing), the text color,
   or an explicit color; `alpha` multiplies it. */
typedef enum {
  CT_COLOR_PALETTE = 0,
  CT_COLOR_FOREGROUND,
  CT_COLOR_RGBA
} ct_color_kind_t;

typedef struct {
  ct_color_kind_t kind;
  unsigned        index;   /* palette entry for CT_COLOR_PALETTE */
  ct_rgba_t       rgba;    /* for CT_COLOR_RGBA */
  double          alpha;
} ct_color_t;

typedef enum { CT_EXTEND_PAD = 0, CT_EXTEND_REPEAT, CT_EXTEND_REFLECT } ct_extend_t;

typedef struct {
  double     offset;
  ct_color_t color;
} ct_color_stop_t;

typedef struct {
  ct_extend_t      extend;
  unsigned         count;
  ct_color_stop_t *stops;
} ct_color_line_t;

/* Composite modes, numbered as in the COLR table. */
typedef enum {
  CT_COMPOSITE_CLEAR = 0, CT_COMPOSITE_SRC, CT_COMPOSITE_DEST, CT_COMPOSITE_SRC_OVER,
  CT_COMPOSITE_DEST_OVER, CT_COMPOSITE_SRC_IN, CT_COMPOSITE_DEST_IN, CT_COMPOSITE_SRC_OUT,
  CT_COMPOSITE_DEST_OUT, CT_COMPOSITE_SRC_ATOP, CT_COMPOSITE_DEST_ATOP, CT_COMPOSITE_XOR,
  CT_COMPOSITE_PLUS, CT_COMPOSITE_SCREEN, CT_COMPOSITE_OVERLAY, CT_COMPOSITE_DARKEN,
  CT_COMPOSITE_LIGHTEN, CT_COMPOSITE_COLOR_DODGE, CT_COMPOSITE_COLOR_BURN,
  CT_COMPOSITE_HARD_LIGHT, CT_COMPOSITE_SOFT_LIGHT, CT_COMPOSITE_DIFFERENCE,
  CT_COMPOSITE_EXCLUSION, CT_COMPOSITE_MULTIPLY, CT_COMPOSITE_HSL_HUE,
  CT_COMPOSITE_HSL_SATURATION, CT_COMPOSITE_HSL_COLOR, CT_COMPOSITE_HSL_LUMINOSITY,
  CT_COMPOSITE_MODE_COUNT
} ct_composite_mode_t;

typedef struct ct_paint ct_paint_t;
typedef struct ct_svg_glyph ct_svg_glyph_t;   /* opaque: one glyph cut out of an SVG document */

/* Paint nodes are refcounted and immutable once shared; the fields are public so
   that walkers (Lua bindings, renderers, traces) can read them. */
struct ct_paint {
  int             ref;
  ct_paint_kind_t kind;
  /* What drawing it costs, kept by the constructors: nodes visited when the tree is
     drawn (shared subtrees count each time; saturates at UINT32_MAX) and its depth. */
  uint32_t        weight;
  uint32_t        height;
  /* 1 when the tree holds an SVG glyph with SMIL animations (drawn anew at each time, see
     ct_canvas_set_time), kept by the constructors like weight */
  uint32_t        animated;
  /* 1 while a canvas keeps it (intern.c): an equal tree drawn again is this one, and a
     PDF's recordings take it as they take a font's own trees */
  uint32_t        kept;
  union {
    struct { ct_paint_t **children; unsigned count; } layers;
    /* font NULL: the font the tree is drawn with (trees cached in a font) */
    struct { ct_font_t *font; unsigned gid; ct_paint_t *child; } glyph;
    struct { ct_color_t color; } solid;
    struct { ct_color_line_t line; double x0, y0, x1, y1, x2, y2; } linear;
    struct { ct_color_line_t line; double x0, y0, r0, x1, y1, r1; } radial;
    struct { ct_color_line_t line; double cx, cy, start_angle, end_angle; } sweep;  /* degrees */
    struct { double xx, yx, xy, yy, dx, dy; ct_paint_t *child; } transform;   /* cairo order */
    struct { ct_composite_mode_t mode; ct_paint_t *source, *backdrop; } composite;
    struct { double x0, y0, x1, y1; ct_paint_t *child; } clip;
    /* layer -1: the whole glyph (one librsvg call); else its drawable child `layer` */
    struct { ct_svg_glyph_t *glyph; unsigned gid; int layer; } svg;
    /* font NULL: the font the tree is drawn with */
    struct { ct_font_t *font; unsigned gid; } bitmap;
  } u;
};

/* Constructors return a new node with one reference, or NULL when out of memory.
   They take ownership of the child references passed in (even on failure). */
ct_paint_t *ct_paint_layers_create(unsigned capacity);
ct_status_t ct_paint_layers_append(ct_paint_t *layers, ct_paint_t *child);   /* takes child */
ct_paint_t *ct_paint_glyph_create(ct_font_t *font, unsigned gid, ct_paint_t *child);
ct_paint_t *ct_paint_solid_create(ct_color_t color);
ct_paint_t *ct_paint_transform_create(const double m[6], ct_paint_t *child);
ct_paint_t *ct_paint_composite_create(ct_composite_mode_t mode, ct_paint_t *source,
                                      ct_paint_t *backdrop);
ct_paint_t *ct_paint_clip_create(double x0, double y0, double x1, double y1, ct_paint_t *child);
/* An SVG glyph node (takes a new reference to `glyph`): the whole glyph (layer -1) or one
   of its layers (the glyph element's drawable children, 0..count-1); a bitmap node. */
ct_paint_t *ct_paint_svg_create(ct_svg_glyph_t *glyph, int layer);
unsigned ct_svg_glyph_get_layer_count(const ct_svg_glyph_t *glyph);
ct_paint_t *ct_paint_bitmap_create(ct_font_t *font, unsigned gid);
/* Gradients copy the stops. */
ct_paint_t *ct_paint_linear_create(const ct_color_line_t *line, const double p[6]);
ct_paint_t *ct_paint_radial_create(const ct_color_line_t *line, const double c[6]);
ct_paint_t *ct_paint_sweep_create(const ct_color_line_t *line, double cx, double cy,
                                  double start_deg, double end_deg);

/* The tree as text, one indented line per node (numbers as %.3g, -0 as 0): for golden
   tests and for reading.  A child shared is written each time it is met, up to
   CT_MAX_PAINT_WORK nodes in all, then a line says the trace stops.  Returns a malloc'ed
   string, or NULL when out of memory. */
char *ct_paint_trace(const ct_paint_t *paint);

ct_paint_t *ct_paint_reference(ct_paint_t *paint);   /* NULL-safe */
void        ct_paint_destroy(ct_paint_t *paint);     /* NULL-safe */
const char *ct_paint_kind_name(ct_paint_kind_t kind);
int         ct_paint_kind_from_name(const char *name);   /* -1 if unknown */
const char *ct_composite_mode_name(ct_composite_mode_t mode);
int         ct_composite_mode_from_name(const char *name);
ct_color_t  ct_color_palette(unsigned index, double alpha);
ct_color_t  ct_color_foreground(double alpha);
ct_color_t  ct_color_rgba(ct_rgba_t rgba);

/* Warnings met while building glyph trees (a COLRv1 graph with a cycle, over a limit,
   truncated...), oldest first: returns a malloc'ed message the caller frees, or NULL.
   Each is reported once: trees are built once per font, glyph and format. */
char *ct_font_take_warning(ct_font_t *font);

/* Which representation of a glyph to use. AUTO prefers COLRv1 > COLRv0 > SVG > bitmap. */
typedef enum {
  CT_FORMAT_AUTO = 0,
  CT_FORMAT_COLR1,
  CT_FORMAT_COLR0,
  CT_FORMAT_SVG,
  CT_FORMAT_BITMAP,
  CT_FORMAT_MONO        /* the plain outline in the text color, ignoring color tables */
} ct_format_t;

const char *ct_format_name(ct_format_t format);
int         ct_format_from_name(const char *name);   /* -1 if unknown */

/* The paint tree of a glyph in the given format (falling back to the outline in the
   text color when the glyph has no data in that format). Returns a new reference to a
   tree cached in the font; never NULL unless out of memory. */
ct_paint_t *ct_font_get_glyph_paint(ct_font_t *font, unsigned gid, ct_format_t format,
                                    ct_error_t *err);

/* ==== text (src/text/) ===================================================

   ---- shaping ---------------------------------------------------------- */

typedef enum { CT_DIR_AUTO = 0, CT_DIR_LTR, CT_DIR_RTL, CT_DIR_TTB, CT_DIR_BTT } ct_direction_t;

typedef struct {
  const char     *features;   /* "+liga,-kern,ss01=1" (HarfBuzz syntax), or NULL */
  const char     *script;     /* ISO 15924 "Latn", or NULL: guessed */
  const char     *language;   /* BCP 47 "en", or NULL: default */
  ct_direction_t  direction;
} ct_shape_options_t;

typedef struct {
  unsigned gid;
  uint32_t cluster;          /* byte offset of the cluster in the UTF-8 text */
  double   x_advance, y_advance, x_offset, y_offset;   /* font units, y up */
} ct_glyph_pos_t;

typedef struct {
  ct_glyph_pos_t *glyphs;
  unsigned        count;
  ct_direction_t  direction;  /* resolved */
} ct_shaped_t;

/* Shapes UTF-8 text; `out` is filled and must be released with ct_shaped_fini. */
ct_status_t ct_shape(ct_font_t *font, const char *utf8, size_t len,
                     const ct_shape_options_t *opts, ct_shaped_t *out, ct_error_t *err);
void ct_shaped_fini(ct_shaped_t *shaped);

/* Line-break opportunities by UAX #14 (ICU): byte offsets where a line may end, ascending
   (the text's end included), and for each whether the break is mandatory (a newline).
   Both arrays are malloc'ed for the caller to free; `mandatory` may be NULL. */
ct_status_t ct_line_breaks(const char *utf8, size_t len, const char *language, size_t **out,
                           unsigned char **mandatory, unsigned *count, ct_error_t *err);
/* Grapheme cluster boundaries by UAX #29 (ICU): byte offsets where a user-perceived
   character ends, ascending (the text's end included); `out` is malloc'ed for the caller. */
ct_status_t ct_grapheme_breaks(const char *utf8, size_t len, size_t **out, unsigned *count,
                               ct_error_t *err);

/* The bidirectional algorithm (FriBidi) over one line: its level runs in visual order, as
   byte ranges [start, end) of the text; an odd level runs right to left.  `base` CT_DIR_AUTO
   takes the direction of the first strong character; `resolved` (may be NULL) receives the
   paragraph direction.  `out` is malloc'ed for the caller to free. */
typedef struct { size_t start, end; int level; } ct_bidi_run_t;
ct_status_t ct_bidi_runs(const char *utf8, size_t len, ct_direction_t base, ct_bidi_run_t **out,
                         unsigned *count, ct_direction_t *resolved, ct_error_t *err);

/* Script runs (the Unicode Script property through ICU, as UAX #24 suggests): byte ranges
   [start, end) covering the text in logical order, each with an ISO 15924 code as HarfBuzz
   takes it ("Latn", "Arab", "Deva").  Common and Inherited characters (spaces, punctuation,
   digits, emoji, combining marks, ZWJ, variation selectors) and unassigned ones join the run
   before them, or at the start of the text the run after them; a closing bracket takes the
   script of its opening bracket.  Text with no script of its own is one run "Zyyy".
   Invalid UTF-8 is CT_ERR_INVALID_ARG.  `out` is malloc'ed for the caller to free. */
typedef struct { size_t start, end; char script[5]; } ct_script_run_t;
ct_status_t ct_script_runs(const char *utf8, size_t len, ct_script_run_t **out, unsigned *count,
                           ct_error_t *err);

/* Hyphenation points of one word (libhyphen, Debian's hyphen-* dictionaries): byte offsets
   where the word may be split with a hyphen, at least two bytes from either end.  `language`
   is a BCP 47 tag ("en-US", "de"); a language without a dictionary is CT_ERR_NOT_FOUND.
   `out` is malloc'ed for the caller to free. */
ct_status_t ct_hyphenate(const char *word, size_t len, const char *language, size_t **out,
                         unsigned *count, ct_error_t *err);

/* ==== page and write (src/page/, src/write/) =============================

   ---- canvases and output ---------------------------------------------- */

typedef struct ct_canvas ct_canvas_t;

typedef enum { CT_OUTPUT_AUTO = 0, CT_OUTPUT_PNG, CT_OUTPUT_PDF, CT_OUTPUT_SVG } ct_output_t;

const char *ct_output_name(ct_output_t output);
int         ct_output_from_name(const char *name);          /* -1 if unknown */
ct_output_t ct_output_from_path(const char *path);          /* by extension; AUTO if none */

/* Warnings of drawing (missing characters, fallbacks), never fatal. */
typedef void (*ct_warning_func_t)(void *data, const char *message);

typedef struct {
  double                       size;          /* em size in points (user units) */
  unsigned                     palette;       /* CPAL palette index */
  const ct_palette_override_t *overrides;
  unsigned                     override_count;
  ct_rgba_t                    foreground;    /* text color and palette index 0xFFFF */
  ct_format_t                  format;
  ct_shape_options_t           shape;
} ct_text_style_t;

void ct_text_style_init(ct_text_style_t *style);   /* 12 pt, palette 0, black, AUTO */

/* A canvas records pages of drawing in points (1/72 in) as display lists (holding
   references to fonts and paint trees) and writes them to files.
   Returns a new canvas or NULL with `err` filled. */
ct_canvas_t *ct_canvas_create(double width, double height, ct_error_t *err);
void         ct_canvas_destroy(ct_canvas_t *canvas);
ct_canvas_t *ct_canvas_reference(ct_canvas_t *canvas);
void         ct_canvas_set_warning_func(ct_canvas_t *canvas, ct_warning_func_t func, void *data);
double       ct_canvas_get_width(const ct_canvas_t *canvas);
double       ct_canvas_get_height(const ct_canvas_t *canvas);
unsigned     ct_canvas_get_page_count(const ct_canvas_t *canvas);
/* The time, in seconds, at which the glyphs drawn from now on sample the SMIL animations of
   OT-SVG glyphs; glyphs already drawn keep the time they were drawn at.  0 by default (the
   still image is the glyph at t = 0); a value that is not finite or is negative is 0.
   Glyphs without animations draw the same at any time. */
void         ct_canvas_set_time(ct_canvas_t *canvas, double seconds);
double       ct_canvas_get_time(const ct_canvas_t *canvas);
/* Starts a new page of the current page's size (the first page exists from creation), or of
   its own size; the width and height getters give the current page's size. */
ct_status_t  ct_canvas_new_page(ct_canvas_t *canvas, ct_error_t *err);
ct_status_t  ct_canvas_new_page_sized(ct_canvas_t *canvas, double width, double height,
                                      ct_error_t *err);
/* Sets the current page's trim and bleed boxes (x, y, w, h in points from the top-left
   corner, inside the page), written to PDF as TrimBox and BleedBox. */
ct_status_t  ct_canvas_set_page_boxes(ct_canvas_t *canvas, const double trim[4], const double bleed[4],
                                      ct_error_t *err);
/* Fills the current page's background. */
ct_status_t  ct_canvas_fill_background(ct_canvas_t *canvas, ct_rgba_t color, ct_error_t *err);
ct_status_t  ct_canvas_fill_rect(ct_canvas_t *canvas, double x, double y, double w, double h,
                                 ct_rgba_t color, ct_error_t *err);

/* Shapes and draws UTF-8 text with its baseline origin at (x, y), y down from the top
   of the page.  `advance` (may be NULL) receives the pen advance in points. */
ct_status_t ct_canvas_draw_text(ct_canvas_t *canvas, ct_font_t *font, const char *utf8,
                                size_t len, const ct_text_style_t *style, double x, double y,
                                double *advance, ct_error_t *err);
/* Draws already shaped glyphs (font units) at (x, y). */
ct_status_t ct_canvas_draw_glyphs(ct_canvas_t *canvas, ct_font_t *font, const ct_shaped_t *run,
                                  const ct_text_style_t *style, double x, double y,
                                  ct_error_t *err);
/* Draws glyphs shaped elsewhere (a line breaker shaping a paragraph as a whole) as the text
   `utf8`: like ct_canvas_draw_text, with the text kept for the PDF's text layer, but the
   glyphs and positions are `run`'s (font units; clusters are byte offsets into `utf8`, each
   less than `len`: CT_ERR_INVALID_ARG otherwise). */
ct_status_t ct_canvas_draw_shaped(ct_canvas_t *canvas, ct_font_t *font, const char *utf8, size_t len,
                                  const ct_shaped_t *run, const ct_text_style_t *style, double x,
                                  double y, ct_error_t *err);
/* Draws a paint tree in font units (y up) scaled to `style->size` at (x, y).  The canvas
   keeps a reference to the tree (trees are immutable once shared) until it is destroyed. */
ct_status_t ct_canvas_draw_paint(ct_canvas_t *canvas, ct_font_t *font, ct_paint_t *paint,
                                 const ct_text_style_t *style, double x, double y,
                                 ct_error_t *err);

/* How a picture fills a box of another aspect ratio. */
typedef enum {
  CT_FIT_CONTAIN = 0,   /* whole, as large as fits, centered (letterboxed) */
  CT_FIT_COVER,         /* covering the box, centered, clipped to it */
  CT_FIT_FILL           /* stretched to the box */
} ct_fit_t;

/* Draws a picture file into the box (x, y, w, h), in points, on the current page: PNG
   (cairo), JPEG, GIF, BMP, TIFF or WebP (gdk-pixbuf; EXIF orientation applied), or SVG
   (librsvg, after the sanitizer of OT-SVG glyphs: no DOCTYPE, no scripts, nothing loaded
   but data: images).  `w` or `h` 0 takes it from the other by the picture's aspect ratio;
   both 0, the natural size (a pixel a point; an SVG's width and height at 72 dpi, else its
   viewBox).  Rasters stay images in PDF and SVG output, SVGs stay vector.  Each file is read
   once per canvas (found again by its real path), and a PDF holds one copy of it however
   often it is drawn (JPEG files as they are).  Errors name the path: CT_ERR_IO (cannot open),
   CT_ERR_INVALID_IMAGE (not an image, corrupt, an SVG refused), CT_ERR_LIMIT (over the size
   limits of ct-limits.h), CT_ERR_INVALID_ARG (a box out of range). */
ct_status_t ct_canvas_draw_image(ct_canvas_t *canvas, const char *path, double x, double y,
                                 double w, double h, ct_fit_t fit, ct_error_t *err);

/* ---- spot inks (paint/ink.c, written by write/pdf/; docs/pdf.md) -------------
   An ink is printed from its own plate.  Its screen color says what it looks like; every
   paint whose color equals it is written to PDF in the ink's Separation color space, a
   lighter color of the same hue (or the ink's color with an alpha) as a tint of it. */
#define CT_INK_NAME_MAX 63
#define CT_MAX_INKS     32
typedef struct {
  char      name[CT_INK_NAME_MAX + 1];   /* UTF-8; not a process colorant's name */
  ct_rgba_t color;        /* how the ink looks on paper, opaque */
  int       has_cmyk;     /* the alternate space: DeviceCMYK `cmyk` (else DeviceRGB `color`) */
  double    cmyk[4];      /* 0..1 */
  int       overprint;    /* mixes with the inks under it instead of knocking them out */
} ct_ink_t;

/* Parses "NAME=COLOR[,overprint][,cmyk=C/M/Y/K]" (COLOR as ct_rgba_parse takes it, opaque;
   C/M/Y/K in percent).  0 on success, else -1 with `why` filled. */
int ct_ink_parse(const char *spec, ct_ink_t *ink, char *why, size_t whylen);
/* Checks an ink made by hand (name, color, cmyk): 0 if usable, else -1 with `why`. */
int ct_ink_check(const ct_ink_t *ink, char *why, size_t whylen);
/* The ink that prints the opaque color (r, g, b): its index in `inks` and the tint (0..1]
   in *tint, or -1 when no ink's tints give the color (within half a level in 255).  An
   exact color wins over a tint of another ink. */
int ct_ink_match(const ct_ink_t *inks, unsigned count, double r, double g, double b, double *tint);
/* A color with an alpha below 1 whose hue is an ink's becomes the opaque tint it prints
   as over paper; other colors are left as they are.  Returns 1 if `c` was changed. */
int ct_ink_flatten(const ct_ink_t *inks, unsigned count, ct_rgba_t *c);

/* The canvas's own inks (documents name them), written with every PDF of it.  An ink of
   the same name replaces the earlier one.  CT_ERR_INVALID_ARG for a bad ink, CT_ERR_LIMIT
   past CT_MAX_INKS. */
ct_status_t     ct_canvas_add_ink(ct_canvas_t *canvas, const ct_ink_t *ink, ct_error_t *err);
unsigned        ct_canvas_get_ink_count(const ct_canvas_t *canvas);
const ct_ink_t *ct_canvas_get_ink(const ct_canvas_t *canvas, unsigned index);
/* A rectangle in registration color (print marks): on every plate and every separation
   (PDF: the /All separation), black in PNG and SVG. */
ct_status_t ct_canvas_fill_registration(ct_canvas_t *canvas, double x, double y, double w,
                                        double h, ct_error_t *err);

/* Threads a raster page (PNG) is drawn and compressed with, for the whole process: 1 to
   CT_MAX_THREADS, or 0 for the default (CHROMATYPE_THREADS from the environment, else the
   number of cores).  The output is byte-identical for any count.  CT_ERR_INVALID_ARG when
   out of range. */
ct_status_t ct_set_threads(unsigned n, ct_error_t *err);
/* The thread count in effect (at least 1). */
unsigned    ct_get_threads(void);
/* A thread count as text ("4"): 1..CT_MAX_THREADS, 0 if it is not one. */
unsigned    ct_parse_threads(const char *s);

typedef struct {
  ct_output_t format;      /* AUTO: from the path's extension, else PNG */
  unsigned    threads;     /* PNG: threads for this write (0: ct_get_threads()) */
  double      dpi;         /* PNG: pixels per inch (default 72: 1 px per point) */
  int         width_px;    /* PNG: if > 0, the pixel width (height keeps the aspect) */
  const char *title, *author, *subject, *keywords, *creator;   /* PDF metadata */
  int         no_text_layer;  /* PDF: leave out the copyable text layer (on by default) */
  int         cmyk;           /* PDF: process colors to DeviceCMYK through ICC profiles (docs/pdf.md) */
  const ct_ink_t *inks;       /* more spot inks, over the canvas's own (same name: these win) */
  unsigned    ink_count;
  int         inks_only;      /* a painted color that no ink prints is an error, not a warning */
  int         overprint;      /* every ink overprints (PDF overprint), as riso and screen inks mix */
  const char *plates;         /* a directory: one grayscale plate per ink (PDF, or PNG when the
                                 output is PNG) and preview.png, the inks over each other */
} ct_write_options_t;

void ct_write_options_init(ct_write_options_t *opts);

/* Writes every page: PDF and SVG (SVG: the first page) to `path`, PNG to `path`
   when there is one page, else to path-1.png, path-2.png...  "-" writes to stdout.
   Files are written to a temporary name and renamed: a failure leaves no file.
   PDF dates come from SOURCE_DATE_EPOCH, else a fixed date, so output is repeatable. */
ct_status_t ct_canvas_write(ct_canvas_t *canvas, const char *path,
                            const ct_write_options_t *opts, ct_error_t *err);

/* Writes the canvas to a PDF page by page: from now on, each page is written when the next
   one begins and its drawing is freed, so a long document keeps one page in memory.
   ct_canvas_finish writes the last page and the file (to a temporary name, renamed when
   complete); ct_canvas_write is refused meanwhile.  A canvas destroyed unfinished leaves
   no file. */
ct_status_t ct_canvas_stream_pdf(ct_canvas_t *canvas, const char *path, const ct_write_options_t *opts,
                                 ct_error_t *err);
ct_status_t ct_canvas_finish(ct_canvas_t *canvas, ct_error_t *err);

/* Renders page `page` (0-based) into memory at `dpi` and forgets the pixels: their size
   and an FNV-1a hash of them (premultiplied ARGB32 rows) are returned.  For benchmarks
   (the cost of drawing without that of encoding) and tests. */
ct_status_t ct_canvas_rasterize(ct_canvas_t *canvas, unsigned page, double dpi, int *width,
                                int *height, uint64_t *hash, ct_error_t *err);

/* A file is written to a temporary name beside it, "PATH.tmp-XXXXXX" (and, for a PDF's
   last pass, "PATH.tmp-pass-XXXXXX"), renamed when complete; a process killed meanwhile
   leaves that temporary behind.  If `name` (a directory entry, no path) is such a
   temporary, writes the name of its file into `target` (`size` bytes) and returns 1;
   else returns 0.  For a rerun that clears what a killed run left (batch --resume). */
int ct_file_temp_target(const char *name, char *target, size_t size);

/* ==== fontmake (src/fontmake/) ===========================================

   ---- making fonts (fontmake/fontbuild.c) ------------------------------ */

/* Writes an OpenType font from a lead font: its glyphs keep their ids (so its GSUB, GPOS
   and GDEF keep working), glyphs the color glyphs draw from other fonts are added, color
   glyphs are given as paint trees (glyph nodes of any font of the same units per em),
   palettes start as the lead's.  With no trees and no formats, the lead's tables are kept
   and only its palettes and names are written anew. */
typedef struct ct_font_builder ct_font_builder_t;

typedef enum {
  CT_FONT_COLR0 = 1,
  CT_FONT_COLR1 = 2,
  CT_FONT_SVG   = 4
} ct_font_format_bits_t;

typedef struct {
  unsigned    formats;   /* ct_font_format_bits_t; 0: COLRv0 if every glyph fits, else COLRv1 */
  int         woff2;     /* also implied by a path ending in .woff2 */
  const char *text;      /* UTF-8: keep only the glyphs this text needs (hb-subset); NULL: all */
} ct_font_write_options_t;

ct_font_builder_t *ct_font_builder_create(ct_font_t *lead, ct_error_t *err);
void ct_font_builder_destroy(ct_font_builder_t *builder);   /* NULL-safe */
/* Replaces the palettes: `count` palettes of `entries` colors, palette-major (types,
   names and labels are cleared). */
ct_status_t ct_font_builder_set_palettes(ct_font_builder_t *builder, unsigned entries, unsigned count,
                                         const ct_rgba_t *colors, ct_error_t *err);
ct_status_t ct_font_builder_set_palette_info(ct_font_builder_t *builder, unsigned palette,
                                             unsigned type, const char *name, ct_error_t *err);
ct_status_t ct_font_builder_set_entry_label(ct_font_builder_t *builder, unsigned entry,
                                            const char *label, ct_error_t *err);
/* The color glyph of lead glyph `gid` (takes a new reference; NULL: none). */
ct_status_t ct_font_builder_set_glyph(ct_font_builder_t *builder, unsigned gid, ct_paint_t *tree,
                                      ct_error_t *err);
ct_status_t ct_font_builder_set_family(ct_font_builder_t *builder, const char *family, ct_error_t *err);
/* Effect axes: the written font varies along `naxes` axes (tag_str, min, def, max and name
   of each are read; fvar, STAT and a variable COLRv1 are written, so the lead must be
   static), its glyphs' trees given at `nmasters` masters: `masters` holds nmasters x naxes
   user coordinates, each master off the default on one axis, and every axis's ends among
   them.  Replaces earlier axes and master trees; naxes 0: a static font again. */
ct_status_t ct_font_builder_set_axes(ct_font_builder_t *builder, const ct_axis_t *axes, unsigned naxes,
                                     const double *masters, unsigned nmasters, ct_error_t *err);
/* Glyph `gid`'s tree at each master of set_axes (nmasters trees, takes new references),
   of the shape of its set_glyph tree: only numbers differ (checked when written); NULL:
   the glyph does not vary. */
ct_status_t ct_font_builder_set_glyph_masters(ct_font_builder_t *builder, unsigned gid, ct_paint_t *const *trees,
                                              ct_error_t *err);
/* A randomized font: `n` variants of lead glyph `base`, each drawn by its tree (takes new
   references), appended as glyphs after the lead's (their outlines and advances the base's,
   for renderers without color); GSUB gets calt (a run's glyphs cycle through the base and
   its variants) and rand (the variants as alternates).  Every base has the same number of
   variants and comes in ascending order; not with axes.  *first: the first variant's id. */
ct_status_t ct_font_builder_add_variants(ct_font_builder_t *builder, unsigned base, ct_paint_t *const *trees,
                                         unsigned n, unsigned *first, ct_error_t *err);
/* Whether the last write kept a variable lead's design space (fvar, gvar...): a TrueType
   lead at its default location written as COLRv1 alone; else it was written at its location. */
int ct_font_builder_kept_variations(const ct_font_builder_t *builder);
void ct_font_write_options_init(ct_font_write_options_t *opts);
/* The glyphs a subset of `font` for the UTF-8 `text` keeps (hb-subset's closure through
   GSUB and the color tables), ascending, .notdef first: writes up to `max` ids and returns
   how many there are. */
unsigned ct_font_get_glyph_closure(ct_font_t *font, const char *text, unsigned *gids, unsigned max);
/* Writes the font (a temporary file renamed when complete: never a half-written one). */
ct_status_t ct_font_builder_write(ct_font_builder_t *builder, const char *path,
                                  const ct_font_write_options_t *opts, ct_error_t *err);

/* ---- fonts from artwork (fontmake/artwork/artfont.c) --------------------------- */

/* One drawing (an SVG document, one glyph): `name` names it in messages; `data` its bytes
   (borrowed for the call); the characters it draws: one code point, a sequence (a ZWJ
   sequence, a keycap, a flag: a ligature of the font's ccmp feature; U+FE0F and U+FE0E are
   left out of it), or none; `glyph_name` its post name (NULL: uniXXXX, uXXXXX, or
   u1F468_200D_1F469 from the code points). */
typedef struct {
  const char          *name;
  const unsigned char *data;
  size_t               len;
  const uint32_t      *codepoints;
  unsigned             ncodepoints;
  const char          *glyph_name;
} ct_artwork_source_t;

typedef struct {
  unsigned upem;                 /* 16..16384 (default 1024) */
  double   ascent, descent;      /* font units; descent below the baseline is negative (819, -205) */
  double   advance;              /* > 0: every glyph's advance; 0: from each drawing */
  int      keep_going;           /* a file that fails is skipped with a warning */
  int      flatten_gradients;    /* gradients become their stops' mean color */
  int      flat_only;            /* COLRv0 alone: a file with a gradient, a clip or group opacity fails */
  unsigned threads;              /* 0: ct_get_threads() */
} ct_artwork_font_options_t;

void ct_artwork_font_options_init(ct_artwork_font_options_t *o);

/* A font builder whose lead is a plain TrueType font made from the drawings (glyph 0
   .notdef, one glyph per drawing in the order given, placeholders for the characters of
   sequences without a drawing of their own, then each distinct outline once; cmap, GDEF,
   GSUB ligatures for sequences), each drawing's glyph colored by its paint tree.  The
   files are read in parallel; messages name the file.  A file that fails is an error
   (the first in order), or with keep_going a warning "NAME: skipped: why" and the file
   left out (every file failing is an error).  `warn` (may be NULL) gets each warning, in
   file order.  Returns a new builder (ct_font_builder_write, set_family...), or NULL
   with `err` filled. */
ct_font_builder_t *ct_font_builder_create_from_artwork(const ct_artwork_source_t *src, unsigned n,
                                                       const ct_artwork_font_options_t *o,
                                                       void (*warn)(void *data, const char *msg),
                                                       void *warn_data, ct_error_t *err);

/* ==== motion (src/motion/) ===============================================

   ---- animations (motion/anim.c) --------------------------------------- */

/* An animation written frame by frame (each a canvas page, rasterized and encoded as it
   comes, never all in memory) to a temporary file renamed by ct_anim_finish. */
typedef struct ct_anim ct_anim_t;

typedef enum {
  CT_ANIM_AUTO = 0,   /* by the path: .apng/.png, .webp, .gif, .mp4/.webm, a pattern with %d */
  CT_ANIM_APNG,
  CT_ANIM_WEBP,
  CT_ANIM_GIF,
  CT_ANIM_FRAMES,     /* one PNG per frame: path is a pattern, "frames/%04d.png", from 0 */
  CT_ANIM_VIDEO
} ct_anim_format_t;

typedef struct {
  ct_anim_format_t format;
  double   fps;        /* frames per second (default 30) */
  unsigned frames;     /* how many frames will come (0: unknown; APNG patches its count) */
  unsigned loop;       /* times to play; 0 (default): forever */
  int      quality;    /* WebP: -1 lossless (default), else 0..100 */
  int      effort;     /* WebP: 0 (default, fastest) .. 6 (smallest file) */
  int      dither;     /* GIF: error diffusion to the shared palette (default 0: nearest color) */
  ct_rgba_t matte;     /* video (no alpha): what transparent pixels show (default opaque white) */
} ct_anim_options_t;

void ct_anim_options_init(ct_anim_options_t *opts);
const char *ct_anim_format_name(ct_anim_format_t format);
ct_anim_format_t ct_anim_format_from_path(const char *path);
/* Frames of width x height pixels; NULL with `err` filled on a bad path, size or option. */
ct_anim_t *ct_anim_create(const char *path, int width, int height, const ct_anim_options_t *opts,
                          ct_error_t *err);
/* Adds page `page` of `canvas` rasterized at `dpi` as the next frame; `poster` (APNG only,
   before any frame): the still image readers without animation show, outside the frames. */
ct_status_t ct_anim_add_canvas(ct_anim_t *anim, ct_canvas_t *canvas, unsigned page, double dpi,
                               int poster, ct_error_t *err);
/* Adds a frame already rasterized: width x height straight (not premultiplied) RGBA. */
ct_status_t ct_anim_add_rgba(ct_anim_t *anim, const unsigned char *rgba, int poster, ct_error_t *err);
/* Rasterizes page `page` of `canvas` at `dpi` into `rgba` (width x height straight RGBA, the
   frame's size: an error if the page is another). */
ct_status_t ct_anim_render_rgba(ct_canvas_t *canvas, unsigned page, double dpi, int width, int height,
                                unsigned char *rgba, ct_error_t *err);
/* Formats whose frames are compressed on their own (APNG) split adding in two: the encoding,
   which touches nothing of `anim` and so runs in worker processes side by side, and the
   adding, in order.  ct_anim_encodes_frames says whether the format does (else frames are
   added whole with ct_anim_add_rgba); the encoding goes to *buf, realloc'ed to *cap bytes
   when too small (the caller's, to reuse from frame to frame and free). */
int         ct_anim_encodes_frames(const ct_anim_t *anim);
ct_status_t ct_anim_encode_frame(const ct_anim_t *anim, const unsigned char *rgba, unsigned char **buf,
                                 size_t *cap, size_t *len, ct_error_t *err);
ct_status_t ct_anim_add_encoded(ct_anim_t *anim, const unsigned char *data, size_t len, int poster,
                                ct_error_t *err);
unsigned ct_anim_get_frame_count(const ct_anim_t *anim);
void     ct_anim_get_size(const ct_anim_t *anim, int *width, int *height);
/* Formats with one palette for the whole animation (GIF) make it from sample frames shown
   before the frames are added (else from the first frame).  ct_anim_get_sample_frames puts
   in `frames` (at most `max`) the numbers of the frames worth showing among `count`, and
   returns how many (0: the format takes none); ct_anim_add_sample shows one, as straight
   RGBA of the animation's size.  ct_anim_render does both by itself. */
unsigned    ct_anim_get_sample_frames(const ct_anim_t *anim, unsigned count, unsigned *frames, unsigned max);
ct_status_t ct_anim_add_sample(ct_anim_t *anim, const unsigned char *rgba, ct_error_t *err);

/* Frames drawn on every core (animfarm.c).  `draw` fills `rgba` (the animation's width x
   height, straight RGBA) with frame `frame`; with more than one worker it is called in
   worker processes (forked: it must depend only on the frame number, not on what earlier
   calls did), each drawing every W-th frame, and the frames reach the encoder in order. */
typedef ct_status_t (*ct_anim_draw_func_t)(void *user, unsigned frame, unsigned char *rgba, ct_error_t *err);
typedef struct {
  unsigned            workers;   /* processes; 0: one per core (less one for formats encoded in
                                    this process: WebP, GIF, video); 1: drawn in this process */
  ct_anim_draw_func_t draw;
  /* In this process: a warning sent by ct_anim_farm_warning, each message once per render. */
  void              (*warning)(void *user, const char *message);
  void               *user;
} ct_anim_farm_t;

/* Draws frames 0..count-1 (after frame `poster` as the poster, if >= 0) and adds them. */
ct_status_t ct_anim_render(ct_anim_t *anim, unsigned count, int poster, const ct_anim_farm_t *farm,
                           ct_error_t *err);
/* While ct_anim_render runs (in a worker or here): passes a warning on to the farm's
   `warning`, once per message; returns 0 (and does nothing) when no render is running. */
int      ct_anim_farm_warning(const char *message);
unsigned ct_anim_farm_default_workers(void);   /* the cores online, at most CT_MAX_ANIM_WORKERS */
/* Completes the file (renamed into place); the animation is then only to be destroyed. */
ct_status_t ct_anim_finish(ct_anim_t *anim, ct_error_t *err);
/* NULL-safe; an animation not finished leaves nothing on disk. */
void ct_anim_destroy(ct_anim_t *anim);

#ifdef __cplusplus
}
#endif
#endif /* CT_H */
