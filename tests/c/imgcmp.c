/*
** imgcmp.c: compares two PNGs the way ../shared/oracle/compare.py does: mean absolute
** difference per channel (MAE), largest difference, percent of pixels with a channel
** over a threshold, PSNR.  Both images are flattened onto white first.
** usage: imgcmp A.png B.png [--max-mae X] [--max-percent P] [-t T] [--min-psnr DB] [--diff D.png]
**               [--cell N --cell-max-mae X [--loose I,J,... --loose-max-mae Y]]
** With --cell, every N x N cell (row-major, 0-based) must also stay within --cell-max-mae,
** or --loose-max-mae for the cells listed in --loose; the worst cells are printed.
** exit 0 within limits, 1 over, 2 unreadable or size mismatch.  Test tool.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

static cairo_surface_t *load_flat(const char *path) {
  cairo_surface_t *png = cairo_image_surface_create_from_png(path), *flat;
  cairo_t *cr;
  if (cairo_surface_status(png) != CAIRO_STATUS_SUCCESS) {
    fprintf(stderr, "imgcmp: %s: %s\n", path, cairo_status_to_string(cairo_surface_status(png)));
    cairo_surface_destroy(png);
    return NULL;
  }
  flat = cairo_image_surface_create(CAIRO_FORMAT_RGB24, cairo_image_surface_get_width(png),
                                    cairo_image_surface_get_height(png));
  cr = cairo_create(flat);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_set_source_surface(cr, png, 0, 0);
  cairo_paint(cr);
  cairo_destroy(cr);
  cairo_surface_destroy(png);
  cairo_surface_flush(flat);
  return flat;
}

int main(int argc, char **argv) {
  double max_mae = 1.5, max_percent = 1.0, min_psnr = 28.0, sum = 0, sq = 0, mae, psnr, percent;
  int t = 32, i, x, y, w, h, maxd = 0;
  long over = 0;
  const char *diff_path = NULL, *loose = "";
  int cell = 0, cells_bad = 0;
  double cell_max = 1e9, loose_max = 1e9;
  cairo_surface_t *a, *b, *diff = NULL;
  unsigned char *pa, *pb, *pd = NULL;
  int sa, sb, sd = 0;

  if (argc < 3) {
    fprintf(stderr, "usage: imgcmp A.png B.png [--max-mae X] [--max-percent P] [-t T] [--min-psnr DB] [--diff D.png]\n");
    return 2;
  }
  for (i = 3; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--max-mae") == 0) max_mae = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--max-percent") == 0) max_percent = atof(argv[i + 1]);
    else if (strcmp(argv[i], "-t") == 0) t = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--min-psnr") == 0) min_psnr = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--diff") == 0) diff_path = argv[i + 1];
    else if (strcmp(argv[i], "--cell") == 0) cell = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--cell-max-mae") == 0) cell_max = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--loose") == 0) loose = argv[i + 1];
    else if (strcmp(argv[i], "--loose-max-mae") == 0) loose_max = atof(argv[i + 1]);
    else { fprintf(stderr, "imgcmp: unknown option %s\n", argv[i]); return 2; }
  }
  if (i != argc) { fprintf(stderr, "imgcmp: option %s needs a value\n", argv[i]); return 2; }
  a = load_flat(argv[1]);
  b = load_flat(argv[2]);
  if (!a || !b) return 2;
  w = cairo_image_surface_get_width(a);
  h = cairo_image_surface_get_height(a);
  if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b)) {
    fprintf(stderr, "imgcmp: size mismatch: %dx%d vs %dx%d\n", w, h, cairo_image_surface_get_width(b),
            cairo_image_surface_get_height(b));
    return 2;
  }
  if (diff_path) {
    diff = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    pd = cairo_image_surface_get_data(diff);
    sd = cairo_image_surface_get_stride(diff);
  }
  pa = cairo_image_surface_get_data(a);
  pb = cairo_image_surface_get_data(b);
  sa = cairo_image_surface_get_stride(a);
  sb = cairo_image_surface_get_stride(b);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      unsigned char *ca = pa + y * sa + 4 * x, *cb = pb + y * sb + 4 * x;
      int c, pixmax = 0;
      for (c = 0; c < 3; c++) {
        int d = abs((int)ca[c] - (int)cb[c]);
        sum += d;
        sq += (double)d * d;
        if (d > pixmax) pixmax = d;
      }
      if (pixmax > maxd) maxd = pixmax;
      if (pixmax > t) over++;
      if (pd) {
        unsigned char *cd = pd + y * sd + 4 * x;
        cd[0] = cd[1] = (unsigned char)(255 - pixmax);
        cd[2] = 255;
        cd[3] = 0;
      }
    }
  mae = sum / ((double)w * h * 3);
  if (cell > 0) {   /* per cell: the worst few, and any over its limit */
    int cols = w / cell, rows = h / cell, c, r, k, shown = 0;
    double worst[5] = { -1, -1, -1, -1, -1 };
    int worst_i[5] = { 0, 0, 0, 0, 0 };
    for (r = 0; r < rows; r++)
      for (c = 0; c < cols; c++) {
        double cs = 0, lim;
        char key[16];
        int idx = r * cols + c, is_loose;
        for (y = r * cell; y < (r + 1) * cell; y++)
          for (x = c * cell; x < (c + 1) * cell; x++) {
            unsigned char *ca = pa + y * sa + 4 * x, *cb = pb + y * sb + 4 * x;
            int ch;
            for (ch = 0; ch < 3; ch++) cs += abs((int)ca[ch] - (int)cb[ch]);
          }
        cs /= (double)cell * cell * 3;
        snprintf(key, sizeof key, ",%d,", idx);
        {
          char list[4096];
          snprintf(list, sizeof list, ",%s,", loose);
          is_loose = strstr(list, key) != NULL;
        }
        lim = is_loose ? loose_max : cell_max;
        if (cs > lim) {
          printf("cell %d (row %d col %d): mae %.2f over %.2f%s\n", idx, r, c, cs, lim, is_loose ? " (loose)" : "");
          cells_bad++;
        }
        for (k = 0; k < 5; k++)
          if (cs > worst[k]) {
            memmove(worst + k + 1, worst + k, (4 - k) * sizeof worst[0]);
            memmove(worst_i + k + 1, worst_i + k, (4 - k) * sizeof worst_i[0]);
            worst[k] = cs;
            worst_i[k] = idx;
            break;
          }
      }
    printf("worst cells:");
    for (k = 0; k < 5 && worst[k] >= 0; k++, shown++) printf(" %d:%.2f", worst_i[k], worst[k]);
    printf("\n");
  }
  percent = 100.0 * (double)over / ((double)w * h);
  psnr = sq == 0 ? 99.0 : 10 * log10(255.0 * 255.0 / (sq / ((double)w * h * 3)));
  printf("mae %.3f max %d over_%d %.2f%% psnr %.2f\n", mae, maxd, t, percent, psnr);
  if (diff) {
    cairo_surface_mark_dirty(diff);
    cairo_surface_write_to_png(diff, diff_path);
    cairo_surface_destroy(diff);
  }
  cairo_surface_destroy(a);
  cairo_surface_destroy(b);
  return mae <= max_mae && percent <= max_percent && psnr >= min_psnr && cells_bad == 0 ? 0 : 1;
}
