/*
** memory.c: the C side of --max-memory (base stage).  Objects that hold much memory in C
** (canvases' recorded pages, fonts, decoded pictures, paint trees) charge what they take
** here and release it when freed; the Lua allocator (src/lua/l_limits.c) charges Lua's heap
** to the same counter, so that one limit covers both.  Thread-safe (pictures and paint
** trees are made on the drawing threads too).
*/
#include <stdatomic.h>
#include <stdio.h>

#include "base.h"

static atomic_size_t used;          /* bytes charged, Lua's and C's */
static size_t limit;                /* 0: none */
static void (*on_limit)(const char *what);
static atomic_int said;             /* on_limit was called */

void ct_mem_set_limit(size_t max, void (*hit)(const char *what)) {
  limit = max;
  on_limit = hit;
  atomic_store(&said, 0);
}

size_t ct_mem_limit(void) { return limit; }

size_t ct_mem_used(void) { return atomic_load(&used); }

int ct_mem_try(size_t n) {
  size_t now = atomic_load(&used);
  do {
    if (limit && (n > limit || now > limit - n)) return 0;
  } while (!atomic_compare_exchange_weak(&used, &now, now + n));
  return 1;
}

ct_status_t ct_mem_charge(size_t n, const char *what, ct_error_t *err) {
  if (ct_mem_try(n)) return CT_OK;
  if (on_limit && !atomic_exchange(&said, 1)) on_limit(what);
  return ct_set_error(err, CT_ERR_LIMIT, "memory limit of %zu MiB reached (--max-memory) making %s",
                      limit >> 20, what);
}

void ct_mem_release(size_t n) {
  if (n) atomic_fetch_sub(&used, n);
}
