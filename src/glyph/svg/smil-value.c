/*
** smil-value.c: SMIL values and interpolation: colors, path data, transform and number values,
** and the animation function (values/from/to/by, keyTimes, keySplines; calcMode discrete,
** linear, paced, spline).  Must not know timing or targets.  Glyph stage (OT-SVG).
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/tree.h>

#include "smil-internal.h"

/* ---- values ----------------------------------------------------------------------------- */

void ct_smil_tv_free(tval_t *t) {
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

int ct_smil_tv_copy(tval_t *out, const tval_t *a) {
  memset(out, 0, sizeof *out);
  out->color = a->color;
  if (!(out->skel = strdup(a->skel ? a->skel : ""))) return 0;
  if (a->n) {
    if (!(out->v = malloc(a->n * sizeof *out->v))) { ct_smil_tv_free(out); return 0; }
    memcpy(out->v, a->v, a->n * sizeof *out->v);
  }
  out->n = out->cap = a->n;
  return 1;
}

int ct_smil_tv_same(const tval_t *a, const tval_t *b) {
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
    s = ct_smil_skip_wsp(s, end);
    if (s == end) break;
    if (i == 4 || !(n = ct_smil_scan_number(s, end, &v))) return 0;
    s += n;
    if (s < end && *s == '%') {
      v = i < 3 ? v * 2.55 : v / 100;
      s++;
    }
    c[i++] = v;
    s = ct_smil_skip_wsp(s, end);
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
  s = ct_smil_skip_wsp(s, end);
  end = ct_smil_trim_end(s, end);
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
    s = ct_smil_skip_wsp(s, end);
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
    ct_svg_sb_add(sk, &cmd, 1);
    for (i = 0; i < np; i++) {
      double v;
      size_t n;
      s = ct_smil_skip_wsp(s, end);
      if (i > 0 && s < end && *s == ',') s = ct_smil_skip_wsp(s + 1, end);
      if (s == end) return 0;
      if (params[i] == 'f') {
        if (*s != '0' && *s != '1') return 0;
        v = *s++ - '0';
      } else if (!(n = ct_smil_scan_number(s, end, &v))) {
        return 0;
      } else {
        s += n;
      }
      ct_svg_sb_add(sk, " \1", 2);
      if (!tv_push(t, v)) return 0;
    }
    s = ct_smil_skip_wsp(s, end);
    if (s < end && *s == ',') s++;
  }
  return 1;
}

const char *const ct_smil_tf_names[] = { "translate", "scale", "rotate", "skewX", "skewY" };
static const unsigned tf_params[] = { 2, 2, 3, 1, 1 };

/* One animateTransform value of `type` ("10", "10 5", "45 50 50"): its parameters with
   the defaults filled in (translate ty 0, scale sy = sx, rotate cx = cy = 0). */
static int parse_transform_value(int type, const char *s, const char *end, tval_t *t, sbuf_t *sk) {
  double v[3];
  unsigned n = 0, i, want = tf_params[type];
  while (1) {
    size_t k;
    s = ct_smil_skip_wsp(s, end);
    if (s < end && *s == ',' && n > 0) s = ct_smil_skip_wsp(s + 1, end);
    if (s == end) break;
    if (n == 3 || !(k = ct_smil_scan_number(s, end, &v[n]))) return 0;
    n++;
    s += k;
  }
  if (n == 0 || n > want || (type == 2 && n == 2)) return 0;
  if (type == 0 && n == 1) v[1] = 0;
  if (type == 1 && n == 1) v[1] = v[0];
  if (type == 2 && n == 1) v[1] = v[2] = 0;
  ct_smil_sb_str(sk, ct_smil_tf_names[type]);
  ct_svg_sb_add(sk, "(", 1);
  for (i = 0; i < want; i++) {
    ct_svg_sb_add(sk, i ? " \1" : "\1", i ? 2 : 1);
    if (!tv_push(t, v[i])) return 0;
  }
  ct_svg_sb_add(sk, ")", 1);
  return 1;
}

/* Any other value: numbers (not inside names such as "#grad2") become parameters, runs
   of spaces and commas one space. */
static int parse_generic(const char *s, const char *end, int numbers, tval_t *t, sbuf_t *sk) {
  char prev = ' ';
  s = ct_smil_skip_wsp(s, end);
  end = ct_smil_trim_end(s, end);
  while (s < end) {
    double v;
    size_t n;
    if (ct_smil_is_wsp((unsigned char)*s) || *s == ',') {
      while (s < end && (ct_smil_is_wsp((unsigned char)*s) || *s == ',')) s++;
      ct_svg_sb_add(sk, " ", 1);
      prev = ' ';
      continue;
    }
    if (numbers && !isalpha((unsigned char)prev) && prev != '#' && prev != '_' && prev != '-' &&
        (n = ct_smil_scan_number(s, end, &v))) {
      ct_svg_sb_add(sk, "\1", 1);
      if (!tv_push(t, v)) return 0;
      s += n;
      prev = '0';
      continue;
    }
    prev = *s;
    ct_svg_sb_add(sk, s, 1);
    s++;
  }
  return 1;
}

/* Parses a value of an attribute of type `vt` (transform values: `ttype`).  0 when it
   cannot be parsed (animateTransform) or without memory. */
int ct_smil_tv_parse(int vt, int ttype, const char *s, const char *end, tval_t *t) {
  sbuf_t sk = { NULL, 0, 0, 0 };
  double c[4];
  int ok;
  memset(t, 0, sizeof *t);
  if (vt == VT_COLOR && parse_color(s, end, c)) {
    unsigned i;
    ct_smil_sb_str(&sk, "rgba(\1,\1,\1,\1)");
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
  if (!ok || !(t->skel = ct_smil_sb_take(&sk))) {
    if (ok) sk.s = NULL;
    free(sk.s);
    ct_smil_tv_free(t);
    return 0;
  }
  return 1;
}

char *ct_smil_tv_format(const tval_t *t) {
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
    ct_smil_sb_str(&b, tmp);
    return ct_smil_sb_take(&b);
  }
  for (s = t->skel; *s; s++) {
    if (*s == '\1') {
      ct_smil_sb_num(&b, i < t->n ? t->v[i] : 0);
      i++;
    } else {
      ct_svg_sb_add(&b, s, 1);
    }
  }
  return ct_smil_sb_take(&b);
}

/* out = a + (b - a) * u, or out = a + b * u with `add` (both the same skeleton as a). */
int ct_smil_tv_mix(tval_t *out, const tval_t *a, const tval_t *b, double u, int add) {
  unsigned i;
  if (!ct_smil_tv_copy(out, a)) return 0;
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

void ct_smil_func_free(func_t *f) {
  unsigned i;
  for (i = 0; i < f->n; i++) ct_smil_tv_free(&f->v[i]);
  free(f->v);
  free(f->kt);
  free(f->ks);
  memset(f, 0, sizeof *f);
}

typedef struct { func_t *f; const anim_t *a; int ok; } vparse_t;

static int value_item(const char *s, const char *end, void *data) {
  vparse_t *vp = data;
  if (s == end || vp->f->n >= CT_MAX_SVG_ANIM_VALUES) return vp->ok = 0;   /* "" is an error */
  if (!ct_smil_tv_parse(vp->a->ai->type, vp->a->ttype, s, end, &vp->f->v[vp->f->n])) return vp->ok = 0;
  vp->f->n++;
  return 1;
}

typedef struct { double *v; unsigned n, cap; int ok; } nlist_t;

static int number_item(const char *s, const char *end, void *data) {
  nlist_t *l = data;
  while (1) {
    double v;
    size_t n;
    s = ct_smil_skip_wsp(s, end);
    if (s < end && *s == ',' ) s = ct_smil_skip_wsp(s + 1, end);
    if (s == end) break;
    if (l->n == l->cap || !(n = ct_smil_scan_number(s, end, &v))) return l->ok = 0;
    l->v[l->n++] = v;
    s += n;
  }
  return 1;
}

/* A list of numbers (keyTimes: one per item; keySplines: four per item). */
static double *parse_numbers(const char *s, unsigned cap, unsigned per_item, unsigned *count) {
  nlist_t l;
  unsigned items = ct_smil_split(s, ';', ct_smil_count_item, NULL);
  l.cap = cap;
  l.n = 0;
  l.ok = 1;
  if (!(l.v = malloc((cap ? cap : 1) * sizeof *l.v))) return NULL;
  if (items == (unsigned)-1 || ct_smil_split(s, ';', number_item, &l) == (unsigned)-1 || !l.ok ||
      l.n != items * per_item) {
    free(l.v);
    return NULL;
  }
  *count = items;
  return l.v;
}

/* The animation function's values, keyTimes and keySplines; 0 when the element is in
   error (SMIL: it then has no effect).  `base` is the underlying value (to-animation). */
int ct_smil_func_init(const anim_t *a, func_t *f) {
  char *values = NULL, *from = NULL, *to = NULL, *by = NULL, *v = NULL;
  int ok = 0;
  memset(f, 0, sizeof *f);
  f->mode = a->kind == A_SET ? CM_DISCRETE : CM_LINEAR;
  if (a->kind != A_SET && (v = ct_smil_prop(a->el, "calcMode"))) {
    if (strcmp(v, "discrete") == 0) f->mode = CM_DISCRETE;
    else if (strcmp(v, "paced") == 0) f->mode = CM_PACED;
    else if (strcmp(v, "spline") == 0) f->mode = CM_SPLINE;
    xmlFree(v);
  }
  if ((v = ct_smil_prop(a->el, "additive"))) {
    f->additive = strcmp(v, "sum") == 0;
    xmlFree(v);
  }
  if ((v = ct_smil_prop(a->el, "accumulate"))) {
    f->accumulate = strcmp(v, "sum") == 0;
    xmlFree(v);
  }
  if (!(f->v = calloc(CT_MAX_SVG_ANIM_VALUES, sizeof *f->v))) return 0;
  to = ct_smil_prop(a->el, "to");
  if (a->kind == A_SET) {
    vparse_t vp = { f, a, 1 };
    if (!to || !value_item(to, to + strlen(to), &vp)) goto done;
    f->additive = f->accumulate = 0;
    ok = 1;
    goto done;
  }
  values = ct_smil_prop(a->el, "values");
  from = ct_smil_prop(a->el, "from");
  by = ct_smil_prop(a->el, "by");
  if (values) {
    vparse_t vp = { f, a, 1 };
    if (ct_smil_split(values, ';', value_item, &vp) == (unsigned)-1 || !vp.ok || f->n == 0) goto done;
  } else if (from && (to || by)) {
    vparse_t vp = { f, a, 1 };
    if (!value_item(from, from + strlen(from), &vp)) goto done;
    if (to) {
      if (!value_item(to, to + strlen(to), &vp)) goto done;
    } else {
      tval_t b;
      if (!ct_smil_tv_parse(a->ai->type, a->ttype, by, by + strlen(by), &b)) goto done;
      if (!ct_smil_tv_same(&f->v[0], &b) || !ct_smil_tv_mix(&f->v[1], &f->v[0], &b, 1, 1)) {
        ct_smil_tv_free(&b);
        goto done;
      }
      ct_smil_tv_free(&b);
      f->n = 2;
    }
  } else if (by) {   /* by-animation: from zero, additive */
    vparse_t vp = { f, a, 1 };
    unsigned i;
    if (!value_item(by, by + strlen(by), &vp) || !ct_smil_tv_copy(&f->v[1], &f->v[0])) goto done;
    f->n = 2;
    for (i = 0; i < f->v[0].n; i++) f->v[0].v[i] = 0;
    f->additive = 1;
  } else if (to) {   /* to-animation: from the underlying value, filled in when composed */
    vparse_t vp = { f, a, 1 };
    if (!value_item(to, to + strlen(to), &vp) || !ct_smil_tv_copy(&f->v[1], &f->v[0])) goto done;
    ct_smil_tv_free(&f->v[0]);
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
        if (!ct_smil_tv_same(&f->v[0], &f->v[i])) { f->mode = CM_DISCRETE; break; }
  }
  if (f->mode != CM_PACED && (v = ct_smil_prop(a->el, "keyTimes"))) {
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
    if (!(v = ct_smil_prop(a->el, "keySplines"))) goto done;
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
  if (!ok) ct_smil_func_free(f);
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
int ct_smil_func_eval(const func_t *f, const anim_t *a, double p, tval_t *out) {
  unsigned n = f->n, i;
  double u;
  if (n == 1) return ct_smil_tv_copy(out, &f->v[0]);
  if (f->mode == CM_DISCRETE) {
    if (f->kt) {
      for (i = n - 1; i > 0 && f->kt[i] > p; i--) {}
    } else {
      i = (unsigned)floor(p * n);
      if (i >= n) i = n - 1;
    }
    return ct_smil_tv_copy(out, &f->v[i]);
  }
  if (p >= 1) return ct_smil_tv_copy(out, &f->v[n - 1]);
  if (f->mode == CM_PACED) {
    double total = 0, d[CT_MAX_SVG_ANIM_VALUES], goal, run = 0;
    int rot = a->kind == A_TRANSFORM && a->ttype == 2;
    for (i = 0; i + 1 < n; i++) total += d[i] = tv_dist(&f->v[i], &f->v[i + 1], rot);
    if (total <= 0) return ct_smil_tv_copy(out, &f->v[0]);
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
  return ct_smil_tv_mix(out, &f->v[i], &f->v[i + 1], u, 0);
}
