/*
** ct-private.h: private structures and helpers shared by the core's files.
** Core layer: includes FreeType, HarfBuzz and cairo; never lua.h.
*/
#ifndef CT_PRIVATE_H
#define CT_PRIVATE_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <cairo.h>

#include "../ct.h"
#include "ct-limits.h"

#define CT_FORMAT_COUNT (CT_FORMAT_MONO + 1)

struct ct_font {
  int            ref;
  void          *sprites;       /* raster glyph sprites (picture.c), cleared with the paints */
  int            inflated;      /* a WOFF/WOFF2 file, kept as its plain sfnt */
  char          *name;          /* path or caller's name, for messages */
  unsigned char *data;          /* the file's bytes, owned; FreeType reads them in place */
  size_t         size;
  unsigned       index;         /* face index */
  const char    *container;
  FT_Library     ft_lib;        /* one per font: FreeType libraries are not thread-safe */
  FT_Face        ft_face;
  int            ft_scaled;     /* outlines are loaded at ppem = upem (else NO_SCALE) */
  hb_blob_t     *blob;          /* borrows `data` (sfnt) or NULL (WOFF: tables via FreeType) */
  hb_face_t     *hb_face;
  hb_font_t     *hb_font;
  hb_blob_t     *colr_blob;     /* COLR, referenced on first use */
  struct ct_svg_table *svg;     /* SVG documents, parsed on first use */
  struct ct_bitmap_cache *bitmaps;   /* decoded CBDT/sbix images, per strike and glyph */
  cairo_font_face_t *cairo_face;    /* for the PDF text layer */
  unsigned       inked_glyph;   /* 1 + a glyph with an outline, 0 until looked for */
  unsigned       upem;
  int            var_set;       /* set_variations has run: axis_value holds the location */
  double         axis_value[64];
  unsigned       glyph_count;
  unsigned       color_formats;
  /* warnings met while building cached trees, until a caller takes them */
  char          *warnings[16];
  unsigned       nwarnings;
  /* caches, indexed by glyph id and allocated on first use */
  cairo_path_t **outlines;
  ct_paint_t   **paints[CT_FORMAT_COUNT];
};

/* error.c */
ct_status_t ct_set_error(ct_error_t *err, ct_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
ct_status_t ct_from_ft_error(FT_Error error);
const char *ct_ft_error_string(FT_Error error);

/* outline.c: the glyph's outline as a cairo path in font units, y up, cached in the
   font (borrowed: valid until the font's variations change or it is destroyed).
   Returns NULL for an empty glyph. */
const cairo_path_t *ct_font_get_outline(ct_font_t *font, unsigned gid);
void ct_font_clear_outlines(ct_font_t *font);
void ct_font_clear_paints(ct_font_t *font);   /* font.c */

/* colr.c: COLRv0 layers of a glyph as a paint tree, or NULL (not a color glyph). */
ct_paint_t *ct_colr0_glyph_paint(ct_font_t *font, unsigned gid, ct_error_t *err);
/* colr1.c: the COLRv1 graph of a glyph as a paint tree, or NULL (none, or over a limit:
   then *warned is set and `err` says why).  A tree with bad parts left out also sets
   *warned. */
ct_paint_t *ct_colr1_glyph_paint(ct_font_t *font, unsigned gid, ct_error_t *err, int *warned);
/* bitmap.c: CBDT/sbix bitmap glyphs: a paint node when the font has a bitmap for the
   glyph in some strike, and its drawing (the strike chosen from the device scale). */
ct_paint_t *ct_bitmap_glyph_paint(ct_font_t *font, unsigned gid);
void ct_bitmap_render(cairo_t *cr, ct_font_t *font, unsigned gid);
void ct_bitmap_cache_clear(ct_font_t *font);

/* font.c: a cairo font face of the font (for the PDF text layer), made on first use and
   owned by the font; NULL when the font has no outlines (bitmap-only). */
cairo_font_face_t *ct_font_get_cairo_face(ct_font_t *font);
/* outline.c: a glyph with a non-empty outline (.notdef when it has one), for the text layer. */
unsigned ct_font_get_inked_glyph(ct_font_t *font);

/* font.c: queues a warning about the font (drained by ct_font_take_warning). */
void ct_font_add_warning(ct_font_t *font, const char *message);

/* palette.c: the palette of a style resolved to RGBA (`count` entries). */
typedef struct {
  ct_rgba_t *colors;
  unsigned   count;
  ct_rgba_t  foreground;
  ct_rgba_t  inline_buf[16];
} ct_resolved_palette_t;

ct_status_t ct_palette_resolve(ct_font_t *font, const ct_text_style_t *style,
                               ct_resolved_palette_t *out, ct_error_t *err);
void ct_palette_fini(ct_resolved_palette_t *pal);
ct_rgba_t ct_palette_color(const ct_resolved_palette_t *pal, const ct_color_t *color);

/* svg.c: the SVG glyph of a glyph id as a paint node, or NULL (none, or refused: then a
   warning is queued); its drawing; the per-font table cache. */
typedef struct ct_svg_table ct_svg_table_t;
ct_paint_t *ct_svg_glyph_paint(ct_font_t *font, unsigned gid);
/* ct_svg_render samples the glyph's SMIL animations at `time` seconds (glyphs without
   animations draw the same at any time). */
int ct_svg_render(cairo_t *cr, ct_font_t *font, const ct_svg_glyph_t *glyph, int layer,
                  const ct_resolved_palette_t *pal, double time);
/* Whether the glyph's document has SMIL animations (kept by the sanitizer). */
int ct_svg_glyph_is_animated(const ct_svg_glyph_t *glyph);
void ct_svg_table_destroy(ct_svg_table_t *table);
ct_svg_glyph_t *ct_svg_glyph_reference(ct_svg_glyph_t *glyph);
void ct_svg_glyph_destroy(ct_svg_glyph_t *glyph);
unsigned ct_svg_glyph_get_gid(const ct_svg_glyph_t *glyph);
/* svg.c: an SVG picture file's bytes made safe for librsvg: inflated when gzip-compressed
   (capped), parsed without network, DTDs or entities (a DOCTYPE is refused), stripped of
   scripts and of every reference that is not a local #fragment or a PNG/JPEG data: URI, and
   written out again.  Returns a malloc'ed string (length in *out_len), or NULL with `why`
   filled; `what` receives what was removed ("" if nothing), for a warning. */
char *ct_svg_sanitize_picture(const unsigned char *bytes, size_t len, size_t *out_len, char *why,
                              size_t whylen, char *what, size_t whatlen);

/* svgview.c: `root`, the root element of the cut-out document `out` (the whole document
   when its root <svg> has the glyph's id, or a one-glyph document has none; else the
   glyph's cut-out), gets the viewport of the em square (0, 0, upem, upem) without clipping;
   its viewBox maps onto it (an invalid one, or preserveAspectRatio, is ignored; width/height
   without a viewBox stand for one, stretched); its transform goes on a group; and it is
   nested in a frame around the em square (viewBox -upem -2upem 3upem 4upem), which
   ct_svg_render draws into the same rectangle: in its group CT_SVG_FRAME_DOWN, y down,
   and as CT_SVG_FRAME_UP, a <use> of that group flipped (y up).  CT_SVG_VIEW_EMPTY: nothing is to be drawn
   (a zero or absurd viewBox or size); `note` (possibly "") says what was ignored or refused,
   for a warning. */
enum { CT_SVG_VIEW_OK = 0, CT_SVG_VIEW_EMPTY = 1, CT_SVG_VIEW_ERROR = 2 };
#define CT_SVG_FRAME_DOWN "#ct-frame-down"
#define CT_SVG_FRAME_UP   "#ct-frame-up"
struct _xmlNode;
struct _xmlDoc;
int ct_svg_view_frame(struct _xmlDoc *out, struct _xmlNode *root, unsigned upem, char *note, size_t notelen);
/* svgview.c: for a glyph that is an inner element, a chain of <g> under `parent` (in `out`)
   holding what the glyph inherits from its ancestors below the root (inherited presentation
   attributes and style declarations: fill, stroke, color, visibility...; not transforms,
   opacity, clips or filters, which Firefox does not apply either).  Returns the node to
   add the glyph's copy to (`parent` when the ancestors give nothing). */
struct _xmlNode *ct_svg_view_context(struct _xmlDoc *out, struct _xmlNode *parent, struct _xmlNode *glyph);

/* smil.c: SMIL animation in SVG glyph documents (animate, set, animateTransform,
   animateColor).  Nodes and documents are libxml2's.
   ct_smil_is_animation: whether the node is one of those elements.
   ct_smil_check (the sanitizer): 1 to keep the element (attributes it has no use for
   removed, begin/end lists cut to their time offsets: *changed set when it changed it), 0
   to remove it, with `why` filled (attributeName not animatable, a non-local href, begin
   without a usable offset, times over CT_MAX_SVG_ANIM_TIME, lists over
   CT_MAX_SVG_ANIM_VALUES).
   ct_smil_sample: the document made static at `t` seconds: each animated attribute set to
   its value at t (CSS properties into the style attribute), every animation element
   removed; returns how many there were.
   ct_smil_duration: the simple duration of the animations below `node` (the latest begin +
   dur x repeatCount, an indefinite repeat counted once), 0 when none; *count (may be
   NULL) receives how many there are. */
struct _xmlNode;
struct _xmlDoc;
int    ct_smil_is_animation(const struct _xmlNode *node);
int    ct_smil_check(struct _xmlNode *anim, char *why, size_t whylen, int *changed);
int    ct_smil_sample(struct _xmlDoc *doc, double t);
double ct_smil_duration(const struct _xmlNode *node, unsigned *count);

/* svgwrite.c: a glyph's paint tree as an OT-SVG glyph document (the em square, y down,
   baseline at 0) whose drawing element is id="glyphN". */
typedef struct {
  unsigned         gid;            /* N of id="glyphN" */
  const ct_rgba_t *palette;        /* palette 0: the fallbacks of var(--colorI, ...) */
  unsigned         palette_count;
} ct_svgwrite_t;
/* Returns the document (malloc'ed, NUL-terminated, *len set) or NULL with `why` filled
   ("sweep gradients have no SVG equivalent", "out of memory", ...). Glyph nodes whose font is
   NULL use `font`.  Palette entries are written as var(--colorI, #RRGGBB[AA]) (the fallback
   carries the entry's alpha, the paint's alpha is fill-opacity), the text color as
   currentColor.  Refused: sweep gradients, SVG and bitmap nodes, the composite modes
   src_atop, dest_atop, xor and plus, trees over CT_MAX_PAINT_WORK nodes or
   CT_MAX_PAINT_DEPTH deep, documents over CT_MAX_SVG_WRITE_SIZE bytes. */
char *ct_svg_write_glyph(ct_font_t *font, const ct_paint_t *tree, const ct_svgwrite_t *w,
                         size_t *len, char *why, size_t whylen);

/* The sprite cache of a font (made on first use; NULL without memory), and whether `paint`
   is the tree the font caches for `gid` (only those are kept as sprites; caches keyed by
   trees hold a reference to each, so an address is not reused while it is a key). */
struct ct_sprite_cache *ct_font_sprites(ct_font_t *font);
int ct_font_caches_paint(const ct_font_t *font, unsigned gid, const ct_paint_t *paint);

/* intern.c: trees a canvas draws that are equal to one it drew before.  ct_paint_intern
   returns a new reference to the tree `*interns` keeps equal to `paint` (`paint` itself
   once it is seen a second time), or NULL when none is kept (then the caller draws its
   own); `*interns` is made on first use.  Only trees without fonts or images of their own,
   of at most 1,024 nodes, up to a budget of nodes. */
typedef struct ct_paint_interns ct_paint_interns_t;
ct_paint_t *ct_paint_intern(ct_paint_interns_t **interns, ct_paint_t *paint);
void ct_paint_interns_destroy(ct_paint_interns_t *interns);

/* gs.c: runs "gs -dSAFER -dBATCH -dNOPAUSE -dQUIET ARGS..." (NULL-terminated), with
   SOURCE_DATE_EPOCH set; 0 on success, else -1 with `why` filled ("gs not found: WHAT
   needs..."). */
int ct_gs_run(const char *const *args, const char *what, char *why, size_t whylen);

/* png.c: writes an ARGB32 image surface as PNG, fast (one row filter, zlib level 3), RGB
   when every pixel is opaque. */
/* paint.c: a linear gradient's color line {x0, y0, x1, y1} (p1 projected as the spec
   says); 0 when the line has no direction. */
int ct_paint_linear_line(const ct_paint_t *p, double line[4]);

/* png.c: a row of cairo's premultiplied ARGB32 as straight RGB (alpha 0) or RGBA bytes. */
/* parallel.c: runs fn(arg, job, worker) for every job in [0, count) on up to `threads`
   threads (the caller's among them, worker 0; `worker` < threads numbers the thread, for
   buffers of its own) and returns when all are done. */
void ct_parallel_for(unsigned count, unsigned threads, void (*fn)(void *arg, unsigned job, unsigned worker),
                     void *arg);

void ct_unpremultiply_row(const uint32_t *in, unsigned char *out, int w, int alpha);
cairo_status_t ct_png_write(cairo_surface_t *img, unsigned threads, cairo_write_func_t write, void *closure);
/* deflate.c: compresses n bytes of PNG rows (bpp bytes a pixel, 1..4) as a piece of a
   DEFLATE stream, on its own and ending on a byte boundary (the stream's last block if
   `last`); *out is malloc'ed.  `scratch` holds ct_deflate_scratch_size(n) bytes (NULL:
   allocated here).  0 when out of memory. */
int ct_deflate_piece(const unsigned char *in, size_t n, unsigned bpp, int last, void *scratch,
                     unsigned char **out, size_t *outlen);
size_t ct_deflate_scratch_size(size_t n);
/* The same from straight (not premultiplied) RGBA rows, w * 4 bytes each. */
cairo_status_t ct_png_write_rgba(const unsigned char *rgba, int w, int h, cairo_write_func_t write, void *closure);

/* render.c: draws a tree in font units onto `cr` (the caller sets the matrix). */
typedef struct {
  ct_font_t                   *font;
  const ct_resolved_palette_t *palette;
  const ct_ink_t              *inks;      /* spot inks: an alpha on an ink's hue becomes a tint */
  unsigned                     ninks;
  unsigned                     depth;
  unsigned                     work;
  int                          limit_hit;
  double                       time;      /* seconds: SVG glyphs sample their animations at it */
} ct_draw_ctx_t;

/* The box (x0, y0, x1, y1, in `cr`'s device space) that a tree can paint, drawn with the
   matrix of `cr`; 0 if it is unbounded or paints nothing. */
int ct_render_bounds(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p, double b[4]);

ct_status_t ct_render_paint(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *paint);

/* utf8 */
uint32_t ct_utf8_decode(const char *s, size_t len, size_t *used);


/* output.c: a canvas page drawn into a new ARGB32 image at `scale` pixels per point. */
ct_status_t ct_canvas_render_image(ct_canvas_t *canvas, unsigned page, double scale,
                                   cairo_surface_t **out, ct_error_t *err);

/* fileout.c: a whole file written to a temporary name beside `path`, then renamed. */
ct_status_t ct_file_write_atomic(const char *path, const void *data, size_t len, ct_error_t *err);
/* A new file beside `path` ("PATH.tmp-XXXXXX", the umask's mode) opened with `mode`, its
   name in *tmp (the caller's, to rename or unlink and free); NULL with `err` filled. */
FILE *ct_file_open_temp(const char *path, const char *mode, char **tmp, ct_error_t *err);

#endif /* CT_PRIVATE_H */
