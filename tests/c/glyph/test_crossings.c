/*
** test_crossings.c: how often a path's segments cross (src/glyph/svg/svg-crossings.c), the
** weight the SVG sanitizer gives every path against cairo's tessellator (issue 33, item
** 10): exact counts of small paths, what is not a crossing, the sampled estimate of long
** ones against the true count, and its sameness from run to run.
*/
#include "ct-test.h"

#include "glyph/svg/svg-internal.h"

/* A grid of m lines each way, as separate subpaths: every horizontal subpath (a line and,
   closed as a fill closes it, the line back) crosses every vertical one four times. */
static char *grid(int m) {
  size_t cap = (size_t)m * 64 + 16, n = 0;
  char *d = malloc(cap);
  for (int i = 0; i < m; i++)
    n += (size_t)snprintf(d + n, cap - n, "M-1 %d.5 H1001 M%d.5 -1 V1001 ", i * 5, i * 5);
  return d;
}

static void test_exact(void) {
  CHECK_NEAR(ct_svg_crossings("M0 0 H10 V10 H0 Z", 0), 0, 0);               /* a square */
  CHECK_NEAR(ct_svg_crossings("M0 0 L10 10 L10 0 L0 10 Z", 0), 1, 0);       /* a bow tie */
  /* the pentagram {5/2}: each side crosses two others */
  CHECK_NEAR(ct_svg_crossings("50,0 79,90 2,35 98,35 21,90", 1), 5, 0);
  /* a point list (polyline or polygon) is closed as a fill closes it: the closing side
     crosses too */
  CHECK_NEAR(ct_svg_crossings("0,0 10,10 10,0 0,10", 1), 1, 0);
  /* two subpaths of one line each: there and back, twice two crossings */
  CHECK_NEAR(ct_svg_crossings("M0 0 L10 10 M0 10 L10 0", 0), 4, 0);
  /* meeting at an end, touching, running along one another: no crossing */
  CHECK_NEAR(ct_svg_crossings("M0 0 L10 0 L10 10 L0 10 L10 0", 0), 0, 0);
  CHECK_NEAR(ct_svg_crossings("M0 0 L10 0 L5 0 L5 5", 0), 0, 0);
  /* curves count as their chords; relative commands and arcs are followed */
  CHECK_NEAR(ct_svg_crossings("M0 0 C 0 50 10 50 10 10 L10 0 L0 10 Z", 0), 1, 0);
  CHECK_NEAR(ct_svg_crossings("m0 0 l10 10 v-10 l-10 10 z", 0), 1, 0);
  CHECK_NEAR(ct_svg_crossings("M0 0 A5 5 0 0 1 10 10 L10 0 L0 10 Z", 0), 1, 0);
  CHECK_NEAR(ct_svg_crossings("M0 0 a5 5 0 0110 10 h0 v-10 L0 10 z", 0), 1, 0);   /* flags unspaced */
  CHECK_NEAR(ct_svg_crossings("M0 0 Q 5 20 10 10 T10 0 L0 10 Z", 0), 1, 0);
  CHECK_NEAR(ct_svg_crossings("M0 0 S 5 20 10 10 L10 0 L0 10 Z", 0), 1, 0);
  CHECK_NEAR(ct_svg_crossings("M0,0,10,10,10,0,0,10z", 0), 1, 0);   /* implicit linetos */
  CHECK_NEAR(ct_svg_crossings("M0 0 L10 10 L10 0 L0 10 Z M1e999 0 L5 5", 0), 1, 0);   /* stops at 1e999 */
  /* nothing, one point, bad data (drawn up to the error) */
  CHECK_NEAR(ct_svg_crossings("", 0), 0, 0);
  CHECK_NEAR(ct_svg_crossings("M5 5", 0), 0, 0);
  CHECK_NEAR(ct_svg_crossings("M0 0 L10 10 L10 0 L0 10 Z L x", 0), 1, 0);
  CHECK_NEAR(ct_svg_crossings("L0 0 L10 10 L10 0 L0 10 Z", 0), 0, 0);   /* not a moveto first */
  CHECK_NEAR(ct_svg_crossings("1,2 3", 1), 0, 0);
}

static void test_estimate(void) {
  /* 30 lines each way, 120 chords: 7,140 pairs, under 64 a chord, counted exactly */
  char *d = grid(30);
  CHECK_NEAR(ct_svg_crossings(d, 0), 4.0 * 30 * 30, 0);
  free(d);
  /* 200 each way, 800 chords: 319,600 pairs, sampled; 160,000 crossings in truth */
  d = grid(200);
  double k = ct_svg_crossings(d, 0);
  CHECK_MSG(fabs(k - 160000) < 160000 * 0.03, "estimate %g of 160000 crossings", k);
  CHECK_NEAR(ct_svg_crossings(d, 0), k, 0);   /* the same on every run */
  free(d);
  /* a long path that does not cross itself: a zigzag of 20,000 segments */
  size_t cap = 20000 * 24 + 8, n = 0;
  d = malloc(cap);
  n += (size_t)snprintf(d, cap, "M0 0");
  for (int i = 1; i <= 20000; i++) n += (size_t)snprintf(d + n, cap - n, " L%d %d", i, (i & 1) * 7);
  CHECK_NEAR(ct_svg_crossings(d, 0), 0, 0);   /* the closing chord lies under the peaks */
  free(d);
}

int main(void) {
  test_exact();
  test_estimate();
  return ct_test_report("test_crossings");
}
