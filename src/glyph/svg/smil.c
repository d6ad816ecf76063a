/*
** smil.c: SMIL animation in OT-SVG glyphs (animate, set, animateTransform, animateColor).
** The sanitizer's checks for animation elements, and the sampler that turns a document
** into the static document at a time t (librsvg 2.54 draws static SVG only), plus the
** simple duration of a document's animations.  Core layer; see docs/svg.md for the rules.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "svg-private.h"

/* ---- names ---------------------------------------------------------------- */

typedef enum { A_ANIMATE, A_SET, A_TRANSFORM, A_COLOR } akind_t;

static int anim_kind(const xmlChar *name) {
  if (xmlStrcmp(name, (const xmlChar *)"animate") == 0) return A_ANIMATE;
  if (xmlStrcmp(name, (const xmlChar *)"set") == 0) return A_SET;
  if (xmlStrcmp(name, (const xmlChar *)"animateTransform") == 0) return A_TRANSFORM;
  if (xmlStrcmp(name, (const xmlChar *)"animateColor") == 0) return A_COLOR;
  return -1;
}

int ct_smil_is_animation(const struct _xmlNode *node) {
  return node && node->type == XML_ELEMENT_NODE && anim_kind(node->name) >= 0;
}

/* What attributeName may name.  prop: a CSS property (animated into the override style);
   inherit: inherited (its base value may come from an ancestor); initial: its value when
   nothing sets it. */
typedef enum { VT_NUMBER, VT_COLOR, VT_PATH, VT_TRANSFORM, VT_STRING } vtype_t;
typedef struct { const char *name; unsigned char type, prop, inherit; const char *initial; } attr_info_t;

static const attr_info_t attrs[] = {
  { "fill", VT_COLOR, 1, 1, "black" },
  { "stroke", VT_COLOR, 1, 1, "none" },
  { "color", VT_COLOR, 1, 1, "black" },
  { "stop-color", VT_COLOR, 1, 0, "black" },
  { "flood-color", VT_COLOR, 1, 0, "black" },
  { "lighting-color", VT_COLOR, 1, 0, "white" },
  { "opacity", VT_NUMBER, 1, 0, "1" },
  { "fill-opacity", VT_NUMBER, 1, 1, "1" },
  { "stroke-opacity", VT_NUMBER, 1, 1, "1" },
  { "stop-opacity", VT_NUMBER, 1, 0, "1" },
  { "flood-opacity", VT_NUMBER, 1, 0, "1" },
  { "stroke-width", VT_NUMBER, 1, 1, "1" },
  { "stroke-dasharray", VT_NUMBER, 1, 1, "none" },
  { "stroke-dashoffset", VT_NUMBER, 1, 1, "0" },
  { "stroke-miterlimit", VT_NUMBER, 1, 1, "4" },
  { "stroke-linecap", VT_STRING, 1, 1, "butt" },
  { "stroke-linejoin", VT_STRING, 1, 1, "miter" },
  { "fill-rule", VT_STRING, 1, 1, "nonzero" },
  { "clip-rule", VT_STRING, 1, 1, "nonzero" },
  { "visibility", VT_STRING, 1, 1, "visible" },
  { "display", VT_STRING, 1, 0, "inline" },
  { "x", VT_NUMBER, 0, 0, "0" }, { "y", VT_NUMBER, 0, 0, "0" },
  { "width", VT_NUMBER, 0, 0, "0" }, { "height", VT_NUMBER, 0, 0, "0" },
  { "cx", VT_NUMBER, 0, 0, "0" }, { "cy", VT_NUMBER, 0, 0, "0" }, { "r", VT_NUMBER, 0, 0, "0" },
  { "rx", VT_NUMBER, 0, 0, "0" }, { "ry", VT_NUMBER, 0, 0, "0" },
  { "x1", VT_NUMBER, 0, 0, "0" }, { "y1", VT_NUMBER, 0, 0, "0" },
  { "x2", VT_NUMBER, 0, 0, "0" }, { "y2", VT_NUMBER, 0, 0, "0" },
  { "fx", VT_NUMBER, 0, 0, "0" }, { "fy", VT_NUMBER, 0, 0, "0" }, { "fr", VT_NUMBER, 0, 0, "0" },
  { "dx", VT_NUMBER, 0, 0, "0" }, { "dy", VT_NUMBER, 0, 0, "0" },
  { "offset", VT_NUMBER, 0, 0, "0" }, { "stdDeviation", VT_NUMBER, 0, 0, "0" },
  { "points", VT_NUMBER, 0, 0, "" }, { "viewBox", VT_NUMBER, 0, 0, "" },
  { "d", VT_PATH, 0, 0, "" },
  { "transform", VT_TRANSFORM, 0, 0, "" },
  { "gradientTransform", VT_TRANSFORM, 0, 0, "" },
  { "patternTransform", VT_TRANSFORM, 0, 0, "" },
  { NULL, 0, 0, 0, NULL }
};

static const attr_info_t *attr_info(const char *name) {
  unsigned i;
  for (i = 0; attrs[i].name; i++)
    if (strcmp(attrs[i].name, name) == 0) return &attrs[i];
  return NULL;
}

/* ---- small text helpers ------------------------------------------------------------ */

typedef struct { char *s; size_t len, cap; int failed; } sbuf_t;

static void sb_add(sbuf_t *b, const char *s, size_t n) {
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

static void sb_str(sbuf_t *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_num(sbuf_t *b, double v) {
  char tmp[40];
  if (!isfinite(v)) v = 0;
  if (fabs(v) < 1e-9) v = 0;   /* no "-0", no 1e-17 left by rounding */
  snprintf(tmp, sizeof tmp, "%.10g", v);
  sb_str(b, tmp);
}

/* The buffer's text (a malloc'ed copy of "" when empty), or NULL without memory. */
static char *sb_take(sbuf_t *b) {
  if (b->failed) { free(b->s); return NULL; }
  if (!b->s) return calloc(1, 1);
  return b->s;
}

static int is_wsp(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

static const char *skip_wsp(const char *s, const char *end) {
  while (s < end && is_wsp((unsigned char)*s)) s++;
  return s;
}

static const char *trim_end(const char *s, const char *end) {
  while (end > s && is_wsp((unsigned char)end[-1])) end--;
  return end;
}

/* A number at s: [+-] digits [. digits] [e [+-] digits]; its length, or 0. */
static size_t scan_number(const char *s, const char *end, double *v) {
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
typedef int (*item_fn)(const char *s, const char *end, void *data);
static unsigned split(const char *s, char sep, item_fn f, void *data) {
  const char *end = s + strlen(s);
  unsigned n = 0;
  while (1) {
    const char *e = memchr(s, sep, (size_t)(end - s));
    const char *a, *b;
    if (!e) e = end;
    a = skip_wsp(s, e);
    b = trim_end(a, e);
    if (e == end && a == b && n > 0) break;   /* "a; b;" : nothing after the last ';' */
    if (!f(a, b, data)) return (unsigned)-1;
    n++;
    if (e == end) break;
    s = e + 1;
  }
  return n;
}

static int count_item(const char *s, const char *end, void *data) {
  (void)s, (void)end, (void)data;
  return 1;
}

/* ---- time values -------------------------------------------------------------------- */

/* A clock value (SMIL): "01:02:03.5", "02:03.5", "2s", "1.5min", "0.1h", "500ms", "2".
   Unsigned; 1 on success. */
static int parse_clock(const char *s, const char *end, double *out) {
  const char *p = s;
  double parts[3];
  unsigned np = 0;
  s = skip_wsp(s, end);
  end = trim_end(s, end);
  p = s;
  if (p == end) return 0;
  if (memchr(p, ':', (size_t)(end - p))) {   /* full or partial clock value */
    while (np < 3) {
      double v = 0;
      const char *q = p;
      int frac = 0;
      while (q < end && isdigit((unsigned char)*q)) v = v * 10 + (*q++ - '0');
      if (q == p || (np > 0 && q - p != 2)) return 0;
      if (q < end && *q == '.') {
        double f = 0.1;
        q++;
        frac = 1;
        if (q == end || !isdigit((unsigned char)*q)) return 0;
        while (q < end && isdigit((unsigned char)*q)) v += (*q++ - '0') * f, f /= 10;
      }
      parts[np++] = v;
      p = q;
      if (p == end) break;
      if (*p != ':' || frac) return 0;
      p++;
    }
    if (p != end || np < 2) return 0;
    if (parts[np - 1] >= 60 || parts[np - 2] >= 60) return 0;
    *out = np == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : parts[0] * 60 + parts[1];
    return 1;
  }
  {
    double v;
    size_t n;
    if (*p == '+' || *p == '-') return 0;
    if (!(n = scan_number(p, end, &v)) || v < 0) return 0;
    if (memchr(p, 'e', n) || memchr(p, 'E', n)) return 0;   /* no exponents in SMIL */
    p += n;
    if (p == end || (end - p == 1 && *p == 's')) *out = v;
    else if (end - p == 2 && strncmp(p, "ms", 2) == 0) *out = v / 1000;
    else if (end - p == 3 && strncmp(p, "min", 3) == 0) *out = v * 60;
    else if (end - p == 1 && *p == 'h') *out = v * 3600;
    else return 0;
    return 1;
  }
}

/* An offset value of a begin or end list: [+|-] clock value. */
static int parse_offset(const char *s, const char *end, double *out) {
  int neg = 0;
  s = skip_wsp(s, end);
  if (s < end && (*s == '+' || *s == '-')) {
    neg = *s == '-';
    s++;
  }
  if (!parse_clock(s, end, out)) return 0;
  if (neg) *out = -*out;
  return 1;
}

#define MAX_TIMES 64   /* begin and end values kept per element */

typedef struct { double v[MAX_TIMES]; unsigned n, dropped; } times_t;

static int time_item(const char *s, const char *end, void *data) {
  times_t *t = data;
  double v;
  if (parse_offset(s, end, &v) && fabs(v) <= CT_MAX_SVG_ANIM_TIME && t->n < MAX_TIMES) t->v[t->n++] = v;
  else t->dropped++;
  return 1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The offset values of a begin/end list, sorted; what is not one (events, syncbases,
   "indefinite", wallclock, too large) is counted in `dropped`. */
static void parse_times(const char *s, times_t *t) {
  t->n = t->dropped = 0;
  split(s, ';', time_item, t);
  qsort(t->v, t->n, sizeof t->v[0], cmp_double);
}

/* ---- timing ---------------------------------------------------------------------- */

typedef struct {
  times_t begin, end;
  int     has_end;
  double  dur;          /* simple duration; INFINITY: indefinite (or not given) */
  double  rcount;       /* repeatCount: NAN not given, INFINITY indefinite */
  double  rdur;         /* repeatDur: NAN not given, INFINITY indefinite */
  int     freeze;
  int     restart;      /* 0 always, 1 whenNotActive, 2 never */
} timing_t;

static char *prop(xmlNodePtr n, const char *name) {
  return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static void parse_timing(xmlNodePtr el, timing_t *tm) {
  char *v;
  memset(tm, 0, sizeof *tm);
  tm->dur = INFINITY;
  tm->rcount = NAN;
  tm->rdur = NAN;
  if ((v = prop(el, "begin"))) {
    parse_times(v, &tm->begin);
    xmlFree(v);
  } else {
    tm->begin.n = 1;   /* begin="0" */
    tm->begin.v[0] = 0;
  }
  if ((v = prop(el, "end"))) {
    parse_times(v, &tm->end);
    tm->has_end = tm->end.n > 0;   /* events only: unresolved, as if absent */
    xmlFree(v);
  }
  if ((v = prop(el, "dur"))) {
    double d;
    if (parse_clock(v, v + strlen(v), &d) && d > 0) tm->dur = d;   /* else indefinite */
    xmlFree(v);
  }
  if ((v = prop(el, "repeatCount"))) {
    double c;
    const char *e = v + strlen(v), *s = skip_wsp(v, e);
    size_t n;
    e = trim_end(s, e);
    if (strncmp(s, "indefinite", 10) == 0 && e - s == 10) tm->rcount = INFINITY;
    else if ((n = scan_number(s, e, &c)) && s + n == e && c > 0) tm->rcount = c;
    xmlFree(v);
  }
  if ((v = prop(el, "repeatDur"))) {
    double d;
    const char *e = v + strlen(v), *s = skip_wsp(v, e);
    e = trim_end(s, e);
    if (strncmp(s, "indefinite", 10) == 0 && e - s == 10) tm->rdur = INFINITY;
    else if (parse_clock(s, e, &d) && d > 0) tm->rdur = d;
    xmlFree(v);
  }
  if ((v = prop(el, "fill"))) {
    tm->freeze = strcmp(v, "freeze") == 0;
    xmlFree(v);
  }
  if ((v = prop(el, "restart"))) {
    tm->restart = strcmp(v, "whenNotActive") == 0 ? 1 : strcmp(v, "never") == 0 ? 2 : 0;
    xmlFree(v);
  }
}

/* The active duration from dur, repeatCount and repeatDur (SMIL 3, 5.4.4), before end. */
static double active_dur(const timing_t *tm) {
  double a = INFINITY, b = INFINITY;
  if (isnan(tm->rcount) && isnan(tm->rdur)) return tm->dur;
  if (!isnan(tm->rcount)) a = tm->dur * tm->rcount;   /* indefinite dur: stays indefinite */
  if (!isnan(tm->rdur)) b = tm->rdur;
  return a < b ? a : b;
}

/* The interval that governs time t: the last one begun at or before t.  Intervals start
   at each begin value in order; with restart="always" a begin inside an active interval
   ends it there and starts a new one, with "whenNotActive" it is ignored, with "never"
   only the first interval exists.  An interval ends at begin + active duration or at the
   first end value >= its begin, whichever comes first; a begin after every end value
   makes no interval.  Returns 0 when no interval has begun by t. */
static int interval_at(const timing_t *tm, double t, double *ib, double *ie) {
  double ad = active_dur(tm), b = 0, e = 0;
  unsigned i, j;
  int have = 0;
  for (i = 0; i < tm->begin.n; i++) {
    double nb = tm->begin.v[i], ne;
    if (have) {
      if (tm->restart == 2) break;
      if (nb < e) {
        if (tm->restart == 1 || nb == b) continue;
        if (nb > t) break;
        e = nb;   /* restart: the current interval ends where the new one begins */
      }
    }
    if (nb > t) break;
    ne = nb + ad;
    if (tm->has_end) {
      for (j = 0; j < tm->end.n && tm->end.v[j] < nb; j++) {}
      if (j == tm->end.n) continue;   /* every end is before this begin: no interval */
      if (tm->end.v[j] < ne) ne = tm->end.v[j];
    }
    b = nb;
    e = ne;
    have = 1;
  }
  /* a later begin cuts the interval found (restart="always") */
  if (have && tm->restart == 0)
    for (i = 0; i < tm->begin.n; i++)
      if (tm->begin.v[i] > b && tm->begin.v[i] < e) { e = tm->begin.v[i]; break; }
  *ib = b;
  *ie = e;
  return have;
}

/* Where the element is at time t: 0 = no effect; else *p is the position in the simple
   duration (0..1), *k the repeat iteration, *prio its begin (for the sandwich order). */
static int sample_time(const timing_t *tm, double t, double *p, double *k, double *prio) {
  double b, e, d = tm->dur, local;
  if (!interval_at(tm, t, &b, &e)) return 0;
  *prio = b;
  if (t < e) {
    local = t - b;
  } else {
    if (!tm->freeze) return 0;
    local = e - b;   /* frozen at the end of the active duration */
    if (isinf(local)) local = 0;
  }
  if (isinf(d)) {   /* indefinite simple duration: the first value */
    *p = 0;
    *k = 0;
    return 1;
  }
  *k = floor(local / d + 1e-9);
  local -= *k * d;
  if (local < 0) local = 0;
  if (t >= e && *k > 0 && local < 1e-9 * d) {   /* ended on an iteration boundary: its last value */
    *k -= 1;
    local = d;
  }
  *p = local / d;
  if (*p > 1) *p = 1;
  return 1;
}

/* ---- values ----------------------------------------------------------------------------- */

/* A value as a skeleton (its text with \1 for each number) and its numbers.  Two values
   interpolate when their skeletons are equal.  Colors are "rgba(\1,\1,\1,\1)" with
   r, g, b 0..255 and alpha 0..1. */
typedef struct {
  char    *skel;
  double  *v;
  unsigned n, cap;
  int      color;
} tval_t;

static void tv_free(tval_t *t) {
  free(t->skel);
  free(t->v);
  memset(t, 0, sizeof *t);
}

static int tv_push(tval_t *t, double v) {
  if (t->n == t->cap) {
    unsigned cap = t->cap ? t->cap * 2 : 8;
    double *m = realloc(t->v, cap * sizeof *m);
    if (!m) return 0;
    t->v = m;
    t->cap = cap;
  }
  t->v[t->n++] = v;
  return 1;
}

static int tv_copy(tval_t *out, const tval_t *a) {
  memset(out, 0, sizeof *out);
  out->color = a->color;
  if (!(out->skel = strdup(a->skel ? a->skel : ""))) return 0;
  if (a->n) {
    if (!(out->v = malloc(a->n * sizeof *out->v))) { tv_free(out); return 0; }
    memcpy(out->v, a->v, a->n * sizeof *out->v);
  }
  out->n = out->cap = a->n;
  return 1;
}

static int tv_same(const tval_t *a, const tval_t *b) {
  return a->n == b->n && a->color == b->color && strcmp(a->skel, b->skel) == 0;
}

static const struct { const char *name; unsigned char r, g, b; } named[] = {
  { "black", 0, 0, 0 }, { "white", 255, 255, 255 }, { "red", 255, 0, 0 }, { "lime", 0, 255, 0 },
  { "green", 0, 128, 0 }, { "blue", 0, 0, 255 }, { "yellow", 255, 255, 0 }, { "cyan", 0, 255, 255 },
  { "aqua", 0, 255, 255 }, { "magenta", 255, 0, 255 }, { "fuchsia", 255, 0, 255 },
  { "gray", 128, 128, 128 }, { "grey", 128, 128, 128 }, { "silver", 192, 192, 192 },
  { "maroon", 128, 0, 0 }, { "olive", 128, 128, 0 }, { "purple", 128, 0, 128 },
  { "teal", 0, 128, 128 }, { "navy", 0, 0, 128 }, { "orange", 255, 165, 0 },
  { "gold", 255, 215, 0 }, { "pink", 255, 192, 203 }, { "brown", 165, 42, 42 },
  { "violet", 238, 130, 238 }, { "indigo", 75, 0, 130 }, { "crimson", 220, 20, 60 },
  { "orangered", 255, 69, 0 }, { "darkred", 139, 0, 0 }, { "darkgreen", 0, 100, 0 },
  { "darkblue", 0, 0, 139 }, { "lightgray", 211, 211, 211 }, { "lightgrey", 211, 211, 211 },
  { "darkgray", 169, 169, 169 }, { "darkgrey", 169, 169, 169 }, { "skyblue", 135, 206, 235 },
  { "tomato", 255, 99, 71 }, { "coral", 255, 127, 80 }, { "salmon", 250, 128, 114 },
  { "khaki", 240, 230, 140 }, { "turquoise", 64, 224, 208 }, { "tan", 210, 180, 140 },
  { NULL, 0, 0, 0 }
};

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* rgb()/rgba() arguments: 3 or 4 numbers (percentages allowed), commas or spaces, an
   optional "/" before alpha. */
static int parse_rgb_args(const char *s, const char *end, double c[4]) {
  unsigned i = 0;
  c[3] = 1;
  while (1) {
    double v;
    size_t n;
    s = skip_wsp(s, end);
    if (s == end) break;
    if (i == 4 || !(n = scan_number(s, end, &v))) return 0;
    s += n;
    if (s < end && *s == '%') {
      v = i < 3 ? v * 2.55 : v / 100;
      s++;
    }
    c[i++] = v;
    s = skip_wsp(s, end);
    if (s < end && (*s == ',' || *s == '/')) s++;
  }
  if (i < 3) return 0;
  for (i = 0; i < 3; i++) c[i] = c[i] < 0 ? 0 : c[i] > 255 ? 255 : c[i];
  c[3] = c[3] < 0 ? 0 : c[3] > 1 ? 1 : c[3];
  return 1;
}

/* An sRGB color: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), transparent, or one of
   the names above.  0 for anything else (none, url(#...), an unknown name). */
static int parse_color(const char *s, const char *end, double c[4]) {
  size_t n;
  unsigned i;
  s = skip_wsp(s, end);
  end = trim_end(s, end);
  n = (size_t)(end - s);
  if (n > 1 && s[0] == '#') {
    int h[8];
    for (i = 1; i < n; i++)
      if (i > 8 || (h[i - 1] = hexval((unsigned char)s[i])) < 0) return 0;
    n--;
    if (n == 3 || n == 4) {
      for (i = 0; i < n; i++) c[i] = h[i] * 17;
      c[3] = n == 4 ? h[3] * 17 / 255.0 : 1;
      return 1;
    }
    if (n == 6 || n == 8) {
      for (i = 0; i < n / 2; i++) c[i] = h[2 * i] * 16 + h[2 * i + 1];
      c[3] = n == 8 ? c[3] / 255.0 : 1;
      return 1;
    }
    return 0;
  }
  if (n > 5 && strncasecmp(s, "rgba(", 5) == 0 && end[-1] == ')') return parse_rgb_args(s + 5, end - 1, c);
  if (n > 4 && strncasecmp(s, "rgb(", 4) == 0 && end[-1] == ')') return parse_rgb_args(s + 4, end - 1, c);
  if (n == 11 && strncasecmp(s, "transparent", 11) == 0) {
    c[0] = c[1] = c[2] = c[3] = 0;
    return 1;
  }
  for (i = 0; named[i].name; i++)
    if (strlen(named[i].name) == n && strncasecmp(s, named[i].name, n) == 0) {
      c[0] = named[i].r;
      c[1] = named[i].g;
      c[2] = named[i].b;
      c[3] = 1;
      return 1;
    }
  return 0;
}

/* Path data in a canonical form, one command letter per segment (the implicit commands
   after M/m written as L/l), each parameter a number; arc flags are single digits. */
static int parse_path(const char *s, const char *end, tval_t *t, sbuf_t *sk) {
  char cmd = 0;
  int first = 1;
  while (1) {
    const char *params;
    unsigned np, i;
    char c;
    s = skip_wsp(s, end);
    if (s == end) break;
    c = *s;
    if (isalpha((unsigned char)c)) {
      s++;
      cmd = c;
    } else {
      if (!cmd || cmd == 'Z' || cmd == 'z') return 0;   /* numbers without a command */
      if (cmd == 'M') cmd = 'L';
      else if (cmd == 'm') cmd = 'l';
    }
    if (first && cmd != 'M' && cmd != 'm') return 0;
    first = 0;
    switch (cmd) {
    case 'M': case 'm': case 'L': case 'l': case 'T': case 't': params = "nn"; break;
    case 'H': case 'h': case 'V': case 'v': params = "n"; break;
    case 'C': case 'c': params = "nnnnnn"; break;
    case 'S': case 's': case 'Q': case 'q': params = "nnnn"; break;
    case 'A': case 'a': params = "nnnffnn"; break;
    case 'Z': case 'z': params = ""; break;
    default: return 0;
    }
    np = (unsigned)strlen(params);
    sb_add(sk, &cmd, 1);
    for (i = 0; i < np; i++) {
      double v;
      size_t n;
      s = skip_wsp(s, end);
      if (i > 0 && s < end && *s == ',') s = skip_wsp(s + 1, end);
      if (s == end) return 0;
      if (params[i] == 'f') {
        if (*s != '0' && *s != '1') return 0;
        v = *s++ - '0';
      } else if (!(n = scan_number(s, end, &v))) {
        return 0;
      } else {
        s += n;
      }
      sb_add(sk, " \1", 2);
      if (!tv_push(t, v)) return 0;
    }
    s = skip_wsp(s, end);
    if (s < end && *s == ',') s++;
  }
  return 1;
}

static const char *const tf_names[] = { "translate", "scale", "rotate", "skewX", "skewY" };
static const unsigned tf_params[] = { 2, 2, 3, 1, 1 };

/* One animateTransform value of `type` ("10", "10 5", "45 50 50"): its parameters with
   the defaults filled in (translate ty 0, scale sy = sx, rotate cx = cy = 0). */
static int parse_transform_value(int type, const char *s, const char *end, tval_t *t, sbuf_t *sk) {
  double v[3];
  unsigned n = 0, i, want = tf_params[type];
  while (1) {
    size_t k;
    s = skip_wsp(s, end);
    if (s < end && *s == ',' && n > 0) s = skip_wsp(s + 1, end);
    if (s == end) break;
    if (n == 3 || !(k = scan_number(s, end, &v[n]))) return 0;
    n++;
    s += k;
  }
  if (n == 0 || n > want || (type == 2 && n == 2)) return 0;
  if (type == 0 && n == 1) v[1] = 0;
  if (type == 1 && n == 1) v[1] = v[0];
  if (type == 2 && n == 1) v[1] = v[2] = 0;
  sb_str(sk, tf_names[type]);
  sb_add(sk, "(", 1);
  for (i = 0; i < want; i++) {
    sb_add(sk, i ? " \1" : "\1", i ? 2 : 1);
    if (!tv_push(t, v[i])) return 0;
  }
  sb_add(sk, ")", 1);
  return 1;
}

/* Any other value: numbers (not inside names such as "#grad2") become parameters, runs
   of spaces and commas one space. */
static int parse_generic(const char *s, const char *end, int numbers, tval_t *t, sbuf_t *sk) {
  char prev = ' ';
  s = skip_wsp(s, end);
  end = trim_end(s, end);
  while (s < end) {
    double v;
    size_t n;
    if (is_wsp((unsigned char)*s) || *s == ',') {
      while (s < end && (is_wsp((unsigned char)*s) || *s == ',')) s++;
      sb_add(sk, " ", 1);
      prev = ' ';
      continue;
    }
    if (numbers && !isalpha((unsigned char)prev) && prev != '#' && prev != '_' && prev != '-' &&
        (n = scan_number(s, end, &v))) {
      sb_add(sk, "\1", 1);
      if (!tv_push(t, v)) return 0;
      s += n;
      prev = '0';
      continue;
    }
    prev = *s;
    sb_add(sk, s, 1);
    s++;
  }
  return 1;
}

/* Parses a value of an attribute of type `vt` (transform values: `ttype`).  0 when it
   cannot be parsed (animateTransform) or without memory. */
static int tv_parse(int vt, int ttype, const char *s, const char *end, tval_t *t) {
  sbuf_t sk = { NULL, 0, 0, 0 };
  double c[4];
  int ok;
  memset(t, 0, sizeof *t);
  if (vt == VT_COLOR && parse_color(s, end, c)) {
    unsigned i;
    sb_str(&sk, "rgba(\1,\1,\1,\1)");
    for (i = 0; i < 4; i++) tv_push(t, c[i]);
    t->color = 1;
    ok = t->n == 4;
  } else if (vt == VT_TRANSFORM && ttype >= 0) {
    ok = parse_transform_value(ttype, s, end, t, &sk);
  } else if (vt == VT_PATH) {
    ok = parse_path(s, end, t, &sk);
    if (!ok) {   /* not path data we understand: a string, swapped discretely */
      t->n = 0;
      free(sk.s);
      memset(&sk, 0, sizeof sk);
      ok = parse_generic(s, end, 0, t, &sk);
    }
  } else {
    ok = parse_generic(s, end, vt == VT_NUMBER || vt == VT_COLOR, t, &sk);
  }
  if (!ok || !(t->skel = sb_take(&sk))) {
    if (ok) sk.s = NULL;
    free(sk.s);
    tv_free(t);
    return 0;
  }
  return 1;
}

static char *tv_format(const tval_t *t) {
  sbuf_t b = { NULL, 0, 0, 0 };
  const char *s;
  unsigned i = 0;
  if (t->color) {
    char tmp[96];
    double c[4];
    unsigned k;
    for (k = 0; k < 4; k++) c[k] = t->v[k];
    for (k = 0; k < 3; k++) c[k] = c[k] < 0 ? 0 : c[k] > 255 ? 255 : c[k];
    c[3] = c[3] < 0 ? 0 : c[3] > 1 ? 1 : c[3];
    snprintf(tmp, sizeof tmp, "rgba(%d,%d,%d,%.4g)", (int)lround(c[0]), (int)lround(c[1]), (int)lround(c[2]),
             c[3]);
    sb_str(&b, tmp);
    return sb_take(&b);
  }
  for (s = t->skel; *s; s++) {
    if (*s == '\1') {
      sb_num(&b, i < t->n ? t->v[i] : 0);
      i++;
    } else {
      sb_add(&b, s, 1);
    }
  }
  return sb_take(&b);
}

/* out = a + (b - a) * u, or out = a + b * u with `add` (both the same skeleton as a). */
static int tv_mix(tval_t *out, const tval_t *a, const tval_t *b, double u, int add) {
  unsigned i;
  if (!tv_copy(out, a)) return 0;
  for (i = 0; i < a->n; i++) out->v[i] = add ? a->v[i] + b->v[i] * u : a->v[i] + (b->v[i] - a->v[i]) * u;
  return 1;
}

static double tv_dist(const tval_t *a, const tval_t *b, int rotate) {
  double s = 0;
  unsigned i, n = rotate ? 1 : a->n;
  for (i = 0; i < n && i < a->n; i++) s += (a->v[i] - b->v[i]) * (a->v[i] - b->v[i]);
  return sqrt(s);
}

/* ---- one animation element ------------------------------------------------------------ */

enum { CM_DISCRETE, CM_LINEAR, CM_PACED, CM_SPLINE };

typedef struct {
  xmlNodePtr         el, target;
  akind_t            kind;
  const attr_info_t *ai;
  char              *attr;      /* attributeName */
  int                xml;       /* attributeType="XML": the attribute, not the property */
  int                ttype;     /* animateTransform type */
  timing_t           tm;
  /* at the sampled time */
  double             p, k, prio;
  unsigned           order;
} anim_t;

typedef struct {
  tval_t  *v;
  unsigned n;
  double  *kt;      /* keyTimes, n of them, or NULL */
  double  *ks;      /* keySplines, 4 per interval, or NULL */
  int      mode;
  int      additive, accumulate, to_anim;
} func_t;

static void func_free(func_t *f) {
  unsigned i;
  for (i = 0; i < f->n; i++) tv_free(&f->v[i]);
  free(f->v);
  free(f->kt);
  free(f->ks);
  memset(f, 0, sizeof *f);
}

typedef struct { func_t *f; const anim_t *a; int ok; } vparse_t;

static int value_item(const char *s, const char *end, void *data) {
  vparse_t *vp = data;
  if (s == end || vp->f->n >= CT_MAX_SVG_ANIM_VALUES) return vp->ok = 0;   /* "" is an error */
  if (!tv_parse(vp->a->ai->type, vp->a->ttype, s, end, &vp->f->v[vp->f->n])) return vp->ok = 0;
  vp->f->n++;
  return 1;
}

typedef struct { double *v; unsigned n, cap; int ok; } nlist_t;

static int number_item(const char *s, const char *end, void *data) {
  nlist_t *l = data;
  while (1) {
    double v;
    size_t n;
    s = skip_wsp(s, end);
    if (s < end && *s == ',' ) s = skip_wsp(s + 1, end);
    if (s == end) break;
    if (l->n == l->cap || !(n = scan_number(s, end, &v))) return l->ok = 0;
    l->v[l->n++] = v;
    s += n;
  }
  return 1;
}

/* A list of numbers (keyTimes: one per item; keySplines: four per item). */
static double *parse_numbers(const char *s, unsigned cap, unsigned per_item, unsigned *count) {
  nlist_t l;
  unsigned items = split(s, ';', count_item, NULL);
  l.cap = cap;
  l.n = 0;
  l.ok = 1;
  if (!(l.v = malloc((cap ? cap : 1) * sizeof *l.v))) return NULL;
  if (items == (unsigned)-1 || split(s, ';', number_item, &l) == (unsigned)-1 || !l.ok ||
      l.n != items * per_item) {
    free(l.v);
    return NULL;
  }
  *count = items;
  return l.v;
}

/* The animation function's values, keyTimes and keySplines; 0 when the element is in
   error (SMIL: it then has no effect).  `base` is the underlying value (to-animation). */
static int func_init(const anim_t *a, func_t *f) {
  char *values = NULL, *from = NULL, *to = NULL, *by = NULL, *v = NULL;
  int ok = 0;
  memset(f, 0, sizeof *f);
  f->mode = a->kind == A_SET ? CM_DISCRETE : CM_LINEAR;
  if (a->kind != A_SET && (v = prop(a->el, "calcMode"))) {
    if (strcmp(v, "discrete") == 0) f->mode = CM_DISCRETE;
    else if (strcmp(v, "paced") == 0) f->mode = CM_PACED;
    else if (strcmp(v, "spline") == 0) f->mode = CM_SPLINE;
    xmlFree(v);
  }
  if ((v = prop(a->el, "additive"))) {
    f->additive = strcmp(v, "sum") == 0;
    xmlFree(v);
  }
  if ((v = prop(a->el, "accumulate"))) {
    f->accumulate = strcmp(v, "sum") == 0;
    xmlFree(v);
  }
  if (!(f->v = calloc(CT_MAX_SVG_ANIM_VALUES, sizeof *f->v))) return 0;
  to = prop(a->el, "to");
  if (a->kind == A_SET) {
    vparse_t vp = { f, a, 1 };
    if (!to || !value_item(to, to + strlen(to), &vp)) goto done;
    f->additive = f->accumulate = 0;
    ok = 1;
    goto done;
  }
  values = prop(a->el, "values");
  from = prop(a->el, "from");
  by = prop(a->el, "by");
  if (values) {
    vparse_t vp = { f, a, 1 };
    if (split(values, ';', value_item, &vp) == (unsigned)-1 || !vp.ok || f->n == 0) goto done;
  } else if (from && (to || by)) {
    vparse_t vp = { f, a, 1 };
    if (!value_item(from, from + strlen(from), &vp)) goto done;
    if (to) {
      if (!value_item(to, to + strlen(to), &vp)) goto done;
    } else {
      tval_t b;
      if (!tv_parse(a->ai->type, a->ttype, by, by + strlen(by), &b)) goto done;
      if (!tv_same(&f->v[0], &b) || !tv_mix(&f->v[1], &f->v[0], &b, 1, 1)) { tv_free(&b); goto done; }
      tv_free(&b);
      f->n = 2;
    }
  } else if (by) {   /* by-animation: from zero, additive */
    vparse_t vp = { f, a, 1 };
    unsigned i;
    if (!value_item(by, by + strlen(by), &vp) || !tv_copy(&f->v[1], &f->v[0])) goto done;
    f->n = 2;
    for (i = 0; i < f->v[0].n; i++) f->v[0].v[i] = 0;
    f->additive = 1;
  } else if (to) {   /* to-animation: from the underlying value, filled in when composed */
    vparse_t vp = { f, a, 1 };
    if (!value_item(to, to + strlen(to), &vp) || !tv_copy(&f->v[1], &f->v[0])) goto done;
    tv_free(&f->v[0]);
    f->n = 2;
    f->to_anim = 1;
    f->additive = f->accumulate = 0;
  } else {
    goto done;
  }
  {
    /* values that do not interpolate (different structure, keywords): discrete */
    unsigned i;
    if (f->mode != CM_DISCRETE && !f->to_anim)
      for (i = 1; i < f->n; i++)
        if (!tv_same(&f->v[0], &f->v[i])) { f->mode = CM_DISCRETE; break; }
  }
  if (f->mode != CM_PACED && (v = prop(a->el, "keyTimes"))) {
    unsigned n = 0, i;
    xmlFree(values);
    values = v;
    if (!(f->kt = parse_numbers(v, CT_MAX_SVG_ANIM_VALUES, 1, &n)) || n != f->n) goto done;
    for (i = 0; i < n; i++)
      if (f->kt[i] < 0 || f->kt[i] > 1 || (i && f->kt[i] < f->kt[i - 1])) goto done;
    if (f->kt[0] != 0) goto done;
    if (f->mode != CM_DISCRETE && f->kt[n - 1] != 1) goto done;
  }
  if (f->mode == CM_SPLINE) {
    unsigned n = 0, i;
    if (!(v = prop(a->el, "keySplines"))) goto done;
    xmlFree(values);
    values = v;
    if (!(f->ks = parse_numbers(v, 4 * CT_MAX_SVG_ANIM_VALUES, 4, &n)) || n + 1 != f->n) goto done;
    for (i = 0; i < 4 * n; i++)
      if (f->ks[i] < 0 || f->ks[i] > 1) goto done;
  }
  ok = 1;
done:
  if (values) xmlFree(values);
  if (from) xmlFree(from);
  if (to) xmlFree(to);
  if (by) xmlFree(by);
  if (!ok) func_free(f);
  return ok;
}

/* The cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1) of keySplines: y at x (Newton's method,
   bisection when it strays). */
static double spline(const double *c, double x) {
  double lo = 0, hi = 1, s = x;
  unsigned i;
  for (i = 0; i < 64; i++) {
    double bx = 3 * (1 - s) * (1 - s) * s * c[0] + 3 * (1 - s) * s * s * c[2] + s * s * s;
    double dx = 3 * (1 - s) * (1 - s) * c[0] + 6 * (1 - s) * s * (c[2] - c[0]) + 3 * s * s * (1 - c[2]);
    double err = bx - x;
    if (fabs(err) < 1e-9) break;
    if (err > 0) hi = s; else lo = s;
    s = fabs(dx) > 1e-6 ? s - err / dx : (lo + hi) / 2;
    if (s <= lo || s >= hi) s = (lo + hi) / 2;
  }
  return 3 * (1 - s) * (1 - s) * s * c[1] + 3 * (1 - s) * s * s * c[3] + s * s * s;
}

/* f(p): the value at position p (0..1) of the simple duration, into `out`. */
static int func_eval(const func_t *f, const anim_t *a, double p, tval_t *out) {
  unsigned n = f->n, i;
  double u;
  if (n == 1) return tv_copy(out, &f->v[0]);
  if (f->mode == CM_DISCRETE) {
    if (f->kt) {
      for (i = n - 1; i > 0 && f->kt[i] > p; i--) {}
    } else {
      i = (unsigned)floor(p * n);
      if (i >= n) i = n - 1;
    }
    return tv_copy(out, &f->v[i]);
  }
  if (p >= 1) return tv_copy(out, &f->v[n - 1]);
  if (f->mode == CM_PACED) {
    double total = 0, d[CT_MAX_SVG_ANIM_VALUES], goal, run = 0;
    int rot = a->kind == A_TRANSFORM && a->ttype == 2;
    for (i = 0; i + 1 < n; i++) total += d[i] = tv_dist(&f->v[i], &f->v[i + 1], rot);
    if (total <= 0) return tv_copy(out, &f->v[0]);
    goal = p * total;
    for (i = 0; i + 2 < n && run + d[i] <= goal; i++) run += d[i];
    u = d[i] > 0 ? (goal - run) / d[i] : 0;
  } else if (f->kt) {
    for (i = 0; i + 2 < n && f->kt[i + 1] <= p; i++) {}
    u = f->kt[i + 1] > f->kt[i] ? (p - f->kt[i]) / (f->kt[i + 1] - f->kt[i]) : 1;
  } else {
    double seg = p * (n - 1);
    i = (unsigned)floor(seg);
    if (i >= n - 1) i = n - 2;
    u = seg - i;
  }
  if (u < 0) u = 0;
  if (u > 1) u = 1;
  if (f->mode == CM_SPLINE) u = spline(f->ks + 4 * i, u);
  return tv_mix(out, &f->v[i], &f->v[i + 1], u, 0);
}

/* ---- the base value -------------------------------------------------------------------- */

/* The last declaration of `name` in a style attribute, as a malloc'ed string, or NULL. */
static char *style_get(const char *style, const char *name) {
  const char *s = style, *found = NULL, *fend = NULL;
  size_t nl = strlen(name);
  while (*s) {
    const char *e = strchr(s, ';'), *colon;
    if (!e) e = s + strlen(s);
    colon = memchr(s, ':', (size_t)(e - s));
    if (colon) {
      const char *a = skip_wsp(s, colon), *b = trim_end(a, colon);
      if ((size_t)(b - a) == nl && strncasecmp(a, name, nl) == 0) {
        found = skip_wsp(colon + 1, e);
        fend = trim_end(found, e);
      }
    }
    s = *e ? e + 1 : e;
  }
  if (!found) return NULL;
  {
    char *out = malloc((size_t)(fend - found) + 1);
    if (out) {
      memcpy(out, found, (size_t)(fend - found));
      out[fend - found] = '\0';
    }
    return out;
  }
}

/* The style attribute without declarations of `name`, plus "name:value". */
static char *style_set(const char *style, const char *name, const char *value) {
  sbuf_t b = { NULL, 0, 0, 0 };
  const char *s = style ? style : "";
  size_t nl = strlen(name);
  while (*s) {
    const char *e = strchr(s, ';'), *colon, *a, *z;
    if (!e) e = s + strlen(s);
    colon = memchr(s, ':', (size_t)(e - s));
    a = skip_wsp(s, e);
    z = trim_end(a, e);
    if (z > a) {
      const char *n0 = a, *n1 = colon ? trim_end(a, colon) : z;
      if (!(colon && (size_t)(n1 - n0) == nl && strncasecmp(n0, name, nl) == 0)) {
        sb_add(&b, a, (size_t)(z - a));
        sb_add(&b, ";", 1);
      }
    }
    s = *e ? e + 1 : e;
  }
  sb_str(&b, name);
  sb_add(&b, ":", 1);
  sb_str(&b, value);
  return sb_take(&b);
}

/* The underlying value of the attribute on the target: for a property, the target's
   style declaration, then its attribute, then (inherited properties) the same on its
   ancestors, then the initial value; for an attribute, the attribute or the initial value.
   <style> sheet rules are not looked at. */
static char *base_value(const anim_t *a) {
  xmlNodePtr n;
  for (n = a->target; n && n->type == XML_ELEMENT_NODE; n = n->parent) {
    char *v;
    if (a->ai->prop && !a->xml && (v = prop(n, "style"))) {
      char *d = style_get(v, a->attr);
      xmlFree(v);
      if (d && strcmp(d, "inherit") != 0) return d;
      free(d);
    }
    if ((v = prop(n, a->attr))) {
      char *d = strcmp(v, "inherit") == 0 ? NULL : strdup(v);
      xmlFree(v);
      if (d) return d;
    }
    if (!a->ai->prop || !a->ai->inherit) break;
  }
  return strdup(a->ai->initial);
}

/* ---- the sampler ------------------------------------------------------------------------ */

static void collect(xmlNodePtr n, xmlNodePtr *list, unsigned *count, unsigned cap) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (anim_kind(n->name) >= 0) {
      if (*count < cap) list[(*count)++] = n;
      continue;   /* animation elements have no animated children */
    }
    collect(n->children, list, count, cap);
  }
}

static xmlNodePtr find_by_id(xmlNodePtr n, const char *id) {
  for (; n; n = n->next) {
    xmlChar *v;
    xmlNodePtr r;
    if (n->type != XML_ELEMENT_NODE) continue;
    if ((v = xmlGetProp(n, (const xmlChar *)"id"))) {
      int same = strcmp((const char *)v, id) == 0;
      xmlFree(v);
      if (same) return n;
    }
    if ((r = find_by_id(n->children, id))) return r;
  }
  return NULL;
}

/* The element an animation acts on: href="#id" (xlink:href too), else its parent. */
static xmlNodePtr anim_target(xmlDocPtr doc, xmlNodePtr el) {
  char *h = prop(el, "href");
  xmlNodePtr t;
  if (!h) return el->parent && el->parent->type == XML_ELEMENT_NODE ? el->parent : NULL;
  {
    const char *s = h;
    while (is_wsp((unsigned char)*s)) s++;
    t = s[0] == '#' && s[1] ? find_by_id(xmlDocGetRootElement(doc), s + 1) : NULL;
  }
  xmlFree(h);
  return t && anim_kind(t->name) < 0 ? t : NULL;
}

static int anim_order(const void *x, const void *y) {
  const anim_t *a = x, *b = y;
  int c;
  if (a->target != b->target) return (uintptr_t)a->target < (uintptr_t)b->target ? -1 : 1;
  if ((c = strcmp(a->attr, b->attr))) return c;
  if (a->prio != b->prio) return a->prio < b->prio ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* Parses the element's target and attribute; 0 when it cannot act. */
static int anim_init(xmlDocPtr doc, xmlNodePtr el, anim_t *a) {
  char *v;
  memset(a, 0, sizeof *a);
  a->el = el;
  a->kind = (akind_t)anim_kind(el->name);
  a->ttype = -1;
  if (!(a->attr = prop(el, "attributeName"))) return 0;
  if (!(a->ai = attr_info(a->attr))) return 0;
  if ((a->ai->type == VT_TRANSFORM) != (a->kind == A_TRANSFORM) && a->kind != A_SET) return 0;
  if (a->kind == A_TRANSFORM) {
    unsigned i;
    a->ttype = 0;
    if ((v = prop(el, "type"))) {
      a->ttype = -1;
      for (i = 0; i < 5; i++)
        if (strcmp(v, tf_names[i]) == 0) a->ttype = (int)i;
      xmlFree(v);
      if (a->ttype < 0) return 0;
    }
  }
  if ((v = prop(el, "attributeType"))) {
    a->xml = strcmp(v, "XML") == 0;
    xmlFree(v);
  }
  if (!(a->target = anim_target(doc, el))) return 0;
  parse_timing(el, &a->tm);
  return 1;
}

static void anim_fini(anim_t *a) {
  if (a->attr) xmlFree(a->attr);
  a->attr = NULL;
}

/* The value one animation gives, composed over `under` (the sandwich so far), into
   `out`; 0 when it has none (an element in error).  Transform values are not added here:
   *additive says whether the caller appends (post-multiplies) or replaces. */
static int compose(const anim_t *a, const tval_t *under, tval_t *out, int *additive) {
  func_t f;
  tval_t val;
  int ok = 0;
  *additive = 0;
  if (!func_init(a, &f)) return 0;
  if (f.to_anim) {   /* from the underlying value to `to` */
    if (!tv_copy(&f.v[0], under)) goto done;
    if (f.mode != CM_DISCRETE && !tv_same(&f.v[0], &f.v[1])) f.mode = CM_DISCRETE;
  }
  if (!func_eval(&f, a, a->p, &val)) goto done;
  if (f.accumulate && a->k > 0 && tv_same(&val, &f.v[f.n - 1])) {
    tval_t acc;
    if (!tv_mix(&acc, &val, &f.v[f.n - 1], a->k, 1)) { tv_free(&val); goto done; }
    tv_free(&val);
    val = acc;
  }
  *additive = f.additive;
  if (f.additive && a->ai->type != VT_TRANSFORM && tv_same(under, &val)) {
    ok = tv_mix(out, under, &val, 1, 1);
    tv_free(&val);
  } else {
    *out = val;
    ok = 1;
  }
done:
  func_free(&f);
  return ok;
}

/* Writes the final value of one attribute of one element. */
static void apply(const anim_t *a, const char *value) {
  if (a->ai->prop && !a->xml) {
    char *st = prop(a->target, "style");
    char *ns = style_set(st, a->attr, value);
    if (st) xmlFree(st);
    if (ns) xmlSetProp(a->target, (const xmlChar *)"style", (const xmlChar *)ns);
    free(ns);
  } else {
    xmlSetProp(a->target, (const xmlChar *)a->attr, (const xmlChar *)value);
  }
}

/* One group: every animation of one attribute of one element, lowest priority first. */
static void sample_group(anim_t *g, unsigned n) {
  char *base = base_value(&g[0]);
  unsigned i;
  if (!base) return;
  if (g[0].ai->type == VT_TRANSFORM) {
    /* transform lists compose as text: replace starts anew, sum appends (post-multiplies) */
    sbuf_t b = { NULL, 0, 0, 0 };
    char *cur;
    sb_str(&b, base);
    for (i = 0; i < n; i++) {
      const anim_t *a = &g[i];
      tval_t under, val;
      char *s;
      int additive = 0;
      if (a->kind == A_SET) {
        char *to = prop(a->el, "to");
        if (!to) continue;
        b.len = 0;
        if (b.s) b.s[0] = '\0';
        sb_str(&b, to);
        xmlFree(to);
        continue;
      }
      /* the identity of the type stands for the underlying value of to-animations */
      {
        const char *id = a->ttype == 1 ? "1" : "0";
        if (!tv_parse(VT_TRANSFORM, a->ttype, id, id + 1, &under)) continue;
      }
      if (compose(a, &under, &val, &additive)) {
        if ((s = tv_format(&val))) {
          if (!additive) {
            b.len = 0;
            if (b.s) b.s[0] = '\0';
          } else if (b.len) {
            sb_add(&b, " ", 1);
          }
          sb_str(&b, s);
          free(s);
        }
        tv_free(&val);
      }
      tv_free(&under);
    }
    if ((cur = sb_take(&b))) {
      apply(&g[0], cur);
      free(cur);
    }
  } else {
    tval_t cur;
    char *s;
    if (!tv_parse(g[0].ai->type, -1, base, base + strlen(base), &cur)) {
      free(base);
      return;
    }
    for (i = 0; i < n; i++) {
      tval_t next;
      int additive;
      if (compose(&g[i], &cur, &next, &additive)) {
        tv_free(&cur);
        cur = next;
      }
    }
    if ((s = tv_format(&cur))) {
      apply(&g[0], s);
      free(s);
    }
    tv_free(&cur);
  }
  free(base);
}

int ct_smil_sample(struct _xmlDoc *doc, double t) {
  xmlNodePtr list[CT_MAX_SVG_ANIMATIONS];
  anim_t *an = NULL;
  unsigned count = 0, n = 0, i, j;
  xmlNodePtr root = xmlDocGetRootElement(doc);
  if (!root) return 0;
  collect(root, list, &count, CT_MAX_SVG_ANIMATIONS);
  if (!count) return 0;
  if (!isfinite(t)) t = 0;
  if ((an = calloc(count, sizeof *an))) {
    for (i = 0; i < count; i++) {
      anim_t *a = &an[n];
      if (!anim_init(doc, list[i], a)) {
        anim_fini(a);
        continue;
      }
      if (!sample_time(&a->tm, t, &a->p, &a->k, &a->prio)) {
        anim_fini(a);
        continue;
      }
      a->order = i;
      n++;
    }
    qsort(an, n, sizeof *an, anim_order);
    for (i = 0; i < n; i = j) {
      for (j = i + 1; j < n && an[j].target == an[i].target && strcmp(an[j].attr, an[i].attr) == 0; j++) {}
      sample_group(an + i, j - i);
    }
    for (i = 0; i < n; i++) anim_fini(&an[i]);
    free(an);
  }
  /* the animation elements go, sampled or not (an element in error has no effect) */
  for (i = 0; i < count; i++) {
    xmlUnlinkNode(list[i]);
    xmlFreeNode(list[i]);
  }
  {
    /* any left past the limit (the sanitizer keeps at most that many) */
    xmlNodePtr more[1];
    unsigned m;
    do {
      m = 0;
      collect(root, more, &m, 1);
      if (m) {
        xmlUnlinkNode(more[0]);
        xmlFreeNode(more[0]);
      }
    } while (m);
  }
  return (int)count;
}

/* ---- duration ------------------------------------------------------------------------- */

/* The end of an element's animation for a preview: the latest begin + active duration,
   an indefinite repeat counted once, an indefinite simple duration as 0 (a set). */
static double element_span(xmlNodePtr el) {
  timing_t tm;
  double best = 0, ad;
  unsigned i, j;
  parse_timing(el, &tm);
  if (isinf(tm.dur)) ad = isnan(tm.rdur) || isinf(tm.rdur) ? 0 : tm.rdur;
  else {
    ad = active_dur(&tm);
    if (isinf(ad)) ad = tm.dur;   /* indefinite repeat: one cycle */
  }
  for (i = 0; i < tm.begin.n; i++) {
    double b = tm.begin.v[i], e = b + ad;
    if (tm.has_end) {
      for (j = 0; j < tm.end.n && tm.end.v[j] < b; j++) {}
      if (j == tm.end.n) continue;
      if (tm.end.v[j] < e) e = tm.end.v[j];
    }
    if (e > best) best = e;
    if (tm.restart == 2) break;
  }
  return best;
}

static void span_walk(xmlNodePtr n, double *d, unsigned *count) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (anim_kind(n->name) >= 0) {
      double e;
      if (*count < CT_MAX_SVG_ANIMATIONS) {
        e = element_span(n);
        if (e > *d) *d = e;
      }
      (*count)++;
      continue;
    }
    span_walk(n->children, d, count);
  }
}

double ct_smil_duration(const struct _xmlNode *node, unsigned *count) {
  double d = 0;
  unsigned n = 0;
  if (node) span_walk((xmlNodePtr)(uintptr_t)node, &d, &n);
  if (count) *count = n;
  return d;
}

/* ---- the sanitizer's checks -------------------------------------------------------------- */

static const char *const anim_attrs[] = {
  "id", "attributeName", "attributeType", "begin", "dur", "end", "min", "max", "restart",
  "repeatCount", "repeatDur", "fill", "calcMode", "values", "keyTimes", "keySplines", "from", "to",
  "by", "additive", "accumulate", "type", "href", NULL
};

static int too_long(const char *v, const char *what, char *why, size_t whylen) {
  unsigned n = split(v, ';', count_item, NULL);
  if (n <= CT_MAX_SVG_ANIM_VALUES) return 0;
  snprintf(why, whylen, "more than %u %s", CT_MAX_SVG_ANIM_VALUES, what);
  return 1;
}

/* Rewrites a begin/end list to its offset values; 0 when none is left. */
static int keep_offsets(xmlNodePtr el, const char *name, int *changed) {
  char *v = prop(el, name);
  times_t t;
  sbuf_t b = { NULL, 0, 0, 0 };
  unsigned i;
  char *s;
  if (!v) return 1;
  parse_times(v, &t);
  xmlFree(v);
  if (!t.dropped) return 1;
  *changed = 1;
  if (t.n == 0) {
    xmlUnsetProp(el, (const xmlChar *)name);
    return 0;
  }
  for (i = 0; i < t.n; i++) {
    if (i) sb_add(&b, ";", 1);
    sb_num(&b, t.v[i]);
    sb_add(&b, "s", 1);
  }
  if ((s = sb_take(&b))) xmlSetProp(el, (const xmlChar *)name, (const xmlChar *)s);
  free(s);
  return 1;
}

int ct_smil_check(struct _xmlNode *el, char *why, size_t whylen, int *changed) {
  xmlAttrPtr a, next;
  char *v;
  const attr_info_t *ai;
  int kind = anim_kind(el->name);
  timing_t tm;
  *changed = 0;
  why[0] = '\0';
  if (kind < 0) {
    snprintf(why, whylen, "not an animation");
    return 0;
  }
  for (a = el->properties; a; a = next) {   /* attributes an animation element has no use for */
    unsigned i;
    int known = 0;
    next = a->next;
    for (i = 0; anim_attrs[i]; i++)
      if (xmlStrcmp(a->name, (const xmlChar *)anim_attrs[i]) == 0) known = 1;
    if (!known) {
      xmlRemoveProp(a);
      *changed = 1;
    }
  }
  if (!(v = prop(el, "attributeName"))) {
    snprintf(why, whylen, "no attributeName");
    return 0;
  }
  ai = attr_info(v);
  /* animateTransform: transform lists only; animate: anything else; animateColor:
     colors; set: any of them */
  if (!ai || (kind == A_TRANSFORM && ai->type != VT_TRANSFORM) ||
      (kind == A_ANIMATE && ai->type == VT_TRANSFORM) || (kind == A_COLOR && ai->type != VT_COLOR))
    snprintf(why, whylen, "attributeName %.40s", v);
  xmlFree(v);
  if (why[0]) return 0;
  if ((v = prop(el, "href"))) {
    const char *s = v;
    while (is_wsp((unsigned char)*s)) s++;
    if (s[0] != '#') snprintf(why, whylen, "external href");
    xmlFree(v);
    if (why[0]) return 0;
  }
  if ((v = prop(el, "values"))) {
    int bad = too_long(v, "values", why, whylen);
    xmlFree(v);
    if (bad) return 0;
  }
  if ((v = prop(el, "keyTimes"))) {
    int bad = too_long(v, "keyTimes", why, whylen);
    xmlFree(v);
    if (bad) return 0;
  }
  if ((v = prop(el, "keySplines"))) {
    int bad = too_long(v, "keySplines", why, whylen);
    xmlFree(v);
    if (bad) return 0;
  }
  if (!keep_offsets(el, "begin", changed)) {
    snprintf(why, whylen, "no begin offset within %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  keep_offsets(el, "end", changed);
  parse_timing(el, &tm);
  if (!isinf(tm.dur) && tm.dur > CT_MAX_SVG_ANIM_TIME) {
    snprintf(why, whylen, "dur > %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  if ((v = prop(el, "dur"))) {   /* a value too large to parse as a clock value */
    double d;
    const char *s = v, *e = v + strlen(v);
    s = skip_wsp(s, e);
    e = trim_end(s, e);
    if (!(e - s == 10 && strncmp(s, "indefinite", 10) == 0) && !(e - s == 5 && strncmp(s, "media", 5) == 0) &&
        !(parse_clock(s, e, &d) && d > 0))
      snprintf(why, whylen, "dur %.40s", v);
    xmlFree(v);
    if (why[0]) return 0;
  }
  if (!isnan(tm.rdur) && !isinf(tm.rdur) && tm.rdur > CT_MAX_SVG_ANIM_TIME) {
    snprintf(why, whylen, "repeatDur > %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  if (!isnan(tm.rcount) && !isinf(tm.rcount) && !isinf(tm.dur) &&
      tm.rcount * tm.dur > CT_MAX_SVG_ANIM_TIME) {
    snprintf(why, whylen, "dur x repeatCount > %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  return 1;
}
