/*
** smil-time.c: SMIL timing: clock values, begin/end lists, dur, repeatCount/repeatDur, restart,
** fill; the interval and the position in it at t; a document's animation time (ct_smil_duration).
** Must not know attribute values or targets.  Glyph stage (OT-SVG).
*/
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "smil-internal.h"

/* ---- time values -------------------------------------------------------------------- */

/* A clock value (SMIL): "01:02:03.5", "02:03.5", "2s", "1.5min", "0.1h", "500ms", "2".
   Unsigned; 1 on success. */
int ct_smil_parse_clock(const char *s, const char *end, double *out) {
  const char *p = s;
  double parts[3];
  unsigned np = 0;
  s = ct_smil_skip_wsp(s, end);
  end = ct_smil_trim_end(s, end);
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
    if (!(n = ct_smil_scan_number(p, end, &v)) || v < 0) return 0;
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
  s = ct_smil_skip_wsp(s, end);
  if (s < end && (*s == '+' || *s == '-')) {
    neg = *s == '-';
    s++;
  }
  if (!ct_smil_parse_clock(s, end, out)) return 0;
  if (neg) *out = -*out;
  return 1;
}

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
void ct_smil_parse_times(const char *s, times_t *t) {
  t->n = t->dropped = 0;
  ct_smil_split(s, ';', time_item, t);
  qsort(t->v, t->n, sizeof t->v[0], cmp_double);
}

/* ---- timing ---------------------------------------------------------------------- */

void ct_smil_parse_timing(xmlNodePtr el, timing_t *tm) {
  char *v;
  memset(tm, 0, sizeof *tm);
  tm->dur = INFINITY;
  tm->rcount = NAN;
  tm->rdur = NAN;
  if ((v = ct_smil_prop(el, "begin"))) {
    ct_smil_parse_times(v, &tm->begin);
    xmlFree(v);
  } else {
    tm->begin.n = 1;   /* begin="0" */
    tm->begin.v[0] = 0;
  }
  if ((v = ct_smil_prop(el, "end"))) {
    ct_smil_parse_times(v, &tm->end);
    tm->has_end = tm->end.n > 0;   /* events only: unresolved, as if absent */
    xmlFree(v);
  }
  if ((v = ct_smil_prop(el, "dur"))) {
    double d;
    if (ct_smil_parse_clock(v, v + strlen(v), &d) && d > 0) tm->dur = d;   /* else indefinite */
    xmlFree(v);
  }
  if ((v = ct_smil_prop(el, "repeatCount"))) {
    double c;
    const char *e = v + strlen(v), *s = ct_smil_skip_wsp(v, e);
    size_t n;
    e = ct_smil_trim_end(s, e);
    if (strncmp(s, "indefinite", 10) == 0 && e - s == 10) tm->rcount = INFINITY;
    else if ((n = ct_smil_scan_number(s, e, &c)) && s + n == e && c > 0) tm->rcount = c;
    xmlFree(v);
  }
  if ((v = ct_smil_prop(el, "repeatDur"))) {
    double d;
    const char *e = v + strlen(v), *s = ct_smil_skip_wsp(v, e);
    e = ct_smil_trim_end(s, e);
    if (strncmp(s, "indefinite", 10) == 0 && e - s == 10) tm->rdur = INFINITY;
    else if (ct_smil_parse_clock(s, e, &d) && d > 0) tm->rdur = d;
    xmlFree(v);
  }
  if ((v = ct_smil_prop(el, "fill"))) {
    tm->freeze = strcmp(v, "freeze") == 0;
    xmlFree(v);
  }
  if ((v = ct_smil_prop(el, "restart"))) {
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
int ct_smil_sample_time(const timing_t *tm, double t, double *p, double *k, double *prio) {
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

/* ---- duration ------------------------------------------------------------------------- */

/* The end of an element's animation for a preview: the latest begin + active duration,
   an indefinite repeat counted once, an indefinite simple duration as 0 (a set). */
static double element_span(xmlNodePtr el) {
  timing_t tm;
  double best = 0, ad;
  unsigned i, j;
  ct_smil_parse_timing(el, &tm);
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
    if (ct_smil_anim_kind(n->name) >= 0) {
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
