/*
** canvas.h: the canvas structure, shared by canvas.c (drawing) and output.c (writing).
** Core layer, private.
*/
#ifndef CT_CANVAS_H
#define CT_CANVAS_H

#include "ct-private.h"

struct ct_canvas {
  int               ref;
  double            width, height;     /* points */
  cairo_surface_t **pages;             /* recording surfaces, one per page */
  unsigned          npages, cap;
  cairo_t          *cr;                /* draws on the last page */
  ct_warning_func_t warn;
  void             *warn_data;
};

#endif /* CT_CANVAS_H */
