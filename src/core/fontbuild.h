/*
** fontbuild.h: what the files of the font builder (fontbuild*.c) share: the builder, the
** lead's tables, the glyph set of the font being written, the tables written anew and the
** file's last steps.  Core layer, private to fontbuild*.c; the encoders are in fontwrite.h.
*/
#ifndef CT_FONTBUILD_H
#define CT_FONTBUILD_H

#include "fontwrite.h"

/* ---- fontbuild-subset.c: the file --------------------------------------------- */

/* The assembled font's last steps: a glyph subset when o->text is set, WOFF2 when
   o->woff2 is set or `path` ends in .woff2, then the file (written atomically). */
ct_status_t ct_build_output(ct_buf_t *file, const char *path, const ct_font_write_options_t *o,
                            ct_error_t *err);

#endif /* CT_FONTBUILD_H */
