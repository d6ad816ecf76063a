/* test_memory.c: the count of --max-memory (base/memory.c) as canvases and fonts charge it
   (issue 33, item 6): a refusal names what was being made and calls the limit's hook once;
   what an object charged comes back when it is destroyed.  Core unit test. */
#include <string.h>

#include "base/base.h"
#include "ct-test.h"
#include "ct.h"

static int hits;
static const char *hit_what;
static void on_hit(const char *what) { hits++; hit_what = what; }

int main(void) {
  ct_error_t err;
  ct_canvas_t *c;
  ct_font_t *f;
  size_t base = ct_mem_used();
  ct_status_t st = CT_OK;
  int i;

  /* no limit: counted, never refused */
  c = ct_canvas_create(100, 100, &err);
  CHECK(c != NULL && ct_mem_used() > base);
  for (i = 0; i < 1000 && st == CT_OK; i++) st = ct_canvas_fill_rect(c, 0, 0, 1, 1, (ct_rgba_t){ 0, 0, 0, 1 }, &err);
  CHECK(st == CT_OK);
  ct_canvas_destroy(c);
  CHECK_MSG(ct_mem_used() == base, "%zu bytes left charged, not %zu", ct_mem_used(), base);

  /* a limit: a canvas's page grows until it is refused, with the limit's message */
  ct_mem_set_limit(base + (1u << 20), on_hit);
  c = ct_canvas_create(100, 100, &err);
  CHECK(c != NULL);
  for (i = 0; i < 10000000 && st == CT_OK; i++) st = ct_canvas_fill_rect(c, 0, 0, 1, 1, (ct_rgba_t){ 0, 0, 0, 1 }, &err);
  CHECK(st == CT_ERR_LIMIT);
  CHECK_MSG(strstr(err.message, "(--max-memory) making a canvas's page") != NULL, "%s", err.message);
  CHECK(ct_mem_used() <= base + (1u << 20));
  CHECK(hits == 1 && hit_what && strcmp(hit_what, "a canvas's page") == 0);
  /* the rest taken: a font past the limit is refused too (the hook is not called again) */
  {
    size_t rest = base + (1u << 20) - ct_mem_used() - 100;
    CHECK(ct_mem_charge(rest, "the rest", &err) == CT_OK);
    f = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
    CHECK(f == NULL && err.status == CT_ERR_LIMIT);
    CHECK_MSG(strstr(err.message, "making a font") != NULL, "%s", err.message);
    CHECK(hits == 1);
    ct_font_destroy(f);
    ct_mem_release(rest);
  }
  ct_canvas_destroy(c);
  CHECK_MSG(ct_mem_used() == base, "%zu bytes left charged, not %zu", ct_mem_used(), base);
  /* freed: fonts fit again, and give back what they took */
  f = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  CHECK(f != NULL && ct_mem_used() > base);
  ct_font_destroy(f);
  CHECK(ct_mem_used() == base);
  ct_mem_set_limit(0, NULL);
  return ct_test_report("test_memory");
}
