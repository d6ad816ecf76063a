/*
** fuzz_svg.c: the SVG sanitizer alone (src/glyph/svg/svg-sanitize.c): gzip inflation with its cap,
** parsing without network, DTDs or entities, the removal of scripts, event handlers and
** external references, and the serialization, on arbitrary bytes; then the SMIL checks
** and sampler of glyphs (src/glyph/svg/smil*.c) on the same bytes parsed as a document, and the
** geometry of a glyph drawn as a whole document (src/glyph/svg/svgview.c: viewBox, width, height,
** preserveAspectRatio, transform of its root).
*/
#include <stdint.h>
#include <stdlib.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "glyph/svg/svg-private.h"

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

/* The root <svg> resolved against em squares of 1000 and 16 units, as cut_glyph does. */
static void view(const uint8_t *data, size_t size) {
  static const unsigned upem[] = { 1000, 16 };
  unsigned i;
  if (size > (1u << 20)) return;
  for (i = 0; i < 2; i++) {
    char note[256];
    xmlDocPtr d = xmlReadMemory((const char *)data, (int)size, "fuzz.svg", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlNodePtr root = d ? xmlDocGetRootElement(d) : NULL;
    if (root) {
      xmlChar *mem = NULL;
      int n = 0;
      if (ct_svg_view_frame(d, root, upem[i], note, sizeof note) == CT_SVG_VIEW_OK) {
        xmlDocDumpMemory(d, &mem, &n);
        if (mem) xmlFree(mem);
      }
    }
    if (d) xmlFreeDoc(d);
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
  view(data, size);
  return 0;
}
