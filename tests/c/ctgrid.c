/*
** ctgrid.c: draws items of a font in a grid with the oracle's geometry (48 px, 72 px
** cells, pen at (12, 54) in each cell, white background, each cell clipping what it
** draws), so our PNGs compare pixel for pixel with tests/render/ref/ *.chromium.png.
** Each cell is drawn on its own canvas and copied into the grid (cairo).  Test tool.
** usage: ctgrid FONT [OUT.png] --cols N (--codepoints U+41-U+44,U+1F1FA+U+1F1F8 | --strings a,b)
**        [-o OUT.png] [--font OTHER]   (--font: draw the layout with another font)
**        [--size 48] [--palette N] [--override 0=#00ff00ff,3=#ff000080] [--fg #0000ff] [--format F]
**        [--variations wght=700,...]
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <cairo.h>

#include "ct.h"

static size_t put_utf8(char *o, unsigned long cp) {
  if (cp < 0x80) { o[0] = (char)cp; return 1; }
  if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12)); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F)); return 3;
  }
  o[0] = (char)(0xF0 | (cp >> 18)); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F)); return 4;
}

static void warn(void *data, const char *msg) {
  (void)data;
  fprintf(stderr, "ctgrid: warning: %s\n", msg);
}

int main(int argc, char **argv) {
  char *items[512];
  int nitems = 0, cols = 8, i;
  const char *variations = NULL;
  double size = 48;
  ct_text_style_t style;
  ct_palette_override_t ov[16];
  ct_error_t err;
  ct_font_t *font;
  ct_canvas_t *canvas;
  ct_rgba_t white = { 1, 1, 1, 1 };

  const char *out = NULL, *font_path;
  if (argc < 3) { fprintf(stderr, "usage: ctgrid FONT -o OUT.png --cols N --codepoints LIST\n"); return 2; }
  ct_text_style_init(&style);
  font_path = argv[1];
  i = 2;
  if (argv[2][0] != '-') out = argv[i++];
  for (; i + 1 < argc; i += 2) {
    const char *k = argv[i], *v = argv[i + 1];
    if (strcmp(k, "-o") == 0) out = v;
    else if (strcmp(k, "--font") == 0) font_path = v;   /* another font for the same layout */
    else if (strcmp(k, "--cols") == 0) cols = atoi(v);
    else if (strcmp(k, "--size") == 0) size = atof(v);
    else if (strcmp(k, "--palette") == 0) style.palette = (unsigned)atoi(v);
    else if (strcmp(k, "--fg") == 0) ct_rgba_parse(v, &style.foreground);
    else if (strcmp(k, "--format") == 0) style.format = (ct_format_t)ct_format_from_name(v);
    else if (strcmp(k, "--variations") == 0) variations = v;
    else if (strcmp(k, "--override") == 0) {
      char *s = strdup(v), *tok, *save = NULL;
      for (tok = strtok_r(s, ",", &save); tok && style.override_count < 16; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) return 2;
        *eq = '\0';
        ov[style.override_count].index = (unsigned)atoi(tok);
        ct_rgba_parse(eq + 1, &ov[style.override_count].color);
        style.override_count++;
      }
      style.overrides = ov;
      free(s);
    } else if (strcmp(k, "--strings") == 0) {
      char *s = strdup(v), *tok, *save = NULL;
      for (tok = strtok_r(s, ",", &save); tok && nitems < 512; tok = strtok_r(NULL, ",", &save))
        items[nitems++] = strdup(tok);
      free(s);
    } else if (strcmp(k, "--codepoints") == 0) {
      char *s = strdup(v), *tok, *save = NULL;
      for (tok = strtok_r(s, ",", &save); tok && nitems < 512; tok = strtok_r(NULL, ",", &save)) {
        char buf[256], *p = tok, *end;
        size_t len = 0;
        unsigned long first, last, cp;
        if (strchr(tok, '-')) {   /* a range U+41-U+44 */
          first = strtoul(p + 2, &end, 16);
          last = strtoul(end + 3, NULL, 16);
          for (cp = first; cp <= last && nitems < 512; cp++) {
            len = put_utf8(buf, cp);
            buf[len] = '\0';
            items[nitems++] = strdup(buf);
          }
          continue;
        }
        while (*p) {   /* a sequence U+1F1FA+U+1F1F8 */
          if (*p == '+') p++;
          if (p[0] == 'U' && p[1] == '+') p += 2;
          cp = strtoul(p, &end, 16);
          if (end == p) return 2;
          len += put_utf8(buf + len, cp);
          p = end;
        }
        buf[len] = '\0';
        items[nitems++] = strdup(buf);
      }
      free(s);
    } else {
      fprintf(stderr, "ctgrid: unknown option %s\n", k);
      return 2;
    }
  }
  style.size = size;
  if (nitems == 0 || cols <= 0) { fprintf(stderr, "ctgrid: nothing to draw\n"); return 2; }
  font = ct_font_create_from_file(font_path, 0, &err);
  if (!font) { fprintf(stderr, "ctgrid: %s\n", err.message); return 1; }
  if (variations && ct_font_set_variations(font, variations, &err) != CT_OK) {
    fprintf(stderr, "ctgrid: %s\n", err.message);
    return 1;
  }
  if (!out) { fprintf(stderr, "ctgrid: no output (-o OUT.png)\n"); return 2; }
  {
    double cell = round(size * 1.5), ox = round(size / 4), oy = round(size * 1.125);
    int rows, ok = 1;
    char tmp[] = "/tmp/ctgrid-XXXXXX.png";
    int fd = mkstemps(tmp, 4);
    cairo_surface_t *grid;
    cairo_t *cr;
    if (fd < 0) { perror("ctgrid: mkstemps"); return 1; }
    close(fd);
    if (cols > nitems) cols = nitems;   /* as the oracle: no empty columns */
    rows = (nitems + cols - 1) / cols;
    grid = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(cols * cell), (int)(rows * cell));
    cr = cairo_create(grid);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (i = 0; i < nitems && ok; i++) {
      double x = (i % cols) * cell, y = (i / cols) * cell;
      cairo_surface_t *png;
      canvas = ct_canvas_create(cell, cell, &err);
      if (!canvas) { fprintf(stderr, "ctgrid: %s\n", err.message); ok = 0; break; }
      ct_canvas_set_warning_func(canvas, warn, NULL);
      ct_canvas_fill_background(canvas, white, &err);
      if (ct_canvas_draw_text(canvas, font, items[i], strlen(items[i]), &style, ox, oy, NULL, &err) != CT_OK ||
          ct_canvas_write(canvas, tmp, NULL, &err) != CT_OK) {
        fprintf(stderr, "ctgrid: %s\n", err.message);
        ok = 0;
      }
      ct_canvas_destroy(canvas);
      if (!ok) break;
      png = cairo_image_surface_create_from_png(tmp);
      cairo_set_source_surface(cr, png, x, y);
      cairo_paint(cr);
      cairo_surface_destroy(png);
      free(items[i]);
    }
    cairo_destroy(cr);
    unlink(tmp);
    if (ok && cairo_surface_write_to_png(grid, out) != CAIRO_STATUS_SUCCESS) {
      fprintf(stderr, "ctgrid: cannot write %s\n", out);
      ok = 0;
    }
    cairo_surface_destroy(grid);
    ct_font_destroy(font);
    return ok ? 0 : 1;
  }
}
