/*
** fuzz_svg.c: the SVG sanitizer alone (src/core/svg.c): gzip inflation with its cap,
** parsing without network, DTDs or entities, the removal of scripts, event handlers and
** external references, and the serialization, on arbitrary bytes.
*/
#include <stdint.h>
#include <stdlib.h>

#include "ct-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char why[256], what[256];
  size_t len = 0;
  char *out = ct_svg_sanitize_picture(data, size, &len, why, sizeof why, what, sizeof what);
  if (out) {
    /* what comes out must be clean: sanitizing it again removes nothing */
    size_t len2 = 0;
    char *again = ct_svg_sanitize_picture((const unsigned char *)out, len, &len2, why, sizeof why, what,
                                          sizeof what);
    if (again && what[0] != '\0') abort();
    free(again);
  }
  free(out);
  return 0;
}
