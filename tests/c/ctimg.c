/*
** ctimg.c: writes the raster pictures the image tests draw, through gdk-pixbuf's own savers,
** so no binary test image is checked in.  The picture is four quadrants: red, green (top),
** blue, white (bottom).  Test tool.
** usage: ctimg FORMAT OUT WIDTH HEIGHT [--orientation N] [--claim W H]
**   FORMAT       jpeg, bmp or tiff
**   --orientation  a JPEG with an EXIF Orientation tag N (1..8) before its pixels
**   --claim      the file's header then claims W x H pixels (a hostile file; the pixels
**                stay those of WIDTH x HEIGHT)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gdk-pixbuf/gdk-pixbuf.h>

static int fail(const char *msg) {
  fprintf(stderr, "ctimg: %s\n", msg);
  return 1;
}

/* The four quadrants. */
static GdkPixbuf *pattern(int w, int h) {
  GdkPixbuf *pb = gdk_pixbuf_new(GDK_COLORSPACE_RGB, FALSE, 8, w, h);
  int x, y, stride;
  guchar *px;
  if (!pb) return NULL;
  stride = gdk_pixbuf_get_rowstride(pb);
  px = gdk_pixbuf_get_pixels(pb);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guchar *p = px + (size_t)y * (size_t)stride + (size_t)x * 3;
      int right = x >= w / 2, bottom = y >= h / 2;
      p[0] = (guchar)(!bottom && !right ? 255 : bottom && right ? 255 : 0);
      p[1] = (guchar)((!bottom && right) || (bottom && right) ? 255 : 0);
      p[2] = (guchar)(bottom ? 255 : 0);
    }
  return pb;
}

/* An APP1 segment with a little-endian TIFF header and one IFD entry: Orientation. */
static size_t exif_segment(unsigned char *o, unsigned orientation) {
  static const unsigned char head[] = {
    0xFF, 0xE1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0,     /* APP1, length 34 */
    'I', 'I', 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,          /* TIFF header, IFD at 8 */
    0x01, 0x00,                                            /* one entry */
    0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,        /* 0x0112 SHORT x 1 */
  };
  memcpy(o, head, sizeof head);
  o[sizeof head] = (unsigned char)orientation;
  memset(o + sizeof head + 1, 0, 3 + 4);                   /* value padding, no next IFD */
  return sizeof head + 8;
}

/* Patches the size in a JPEG's SOF0 marker or a BMP's header. */
static int claim(unsigned char *d, size_t n, const char *format, unsigned w, unsigned h) {
  size_t i = 2;
  if (strcmp(format, "bmp") == 0) {
    if (n < 26) return -1;
    d[18] = (unsigned char)w; d[19] = (unsigned char)(w >> 8); d[20] = (unsigned char)(w >> 16); d[21] = 0;
    d[22] = (unsigned char)h; d[23] = (unsigned char)(h >> 8); d[24] = (unsigned char)(h >> 16); d[25] = 0;
    return 0;
  }
  while (i + 9 < n && d[i] == 0xFF) {
    if (d[i + 1] == 0xC0) {
      d[i + 5] = (unsigned char)(h >> 8); d[i + 6] = (unsigned char)h;
      d[i + 7] = (unsigned char)(w >> 8); d[i + 8] = (unsigned char)w;
      return 0;
    }
    i += 2 + (size_t)(d[i + 2] << 8 | d[i + 3]);
  }
  return -1;
}

int main(int argc, char **argv) {
  const char *format, *out;
  int w, h, i, orientation = 0;
  unsigned cw = 0, ch = 0;
  GdkPixbuf *pb;
  gchar *buf = NULL;
  gsize len = 0;
  GError *err = NULL;
  FILE *f;
  if (argc < 5) return fail("usage: ctimg jpeg|bmp|tiff OUT WIDTH HEIGHT [--orientation N] [--claim W H]");
  format = argv[1];
  out = argv[2];
  w = atoi(argv[3]);
  h = atoi(argv[4]);
  for (i = 5; i < argc; i++) {
    if (strcmp(argv[i], "--orientation") == 0 && i + 1 < argc) orientation = atoi(argv[++i]);
    else if (strcmp(argv[i], "--claim") == 0 && i + 2 < argc) {
      cw = (unsigned)atoi(argv[++i]);
      ch = (unsigned)atoi(argv[++i]);
    } else return fail("unknown option");
  }
  if (w < 1 || h < 1 || w > 4096 || h > 4096) return fail("size out of range");
  if (!(pb = pattern(w, h))) return fail("out of memory");
  if (strcmp(format, "jpeg") == 0)
    gdk_pixbuf_save_to_buffer(pb, &buf, &len, "jpeg", &err, "quality", "95", NULL);
  else
    gdk_pixbuf_save_to_buffer(pb, &buf, &len, format, &err, NULL);
  g_object_unref(pb);
  if (!buf) {
    fprintf(stderr, "ctimg: %s\n", err ? err->message : "cannot save");
    return 1;
  }
  if (cw && claim((unsigned char *)buf, len, format, cw, ch) != 0) return fail("no header to patch");
  if (!(f = fopen(out, "wb"))) return fail("cannot write");
  if (orientation && strcmp(format, "jpeg") == 0) {   /* SOI, our APP1, the rest */
    unsigned char seg[64];
    size_t n = exif_segment(seg, (unsigned)orientation);
    fwrite(buf, 1, 2, f);
    fwrite(seg, 1, n, f);
    fwrite(buf + 2, 1, len - 2, f);
  } else {
    fwrite(buf, 1, len, f);
  }
  g_free(buf);
  return fclose(f) == 0 ? 0 : fail("cannot write");
}
