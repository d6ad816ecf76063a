/*
** page.h: the door of the page stage (src/page/): the canvas and its pages as display
** lists (canvas.c records, write/ writes them out), their replay onto cairo, pictures
** (image.c), recordings and sprites of color glyphs (picture.c), and pages drawn in
** bands (bands.c).  Knows shaping, glyphs and paint; of the writers only the sink below.
*/
#ifndef CT_PAGE_H
#define CT_PAGE_H

#include "glyph/glyph.h"
#include "text/text.h"

/* A palette resolved for one drawing call, shared by the glyphs it draws. */
typedef struct {
  int                   ref;
  ct_resolved_palette_t pal;
  uint64_t              hash;      /* of the colors, for the picture cache (once hashed) */
  int                   hashed;
} ct_palette_ref_t;

ct_palette_ref_t *ct_palette_ref_retain(ct_palette_ref_t *p);
void              ct_palette_ref_release(ct_palette_ref_t *p);

typedef struct {
  ct_paint_t *paint;
  double      x, y;     /* pen position, points */
  unsigned    gid;
  uint32_t    cluster;  /* byte offset of the glyph's cluster in the op's text */
} ct_placed_t;

typedef enum { CT_OP_RECT, CT_OP_GLYPHS, CT_OP_IMAGE } ct_op_kind_t;

/* image.c: a picture file, decoded once (a cairo raster or a librsvg handle) and shared by
   the operations that draw it.  Refcounted. */
typedef struct ct_image ct_image_t;

/* Reads and decodes the file `key` (a real path; `name`, the path as given, is for
   messages).  Returns a new image, or NULL with `err` filled.  `warning` receives a message
   for the canvas's warning function ("" if none): what the SVG sanitizer removed. */
ct_image_t *ct_image_load(const char *name, const char *key, char *warning, size_t warnlen,
                          ct_error_t *err);
ct_image_t *ct_image_reference(ct_image_t *img);
void        ct_image_destroy(ct_image_t *img);
const char *ct_image_get_key(const ct_image_t *img);
/* Natural size in points: a pixel a point, or the SVG's own size at 72 dpi. */
void        ct_image_get_size(const ct_image_t *img, double *width, double *height);
/* Draws the image into the box (x, y, w, h), in points, placed by `fit`. */
void        ct_image_draw(cairo_t *cr, const ct_image_t *img, double x, double y, double w,
                          double h, ct_fit_t fit);

/* One drawing operation; a page is a list of them, replayed onto the target cairo
   context when the canvas is written (so PDF keeps every vector, and nothing is
   rasterized before the resolution is known). */
typedef struct {
  ct_op_kind_t kind;
  union {
    struct { double x, y, w, h; ct_rgba_t color; } rect;
    struct {
      ct_font_t        *font;
      ct_palette_ref_t *palette;
      double            scale;     /* points per font unit */
      ct_placed_t      *items;
      unsigned          count;
      char             *text;      /* the UTF-8 text shaped (NULL: glyphs or a tree alone) */
      size_t            text_len;
      int               rtl;       /* clusters run backwards */
      double            time;      /* seconds: SVG animations are sampled at it */
    } glyphs;
    struct { ct_image_t *image; double x, y, w, h; ct_fit_t fit; } image;   /* the box */
  } u;
} ct_op_t;

typedef struct {
  ct_op_t *ops;
  unsigned count, cap;
  double   width, height;   /* points: each page has its own size */
  int      has_boxes;       /* trim and bleed set: the PDF gets a TrimBox and a BleedBox */
  double   trim[4], bleed[4];   /* x, y, w, h in points, y down */
  double  *marks;           /* print marks in registration color: x, y, w, h (points, y down) */
  unsigned nmarks, capmarks;
  size_t   charged;         /* bytes of its operations charged to --max-memory (base/memory.c) */
} ct_page_t;

#define CT_CANVAS_MISSING_MAX 256
#define CT_CANVAS_PALCACHE 8
#define CT_CANVAS_PLACED 8192   /* trees placed lately, for the paint budgets (a power of 2) */

/* A writer taking the canvas's pages as they are done (write/output.c's PDF stream), set
   with `stream`: `flush` writes the pages before `upto` not written yet and frees their
   drawing; `abort` drops the stream (and its temporary file) of a canvas destroyed
   unfinished. */
typedef struct {
  ct_status_t (*flush)(ct_canvas_t *c, unsigned upto, ct_error_t *err);
  void        (*abort)(ct_canvas_t *c);
} ct_page_sink_t;

struct ct_canvas {
  int               ref;
  const ct_page_sink_t *sink;
  void             *stream;            /* the sink's: pages written as they are done */
  unsigned          cleared;           /* pages before this one were streamed and freed */
  double            width, height;     /* points: the size of the current (last) page */
  ct_page_t        *pages;
  unsigned          npages, cap;
  ct_warning_func_t warn;
  void             *warn_data;
  /* characters already reported missing (a hash of the font's name and the code point),
     so a character drawn a thousand times is reported once per canvas */
  uint64_t          missing[CT_CANVAS_MISSING_MAX];
  unsigned          nmissing;
  /* palettes resolved lately, shared by the drawing calls that ask for the same font,
     palette and text color without overrides (a 1,099-entry emoji palette is 35 kB) */
  struct { ct_font_t *font; unsigned palette; ct_rgba_t fg; ct_palette_ref_t *ref; } palcache[CT_CANVAS_PALCACHE];
  unsigned          palnext;
  unsigned long     nglyphs;           /* drawn so far, against CT_MAX_GLYPHS */
  ct_image_t      **images;            /* every picture file drawn, each read once */
  unsigned          nimages, capimages;
  ct_ink_t          inks[CT_MAX_INKS];  /* spot inks the canvas's PDFs are printed with */
  unsigned          ninks;
  double            time;              /* for the glyphs drawn next (ct_canvas_set_time) */
  struct ct_paint_interns *kept;       /* trees of ct_canvas_draw_paint drawn again (intern.c) */
  /* paint node visits (CT_MAX_PAGE_PAINT_WORK, CT_MAX_RUN_PAINT_WORK): of the last page, of
     all; trees placed lately (a reference each), so that a tree placed again costs 1 */
  unsigned long     page_work, run_work;
  unsigned          work_page;          /* the page page_work counts (npages then) */
  unsigned          limits_page;        /* npages when a tree over the walk limits was last reported */
  struct { const ct_paint_t *paint; unsigned page; } placed[CT_CANVAS_PLACED];
  size_t            charged;           /* bytes of the canvas itself charged to --max-memory */
};

/* Frees a page's drawing (it was written), keeping its size and boxes. */
void ct_page_clear(ct_page_t *page);

/* picture.c: color glyphs recorded once per vector output and drawn many times, with the
   spot inks they are recorded with (borrowed while the cache draws). */
typedef struct ct_picture_cache ct_picture_cache_t;
ct_picture_cache_t *ct_picture_cache_create(void);
void ct_picture_cache_set_inks(ct_picture_cache_t *pc, const ct_ink_t *inks, unsigned ninks);
void ct_picture_cache_destroy(ct_picture_cache_t *pc);

/* Replays a page onto `cr` (in points) for vector output: with `pictures`, color glyphs
   are drawn from recordings made once (picture.c).  Raster output is drawn by bands.c, with
   sprites. */
void ct_page_replay(const ct_page_t *page, cairo_t *cr, ct_picture_cache_t *pictures, const ct_ink_t *inks,
                    unsigned ninks);

/* Whether a tree is a color glyph, worth a recording (vector) or a sprite (raster): not a
   plain outline in one color. */
int ct_paint_worth_recording(const ct_paint_t *p);

/* bands.c: a page rasterized in bands of CT_BAND_ROWS device rows, on several threads,
   with the pixels ct_page_replay and ct_page_draw_marks give on one image, for any thread
   count.  ct_bands_create plans the page for an image of width x height pixels at `scale`
   pixels per point and draws the sprites it needs (on `threads` threads); NULL with `err`
   when out of memory.  ct_bands_draw draws band `band` onto `rows` (its ARGB32 rows, `stride`
   bytes apart, whatever they hold) and may run on any thread, several bands at once; 0 if
   cairo failed (ct_bands_status gives the status).  ct_bands_draw_image draws every band onto
   `img` (ARGB32, width x height).  The page must not change while its bands exist. */
#define CT_BAND_ROWS 64
typedef struct ct_bands ct_bands_t;
ct_bands_t *ct_bands_create(const ct_page_t *page, int width, int height, double scale, const ct_ink_t *inks,
                            unsigned ninks, unsigned threads, ct_error_t *err);
unsigned    ct_bands_count(const ct_bands_t *b);
/* Whether an opaque rectangle covers the page (a background): every pixel is opaque then,
   but for a drawing that clears some (checked as the bands are drawn). */
int         ct_bands_opaque(const ct_bands_t *b);
int         ct_bands_draw(ct_bands_t *b, unsigned band, unsigned char *rows, int stride);
int         ct_bands_status(ct_bands_t *b);   /* a cairo_status_t */
ct_status_t ct_bands_draw_image(ct_bands_t *b, cairo_surface_t *img, unsigned threads, ct_error_t *err);
void        ct_bands_destroy(ct_bands_t *b);

/* PNG and SVG: the page's print marks, in black (a PDF gets them from the PDF pass, in the
   /All separation). */
void ct_page_draw_marks(const ct_page_t *page, cairo_t *cr);

#endif /* CT_PAGE_H */
