/*
** path.c: paths in a drawing's user units: SVG path data (every command, arcs split into
** cubics as the SVG implementation notes say), the basic shapes, their boxes.  Glyph stage
** (artwork reader); outline.c and stroke.c turn paths into outlines.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artwork-private.h"

#define PI 3.14159265358979323846
/* Numbers beyond this are refused by the parsers: nothing that large fits in a font,
   and it keeps the arc arithmetic (squares of radii) finite. */
#define MAX_NUMBER 1e15

/* ---- storage ------------------------------------------------------------------ */

ct_art_path_t *ct_art_path_new(void) {
  return calloc(1, sizeof(ct_art_path_t));
}

void ct_art_path_free(ct_art_path_t *p) {
  if (!p) return;
  free(p->ops);
  free(p->pts);
  free(p);
}

int ct_art_path_failed(const ct_art_path_t *p) { return p->failed; }

/* Room for nops more ops and npts more points; 0 (and p->failed) when out of memory or
   over CT_MAX_ARTWORK_POINTS. */
static int grow(ct_art_path_t *p, size_t nops, size_t npts) {
  if (p->failed) return 0;
  if (npts > CT_MAX_ARTWORK_POINTS - p->npts || nops > CT_MAX_ARTWORK_POINTS * 2 - p->nops) {
    p->failed = 1;
    return 0;
  }
  if (p->nops + nops > p->capops) {
    size_t c = p->capops ? p->capops : 16;
    while (c < p->nops + nops) c *= 2;
    unsigned char *o = realloc(p->ops, c);
    if (!o) { p->failed = 1; return 0; }
    p->ops = o;
    p->capops = c;
  }
  if (p->npts + npts > p->cappts) {
    size_t c = p->cappts ? p->cappts : 16;
    while (c < p->npts + npts) c *= 2;
    double *q = realloc(p->pts, c * 2 * sizeof(double));
    if (!q) { p->failed = 1; return 0; }
    p->pts = q;
    p->cappts = c;
  }
  return 1;
}

static void put(ct_art_path_t *p, double x, double y) {
  p->pts[2 * p->npts] = x;
  p->pts[2 * p->npts + 1] = y;
  p->npts++;
}

static void move_to(ct_art_path_t *p, double x, double y) {
  if (!grow(p, 1, 1)) return;
  p->ops[p->nops++] = CT_ART_MOVE;
  put(p, x, y);
  p->cx = p->sx = x;
  p->cy = p->sy = y;
  p->open = 1;
}

/* A segment after a close (or first of all) begins a subpath where the last one began. */
static void begin(ct_art_path_t *p) {
  if (!p->open) move_to(p, p->sx, p->sy);
}

static void line_to(ct_art_path_t *p, double x, double y) {
  begin(p);
  if (!grow(p, 1, 1)) return;
  p->ops[p->nops++] = CT_ART_LINE;
  put(p, x, y);
  p->cx = x;
  p->cy = y;
}

static void cubic_to(ct_art_path_t *p, double x1, double y1, double x2, double y2, double x, double y) {
  begin(p);
  if (!grow(p, 1, 3)) return;
  p->ops[p->nops++] = CT_ART_CUBIC;
  put(p, x1, y1);
  put(p, x2, y2);
  put(p, x, y);
  p->cx = x;
  p->cy = y;
}

static void close_path(ct_art_path_t *p) {
  if (!p->open) return;   /* "Z Z", or Z with no subpath: nothing more to close */
  if (!grow(p, 1, 0)) return;
  p->ops[p->nops++] = CT_ART_CLOSE;
  p->cx = p->sx;
  p->cy = p->sy;
  p->open = 0;
}

/* ---- arcs --------------------------------------------------------------------- */

/* The ellipse (centre c, radii rx ry, rotated by the angle whose cosine and sine are
   co, si) from angle t0 through dt, as cubics of at most 90 degrees; the last one ends
   at `end` when given (the arc's exact endpoint). */
static void ellipse_arc(ct_art_path_t *p, double cx, double cy, double rx, double ry, double co,
                        double si, double t0, double dt, const double *end) {
  int n = (int)ceil(fabs(dt) / (PI / 2) - 1e-9);
  if (n < 1) n = 1;
  if (n > 4) n = 4;
  double d = dt / n, k = 4.0 / 3.0 * tan(d / 4);
  for (int i = 0; i < n; i++) {
    double a = t0 + d * i, b = a + d;
    double u[3] = { cos(a) - k * sin(a), cos(b) + k * sin(b), cos(b) };
    double v[3] = { sin(a) + k * cos(a), sin(b) - k * cos(b), sin(b) };
    double x[3], y[3];
    for (int j = 0; j < 3; j++) {
      x[j] = cx + rx * co * u[j] - ry * si * v[j];
      y[j] = cy + rx * si * u[j] + ry * co * v[j];
    }
    if (end && i == n - 1) {
      x[2] = end[0];
      y[2] = end[1];
    }
    cubic_to(p, x[0], y[0], x[1], y[1], x[2], y[2]);
  }
}

static double angle(double ux, double uy, double vx, double vy) {
  return atan2(ux * vy - uy * vx, ux * vx + uy * vy);
}

/* SVG's elliptical arc from the current point to (x2, y2): the endpoint to centre
   conversion of the SVG implementation notes (F.6.5), radii scaled up when too small
   (F.6.6). */
static void arc_to(ct_art_path_t *p, double rx, double ry, double phi, int large, int sweep,
                   double x2, double y2) {
  double x1 = p->cx, y1 = p->cy;
  if (x1 == x2 && y1 == y2) return;   /* the arc is omitted */
  rx = fabs(rx);
  ry = fabs(ry);
  if (rx == 0 || ry == 0) {
    line_to(p, x2, y2);
    return;
  }
  double co = cos(phi * PI / 180), si = sin(phi * PI / 180);
  double dx = (x1 - x2) / 2, dy = (y1 - y2) / 2;
  double x1p = co * dx + si * dy, y1p = -si * dx + co * dy;
  double lambda = x1p * x1p / (rx * rx) + y1p * y1p / (ry * ry);
  if (lambda > 1) {
    rx *= sqrt(lambda);
    ry *= sqrt(lambda);
  }
  double num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  double den = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
  double c = den > 0 && num > 0 ? sqrt(num / den) : 0;
  if (large == sweep) c = -c;
  double cxp = c * rx * y1p / ry, cyp = -c * ry * x1p / rx;
  double cx = co * cxp - si * cyp + (x1 + x2) / 2, cy = si * cxp + co * cyp + (y1 + y2) / 2;
  double ux = (x1p - cxp) / rx, uy = (y1p - cyp) / ry, vx = (-x1p - cxp) / rx, vy = (-y1p - cyp) / ry;
  double t1 = angle(1, 0, ux, uy), dt = angle(ux, uy, vx, vy);
  if (!sweep && dt > 0) dt -= 2 * PI;
  else if (sweep && dt < 0) dt += 2 * PI;
  double end[2] = { x2, y2 };
  ellipse_arc(p, cx, cy, rx, ry, co, si, t1, dt, end);
}

/* ---- numbers ------------------------------------------------------------------ */

static int is_wsp(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static const char *skip_wsp(const char *s) {
  while (is_wsp(*s)) s++;
  return s;
}

/* wsp* (',' wsp*)? */
static const char *skip_comma_wsp(const char *s) {
  s = skip_wsp(s);
  if (*s == ',') s = skip_wsp(s + 1);
  return s;
}

/* An SVG number at *s ("-.5", "1.5" then ".5", "1e-3"), locale-free; advances *s.  0: no
   number there; -1: one out of range. */
static int number(const char **s, double *v) {
  const char *q = *s;
  int neg = 0, digits = 0, sig = 0;
  long e = 0;
  double m = 0;
  if (*q == '+' || *q == '-') neg = *q++ == '-';
  for (; is_digit(*q); q++, digits++) {
    if (sig < 18) { m = m * 10 + (*q - '0'); if (m > 0) sig++; }
    else e++;
  }
  if (*q == '.') {
    for (q++; is_digit(*q); q++, digits++)
      if (sig < 18) { m = m * 10 + (*q - '0'); e--; if (m > 0) sig++; }
  }
  if (!digits) return 0;
  if ((*q == 'e' || *q == 'E') &&
      (is_digit(q[1]) || ((q[1] == '+' || q[1] == '-') && is_digit(q[2])))) {
    int eneg = 0;
    long x = 0;
    q++;
    if (*q == '+' || *q == '-') eneg = *q++ == '-';
    for (; is_digit(*q); q++)
      if (x < 100000) x = x * 10 + (*q - '0');
    e += eneg ? -x : x;
  }
  *s = q;
  if (m == 0) *v = 0;
  else if (e > 30) return -1;
  else *v = e < 0 ? (e < -330 ? 0 : m / pow(10, (double)-e)) : m * pow(10, (double)e);
  if (neg) *v = -*v;
  return fabs(*v) > MAX_NUMBER ? -1 : 1;
}

/* why = "bad WHAT at offset OFF: MSG 'CMD'" (no command named when cmd is 0) */
static void fail(char *why, size_t whylen, const char *what, size_t off, const char *msg, char cmd) {
  if (!why || !whylen) return;
  if (cmd) snprintf(why, whylen, "bad %s at offset %zu: %s '%c'", what, off, msg, cmd);
  else snprintf(why, whylen, "bad %s at offset %zu: %s", what, off, msg);
}

/* ---- path data ---------------------------------------------------------------- */

static int arg_count(char c) {
  switch (c | 0x20) {
  case 'm': case 'l': case 't': return 2;
  case 'h': case 'v': return 1;
  case 'c': return 6;
  case 's': case 'q': return 4;
  case 'a': return 7;
  case 'z': return 0;
  default: return -1;
  }
}

typedef struct {
  double cx, cy;     /* current point */
  double lx, ly;     /* the last control point, for S and T */
  char   last;       /* 'c' after C or S, 'q' after Q or T, 0 otherwise */
} pen_t;

/* One command with its arguments a[] (already read) applied. */
static void apply(ct_art_path_t *p, pen_t *pen, char cmd, double *a) {
  int rel = cmd >= 'a';
  char c = (char)(cmd | 0x20), last = 0;
  double ox = rel ? pen->cx : 0, oy = rel ? pen->cy : 0;
  switch (c) {
  case 'm': move_to(p, a[0] + ox, a[1] + oy); break;
  case 'l': line_to(p, a[0] + ox, a[1] + oy); break;
  case 'h': line_to(p, a[0] + ox, pen->cy); break;
  case 'v': line_to(p, pen->cx, a[0] + oy); break;
  case 'c': case 's': {
    double x1, y1, x2, y2, x, y;
    if (c == 'c') {
      x1 = a[0] + ox; y1 = a[1] + oy; x2 = a[2] + ox; y2 = a[3] + oy; x = a[4] + ox; y = a[5] + oy;
    } else {
      x1 = pen->last == 'c' ? 2 * pen->cx - pen->lx : pen->cx;
      y1 = pen->last == 'c' ? 2 * pen->cy - pen->ly : pen->cy;
      x2 = a[0] + ox; y2 = a[1] + oy; x = a[2] + ox; y = a[3] + oy;
    }
    cubic_to(p, x1, y1, x2, y2, x, y);
    pen->lx = x2;
    pen->ly = y2;
    last = 'c';
    break;
  }
  case 'q': case 't': {
    double qx, qy, x, y;
    if (c == 'q') {
      qx = a[0] + ox; qy = a[1] + oy; x = a[2] + ox; y = a[3] + oy;
    } else {
      qx = pen->last == 'q' ? 2 * pen->cx - pen->lx : pen->cx;
      qy = pen->last == 'q' ? 2 * pen->cy - pen->ly : pen->cy;
      x = a[0] + ox; y = a[1] + oy;
    }
    /* raised to a cubic: the controls 2/3 of the way from each end to the quadratic's */
    cubic_to(p, pen->cx + 2.0 / 3.0 * (qx - pen->cx), pen->cy + 2.0 / 3.0 * (qy - pen->cy),
             x + 2.0 / 3.0 * (qx - x), y + 2.0 / 3.0 * (qy - y), x, y);
    pen->lx = qx;
    pen->ly = qy;
    last = 'q';
    break;
  }
  case 'a': arc_to(p, a[0], a[1], a[2], a[3] != 0, a[4] != 0, a[5] + ox, a[6] + oy); break;
  case 'z': close_path(p); break;
  }
  pen->last = last;
  pen->cx = p->cx;
  pen->cy = p->cy;
}

int ct_art_path_data(ct_art_path_t *p, const char *d, char *why, size_t whylen) {
  pen_t pen = { 0, 0, 0, 0, 0 };
  const char *s = skip_wsp(d);
  char cmd = 0;
  double a[7];
  if (why && whylen) why[0] = 0;
  while (*s) {
    if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
      if (arg_count(*s) < 0) {
        fail(why, whylen, "path data", (size_t)(s - d), "not a path command:", *s);
        return 0;
      }
      if (!cmd && (*s | 0x20) != 'm') {
        fail(why, whylen, "path data", (size_t)(s - d), "it must begin with 'M' or 'm', not", *s);
        return 0;
      }
      cmd = *s;
      s = skip_wsp(s + 1);
    } else if (!cmd) {
      fail(why, whylen, "path data", (size_t)(s - d), "it must begin with 'M' or 'm'", 0);
      return 0;
    } else if ((cmd | 0x20) == 'z') {
      fail(why, whylen, "path data", (size_t)(s - d), "a command expected after", cmd);
      return 0;
    }
    int n = arg_count(cmd);
    for (int i = 0; i < n; i++) {
      if ((cmd | 0x20) == 'a' && (i == 3 || i == 4)) {   /* flags: one digit, no separator needed */
        if (*s != '0' && *s != '1') {
          fail(why, whylen, "path data", (size_t)(s - d), "a flag (0 or 1) expected after", cmd);
          return 0;
        }
        a[i] = *s++ - '0';
      } else {
        int r = number(&s, &a[i]);
        if (r <= 0) {
          fail(why, whylen, "path data", (size_t)(s - d),
               r < 0 ? "a number out of range after" : "a number expected after", cmd);
          return 0;
        }
      }
      s = skip_comma_wsp(s);
    }
    apply(p, &pen, cmd, a);
    if (cmd == 'M') cmd = 'L';        /* pairs after a moveto are linetos */
    else if (cmd == 'm') cmd = 'l';
  }
  return 1;
}

/* ---- shapes ------------------------------------------------------------------- */

static int finite4(double a, double b, double c, double d) {
  return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d);
}

void ct_art_path_rect(ct_art_path_t *p, double x, double y, double w, double h, double rx, double ry) {
  if (!finite4(x, y, w, h) || !finite4(rx, ry, 0, 0) || w <= 0 || h <= 0) return;
  if (rx > w / 2) rx = w / 2;
  if (ry > h / 2) ry = h / 2;
  if (rx <= 0 || ry <= 0) {
    move_to(p, x, y);
    line_to(p, x + w, y);
    line_to(p, x + w, y + h);
    line_to(p, x, y + h);
    close_path(p);
    return;
  }
  /* SVG 1.1's rounded rect: clockwise on screen from the top edge's left end */
  move_to(p, x + rx, y);
  if (w > 2 * rx) line_to(p, x + w - rx, y);
  ellipse_arc(p, x + w - rx, y + ry, rx, ry, 1, 0, -PI / 2, PI / 2, NULL);
  if (h > 2 * ry) line_to(p, x + w, y + h - ry);
  ellipse_arc(p, x + w - rx, y + h - ry, rx, ry, 1, 0, 0, PI / 2, NULL);
  if (w > 2 * rx) line_to(p, x + rx, y + h);
  ellipse_arc(p, x + rx, y + h - ry, rx, ry, 1, 0, PI / 2, PI / 2, NULL);
  if (h > 2 * ry) line_to(p, x, y + ry);
  double end[2] = { x + rx, y };
  ellipse_arc(p, x + rx, y + ry, rx, ry, 1, 0, PI, PI / 2, end);
  close_path(p);
}

void ct_art_path_ellipse(ct_art_path_t *p, double cx, double cy, double rx, double ry) {
  if (!finite4(cx, cy, rx, ry) || rx <= 0 || ry <= 0) return;
  move_to(p, cx + rx, cy);
  double end[2] = { cx + rx, cy };
  ellipse_arc(p, cx, cy, rx, ry, 1, 0, 0, 2 * PI, end);
  close_path(p);
}

void ct_art_path_line(ct_art_path_t *p, double x1, double y1, double x2, double y2) {
  if (!finite4(x1, y1, x2, y2)) return;
  move_to(p, x1, y1);
  line_to(p, x2, y2);
}

void ct_art_path_pie(ct_art_path_t *p, double cx, double cy, double r, double a0, double sweep) {
  if (!finite4(cx, cy, r, a0) || !isfinite(sweep) || r <= 0 || sweep == 0) return;
  move_to(p, cx, cy);
  line_to(p, cx + r * cos(a0), cy + r * sin(a0));
  ellipse_arc(p, cx, cy, r, r, 1, 0, a0, sweep, NULL);
  close_path(p);
}

void ct_art_path_polygon(ct_art_path_t *p, const double *xy, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!finite4(xy[2 * i], xy[2 * i + 1], 0, 0)) return;
  for (size_t i = 0; i < n; i++) {
    if (i == 0) move_to(p, xy[0], xy[1]);
    else line_to(p, xy[2 * i], xy[2 * i + 1]);
  }
  if (n) close_path(p);
}

int ct_art_path_points(ct_art_path_t *p, const char *points, int close, char *why, size_t whylen) {
  const char *s = skip_wsp(points);
  int first = 1, ok = 1;
  if (why && whylen) why[0] = 0;
  while (*s && ok) {
    double x, y;
    int r = number(&s, &x);
    if (r > 0) {
      s = skip_comma_wsp(s);
      if (!*s) {
        fail(why, whylen, "points", (size_t)(s - points), "an odd number of coordinates", 0);
        ok = 0;
        break;
      }
      r = number(&s, &y);
    }
    if (r <= 0) {
      fail(why, whylen, "points", (size_t)(s - points), r < 0 ? "a number out of range" : "a number expected", 0);
      ok = 0;
      break;
    }
    if (first) move_to(p, x, y);
    else line_to(p, x, y);
    first = 0;
    s = skip_comma_wsp(s);
  }
  if (close && !first) close_path(p);
  return ok;
}

/* ---- whole paths -------------------------------------------------------------- */

static const double identity[6] = { 1, 0, 0, 1, 0, 0 };

static void map(const double m[6], double x, double y, double *ox, double *oy) {
  *ox = m[0] * x + m[2] * y + m[4];
  *oy = m[1] * x + m[3] * y + m[5];
}

static int op_points(unsigned char op) {
  return op == CT_ART_CUBIC ? 3 : op == CT_ART_CLOSE ? 0 : 1;
}

void ct_art_path_append(ct_art_path_t *p, const ct_art_path_t *q, const double m[6]) {
  if (!m) m = identity;
  if (q->failed) p->failed = 1;
  if (!q->nops || !grow(p, q->nops, q->npts)) return;
  memcpy(p->ops + p->nops, q->ops, q->nops);
  p->nops += q->nops;
  for (size_t i = 0; i < q->npts; i++) {
    double x, y;
    map(m, q->pts[2 * i], q->pts[2 * i + 1], &x, &y);
    put(p, x, y);
  }
  map(m, q->cx, q->cy, &p->cx, &p->cy);
  map(m, q->sx, q->sy, &p->sx, &p->sy);
  p->open = q->open;
}

int ct_art_path_is_empty(const ct_art_path_t *p) {
  for (size_t i = 0; i < p->nops; i++)
    if (p->ops[i] != CT_ART_MOVE) return 0;
  return 1;
}

/* The extremes of one coordinate of a cubic (v0..v3) widen [*lo, *hi]. */
static void cubic_extent(double v0, double v1, double v2, double v3, double *lo, double *hi) {
  double a = -v0 + 3 * v1 - 3 * v2 + v3, b = 2 * (v0 - 2 * v1 + v2), c = v1 - v0, t[2];
  int n = 0;
  if (fabs(a) < 1e-12 * (fabs(b) + fabs(c) + 1e-300)) {
    if (b != 0) t[n++] = -c / b;
  } else {
    double disc = b * b - 4 * a * c;
    if (disc >= 0) {
      t[n++] = (-b + sqrt(disc)) / (2 * a);
      t[n++] = (-b - sqrt(disc)) / (2 * a);
    }
  }
  for (int i = 0; i < n; i++) {
    if (!(t[i] > 0 && t[i] < 1)) continue;
    double u = 1 - t[i];
    double v = u * u * u * v0 + 3 * u * u * t[i] * v1 + 3 * u * t[i] * t[i] * v2 + t[i] * t[i] * t[i] * v3;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
}

int ct_art_path_bounds(const ct_art_path_t *p, const double m[6], double b[4]) {
  size_t k = 0;
  int any = 0;
  double px = 0, py = 0;
  if (!m) m = identity;
  for (size_t i = 0; i < p->nops; i++) {
    int n = op_points(p->ops[i]);
    double x[3], y[3];
    for (int j = 0; j < n; j++) map(m, p->pts[2 * (k + j)], p->pts[2 * (k + j) + 1], &x[j], &y[j]);
    k += (size_t)n;
    if (!n) continue;
    if (!any) {
      b[0] = b[2] = x[n - 1];
      b[1] = b[3] = y[n - 1];
      any = 1;
    }
    double ex = x[n - 1], ey = y[n - 1];
    if (ex < b[0]) b[0] = ex;
    if (ex > b[2]) b[2] = ex;
    if (ey < b[1]) b[1] = ey;
    if (ey > b[3]) b[3] = ey;
    if (p->ops[i] == CT_ART_CUBIC) {
      cubic_extent(px, x[0], x[1], x[2], &b[0], &b[2]);
      cubic_extent(py, y[0], y[1], y[2], &b[1], &b[3]);
    }
    px = ex;
    py = ey;
  }
  return any;
}
