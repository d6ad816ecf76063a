/*
** svg-private.h: what the files of src/glyph/svg/ share among themselves: a glyph's
** cut-out placed in the em square (svgview.c) and SMIL animation (smil.c).  Never
** included outside this folder.
*/
#ifndef CT_SVG_PRIVATE_H
#define CT_SVG_PRIVATE_H

#include "svg.h"

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

/* smil*.c: SMIL animation in SVG glyph documents (animate, set, animateTransform,
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

/* smil-text.c: a growing NUL-terminated string; `failed` once out of memory (later adds
   do nothing). */
typedef struct { char *s; size_t len, cap; int failed; } sbuf_t;
void ct_svg_sb_add(sbuf_t *b, const char *s, size_t n);

#endif /* CT_SVG_PRIVATE_H */
