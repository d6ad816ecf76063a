/*
** test_hostile.c: hostile COLRv1 fonts (tests/fonts/hostile-*.ttf, made by
** make_colr1.py): cycles, an exponential DAG, a chain thousands deep, bad indices, a
** truncated table, unknown formats and modes.  Each draws, warns once per glyph with the
** problem, and ends; alarm() guards against a hang (a hang fails, it is not a timing).
*/
#include <signal.h>
#include <unistd.h>

#include "ct-test.h"
#include "ct.h"

typedef struct { char log[8192]; size_t len; unsigned count; } warnings_t;

static void collect(void *data, const char *msg) {
  warnings_t *w = data;
  int n = snprintf(w->log + w->len, sizeof w->log - w->len, "%s\n", msg);
  if (n > 0 && (size_t)n < sizeof w->log - w->len) w->len += (size_t)n;
  w->count++;
}

static void on_alarm(int sig) {
  (void)sig;
  fprintf(stderr, "test_hostile: a hostile font did not finish within 60 s\n");
  _exit(1);
}

static void check_font(const char *file, const char *text, unsigned min_warnings, const char *const *needles) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(file, 0, &err);
  ct_canvas_t *c;
  ct_text_style_t st;
  warnings_t w;
  char path[] = "/tmp/ct-hostile-XXXXXX.pdf";
  int fd;
  unsigned i;
  CHECK_MSG(f != NULL, "%s: %s", file, f ? "" : err.message);
  if (!f) return;
  memset(&w, 0, sizeof w);
  c = ct_canvas_create(600, 100, &err);
  ct_canvas_set_warning_func(c, collect, &w);
  ct_text_style_init(&st);
  st.size = 64;
  CHECK_MSG(ct_canvas_draw_text(c, f, text, strlen(text), &st, 10, 80, NULL, &err) == CT_OK, "%s", err.message);
  /* drawing twice: trees are cached, warnings are not repeated */
  CHECK(ct_canvas_draw_text(c, f, text, strlen(text), &st, 10, 80, NULL, &err) == CT_OK);
  fd = mkstemps(path, 4);
  if (fd >= 0) close(fd);
  CHECK_MSG(ct_canvas_write(c, path, NULL, &err) == CT_OK, "%s", err.message);
  unlink(path);
  CHECK_MSG(w.count >= min_warnings, "%s: %u warnings, want >= %u:\n%s", file, w.count, min_warnings, w.log);
  for (i = 0; needles[i]; i++)
    CHECK_MSG(strstr(w.log, needles[i]) != NULL, "%s: no warning with '%s' in:\n%s", file, needles[i], w.log);
  CHECK_MSG(strstr(w.log, file) != NULL, "warnings do not name the font");
  ct_canvas_destroy(c);
  ct_font_destroy(f);
}

int main(void) {
  static const char *const cycle[] = { "cycle in the paint graph", NULL };
  static const char *const dag[] = { "drawing the plain outline", NULL };
  static const char *const deep[] = { "deeper than 64", NULL };
  static const char *const badindex[] = { "past the LayerList", "past the font's", "has no COLRv1 paint", NULL };
  static const char *const truncated[] = { "past the end of the COLR table", NULL };
  static const char *const badformat[] = { "unknown paint format 99", "unknown composite mode 200", NULL };
  const char *four = "\xEE\x80\x80\xEE\x80\x81\xEE\x80\x82\xEE\x80\x83";   /* U+E000..U+E003 */
  const char *six = "\xEE\x80\x80\xEE\x80\x81\xEE\x80\x82\xEE\x80\x83\xEE\x80\x84\xEE\x80\x85";
  signal(SIGALRM, on_alarm);
  alarm(60);
  check_font(FONT("hostile-cycle.ttf"), four, 3, cycle);
  check_font(FONT("hostile-dag.ttf"), "\xEE\x80\x80\xEE\x80\x81\xEE\x80\x82", 1, dag);
  check_font(FONT("hostile-deep.ttf"), "\xEE\x80\x80\xEE\x80\x81", 2, deep);
  check_font(FONT("hostile-badindex.ttf"), six, 3, badindex);
  check_font(FONT("hostile-truncated.ttf"), four, 2, truncated);
  check_font(FONT("hostile-badformat.ttf"), four, 3, badformat);
  return ct_test_report("test_hostile");
}
