/*
** test_output.c: PNG, PDF and SVG output: byte-identical on repeat, PDF dates from
** SOURCE_DATE_EPOCH, PNG size from DPI, multi-page names, atomic writes (a failure
** leaves no file), limits.  Core unit test.
*/
#define _GNU_SOURCE   /* memmem */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ct-test.h"
#include "ct.h"

static char dir[] = "/tmp/ct-test-output-XXXXXX";

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  *len = 0;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = (size_t)n;
  return buf;
}

static ct_canvas_t *sample(ct_font_t *font) {
  ct_error_t err;
  ct_canvas_t *c = ct_canvas_create(200, 100, &err);
  ct_text_style_t st;
  ct_rgba_t bg = { 1, 1, 0.9, 1 };
  ct_text_style_init(&st);
  st.size = 60;
  ct_canvas_fill_background(c, bg, &err);
  ct_canvas_draw_text(c, font, "ABCD", 4, &st, 10, 70, NULL, &err);
  return c;
}

static int same_files(const char *a, const char *b) {
  size_t la, lb;
  char *da = slurp(a, &la), *db = slurp(b, &lb);
  int same = da && db && la == lb && la > 0 && memcmp(da, db, la) == 0;
  free(da);
  free(db);
  return same;
}

static int count_files(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

static void test_deterministic(ct_font_t *font) {
  static const char *const ext[] = { "png", "pdf", "svg" };
  unsigned i;
  for (i = 0; i < 3; i++) {
    char a[128], b[128];
    ct_error_t err;
    ct_canvas_t *c1 = sample(font), *c2 = sample(font);
    snprintf(a, sizeof a, "%s/one.%s", dir, ext[i]);
    snprintf(b, sizeof b, "%s/two.%s", dir, ext[i]);
    CHECK(ct_canvas_write(c1, a, NULL, &err) == CT_OK);
    CHECK(ct_canvas_write(c2, b, NULL, &err) == CT_OK);
    CHECK_MSG(same_files(a, b), "%s output differs between runs", ext[i]);
    ct_canvas_destroy(c1);
    ct_canvas_destroy(c2);
  }
}

static void test_pdf(ct_font_t *font) {
  char path[128];
  ct_error_t err;
  ct_write_options_t wo;
  ct_canvas_t *c = sample(font);
  size_t len;
  char *pdf;
  snprintf(path, sizeof path, "%s/meta.pdf", dir);
  ct_write_options_init(&wo);
  wo.title = "Palette (specimen)";
  wo.author = "chromatype tests";
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  CHECK(ct_canvas_write(c, path, &wo, &err) == CT_OK);
  unsetenv("SOURCE_DATE_EPOCH");
  pdf = slurp(path, &len);
  CHECK(pdf && memcmp(pdf, "%PDF-", 5) == 0);
  /* cairo 1.16 writes dates without the "D:" prefix, the PDF pass adds it; 1700000000 is
     2023-11-14 22:13:20 */
  CHECK(pdf && memmem(pdf, len, "/CreationDate (D:20231114221320Z)", 33) != NULL);
  CHECK(pdf && memmem(pdf, len, "/ModDate (D:20231114221320Z)", 28) != NULL);
  CHECK(pdf && memmem(pdf, len, "/Title <feff0050", 16) != NULL);   /* UTF-16BE "P..." */
  CHECK(pdf && memmem(pdf, len, "/Author (chromatype tests)", 26) != NULL);
  free(pdf);
  /* two pages in one PDF */
  CHECK(ct_canvas_new_page(c, &err) == CT_OK);
  CHECK(ct_canvas_get_page_count(c) == 2);
  CHECK(ct_canvas_write(c, path, NULL, &err) == CT_OK);
  pdf = slurp(path, &len);
  CHECK(pdf && memmem(pdf, len, "/Count 2", 8) != NULL);
  free(pdf);
  /* two pages as PNG: one file per page */
  snprintf(path, sizeof path, "%s/pages.png", dir);
  CHECK(ct_canvas_write(c, path, NULL, &err) == CT_OK);
  snprintf(path, sizeof path, "%s/pages-1.png", dir);
  CHECK(access(path, F_OK) == 0);
  snprintf(path, sizeof path, "%s/pages-2.png", dir);
  CHECK(access(path, F_OK) == 0);
  ct_canvas_destroy(c);
}

static void test_png_size(ct_font_t *font) {
  char path[128];
  ct_error_t err;
  ct_write_options_t wo;
  ct_canvas_t *c = sample(font);
  size_t len;
  unsigned char *png;
  snprintf(path, sizeof path, "%s/dpi.png", dir);
  ct_write_options_init(&wo);
  wo.dpi = 144;
  CHECK(ct_canvas_write(c, path, &wo, &err) == CT_OK);
  png = (unsigned char *)slurp(path, &len);
  /* IHDR: width and height at bytes 16..23 */
  CHECK(png && len > 24 && png[18] == 1 && png[19] == 144 && png[22] == 0 && png[23] == 200);
  free(png);
  wo.dpi = 72;
  wo.width_px = 50;
  CHECK(ct_canvas_write(c, path, &wo, &err) == CT_OK);
  png = (unsigned char *)slurp(path, &len);
  CHECK(png && len > 24 && png[19] == 50 && png[23] == 25);
  free(png);
  wo.width_px = 0;
  wo.dpi = 0;
  CHECK(ct_canvas_write(c, path, &wo, &err) == CT_ERR_INVALID_ARG);
  CHECK(strstr(err.message, "dpi out of range") != NULL);
  wo.dpi = 9000;   /* 25000 x 12500 px: over the pixel limit */
  CHECK(ct_canvas_write(c, path, &wo, &err) == CT_ERR_LIMIT);
  ct_canvas_destroy(c);
}

static void test_atomic(ct_font_t *font) {
  char path[160];
  ct_error_t err;
  ct_canvas_t *c = sample(font);
  int before;
  /* unwritable directory: an error naming the file, and nothing written */
  CHECK(ct_canvas_write(c, "/nonexistent-dir/x.png", NULL, &err) == CT_ERR_IO);
  CHECK(strstr(err.message, "/nonexistent-dir/x.png: cannot write") != NULL);
  /* a failure after the file was started (pixel limit) leaves neither file nor temporary */
  before = count_files();
  snprintf(path, sizeof path, "%s/huge.png", dir);
  {
    ct_write_options_t wo;
    ct_write_options_init(&wo);
    wo.dpi = 9000;
    CHECK(ct_canvas_write(c, path, &wo, &err) != CT_OK);
  }
  CHECK(count_files() == before);
  CHECK(access(path, F_OK) != 0);
  /* the written file has ordinary permissions, not mkstemp's 0600 */
  snprintf(path, sizeof path, "%s/mode.pdf", dir);
  {
    struct stat st;
    mode_t mask = umask(022);
    CHECK(ct_canvas_write(c, path, NULL, &err) == CT_OK);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
    umask(mask);
  }
  ct_canvas_destroy(c);
}

static void test_limits(void) {
  ct_error_t err;
  CHECK(ct_canvas_create(0, 10, &err) == NULL && err.status == CT_ERR_INVALID_ARG);
  CHECK(ct_canvas_create(10, 1e9, &err) == NULL && strstr(err.message, "out of range"));
  CHECK(ct_canvas_create(NAN, 10, &err) == NULL);
  CHECK(ct_output_from_path("a/b.PDF") == CT_OUTPUT_PDF);
  CHECK(ct_output_from_path("a.b/c") == CT_OUTPUT_AUTO);
  CHECK(ct_output_from_path("x.svg") == CT_OUTPUT_SVG);
}

int main(void) {
  ct_error_t err;
  ct_font_t *font;
  char cmd[128];
  if (!mkdtemp(dir)) return 1;
  font = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  if (!font) { fprintf(stderr, "%s\n", err.message); return 1; }
  test_deterministic(font);
  test_pdf(font);
  test_png_size(font);
  test_atomic(font);
  test_limits();
  ct_font_destroy(font);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) return 1;
  return ct_test_report("test_output");
}
