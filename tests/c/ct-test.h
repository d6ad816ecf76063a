/*
** ct-test.h: the few macros the C unit tests use (no framework).  Each test program
** prints one line per failed check and ends with "NAME: N passed, N failed".
*/
#ifndef CT_TEST_H
#define CT_TEST_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ct_test_passed, ct_test_failed;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (cond) ct_test_passed++;                                                       \
    else {                                                                            \
      ct_test_failed++;                                                               \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);      \
    }                                                                                 \
  } while (0)

#define CHECK_MSG(cond, ...)                                                          \
  do {                                                                                \
    if (cond) ct_test_passed++;                                                       \
    else {                                                                            \
      ct_test_failed++;                                                               \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);       \
      fprintf(stderr, __VA_ARGS__);                                                   \
      fputc('\n', stderr);                                                            \
    }                                                                                 \
  } while (0)

#define CHECK_STR(a, b) CHECK_MSG(strcmp((a), (b)) == 0, "'%s' != '%s'", (a), (b))
#define CHECK_NEAR(a, b, eps) CHECK_MSG(fabs((double)(a) - (double)(b)) <= (eps), "%g != %g", (double)(a), (double)(b))

static inline int ct_test_report(const char *name) {
  printf("%s: %d passed, %d failed\n", name, ct_test_passed, ct_test_failed);
  return ct_test_failed ? 1 : 0;
}

/* The project's test fonts, found from the directory `make check` runs in. */
#define FONT(name) "tests/fonts/" name

#endif
