/*
** ink.c: spot inks.  An ink is named and has a screen color; a color is printed with an
** ink when it is one of the ink's tints over white paper (tint t of color C looks like
** 1 - t (1 - C) in each channel).  Used by the compositor (alphas become tints) and by the
** PDF pass (pdfpass-inks.cc: colors become Separation and DeviceN).  Paint stage:
** knows fonts, never color tables or pages.
*/
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paint.h"

/* Half a level in 255, with room for the six decimals cairo writes colors with. */
#define INK_TOLERANCE (0.6 / 255.0)

static const char *const process_names[] = { "Cyan", "Magenta", "Yellow", "Black", "All", "None" };

static int why(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int why(char *buf, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (buf && len) vsnprintf(buf, len, fmt, ap);
  va_end(ap);
  return -1;
}

int ct_ink_check(const ct_ink_t *ink, char *buf, size_t len) {
  size_t n = strnlen(ink->name, sizeof ink->name), i;
  const ct_rgba_t *c = &ink->color;
  if (n == 0) return why(buf, len, "an ink needs a name");
  if (n > CT_INK_NAME_MAX) return why(buf, len, "ink name too long (at most %d bytes)", CT_INK_NAME_MAX);
  for (i = 0; i < n; i++)
    if ((unsigned char)ink->name[i] < 0x20 || ink->name[i] == 0x7f)
      return why(buf, len, "ink '%s': a name of printable characters, please", ink->name);
  for (i = 0; i < sizeof process_names / sizeof *process_names; i++)
    if (strcmp(ink->name, process_names[i]) == 0)
      return why(buf, len, "ink '%s': the name of a process colorant or of a special separation; "
                 "choose another", ink->name);
  if (!(c->r >= 0 && c->r <= 1 && c->g >= 0 && c->g <= 1 && c->b >= 0 && c->b <= 1))
    return why(buf, len, "ink '%s': color out of range", ink->name);
  if (c->a < 1) return why(buf, len, "ink '%s': an ink's color is opaque (it is how the ink looks on paper)", ink->name);
  if (c->r > 1 - INK_TOLERANCE && c->g > 1 - INK_TOLERANCE && c->b > 1 - INK_TOLERANCE)
    return why(buf, len, "ink '%s': white is the paper, not an ink", ink->name);
  if (ink->has_cmyk)
    for (i = 0; i < 4; i++)
      if (!(ink->cmyk[i] >= 0 && ink->cmyk[i] <= 1))
        return why(buf, len, "ink '%s': CMYK values from 0 to 100", ink->name);
  return 0;
}

/* "C/M/Y/K" in percent. */
static int parse_cmyk(const char *s, double v[4]) {
  int i;
  for (i = 0; i < 4; i++) {
    char *end;
    v[i] = strtod(s, &end);
    if (end == s || !(v[i] >= 0 && v[i] <= 100)) return -1;
    v[i] /= 100;
    s = end;
    if (i < 3) {
      if (*s != '/') return -1;
      s++;
    }
  }
  return *s ? -1 : 0;
}

int ct_ink_parse(const char *spec, ct_ink_t *ink, char *buf, size_t len) {
  const char *eq = strchr(spec, '=');
  char rest[256], *opt, *save = NULL;
  size_t n;
  memset(ink, 0, sizeof *ink);
  if (!eq) return why(buf, len, "ink '%s': expected NAME=COLOR (e.g. 'Fluorescent Pink=#ff48b0')", spec);
  n = (size_t)(eq - spec);
  while (n > 0 && isspace((unsigned char)spec[n - 1])) n--;
  if (n > CT_INK_NAME_MAX) return why(buf, len, "ink '%.63s...': name too long (at most 63 bytes)", spec);
  memcpy(ink->name, spec, n);
  ink->name[n] = '\0';
  if (strlen(eq + 1) >= sizeof rest) return why(buf, len, "ink '%s': definition too long", ink->name);
  strcpy(rest, eq + 1);
  opt = strtok_r(rest, ",", &save);
  if (!opt || ct_rgba_parse(opt, &ink->color) != 0)
    return why(buf, len, "ink '%s': expected a color #RRGGBB after '='", ink->name);
  while ((opt = strtok_r(NULL, ",", &save))) {
    while (isspace((unsigned char)*opt)) opt++;
    if (strcmp(opt, "overprint") == 0) ink->overprint = 1;
    else if (strncmp(opt, "cmyk=", 5) == 0) {
      if (parse_cmyk(opt + 5, ink->cmyk) != 0)
        return why(buf, len, "ink '%s': cmyk=C/M/Y/K wants four percentages, e.g. cmyk=0/70/0/0", ink->name);
      ink->has_cmyk = 1;
    } else {
      return why(buf, len, "ink '%s': unknown option '%s' (expected overprint or cmyk=C/M/Y/K)", ink->name, opt);
    }
  }
  return ct_ink_check(ink, buf, len);
}

/* How far (r, g, b) is from the nearest tint of `c`, and that tint. */
static double tint_fit(const ct_rgba_t *c, double r, double g, double b, double *tint) {
  const double k[3] = { 1 - c->r, 1 - c->g, 1 - c->b }, x[3] = { 1 - r, 1 - g, 1 - b };
  double num = 0, den = 0, t, err = 0;
  int i;
  for (i = 0; i < 3; i++) {
    num += k[i] * x[i];
    den += k[i] * k[i];
  }
  if (den <= 0) return INFINITY;
  t = num / den;
  if (t > 1) t = 1;
  if (t < 0) t = 0;
  for (i = 0; i < 3; i++) {
    double d = fabs(x[i] - t * k[i]);
    if (d > err) err = d;
  }
  *tint = t;
  return err;
}

int ct_ink_match(const ct_ink_t *inks, unsigned count, double r, double g, double b, double *tint) {
  unsigned i;
  int best = -1;
  double best_err = INFINITY, best_t = 0;
  for (i = 0; i < count; i++) {
    double t, e = tint_fit(&inks[i].color, r, g, b, &t);
    if (e > INK_TOLERANCE || t <= INK_TOLERANCE) continue;
    /* the ink the color is closest to; on a tie, the one it is the fuller tint of */
    if (best < 0 || e < best_err - 1e-4 || (fabs(e - best_err) <= 1e-4 && t > best_t)) {
      best = (int)i;
      best_err = e;
      best_t = t;
    }
  }
  if (best >= 0 && tint) *tint = best_t > 1 - INK_TOLERANCE ? 1 : best_t;
  return best;
}

int ct_ink_flatten(const ct_ink_t *inks, unsigned count, ct_rgba_t *c) {
  double t;
  int i;
  if (count == 0 || c->a >= 1 || c->a <= 0) return 0;
  if ((i = ct_ink_match(inks, count, c->r, c->g, c->b, &t)) < 0) return 0;
  t *= c->a;
  c->r = 1 - t * (1 - inks[i].color.r);
  c->g = 1 - t * (1 - inks[i].color.g);
  c->b = 1 - t * (1 - inks[i].color.b);
  c->a = 1;
  return 1;
}
