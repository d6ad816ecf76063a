/*
** style.c: the CSS of SVG drawings read as glyphs (glyph/artwork/): presentation attributes
** and the `style` attribute, inheritance, every CSS color syntax, lengths and `transform`
** lists.  What a color font cannot express (filters, masks, blend modes) is refused here.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "artwork-private.h"

/* ---- matrices ------------------------------------------------------------------- */

void ct_art_matrix_identity(double m[6]) {
  m[0] = 1; m[1] = 0; m[2] = 0; m[3] = 1; m[4] = 0; m[5] = 0;
}

void ct_art_matrix_multiply(double r[6], const double a[6], const double b[6]) {
  double t[6];
  t[0] = a[0] * b[0] + a[1] * b[2];
  t[1] = a[0] * b[1] + a[1] * b[3];
  t[2] = a[2] * b[0] + a[3] * b[2];
  t[3] = a[2] * b[1] + a[3] * b[3];
  t[4] = a[4] * b[0] + a[5] * b[2] + b[4];
  t[5] = a[4] * b[1] + a[5] * b[3] + b[5];
  memcpy(r, t, sizeof t);
}

void ct_art_matrix_apply(const double m[6], double *x, double *y) {
  double px = *x, py = *y;
  *x = m[0] * px + m[2] * py + m[4];
  *y = m[1] * px + m[3] * py + m[5];
}

void ct_art_box_map(const double m[6], const double b[4], double out[4]) {
  double xs[4] = { b[0], b[2], b[0], b[2] }, ys[4] = { b[1], b[1], b[3], b[3] };
  int i;
  for (i = 0; i < 4; i++) {
    ct_art_matrix_apply(m, &xs[i], &ys[i]);
    if (i == 0 || xs[i] < out[0]) out[0] = xs[i];
    if (i == 0 || ys[i] < out[1]) out[1] = ys[i];
    if (i == 0 || xs[i] > out[2]) out[2] = xs[i];
    if (i == 0 || ys[i] > out[3]) out[3] = ys[i];
  }
}

/* ---- numbers and lengths -------------------------------------------------------- */

static const char *skip_ws(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  return s;
}

static const char *skip_sep(const char *s) {   /* white space and at most one comma */
  s = skip_ws(s);
  if (*s == ',') s = skip_ws(s + 1);
  return s;
}

/* CSS/SVG numbers only ("1", "-.5", "1e3"): strtod would take "inf", "nan" and hex. */
int ct_art_number(const char *s, double *v, const char **end) {
  const char *p = skip_ws(s), *q = p;
  char *e;
  if (*q == '+' || *q == '-') q++;
  if (!(isdigit((unsigned char)*q) || (*q == '.' && isdigit((unsigned char)q[1])))) return 0;
  *v = strtod(p, &e);
  if (!isfinite(*v)) return 0;
  if (end) *end = e;
  return 1;
}

static int unit_scale(const char *u, size_t n, double ref, double *k) {
  static const struct { const char *u; double k; } units[] = {
    { "px", 1 }, { "pt", 96.0 / 72 }, { "pc", 16 }, { "mm", 96 / 25.4 }, { "cm", 96 / 2.54 },
    { "in", 96 }, { "em", 16 }, { "ex", 8 }, { "q", 96 / 101.6 }
  };
  size_t i;
  if (n == 0) { *k = 1; return 1; }
  if (n == 1 && *u == '%') { *k = ref / 100; return 1; }
  for (i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strlen(units[i].u) == n && strncasecmp(u, units[i].u, n) == 0) {
      *k = units[i].k;
      return 1;
    }
  return 0;
}

int ct_art_length(const char *s, double ref, double *v) {
  const char *e, *u;
  double k;
  size_t n = 0;
  if (!s || !ct_art_number(s, v, &e)) return 0;
  u = e;
  while (isalpha((unsigned char)u[n]) || u[n] == '%') n++;
  if (*skip_ws(u + n) != 0 || !unit_scale(u, n, ref, &k)) return 0;
  *v *= k;
  return isfinite(*v);
}

double ct_art_attr_length(xmlNodePtr el, const char *name, double ref, double def) {
  char *a = ct_art_attr(el, name);
  double v;
  if (!a || !ct_art_length(a, ref, &v)) v = def;
  if (a) xmlFree(a);
  return v;
}

/* ---- transforms ----------------------------------------------------------------- */

/* Up to `max` numbers of a transform function's argument list, after '('. */
static int args(const char **ps, double *v, int max) {
  const char *s = skip_ws(*ps);
  int n = 0;
  while (*s && *s != ')') {
    if (n == max || !ct_art_number(s, &v[n], &s)) return -1;
    n++;
    s = skip_sep(s);
  }
  if (*s != ')') return -1;
  *ps = s + 1;
  return n;
}

static int transform_one(const char *name, size_t len, const double *v, int n, double t[6]) {
  const double deg = M_PI / 180;
  ct_art_matrix_identity(t);
#define IS(w) (len == sizeof w - 1 && strncmp(name, w, len) == 0)
  if (IS("matrix") && n == 6) {
    memcpy(t, v, 6 * sizeof *v);
  } else if (IS("translate") && (n == 1 || n == 2)) {
    t[4] = v[0]; t[5] = n == 2 ? v[1] : 0;
  } else if (IS("scale") && (n == 1 || n == 2)) {
    t[0] = v[0]; t[3] = n == 2 ? v[1] : v[0];
  } else if (IS("rotate") && (n == 1 || n == 3)) {
    double c = cos(v[0] * deg), s = sin(v[0] * deg), cx = n == 3 ? v[1] : 0, cy = n == 3 ? v[2] : 0;
    t[0] = c; t[1] = s; t[2] = -s; t[3] = c;
    t[4] = cx - c * cx + s * cy;   /* translate(cx cy) rotate(a) translate(-cx -cy) */
    t[5] = cy - s * cx - c * cy;
  } else if (IS("skewX") && n == 1) {
    t[2] = tan(v[0] * deg);
  } else if (IS("skewY") && n == 1) {
    t[1] = tan(v[0] * deg);
  } else {
    return 0;
  }
#undef IS
  return 1;
}

int ct_art_transform_parse(const char *s, double m[6]) {
  ct_art_matrix_identity(m);
  s = skip_ws(s);
  while (*s) {
    const char *name = s;
    double v[6], t[6];
    size_t len;
    int n;
    while (isalpha((unsigned char)*s)) s++;
    len = (size_t)(s - name);
    s = skip_ws(s);
    if (len == 0 || *s != '(') goto bad;
    s++;
    if ((n = args(&s, v, 6)) < 0 || !transform_one(name, len, v, n, t)) goto bad;
    ct_art_matrix_multiply(m, t, m);   /* the rightmost function is applied first */
    s = skip_sep(s);
  }
  return 1;
bad:
  ct_art_matrix_identity(m);
  return 0;
}

/* ---- colors --------------------------------------------------------------------- */

static const struct { const char *name; unsigned rgb; } named[] = {
  { "aliceblue", 0xF0F8FF }, { "antiquewhite", 0xFAEBD7 }, { "aqua", 0x00FFFF },
  { "aquamarine", 0x7FFFD4 }, { "azure", 0xF0FFFF }, { "beige", 0xF5F5DC },
  { "bisque", 0xFFE4C4 }, { "black", 0x000000 }, { "blanchedalmond", 0xFFEBCD },
  { "blue", 0x0000FF }, { "blueviolet", 0x8A2BE2 }, { "brown", 0xA52A2A },
  { "burlywood", 0xDEB887 }, { "cadetblue", 0x5F9EA0 }, { "chartreuse", 0x7FFF00 },
  { "chocolate", 0xD2691E }, { "coral", 0xFF7F50 }, { "cornflowerblue", 0x6495ED },
  { "cornsilk", 0xFFF8DC }, { "crimson", 0xDC143C }, { "cyan", 0x00FFFF },
  { "darkblue", 0x00008B }, { "darkcyan", 0x008B8B }, { "darkgoldenrod", 0xB8860B },
  { "darkgray", 0xA9A9A9 }, { "darkgreen", 0x006400 }, { "darkgrey", 0xA9A9A9 },
  { "darkkhaki", 0xBDB76B }, { "darkmagenta", 0x8B008B }, { "darkolivegreen", 0x556B2F },
  { "darkorange", 0xFF8C00 }, { "darkorchid", 0x9932CC }, { "darkred", 0x8B0000 },
  { "darksalmon", 0xE9967A }, { "darkseagreen", 0x8FBC8F }, { "darkslateblue", 0x483D8B },
  { "darkslategray", 0x2F4F4F }, { "darkslategrey", 0x2F4F4F }, { "darkturquoise", 0x00CED1 },
  { "darkviolet", 0x9400D3 }, { "deeppink", 0xFF1493 }, { "deepskyblue", 0x00BFFF },
  { "dimgray", 0x696969 }, { "dimgrey", 0x696969 }, { "dodgerblue", 0x1E90FF },
  { "firebrick", 0xB22222 }, { "floralwhite", 0xFFFAF0 }, { "forestgreen", 0x228B22 },
  { "fuchsia", 0xFF00FF }, { "gainsboro", 0xDCDCDC }, { "ghostwhite", 0xF8F8FF },
  { "gold", 0xFFD700 }, { "goldenrod", 0xDAA520 }, { "gray", 0x808080 },
  { "green", 0x008000 }, { "greenyellow", 0xADFF2F }, { "grey", 0x808080 },
  { "honeydew", 0xF0FFF0 }, { "hotpink", 0xFF69B4 }, { "indianred", 0xCD5C5C },
  { "indigo", 0x4B0082 }, { "ivory", 0xFFFFF0 }, { "khaki", 0xF0E68C },
  { "lavender", 0xE6E6FA }, { "lavenderblush", 0xFFF0F5 }, { "lawngreen", 0x7CFC00 },
  { "lemonchiffon", 0xFFFACD }, { "lightblue", 0xADD8E6 }, { "lightcoral", 0xF08080 },
  { "lightcyan", 0xE0FFFF }, { "lightgoldenrodyellow", 0xFAFAD2 }, { "lightgray", 0xD3D3D3 },
  { "lightgreen", 0x90EE90 }, { "lightgrey", 0xD3D3D3 }, { "lightpink", 0xFFB6C1 },
  { "lightsalmon", 0xFFA07A }, { "lightseagreen", 0x20B2AA }, { "lightskyblue", 0x87CEFA },
  { "lightslategray", 0x778899 }, { "lightslategrey", 0x778899 }, { "lightsteelblue", 0xB0C4DE },
  { "lightyellow", 0xFFFFE0 }, { "lime", 0x00FF00 }, { "limegreen", 0x32CD32 },
  { "linen", 0xFAF0E6 }, { "magenta", 0xFF00FF }, { "maroon", 0x800000 },
  { "mediumaquamarine", 0x66CDAA }, { "mediumblue", 0x0000CD }, { "mediumorchid", 0xBA55D3 },
  { "mediumpurple", 0x9370DB }, { "mediumseagreen", 0x3CB371 }, { "mediumslateblue", 0x7B68EE },
  { "mediumspringgreen", 0x00FA9A }, { "mediumturquoise", 0x48D1CC }, { "mediumvioletred", 0xC71585 },
  { "midnightblue", 0x191970 }, { "mintcream", 0xF5FFFA }, { "mistyrose", 0xFFE4E1 },
  { "moccasin", 0xFFE4B5 }, { "navajowhite", 0xFFDEAD }, { "navy", 0x000080 },
  { "oldlace", 0xFDF5E6 }, { "olive", 0x808000 }, { "olivedrab", 0x6B8E23 },
  { "orange", 0xFFA500 }, { "orangered", 0xFF4500 }, { "orchid", 0xDA70D6 },
  { "palegoldenrod", 0xEEE8AA }, { "palegreen", 0x98FB98 }, { "paleturquoise", 0xAFEEEE },
  { "palevioletred", 0xDB7093 }, { "papayawhip", 0xFFEFD5 }, { "peachpuff", 0xFFDAB9 },
  { "peru", 0xCD853F }, { "pink", 0xFFC0CB }, { "plum", 0xDDA0DD },
  { "powderblue", 0xB0E0E6 }, { "purple", 0x800080 }, { "red", 0xFF0000 },
  { "rosybrown", 0xBC8F8F }, { "royalblue", 0x4169E1 }, { "saddlebrown", 0x8B4513 },
  { "salmon", 0xFA8072 }, { "sandybrown", 0xF4A460 }, { "seagreen", 0x2E8B57 },
  { "seashell", 0xFFF5EE }, { "sienna", 0xA0522D }, { "silver", 0xC0C0C0 },
  { "skyblue", 0x87CEEB }, { "slateblue", 0x6A5ACD }, { "slategray", 0x708090 },
  { "slategrey", 0x708090 }, { "snow", 0xFFFAFA }, { "springgreen", 0x00FF7F },
  { "steelblue", 0x4682B4 }, { "tan", 0xD2B48C }, { "teal", 0x008080 },
  { "thistle", 0xD8BFD8 }, { "tomato", 0xFF6347 }, { "turquoise", 0x40E0D0 },
  { "violet", 0xEE82EE }, { "wheat", 0xF5DEB3 }, { "white", 0xFFFFFF },
  { "whitesmoke", 0xF5F5F5 }, { "yellow", 0xFFFF00 }, { "yellowgreen", 0x9ACD32 }
};

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int parse_hex(const char *s, size_t n, ct_rgba_t *out) {
  double v[4] = { 0, 0, 0, 1 };
  size_t i, k = n == 3 || n == 4 ? 1 : 2, comps = n / k;
  if (n != 3 && n != 4 && n != 6 && n != 8) return 0;
  for (i = 0; i < n; i++)
    if (hexval((unsigned char)s[i]) < 0) return 0;
  for (i = 0; i < comps; i++) {
    int h = hexval((unsigned char)s[i * k]), l = k == 2 ? hexval((unsigned char)s[i * k + 1]) : h;
    v[i] = (h * 16 + l) / 255.0;
  }
  out->r = v[0]; out->g = v[1]; out->b = v[2]; out->a = v[3];
  return 1;
}

static double clamp01(double v) {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

static double hue_rgb(double p, double q, double t) {
  if (t < 0) t += 1;
  if (t > 1) t -= 1;
  if (t < 1.0 / 6) return p + (q - p) * 6 * t;
  if (t < 0.5) return q;
  if (t < 2.0 / 3) return p + (q - p) * (2.0 / 3 - t) * 6;
  return p;
}

/* rgb()/rgba()/hsl()/hsla(): comma or space separated, "/ alpha" accepted, numbers or %. */
static int parse_func(const char *s, int hsl, ct_rgba_t *out) {
  double v[4] = { 0, 0, 0, 1 };
  int n = 0, pct[4] = { 0, 0, 0, 0 };
  s = skip_ws(s);
  while (*s && *s != ')') {
    if (n == 4 || !ct_art_number(s, &v[n], &s)) return 0;
    if (*s == '%') { pct[n] = 1; s++; }
    else if (hsl && n == 0 && strncmp(s, "deg", 3) == 0) s += 3;
    n++;
    s = skip_sep(s);
    if (*s == '/') s = skip_ws(s + 1);
  }
  if (*s != ')' || *skip_ws(s + 1) || n < 3) return 0;
  v[3] = clamp01(pct[3] ? v[3] / 100 : v[3]);
  if (!hsl) {
    int i;
    for (i = 0; i < 3; i++) v[i] = clamp01(pct[i] ? v[i] / 100 : v[i] / 255);
    out->r = v[0]; out->g = v[1]; out->b = v[2];
  } else {
    double h = fmod(v[0], 360) / 360, sat = clamp01(v[1] / 100), l = clamp01(v[2] / 100);
    double q = l < 0.5 ? l * (1 + sat) : l + sat - l * sat, p = 2 * l - q;
    if (h < 0) h += 1;
    out->r = hue_rgb(p, q, h + 1.0 / 3);
    out->g = hue_rgb(p, q, h);
    out->b = hue_rgb(p, q, h - 1.0 / 3);
  }
  out->a = v[3];
  return 1;
}

int ct_art_color_parse(const char *s, ct_rgba_t *out) {
  char word[32];
  size_t n = 0, i;
  s = skip_ws(s);
  if (*s == '#') {
    const char *h = s + 1;
    while (isxdigit((unsigned char)h[n])) n++;
    return *skip_ws(h + n) == 0 && parse_hex(h, n, out);
  }
  while (isalpha((unsigned char)s[n]) && n < sizeof word - 1) {
    word[n] = (char)tolower((unsigned char)s[n]);
    n++;
  }
  word[n] = 0;
  if (s[n] == '(') {
    if (!strcmp(word, "rgb") || !strcmp(word, "rgba")) return parse_func(s + n + 1, 0, out);
    if (!strcmp(word, "hsl") || !strcmp(word, "hsla")) return parse_func(s + n + 1, 1, out);
    return 0;
  }
  if (*skip_ws(s + n)) return 0;
  if (!strcmp(word, "transparent")) {
    out->r = out->g = out->b = out->a = 0;
    return 1;
  }
  for (i = 0; i < sizeof named / sizeof named[0]; i++)
    if (!strcmp(word, named[i].name)) {
      out->r = (named[i].rgb >> 16) / 255.0;
      out->g = ((named[i].rgb >> 8) & 0xFF) / 255.0;
      out->b = (named[i].rgb & 0xFF) / 255.0;
      out->a = 1;
      return 1;
    }
  return 0;
}

/* ---- properties ----------------------------------------------------------------- */

void ct_art_style_init(ct_art_style_t *s) {
  memset(s, 0, sizeof *s);
  s->fill.kind = CT_ART_PAINT_COLOR;
  s->fill.rgba.a = 1;   /* black */
  s->stroke.kind = CT_ART_PAINT_NONE;
  s->fill_opacity = s->stroke_opacity = s->opacity = s->stop_opacity = 1;
  s->stroke_width = 1;
  s->miterlimit = 4;
  s->join = CT_ART_JOIN_MITER;
  s->cap = CT_ART_CAP_BUTT;
  s->stop_kind = CT_ART_PAINT_COLOR;
  s->stop_color.a = 1;
}

static int word_is(const char *v, const char *w) {
  size_t n = strlen(w);
  return strncasecmp(v, w, n) == 0 && *skip_ws(v + n) == 0;
}

/* url(#id) into id (its length capped); returns a pointer after ')' or NULL. */
static const char *parse_url(const char *v, char *id, size_t idlen) {
  const char *p = skip_ws(v), *e;
  size_t n;
  int quote = 0;
  if (strncmp(p, "url(", 4) != 0) return NULL;
  p = skip_ws(p + 4);
  if (*p == '"' || *p == '\'') quote = *p++;
  if (*p != '#') return NULL;   /* references to other files: never */
  p++;
  for (e = p; *e && *e != ')' && *e != quote && !(quote == 0 && isspace((unsigned char)*e)); e++) {}
  n = (size_t)(e - p);
  if (n == 0 || n >= idlen) return NULL;
  memcpy(id, p, n);
  id[n] = 0;
  if (quote && *e == quote) e++;
  e = skip_ws(e);
  return *e == ')' ? e + 1 : NULL;
}

static int parse_paint(const char *v, ct_art_paintspec_t *p) {
  const char *rest;
  ct_art_paintspec_t t;
  memset(&t, 0, sizeof t);
  if (word_is(v, "none")) t.kind = CT_ART_PAINT_NONE;
  else if (word_is(v, "currentColor")) t.kind = CT_ART_PAINT_CURRENT;
  else if (ct_art_color_parse(v, &t.rgba)) t.kind = CT_ART_PAINT_COLOR;
  else if ((rest = parse_url(v, t.id, sizeof t.id))) {
    t.kind = CT_ART_PAINT_URL;
    rest = skip_ws(rest);
    t.fallback = CT_ART_PAINT_NONE;
    if (!*rest || word_is(rest, "none")) {}
    else if (word_is(rest, "currentColor")) t.fallback = CT_ART_PAINT_CURRENT;
    else if (ct_art_color_parse(rest, &t.fallback_rgba)) t.fallback = CT_ART_PAINT_COLOR;
    else return 0;
  } else return 0;
  *p = t;
  return 1;
}

static void parse_opacity(const char *v, double *out) {
  double d;
  const char *e;
  if (!ct_art_number(v, &d, &e)) return;
  if (*e == '%') { d /= 100; e++; }
  if (*skip_ws(e)) return;
  *out = clamp01(d);
}

static void parse_dashes(const char *v, ct_art_style_t *s) {
  double d[CT_ART_MAX_DASHES];
  unsigned n = 0;
  const char *p = skip_ws(v);
  if (word_is(p, "none")) { s->ndashes = 0; return; }
  while (*p) {
    if (n == CT_ART_MAX_DASHES || !ct_art_number(p, &d[n], &p)) return;   /* ignored */
    if (*p == '%') p++;   /* of the viewport's diagonal: taken as user units */
    else while (isalpha((unsigned char)*p)) p++;
    if (d[n] < 0) return;   /* a negative value: the property is in error, ignored */
    n++;
    p = skip_sep(p);
  }
  memcpy(s->dashes, d, n * sizeof *d);
  s->ndashes = n;
}

static int enum_of(const char *v, const char *const *names, int *out) {
  int i;
  for (i = 0; names[i]; i++)
    if (word_is(v, names[i])) { *out = i; return 1; }
  return 0;
}

/* Properties refused when they name something: returns 0 with why filled. */
static int refused_property(const char *name, const char *v, char *why, size_t whylen) {
  if (!strcmp(name, "filter") && !word_is(v, "none")) {
    snprintf(why, whylen, "filter=\"%.60s\": filters cannot be expressed in a color font", v);
    return 1;
  }
  if (!strcmp(name, "mask") && !word_is(v, "none")) {
    snprintf(why, whylen, "mask=\"%.60s\": masks cannot be expressed in a color font", v);
    return 1;
  }
  if (!strcmp(name, "mix-blend-mode") && !word_is(v, "normal")) {
    snprintf(why, whylen, "mix-blend-mode: %.40s cannot be expressed in a color font", v);
    return 1;
  }
  return 0;
}

/* One property; unknown ones and malformed values are ignored, as CSS says. */
static int set_property(ct_art_style_t *s, const ct_art_style_t *parent, const char *name,
                        const char *v, char *why, size_t whylen) {
  static const char *const joins[] = { "miter", "round", "bevel", NULL };
  static const char *const caps[] = { "butt", "round", "square", NULL };
  static const char *const rules[] = { "nonzero", "evenodd", NULL };
  double d;
  int e;
  v = skip_ws(v);
  if (refused_property(name, v, why, whylen)) return 0;
  if (word_is(v, "inherit")) {   /* the parent's value, over what an attribute set */
    if (!strcmp(name, "opacity")) s->opacity = parent->opacity;
    else if (!strcmp(name, "stop-color")) { s->stop_kind = parent->stop_kind; s->stop_color = parent->stop_color; }
    else if (!strcmp(name, "stop-opacity")) s->stop_opacity = parent->stop_opacity;
    else if (!strcmp(name, "display")) s->display_none = parent->display_none;
    else if (!strcmp(name, "fill")) s->fill = parent->fill;
    else if (!strcmp(name, "stroke")) s->stroke = parent->stroke;
    else if (!strcmp(name, "fill-opacity")) s->fill_opacity = parent->fill_opacity;
    else if (!strcmp(name, "stroke-opacity")) s->stroke_opacity = parent->stroke_opacity;
    else if (!strcmp(name, "fill-rule")) s->fill_evenodd = parent->fill_evenodd;
    else if (!strcmp(name, "clip-rule")) s->clip_evenodd = parent->clip_evenodd;
    else if (!strcmp(name, "stroke-linejoin")) s->join = parent->join;
    else if (!strcmp(name, "stroke-linecap")) s->cap = parent->cap;
    else if (!strcmp(name, "stroke-width")) s->stroke_width = parent->stroke_width;
    else if (!strcmp(name, "stroke-miterlimit")) s->miterlimit = parent->miterlimit;
    else if (!strcmp(name, "stroke-dashoffset")) s->dash_offset = parent->dash_offset;
    else if (!strcmp(name, "stroke-dasharray")) {
      memcpy(s->dashes, parent->dashes, sizeof s->dashes);
      s->ndashes = parent->ndashes;
    }
    else if (!strcmp(name, "color")) { s->color = parent->color; s->has_color = parent->has_color; }
    else if (!strcmp(name, "visibility")) s->hidden = parent->hidden;
    else if (!strcmp(name, "clip-path")) memcpy(s->clip_path, parent->clip_path, sizeof s->clip_path);
    return 1;
  }
  if (!strcmp(name, "fill")) parse_paint(v, &s->fill);
  else if (!strcmp(name, "stroke")) parse_paint(v, &s->stroke);
  else if (!strcmp(name, "fill-opacity")) parse_opacity(v, &s->fill_opacity);
  else if (!strcmp(name, "stroke-opacity")) parse_opacity(v, &s->stroke_opacity);
  else if (!strcmp(name, "opacity")) parse_opacity(v, &s->opacity);
  else if (!strcmp(name, "stop-opacity")) parse_opacity(v, &s->stop_opacity);
  else if (!strcmp(name, "fill-rule")) { if (enum_of(v, rules, &e)) s->fill_evenodd = e; }
  else if (!strcmp(name, "clip-rule")) { if (enum_of(v, rules, &e)) s->clip_evenodd = e; }
  else if (!strcmp(name, "stroke-linejoin")) {
    if (enum_of(v, joins, &e)) s->join = e;
    else if (word_is(v, "miter-clip") || word_is(v, "arcs")) s->join = CT_ART_JOIN_MITER;
  }
  else if (!strcmp(name, "stroke-linecap")) { if (enum_of(v, caps, &e)) s->cap = e; }
  else if (!strcmp(name, "stroke-width")) { if (ct_art_length(v, 100, &d) && d >= 0) s->stroke_width = d; }
  else if (!strcmp(name, "stroke-miterlimit")) { if (ct_art_length(v, 1, &d) && d >= 1) s->miterlimit = d; }
  else if (!strcmp(name, "stroke-dashoffset")) { if (ct_art_length(v, 100, &d)) s->dash_offset = d; }
  else if (!strcmp(name, "stroke-dasharray")) parse_dashes(v, s);
  else if (!strcmp(name, "color")) {
    ct_rgba_t c;
    if (ct_art_color_parse(v, &c)) { s->color = c; s->has_color = 1; }
  }
  else if (!strcmp(name, "stop-color")) {
    if (word_is(v, "currentColor")) s->stop_kind = CT_ART_PAINT_CURRENT;
    else if (ct_art_color_parse(v, &s->stop_color)) s->stop_kind = CT_ART_PAINT_COLOR;
  }
  else if (!strcmp(name, "display")) s->display_none = word_is(v, "none");
  else if (!strcmp(name, "visibility")) {
    if (word_is(v, "hidden") || word_is(v, "collapse")) s->hidden = 1;
    else if (word_is(v, "visible")) s->hidden = 0;
  }
  else if (!strcmp(name, "clip-path")) {
    char id[sizeof s->clip_path];
    if (word_is(v, "none")) s->clip_path[0] = 0;
    else if (parse_url(v, id, sizeof id)) memcpy(s->clip_path, id, sizeof id);
  }
  return 1;
}

static const char *const presentation[] = {
  "fill", "stroke", "fill-opacity", "stroke-opacity", "opacity", "stop-opacity", "fill-rule",
  "clip-rule", "stroke-linejoin", "stroke-linecap", "stroke-width", "stroke-miterlimit",
  "stroke-dashoffset", "stroke-dasharray", "color", "stop-color", "display", "visibility",
  "clip-path", "filter", "mask", "mix-blend-mode", NULL
};

/* The `style` attribute: "name: value; ..." (!important ignored, comments skipped). */
static int parse_style_attr(ct_art_style_t *s, const ct_art_style_t *parent, const char *st,
                            char *why, size_t whylen) {
  char name[40], value[512];
  const char *p = st;
  while (*p) {
    size_t n = 0, k = 0;
    p = skip_ws(p);
    if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      p = e ? e + 2 : p + strlen(p);
      continue;
    }
    while (*p && *p != ':' && *p != ';') {
      if (n < sizeof name - 1 && !isspace((unsigned char)*p)) name[n++] = (char)tolower((unsigned char)*p);
      p++;
    }
    name[n] = 0;
    if (*p != ':') { if (*p) p++; continue; }
    p++;
    while (*p && *p != ';') {
      if (k < sizeof value - 1) value[k++] = *p;
      p++;
    }
    value[k] = 0;
    if (*p) p++;
    {
      char *imp = strstr(value, "!important");
      if (imp) *imp = 0;
    }
    if (!set_property(s, parent, name, value, why, whylen)) return 0;
  }
  return 1;
}

int ct_art_style_compute(ct_art_style_t *s, const ct_art_style_t *parent, xmlNodePtr el,
                         char *why, size_t whylen) {
  char *v;
  int i, ok = 1;
  *s = *parent;
  /* not inherited: back to their initial values */
  s->opacity = 1;
  s->display_none = 0;
  s->stop_kind = CT_ART_PAINT_COLOR;
  s->stop_color.r = s->stop_color.g = s->stop_color.b = 0;
  s->stop_color.a = 1;
  s->stop_opacity = 1;
  s->clip_path[0] = 0;
  for (i = 0; ok && presentation[i]; i++) {
    if (!(v = ct_art_attr(el, presentation[i]))) continue;
    ok = set_property(s, parent, presentation[i], v, why, whylen);
    xmlFree(v);
  }
  if (ok && (v = ct_art_attr(el, "style"))) {
    ok = parse_style_attr(s, parent, v, why, whylen);
    xmlFree(v);
  }
  return ok;
}
