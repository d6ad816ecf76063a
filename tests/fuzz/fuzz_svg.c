/*
** fuzz_svg.c: the SVG sanitizer alone (src/core/svg.c): gzip inflation with its cap,
** parsing without network, DTDs or entities, the removal of scripts, event handlers and
** external references, and the serialization, on arbitrary bytes; then the SMIL checks
** and sampler of glyphs (src/core/smil.c) on the same bytes parsed as a document.
*/
#include <stdint.h>
#include <stdlib.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "ct-private.h"

/* ct_smil_check on every animation element (those it refuses go, as in the sanitizer). */
static void check_all(xmlNodePtr n) {
  xmlNodePtr next;
  for (; n; n = next) {
    next = n->next;
    if (n->type != XML_ELEMENT_NODE) continue;
    if (ct_smil_is_animation(n)) {
      char why[200];
      int changed;
      if (!ct_smil_check(n, why, sizeof why, &changed)) {
        xmlUnlinkNode(n);
        xmlFreeNode(n);
      }
      continue;
    }
    check_all(n->children);
  }
}

/* The sampler at a few times, on checked and on unchecked documents. */
static void smil(const uint8_t *data, size_t size) {
  static const double times[] = { 0, 0.5, 1, 2.25, 3600 };
  unsigned i;
  if (size > (1u << 20)) return;
  for (i = 0; i < sizeof times / sizeof times[0]; i++) {
    xmlDocPtr d = xmlReadMemory((const char *)data, (int)size, "fuzz.svg", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!d) return;
    if (i % 2 == 0) check_all(xmlDocGetRootElement(d));
    ct_smil_duration(xmlDocGetRootElement(d), NULL);
    ct_smil_sample(d, times[i]);
    xmlFreeDoc(d);
  }
}

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
  smil(data, size);
  return 0;
}
