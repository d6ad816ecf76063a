/* test_woffcache.c: the process-wide cache of inflated WOFF/WOFF2 fonts keeps within its
   byte budget by dropping the least recently used entries, also while it has free slots.
   font.c is compiled here with a small budget (see the Makefile's rule for this test). */
#define WOFF_CACHE_BYTES 100000u
#include "font/font.c"

#include "ct-test.h"

int main(void) {
  static unsigned char blob[24000];
  unsigned i, present = 0;
  for (i = 1; i <= 10; i++) {
    memset(blob, (int)i, sizeof blob);
    woff_cache_put(1000 + i, 100, blob, sizeof blob);   /* 4 fit in the budget, of 32 slots */
    CHECK(woff_cache_bytes() <= WOFF_CACHE_BYTES);
  }
  for (i = 0; i < WOFF_CACHE_ENTRIES; i++) {
    if (!woff_cache[i].hash) continue;
    present++;
    CHECK(woff_cache[i].hash >= 1007);                     /* the newest stay */
    CHECK(woff_cache[i].sfnt[0] == (unsigned char)(woff_cache[i].hash - 1000));
  }
  CHECK(present == 4);
  /* a real font through the cache: the second open is served from it, the same font */
  {
    ct_error_t err;
    ct_font_t *a = ct_font_create_from_file("examples/fonts/bungee-latin.woff2", 0, &err);
    ct_font_t *b = ct_font_create_from_file("examples/fonts/bungee-latin.woff2", 0, &err);
    CHECK(a && b);
    if (a && b) CHECK(a->size == b->size && memcmp(a->data, b->data, a->size) == 0 && a->inflated && b->inflated);
    ct_font_destroy(a);
    ct_font_destroy(b);
  }
  return ct_test_report("test_woffcache");
}
