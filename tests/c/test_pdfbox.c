/*
** test_pdfbox.c: /TrimBox and /BleedBox added to a cairo PDF (ct_pdf_add_boxes): the
** boxes land in the right page dictionaries, every cross-reference offset still points at
** its object, startxref at the table, a page without boxes is left alone, and the result
** reads back in poppler (pdfinfo -box) when it is installed.  Core unit test.
*/
#define _GNU_SOURCE   /* memmem */
#include <cairo-pdf.h>
#include <cairo.h>

#include "ct-test.h"
#include "../../src/core/ct-private.h"

static char *load(FILE *f, size_t *len) {
  char *buf;
  long n;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); return NULL; }
  buf[n] = '\0';
  *len = (size_t)n;
  return buf;
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int length) {
  return fwrite(data, 1, length, (FILE *)closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Three pages, the second larger, with some text so that fonts and streams are written. */
static FILE *sample_pdf(void) {
  FILE *f = tmpfile();
  cairo_surface_t *s;
  cairo_t *cr;
  int i;
  if (!f) return NULL;
  s = cairo_pdf_surface_create_for_stream(to_file, f, 200, 300);
  cr = cairo_create(s);
  for (i = 0; i < 3; i++) {
    if (i == 1) cairo_pdf_surface_set_size(s, 400, 500);
    if (i == 2) cairo_pdf_surface_set_size(s, 200, 300);
    cairo_set_source_rgb(cr, 0.2, 0.4, 0.8);
    cairo_rectangle(cr, 10, 10, 50 + i, 50);
    cairo_fill(cr);
    cairo_move_to(cr, 20, 120);
    cairo_set_font_size(cr, 20);
    cairo_show_text(cr, "Boxes");
    cairo_show_page(cr);
  }
  cairo_destroy(cr);
  cairo_surface_finish(s);
  cairo_surface_destroy(s);
  fflush(f);
  rewind(f);
  return f;
}

/* Every "n" entry of the xref table points at "K 0 obj" for its object number K. */
static int xref_ok(const char *pdf, size_t len) {
  const char *sx = NULL, *p = pdf;
  long xref, first, count, k;
  while ((p = memmem(p, len - (size_t)(p - pdf), "startxref\n", 10))) { sx = p; p += 10; }
  if (!sx || sscanf(sx + 10, "%ld", &xref) != 1 || xref < 0 || (size_t)xref + 5 > len) return 0;
  if (memcmp(pdf + xref, "xref\n", 5) != 0) return 0;
  p = pdf + xref + 5;
  if (sscanf(p, "%ld %ld", &first, &count) != 2) return 0;
  p = strchr(p, '\n') + 1;
  for (k = 0; k < count; k++, p += 20) {
    long off;
    char kind, want[32];
    if (sscanf(p, "%ld %*d %c", &off, &kind) != 2) return 0;
    if (kind != 'n') continue;
    snprintf(want, sizeof want, "%ld 0 obj", first + k);
    if (off < 0 || (size_t)off >= len || strncmp(pdf + off, want, strlen(want)) != 0) return 0;
  }
  return 1;
}

static const char *find(const char *hay, size_t len, const char *needle) {
  return memmem(hay, len, needle, strlen(needle));
}

static int count(const char *hay, size_t len, const char *needle) {
  int n = 0;
  const char *p = hay;
  while ((p = memmem(p, len - (size_t)(p - hay), needle, strlen(needle)))) { n++; p++; }
  return n;
}

int main(void) {
  ct_pdf_boxes_t boxes[3] = {
    { 1, { 10, 10, 190, 290 }, { 5, 5, 195, 295 } },
    { 0, { 0 }, { 0 } },
    { 1, { 20, 30, 180, 270 }, { 15, 25, 185, 275 } },
  };
  FILE *in = sample_pdf(), *out = tmpfile();
  size_t len = 0, olen = 0;
  char *orig, *res;
  ct_error_t err;

  CHECK(in && out);
  if (!in || !out) return ct_test_report("pdfbox");
  orig = load(in, &len);
  CHECK(orig && xref_ok(orig, len));
  rewind(in);
  CHECK(ct_pdf_add_boxes(in, out, boxes, 3, &err) == CT_OK);
  res = load(out, &olen);
  CHECK(res != NULL);
  if (res) {
    const char *p1 = find(res, olen, "/TrimBox [ 10.000000 10.000000 190.000000 290.000000 ]");
    CHECK(p1 != NULL);
    CHECK(find(res, olen, "/BleedBox [ 5.000000 5.000000 195.000000 295.000000 ]") != NULL);
    CHECK(find(res, olen, "/TrimBox [ 20.000000 30.000000 180.000000 270.000000 ]") != NULL);
    CHECK_MSG(count(res, olen, "/TrimBox") == 2, "%d trim boxes", count(res, olen, "/TrimBox"));
    CHECK(olen > len);
    CHECK_MSG(xref_ok(res, olen), "the cross-reference table points at the objects");
    /* the boxes sit in a page dictionary, after its MediaBox */
    if (p1) {
      const char *mb = p1;
      while (mb > res && memcmp(mb, "/MediaBox", 9) != 0) mb--;
      CHECK(p1 - mb < 80);
    }
    /* poppler reads them (when installed) */
    if (system("command -v pdfinfo >/dev/null 2>&1") == 0) {
      char path[] = "/tmp/ct-pdfbox-XXXXXX";
      int fd = mkstemp(path);
      CHECK(fd >= 0);
      if (fd >= 0) {
        FILE *f = fdopen(fd, "wb");
        char cmd[256], buf[4096];
        size_t got;
        FILE *p;
        fwrite(res, 1, olen, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "pdfinfo -box -f 1 -l 3 %s 2>&1", path);
        p = popen(cmd, "r");
        got = p ? fread(buf, 1, sizeof buf - 1, p) : 0;
        buf[got] = '\0';
        if (p) pclose(p);
        CHECK_MSG(strstr(buf, "Page    1 TrimBox:      10.00    10.00   190.00   290.00") != NULL, "%s", buf);
        CHECK_MSG(strstr(buf, "Page    3 BleedBox:     15.00    25.00   185.00   275.00") != NULL, "%s", buf);
        CHECK_MSG(strstr(buf, "Syntax Error") == NULL && strstr(buf, "Syntax Warning") == NULL, "%s", buf);
        remove(path);
      }
    }
  }
  free(orig);
  free(res);
  fclose(in);
  fclose(out);
  return ct_test_report("pdfbox");
}
