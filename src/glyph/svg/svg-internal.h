/*
** svg-internal.h: what the OT-SVG files (svg.c, svg-sanitize.c, svg-draw.c) share among
** themselves.  Included by those files only; what the rest of the core sees is in svg.h.
*/
#ifndef CT_SVG_INTERNAL_H
#define CT_SVG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <libxml/hash.h>
#include <libxml/tree.h>
#include <librsvg/rsvg.h>

#include "svg-private.h"

/* ---- svg.c: the SVG table, its documents, its glyphs ------------------------------------ */

typedef struct {
  uint16_t start, end;
  uint32_t offset, length;   /* from the start of the table */
} svg_entry_t;

/* A parsed document, shared by every glyph whose entry points at the same bytes. */
typedef struct {
  uint32_t        offset;
  xmlDocPtr       doc;     /* sanitized; NULL when the document was refused */
  xmlHashTablePtr ids;     /* id -> element, for cutting glyphs out without scans */
  char           *error;   /* why it was refused */
  unsigned        glyphs;  /* how many glyph ids the SVG table points at it */
} svg_doc_t;

struct ct_svg_glyph {
  ct_svg_glyph_head_t head;   /* what the paint stage keeps: references, gid, layers (paint.h) */
  unsigned  upem;
  char     *source;        /* the glyph's own small document, palette variables intact */
  size_t    len;
  int       has_vars;      /* var(), currentColor or context-* appear: substitute at draw */
  int       empty;         /* nothing to draw (a zero or absurd viewBox, see svgview.c) */
  char    **layer_ids;     /* head.nlayers: the glyph element's drawable children's ids */
  unsigned  nanims;        /* SMIL animation elements in `source` (0: a static glyph) */
  double    duration;      /* their simple duration, seconds */
};

/* librsvg handles, kept by the table and used by svg-draw.c */
typedef struct {
  uint64_t    key;         /* hash of the substituted document */
  RsvgHandle *handle;
} svg_handle_slot_t;

#define HANDLE_SLOTS 64

struct ct_svg_table {
  hb_blob_t        *blob;
  const uint8_t    *d;
  size_t            len;
  svg_entry_t      *entries;
  unsigned          count;
  svg_doc_t        *docs;    /* one per distinct document offset, parsed on first use */
  unsigned          ndocs, capdocs;
  svg_handle_slot_t handles[HANDLE_SLOTS];   /* librsvg handles by document hash */
  unsigned          next_slot;
};

/* ---- svg-sanitize.c: the safe subset ----------------------------------------------------- */

typedef struct {
  unsigned elements, removed;
  unsigned animations;  /* SMIL animation elements kept */
  int      too_many;
  unsigned long points; /* coordinate pairs of path data and point lists, in all */
  char     too_long[120];   /* a path over CT_MAX_SVG_PATH_POINTS (or all over CT_MAX_SVG_POINTS) */
  int      picture;     /* an image file, not a glyph document: text and links stay */
  char     what[400];   /* the first things removed, for the warning */
} sanitize_t;

/* ---- svg-crossings.c ------------------------------------------------------------------ */

/* How many times the segments of SVG path data (`points` 0) or of a point list (polyline,
   polygon: 1) cross one another: the cost of cairo's tessellator, which librsvg runs for
   every path's extents.  Curves and arcs count as their chords, subpaths are closed as a
   fill closes them, data is read up to its first error.  Exact below 129 segments, else
   estimated from a fixed sample of 64 pairs a segment (the same on every run); linear.
   -1 when out of memory. */
double ct_svg_crossings(const char *data, int points);

int ct_svg_push_parse(const uint8_t *bytes, size_t len, const char *name, xmlDocPtr *out, char *why,
                      size_t whylen);
/* Elements librsvg draws for `node`: a reference (<use href="#x">, url(#x)) counts what it
   references (and what that references) once more each time, so references that double at
   each level count 2^levels from a document of a few lines.  Linear in the document (each
   referenced element is counted once); `ids` maps ids to elements.  Stops past `limit`.
   `*crossings` (may be NULL) gets how often the segments of the paths drawn cross, each copy
   counted (the sanitizer's estimates, which a document not sanitized lacks), stopping past
   CT_MAX_SVG_CROSSINGS. */
unsigned long ct_svg_drawn_elements(xmlNodePtr node, xmlHashTablePtr ids, unsigned long limit, double *crossings);
void ct_svg_index_ids(xmlNodePtr node, xmlHashTablePtr ids);
xmlDocPtr ct_svg_parse_safe(const uint8_t *bytes, size_t len, const char *name, sanitize_t *s,
                            char *why, size_t whylen);

#endif
