/*
** test_pdfjoin.c: the PDF joiner (src/write/pdf/pdfjoin.cc) on small chunks written here by
** hand: pages renumbered under one page tree, what the chunk's /Pages node held pushed onto
** its pages, a stream two chunks hold written once, the first chunk's catalog entries, /Info
** and version (a later chunk's higher one in the catalog), names that need escapes, and the
** errors: a chunk that is no PDF, a catalog entry the first chunk lacks, nothing joined.
** The output must pass qpdf --check.  Core unit test.
*/
#include <unistd.h>

#include "ct-test.h"
#include "ct.h"
#include "write/pdf/pdfjoin.h"

static char dir[] = "/tmp/ct-test-pdfjoin-XXXXXX";

/* Writes a PDF of `n` objects (bodies, numbered from 1; object 1 the catalog) with a
   correct cross-reference table. */
static void write_pdf(const char *path, const char *version, const char *const *objs, int n, const char *trailer) {
  FILE *f = fopen(path, "wb");
  long off[16];
  long xref;
  int i;
  if (!f) return;
  fprintf(f, "%%PDF-%s\n", version);
  for (i = 0; i < n; i++) {
    off[i] = ftell(f);
    fprintf(f, "%d 0 obj\n%s\nendobj\n", i + 1, objs[i]);
  }
  xref = ftell(f);
  fprintf(f, "xref\n0 %d\n0000000000 65535 f \n", n + 1);
  for (i = 0; i < n; i++) fprintf(f, "%010ld 00000 n \n", off[i]);
  fprintf(f, "trailer\n<</Size %d /Root 1 0 R %s>>\nstartxref\n%ld\n%%%%EOF\n", n + 1, trailer, xref);
  fclose(f);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  long n;
  *len = 0;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    else { buf[n] = '\0'; *len = (size_t)n; }
  }
  fclose(f);
  return buf;
}

static unsigned count(const char *hay, const char *needle) {
  unsigned k = 0;
  const char *p = hay;
  while ((p = strstr(p, needle))) { k++; p += strlen(needle); }
  return k;
}

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

/* A chunk of two pages whose /Pages node holds the MediaBox and Resources; a font whose
   program (a stream with no reference in its dictionary) is the same in every chunk; page
   contents that differ; /Info. */
static void chunk(const char *name, const char *version, const char *catalog_extra, const char *text) {
  char path[256], c1[128], c2[128];
  char cat[256];
  const char *objs[10];
  snprintf(cat, sizeof cat, "<</Type /Catalog /Pages 2 0 R %s>>", catalog_extra);
  snprintf(c1, sizeof c1, "<</Length %d>>\nstream\n%s\nendstream", (int)strlen(text), text);
  snprintf(c2, sizeof c2, "<</Length 7>>\nstream\n0 0 m S\nendstream");
  objs[0] = cat;
  objs[1] = "<</Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 200 100] "
            "/Resources <</Font <</F1 7 0 R>> /ColorSpace <</CS0 [/Separation /Riso#20Teal /DeviceRGB 8 0 R]>>>>>>";
  objs[2] = "<</Type /Page /Parent 2 0 R /Contents 5 0 R>>";
  objs[3] = "<</Type /Page /Parent 2 0 R /Contents 6 0 R /Rotate 90>>";
  objs[4] = c1;
  objs[5] = c2;
  objs[6] = "<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /FontFile 9 0 R>>";
  objs[7] = "<</FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0 0.5 0.54] /N 1>>";
  objs[8] = "<</Length 12 /Note (same bytes)>>\nstream\nABCDEFGHIJKL\nendstream";
  objs[9] = "<</Title (Joined \\(test\\)) /Producer (hand)>>";
  path_of(path, sizeof path, name);
  write_pdf(path, version, objs, 10, "/Info 10 0 R");
}

static ct_status_t join(const char *out, const char *const *chunks, int n, ct_error_t *err) {
  char path[256];
  FILE *f = fopen(out, "w+b");
  ct_pdf_join_t *j;
  ct_status_t st = CT_OK;
  int i;
  if (!f) return CT_ERR_IO;
  j = ct_pdf_join_create(f, out);
  for (i = 0; i < n && st == CT_OK; i++) {
    path_of(path, sizeof path, chunks[i]);
    st = ct_pdf_join_add(j, path, err);
  }
  if (st == CT_OK) st = ct_pdf_join_finish(j, err);
  ct_pdf_join_destroy(j);
  fclose(f);
  return st;
}

static void test_join(void) {
  const char *chunks[] = { "a.pdf", "b.pdf", "c.pdf" };
  char out[256], cmd[600];
  ct_error_t err;
  size_t len;
  char *pdf;
  chunk("a.pdf", "1.4", "/ViewerPreferences <</DisplayDocTitle true>>", "0 0 m 10 10 l S");
  chunk("b.pdf", "1.7", "/ViewerPreferences <</DisplayDocTitle true>>", "0 0 m 20 20 l S");
  chunk("c.pdf", "1.4", "", "0 0 m 30 30 l S");
  path_of(out, sizeof out, "joined.pdf");
  CHECK_MSG(join(out, chunks, 3, &err) == CT_OK, "%s", err.message);
  snprintf(cmd, sizeof cmd, "qpdf --check '%s' > /dev/null 2>&1", out);
  CHECK_MSG(system(cmd) == 0, "qpdf --check %s fails", out);
  snprintf(cmd, sizeof cmd, "test \"$(qpdf --show-npages '%s')\" = 6", out);
  CHECK_MSG(system(cmd) == 0, "%s has not 6 pages", out);
  pdf = slurp(out, &len);
  CHECK(pdf != NULL);
  if (!pdf) return;
  CHECK(strncmp(pdf, "%PDF-1.4\n", 9) == 0);                       /* the first chunk's header */
  CHECK(strstr(pdf, "/Version /1.7") != NULL);                     /* a later chunk's, in the catalog */
  CHECK(strstr(pdf, "/ViewerPreferences <</DisplayDocTitle true>>") != NULL);
  CHECK(strstr(pdf, "/Type /Pages /Count 6 /Kids [") != NULL);
  CHECK_MSG(count(pdf, "/Parent 1 0 R") == 6, "%u pages under the joined tree", count(pdf, "/Parent 1 0 R"));
  /* qpdf pushes the node's entries onto the pages as shared objects: one for every chunk */
  CHECK_MSG(count(pdf, "/MediaBox ") == 6, "%u pages got the MediaBox", count(pdf, "/MediaBox "));
  CHECK(count(pdf, "[0 0 200 100]") == 1);
  CHECK(count(pdf, "/Rotate 90") == 3);
  CHECK_MSG(count(pdf, "ABCDEFGHIJKL") == 1, "the shared stream is written %u times", count(pdf, "ABCDEFGHIJKL"));
  CHECK(count(pdf, "/BaseFont /Helvetica") == 1);                   /* equal, references and all */
  CHECK(count(pdf, "0 0 m 30 30 l S") == 1);
  CHECK(count(pdf, "0 0 m S") == 3);                                /* page contents: never looked up */
  CHECK(strstr(pdf, "/Riso#20Teal") != NULL);                        /* a name escaped again */
  CHECK(strstr(pdf, "(Joined \\(test\\))") != NULL);                 /* the first chunk's /Info */
  CHECK(count(pdf, "/Info ") == 1 && strstr(pdf, "/ID [<") != NULL);
  free(pdf);
}

static void test_errors(void) {
  const char *lacks[] = { "c.pdf", "a.pdf" }, *bogus[] = { "a.pdf", "bogus.pdf" };
  char out[256], path[256];
  ct_error_t err;
  FILE *f;
  ct_pdf_join_t *j;
  path_of(out, sizeof out, "bad.pdf");
  CHECK(join(out, lacks, 2, &err) == CT_ERR_BACKEND);
  CHECK_MSG(strstr(err.message, "chunk 2's catalog holds /ViewerPreferences") != NULL, "%s", err.message);
  path_of(path, sizeof path, "bogus.pdf");
  if ((f = fopen(path, "wb"))) { fputs("not a PDF at all", f); fclose(f); }
  CHECK(join(out, bogus, 2, &err) == CT_ERR_BACKEND);
  CHECK_MSG(strstr(err.message, "bad.pdf: joining the PDF") != NULL, "%s", err.message);
  f = fopen(out, "w+b");
  j = ct_pdf_join_create(f, "empty.pdf");
  CHECK(ct_pdf_join_finish(j, &err) == CT_ERR_BACKEND);
  CHECK_MSG(strstr(err.message, "no chunk") != NULL, "%s", err.message);
  ct_pdf_join_destroy(j);
  fclose(f);
}

int main(void) {
  char cmd[128];
  if (!mkdtemp(dir)) return 1;
  test_join();
  test_errors();
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) return 1;
  return ct_test_report("test_pdfjoin");
}
