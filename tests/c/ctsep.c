/*
** ctsep.c: measures separation plates (Ghostscript's tiffsep TIFFs, or our gray PNG plates):
** a pixel is inked when its value is below 128 (white is paper).  Test tool.
** usage: ctsep A [B]
**   one file:  prints "inked N" (pixels with ink)
**   two files: prints "a N b N both N diff N" (inked in A, in B, in both; pixels whose values
**              differ at all, so 0 for the same picture in files whose bytes differ, as
**              tiffsep's do by their time stamps); the sizes must agree
** exit 0, or 2 when a file cannot be read.
*/
#include <stdio.h>
#include <stdlib.h>

#include <gdk-pixbuf/gdk-pixbuf.h>

/* The file's values (the first channel), one byte a pixel.  NULL if unreadable. */
static unsigned char *values(const char *path, int *w, int *h) {
  GError *err = NULL;
  GdkPixbuf *pb = gdk_pixbuf_new_from_file(path, &err);
  unsigned char *m;
  int x, y, stride, nch;
  const guchar *px;
  if (!pb) {
    fprintf(stderr, "ctsep: %s: %s\n", path, err ? err->message : "unreadable");
    if (err) g_error_free(err);
    return NULL;
  }
  *w = gdk_pixbuf_get_width(pb);
  *h = gdk_pixbuf_get_height(pb);
  stride = gdk_pixbuf_get_rowstride(pb);
  nch = gdk_pixbuf_get_n_channels(pb);
  px = gdk_pixbuf_read_pixels(pb);
  m = malloc((size_t)*w * (size_t)*h);
  for (y = 0; m && y < *h; y++)
    for (x = 0; x < *w; x++) m[(size_t)y * (size_t)*w + (size_t)x] = px[(size_t)y * (size_t)stride + (size_t)x * (size_t)nch];
  g_object_unref(pb);
  return m;
}

int main(int argc, char **argv) {
  int w, h, w2, h2;
  size_t i, a = 0, b = 0, both = 0, diff = 0;
  unsigned char *ma, *mb;
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: ctsep A [B]\n");
    return 2;
  }
  if (!(ma = values(argv[1], &w, &h))) return 2;
  if (argc == 2) {
    for (i = 0; i < (size_t)w * (size_t)h; i++) a += ma[i] < 128;
    printf("inked %zu\n", a);
    free(ma);
    return 0;
  }
  if (!(mb = values(argv[2], &w2, &h2))) { free(ma); return 2; }
  if (w != w2 || h != h2) {
    fprintf(stderr, "ctsep: sizes differ: %dx%d and %dx%d\n", w, h, w2, h2);
    free(ma);
    free(mb);
    return 2;
  }
  for (i = 0; i < (size_t)w * (size_t)h; i++) {
    a += ma[i] < 128;
    b += mb[i] < 128;
    both += ma[i] < 128 && mb[i] < 128;
    diff += ma[i] != mb[i];
  }
  printf("a %zu b %zu both %zu diff %zu\n", a, b, both, diff);
  free(ma);
  free(mb);
  return 0;
}
