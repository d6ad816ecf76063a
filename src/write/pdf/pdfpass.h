/*
** pdfpass.h: the finishing pass over the PDF that cairo writes (pdfpass*.cc, through qpdf):
** clean resource dictionaries, an invisible text layer (3 Tr), spot inks (Separation and
** DeviceN), overprint, print marks in registration color, and ink plates.  Core layer,
** private; callable from C.
*/
#ifndef CT_PDFPASS_H
#define CT_PDFPASS_H

#include <stddef.h>
#include "ct.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one page adds: rectangles in registration color (x0 y0 x1 y1, PDF units, y up),
   and its TrimBox and BleedBox (cairo 1.16 has no API for them), around which a plate is
   marked when the page has no marks of its own. */
typedef struct {
  const double *marks;
  unsigned      nmarks;
  double        width, height;     /* the page, points */
  int           has_trim;
  double        trim[4], bleed[4]; /* x0 y0 x1 y1, PDF units */
} ct_pdf_page_t;

/* The opacity canvas.c draws the copyable text layer with: the marker by which the pass
   finds the layer's graphics state and writes text rendering mode 3 instead. */
#define CT_TEXT_LAYER_ALPHA 0.004

#define CT_PDF_REPORT_COLORS 24

typedef struct {
  /* in */
  const ct_ink_t      *inks;
  unsigned             ink_count;
  int                  overprint;     /* every paint overprints */
  int                  plate;         /* -1: the print file; k: the grayscale plate of ink k */
  int                  cmyk;          /* the print file's process colors to DeviceCMYK (ICC) */
  const ct_pdf_page_t *pages;
  unsigned             npages;
  /* out (the print file): colors painted that no ink prints, as #rrggbb, and images */
  char                 process[CT_PDF_REPORT_COLORS][8];
  unsigned             nprocess;       /* how many distinct ones (only the first are listed) */
  unsigned             images;         /* raster images painted (process colors) */
  unsigned             inks_used;      /* bit i: ink i is painted somewhere */
} ct_pdf_pass_t;

/* Reads the PDF in `in` (a file, opened through fs.c, or `in_mem` bytes when `in` is NULL)
   and writes the finished file to `out` (left open), or to a malloc'ed buffer in *out_mem /
   *out_len when `out` is NULL; `name` is the output's, for messages.  Never throws;
   CT_ERR_BACKEND with the PDF library's message. */
ct_status_t ct_pdf_pass(const char *in, const void *in_mem, size_t in_len, FILE *out, const char *name,
                        char **out_mem, size_t *out_len, ct_pdf_pass_t *pass, ct_error_t *err);

/* plates.c: one plate per ink of `base` (its plate field aside) from the PDF cairo wrote
   (`pdf`, `len` bytes), in `dir` (made if missing): NAME.pdf, or NAME.png (NAME-N.png for
   page N of several) when `png`, at `dpi` or `width_px`; and preview.png, the plates
   multiplied.  Files are written whole or not at all. */
ct_status_t ct_plates_write(const char *dir, const void *pdf, size_t len, ct_pdf_pass_t *base, int png,
                            double dpi, int width_px, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif /* CT_PDFPASS_H */
