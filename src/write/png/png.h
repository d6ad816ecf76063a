/*
** png.h: the door of PNG writing (src/write/png/): cairo's pixels as PNG, filtered and
** deflated in pieces on several threads (png.c, deflate.c), a page's bands compressed as
** they are drawn.  Used by the writers of pages, plates and animations.
*/
#ifndef CT_PNG_H
#define CT_PNG_H

#include "page/page.h"

/* png.c: writes an ARGB32 image surface as PNG, fast (one row filter, zlib level 3), RGB
   when every pixel is opaque. */
cairo_status_t ct_png_write(cairo_surface_t *img, unsigned threads, cairo_write_func_t write, void *closure);
/* The same from straight (not premultiplied) RGBA rows, w * 4 bytes each. */
cairo_status_t ct_png_write_rgba(const unsigned char *rgba, int w, int h, cairo_write_func_t write, void *closure);
/* png.c: a row of cairo's premultiplied ARGB32 as straight RGB (alpha 0) or RGBA bytes. */
void ct_unpremultiply_row(const uint32_t *in, unsigned char *out, int w, int alpha);

/* png.c: writes the page of `bands` as a PNG drawn band by band, each band compressed as it
   is drawn, when the page has a background (ct_bands_opaque): returns 1 with *status set.
   Returns 0 (nothing written) for a page without one, or one that turned out not opaque:
   draw it whole then and write it with ct_png_write (the same bytes). */
int ct_png_write_bands(ct_bands_t *bands, int w, int h, unsigned threads, cairo_write_func_t write, void *closure,
                       cairo_status_t *status);

/* deflate.c: compresses n bytes of PNG rows (bpp bytes a pixel, 1..4) as a piece of a
   DEFLATE stream, on its own and ending on a byte boundary (the stream's last block if
   `last`); *out is malloc'ed.  `scratch` holds ct_deflate_scratch_size(n) bytes (NULL:
   allocated here).  0 when out of memory. */
int ct_deflate_piece(const unsigned char *in, size_t n, unsigned bpp, int last, void *scratch,
                     unsigned char **out, size_t *outlen);
size_t ct_deflate_scratch_size(size_t n);

#endif /* CT_PNG_H */
