/*
** smil-text.c: the text primitives of the SMIL files: a growing string (svg-draw.c's too),
** white space, numbers, ';'-separated lists, an attribute's text.  Must not know what the
** text means.  Glyph stage (OT-SVG).
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "smil-internal.h"

/* ---- small text helpers ------------------------------------------------------------ */

void ct_svg_sb_add(sbuf_t *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = (b->cap ? b->cap : 64) * 2 + n;
    char *m = realloc(b->s, cap);
    if (!m) { b->failed = 1; return; }
    b->s = m;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

void ct_smil_sb_str(sbuf_t *b, const char *s) { ct_svg_sb_add(b, s, strlen(s)); }

void ct_smil_sb_num(sbuf_t *b, double v) {
  char tmp[40];
  if (!isfinite(v)) v = 0;
  if (fabs(v) < 1e-9) v = 0;   /* no "-0", no 1e-17 left by rounding */
  snprintf(tmp, sizeof tmp, "%.10g", v);
  ct_smil_sb_str(b, tmp);
}

/* The buffer's text (a malloc'ed copy of "" when empty), or NULL without memory. */
char *ct_smil_sb_take(sbuf_t *b) {
  if (b->failed) { free(b->s); return NULL; }
  if (!b->s) return calloc(1, 1);
  return b->s;
}

int ct_smil_is_wsp(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

const char *ct_smil_skip_wsp(const char *s, const char *end) {
  while (s < end && ct_smil_is_wsp((unsigned char)*s)) s++;
  return s;
}

const char *ct_smil_trim_end(const char *s, const char *end) {
  while (end > s && ct_smil_is_wsp((unsigned char)end[-1])) end--;
  return end;
}

/* A number at s: [+-] digits [. digits] [e [+-] digits]; its length, or 0. */
size_t ct_smil_scan_number(const char *s, const char *end, double *v) {
  const char *p = s;
  char tmp[64];
  size_t n;
  int digits = 0;
  if (p < end && (*p == '+' || *p == '-')) p++;
  while (p < end && isdigit((unsigned char)*p)) p++, digits++;
  if (p < end && *p == '.') {
    p++;
    while (p < end && isdigit((unsigned char)*p)) p++, digits++;
  }
  if (!digits) return 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q < end && (*q == '+' || *q == '-')) q++;
    if (q < end && isdigit((unsigned char)*q)) {
      while (q < end && isdigit((unsigned char)*q)) q++;
      p = q;
    }
  }
  n = (size_t)(p - s);
  if (n >= sizeof tmp) return 0;
  memcpy(tmp, s, n);
  tmp[n] = '\0';
  *v = strtod(tmp, NULL);
  if (!isfinite(*v)) return 0;
  return n;
}

/* The items of a list separated by `sep`, trimmed (empty items kept, except one after a
   final separator).  Calls f(item, end, data) on each; stops early when it returns 0.
   Returns the number of items seen, or (unsigned)-1 when f stopped. */
unsigned ct_smil_split(const char *s, char sep, item_fn f, void *data) {
  const char *end = s + strlen(s);
  unsigned n = 0;
  while (1) {
    const char *e = memchr(s, sep, (size_t)(end - s));
    const char *a, *b;
    if (!e) e = end;
    a = ct_smil_skip_wsp(s, e);
    b = ct_smil_trim_end(a, e);
    if (e == end && a == b && n > 0) break;   /* "a; b;" : nothing after the last ';' */
    if (!f(a, b, data)) return (unsigned)-1;
    n++;
    if (e == end) break;
    s = e + 1;
  }
  return n;
}

int ct_smil_count_item(const char *s, const char *end, void *data) {
  (void)s, (void)end, (void)data;
  return 1;
}

char *ct_smil_prop(xmlNodePtr n, const char *name) {
  return (char *)xmlGetProp(n, (const xmlChar *)name);
}
