/*
** write.h: the door of the write stage (src/write/): a canvas's pages written out as
** PDF, PNG or SVG (output*.c), on PNG (write/png/) and PDF (write/pdf/) below it.  Every
** file goes to a temporary name and is renamed when complete.  Knows pages; never motion
** or font making, which stand on it.
*/
#ifndef CT_WRITE_H
#define CT_WRITE_H

#include "write/pdf/pdf.h"

/* output-image.c: a canvas page drawn into a new ARGB32 image at `scale` pixels per point. */
ct_status_t ct_canvas_render_image(ct_canvas_t *canvas, unsigned page, double scale,
                                   cairo_surface_t **out, ct_error_t *err);

#endif /* CT_WRITE_H */
