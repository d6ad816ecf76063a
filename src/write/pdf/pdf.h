/*
** pdf.h: the door of PDF writing (src/write/pdf/): the finishing pass over cairo's PDF
** (pdfpass.h: resources, the text layer, spot inks, CMYK, through qpdf), long PDFs joined
** from chunks (pdfjoin.h), the invisible text layer drawn (textlayer.c), and ink plates
** (plates.c, rasterized by Ghostscript, gs.c).  Reads pages; knows nothing of motion or
** font making.
*/
#ifndef CT_PDF_H
#define CT_PDF_H

#include "write/png/png.h"
#include "pdfpass.h"
#include "pdfjoin.h"

/* textlayer.c: the page's text as real text with its clusters (ToUnicode, ActualText),
   for copying and searching, drawn at CT_TEXT_LAYER_ALPHA and made invisible (text
   rendering mode 3) by the PDF pass. */
void ct_page_text_layer(const ct_page_t *page, cairo_t *cr);

/* gs.c: runs "gs -dSAFER -dBATCH -dNOPAUSE -dQUIET ARGS..." (NULL-terminated), with
   SOURCE_DATE_EPOCH set; 0 on success, else -1 with `why` filled ("gs not found: WHAT
   needs..."). */
int ct_gs_run(const char *const *args, const char *what, char *why, size_t whylen);

#endif /* CT_PDF_H */
