/*
** test_smil.c: the SMIL sampler of SVG glyphs (src/glyph/svg/smil*.c) on small documents:
** timing (before begin, after end with and without freeze, repeats, restart, end),
** values (from/to/by, values, keyTimes, discrete, paced, spline), additive and
** accumulate, transforms, colors, path data, set, bad values, and the sanitizer's checks.
** Core unit test.
*/
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "ct-test.h"
#include "glyph/svg/svg-private.h"

#define NS "xmlns=\"http://www.w3.org/2000/svg\""

static xmlDocPtr parse(const char *svg) {
  return xmlReadMemory(svg, (int)strlen(svg), "t.svg", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
}

static xmlNodePtr by_id(xmlNodePtr n, const char *id) {
  for (; n; n = n->next) {
    xmlChar *v;
    xmlNodePtr r;
    if (n->type != XML_ELEMENT_NODE) continue;
    if ((v = xmlGetProp(n, (const xmlChar *)"id"))) {
      int same = strcmp((const char *)v, id) == 0;
      xmlFree(v);
      if (same) return n;
    }
    if ((r = by_id(n->children, id))) return r;
  }
  return NULL;
}

static char result[512];

/* The document `body` (inside <svg>) sampled at t: the attribute `attr` of element `id`
   ("style" gives the whole style attribute), "-" when absent.  Also checks that no
   animation element is left. */
static const char *at(const char *body, double t, const char *id, const char *attr) {
  char svg[4096];
  xmlDocPtr d;
  xmlNodePtr n;
  xmlChar *v;
  snprintf(svg, sizeof svg, "<svg " NS ">%s</svg>", body);
  d = parse(svg);
  CHECK(d != NULL);
  if (!d) return "?";
  ct_smil_sample(d, t);
  CHECK(ct_smil_duration(xmlDocGetRootElement(d), NULL) == 0);   /* none left */
  n = by_id(xmlDocGetRootElement(d), id);
  v = n ? xmlGetProp(n, (const xmlChar *)attr) : NULL;
  snprintf(result, sizeof result, "%s", v ? (const char *)v : "-");
  if (v) xmlFree(v);
  xmlFreeDoc(d);
  return result;
}

#define AT(body, t, id, attr, want) CHECK_MSG(strcmp(at(body, t, id, attr), want) == 0, \
                                              "t=%g: '%s' != '%s'", (double)(t), result, want)

static void test_timing(void) {
  const char *fill = "<rect id='r' fill='green'><animate attributeName='fill' from='red' to='blue' dur='2s'/></rect>";
  const char *freeze = "<rect id='r' fill='green'><animate attributeName='fill' from='#ff0000' to='#0000ff' dur='2s' fill='freeze'/></rect>";
  const char *late = "<rect id='r' x='7'><animate attributeName='x' from='0' to='10' begin='1s' dur='1s'/></rect>";
  const char *rep = "<rect id='r' x='7'><animate attributeName='x' from='0' to='10' dur='1s' repeatCount='2'/></rect>";
  const char *repf = "<rect id='r' x='7'><animate attributeName='x' from='0' to='10' dur='1s' repeatCount='2' fill='freeze'/></rect>";
  const char *acc = "<rect id='r' x='7'><animate attributeName='x' from='0' to='10' dur='1s' repeatCount='2' accumulate='sum' fill='freeze'/></rect>";
  const char *inf = "<rect id='r'><animate attributeName='x' from='0' to='10' dur='2s' repeatCount='indefinite'/></rect>";
  const char *rdur = "<rect id='r'><animate attributeName='x' from='0' to='10' dur='2s' repeatDur='3s' fill='freeze'/></rect>";
  const char *restart = "<rect id='r'><animate attributeName='x' from='0' to='10' dur='2s' begin='0s;1s'/></rect>";
  const char *never = "<rect id='r'><animate attributeName='x' from='0' to='10' dur='2s' begin='0s;1s' restart='never'/></rect>";
  const char *end = "<rect id='r'><animate attributeName='x' from='0' to='10' dur='10s' end='1s' fill='freeze'/></rect>";
  const char *neg = "<rect id='r'><animate attributeName='x' from='0' to='10' dur='2s' begin='-1s'/></rect>";
  const char *clock = "<rect id='r'><animate attributeName='x' from='0' to='10' dur='00:00:02' begin='500ms'/></rect>";

  AT(fill, 0, "r", "style", "fill:rgba(255,0,0,1)");       /* the start color */
  AT(fill, 1, "r", "style", "fill:rgba(128,0,128,1)");     /* half way, in sRGB */
  AT(fill, 2, "r", "style", "-");                          /* ended, removed */
  AT(fill, 2, "r", "fill", "green");                       /* the attribute untouched */
  AT(freeze, 2, "r", "style", "fill:rgba(0,0,255,1)");     /* frozen at the end */
  AT(freeze, 100, "r", "style", "fill:rgba(0,0,255,1)");
  AT(late, 0.5, "r", "x", "7");                            /* before begin: the base value */
  AT(late, 1, "r", "x", "0");
  AT(late, 1.5, "r", "x", "5");
  AT(late, 2, "r", "x", "7");
  AT(rep, 0.5, "r", "x", "5");
  AT(rep, 1, "r", "x", "0");                               /* the second iteration starts anew */
  AT(rep, 1.5, "r", "x", "5");
  AT(rep, 2, "r", "x", "7");
  AT(repf, 2, "r", "x", "10");                             /* frozen: the last value, not the first */
  AT(acc, 1.5, "r", "x", "15");                            /* accumulate: 10 + 5 */
  AT(acc, 2, "r", "x", "20");
  AT(inf, 5, "r", "x", "5");                               /* third iteration, 1 s in */
  AT(inf, 3600, "r", "x", "0");
  AT(rdur, 2.5, "r", "x", "2.5");
  AT(rdur, 4, "r", "x", "5");                              /* frozen mid-iteration at 3 s */
  AT(restart, 1.5, "r", "x", "2.5");                       /* restarted at 1 s */
  AT(never, 1.5, "r", "x", "7.5");                         /* restart="never": the first interval */
  AT(end, 0.5, "r", "x", "0.5");
  AT(end, 3, "r", "x", "1");                               /* end at 1 s, frozen there */
  AT(neg, 0, "r", "x", "5");                               /* begun 1 s before the document */
  AT(clock, 1.5, "r", "x", "5");
}

static void test_values(void) {
  const char *kt = "<rect id='r'><animate attributeName='x' values='0;10;20' keyTimes='0;0.8;1' dur='10s'/></rect>";
  const char *disc = "<rect id='r'><animate attributeName='x' values='0;10;20' calcMode='discrete' dur='3s'/></rect>";
  const char *disckt = "<rect id='r'><animate attributeName='x' values='0;10;20' keyTimes='0;0.1;0.9' calcMode='discrete' dur='10s'/></rect>";
  const char *paced = "<rect id='r'><animate attributeName='x' values='0;10;30' calcMode='paced' dur='3s'/></rect>";
  const char *spl = "<rect id='r'><animate attributeName='x' values='0;100' calcMode='spline' keySplines='0.42 0 1 1' keyTimes='0;1' dur='1s'/></rect>";
  const char *by = "<rect id='r' x='5'><animate attributeName='x' by='10' dur='2s'/></rect>";
  const char *fromby = "<rect id='r' x='5'><animate attributeName='x' from='1' by='10' dur='2s'/></rect>";
  const char *to = "<rect id='r' fill='#000000'><animate attributeName='fill' to='#ffffff' dur='2s'/></rect>";
  const char *sum = "<rect id='r' x='5'><animate attributeName='x' from='0' to='10' dur='1s' additive='sum'/></rect>";
  const char *units = "<rect id='r'><animate attributeName='width' from='10px' to='20px' dur='1s'/></rect>";
  const char *mixed = "<rect id='r'><animate attributeName='width' from='10px' to='20%' dur='1s'/></rect>";
  const char *path = "<path id='p' d='M0 0'><animate attributeName='d' from='M0 0 L10 10' to='M0,0 L20,30' dur='1s'/></path>";
  const char *path2 = "<path id='p' d='M0 0'><animate attributeName='d' from='M0 0 L10 10' to='M0 0 Q1 1 20 30' dur='1s'/></path>";
  const char *pts = "<polygon id='p'><animate attributeName='points' from='0,0 10,0 10,10' to='0,0 20,0 20,20' dur='2s'/></polygon>";
  const char *style = "<rect id='r' style='opacity:0.5;fill:green' fill='red'><animate attributeName='fill' from='#000' to='#fff' dur='1s'/></rect>";
  const char *xml = "<rect id='r' fill='red'><animate attributeName='fill' attributeType='XML' from='#000' to='#fff' dur='1s'/></rect>";
  const char *inherit = "<g fill='#ff0000'><rect id='r'><animate attributeName='fill' to='#0000ff' dur='2s'/></rect></g>";
  const char *set = "<rect id='r' visibility='hidden'><set attributeName='visibility' to='visible' begin='1s'/></rect>";
  const char *setdur = "<rect id='r' fill='red'><set attributeName='fill' to='blue' begin='1s' dur='1s'/></rect>";
  const char *acolor = "<rect id='r'><animateColor attributeName='fill' values='#000;#fff;#f00' keyTimes='0;0.5;1' dur='4s'/></rect>";
  const char *href = "<rect id='r'/><animate href='#r' attributeName='x' from='0' to='10' dur='1s'/>";
  const char *two = "<rect id='r' x='1'><animate attributeName='x' from='0' to='10' dur='2s'/>"
                    "<animate attributeName='x' from='100' to='200' dur='2s' begin='1s'/></rect>";
  const char *two_sum = "<rect id='r' x='1'><animate attributeName='x' from='0' to='10' dur='2s'/>"
                        "<animate attributeName='x' from='100' to='200' dur='2s' additive='sum'/></rect>";
  const char *palette = "<rect id='r'><animate attributeName='fill' from='rgba(224,32,32,1)' to='rgba(32,64,224,0.5)' dur='2s'/></rect>";

  AT(kt, 4, "r", "x", "5");
  AT(kt, 9, "r", "x", "15");
  AT(disc, 0.5, "r", "x", "0");
  AT(disc, 1.5, "r", "x", "10");
  AT(disc, 2.9, "r", "x", "20");
  AT(disckt, 0.5, "r", "x", "0");
  AT(disckt, 1, "r", "x", "10");
  AT(disckt, 9.5, "r", "x", "20");
  AT(paced, 1, "r", "x", "10");
  AT(paced, 2, "r", "x", "20");
  AT(spl, 0.5, "r", "x", "31.53568125");                   /* ease-in, solved numerically */
  AT(by, 1, "r", "x", "10");                               /* by: additive from zero */
  AT(fromby, 1, "r", "x", "6");
  AT(to, 1, "r", "style", "fill:rgba(128,128,128,1)");     /* to: from the base value */
  AT(sum, 0.5, "r", "x", "10");
  AT(units, 0.5, "r", "width", "15px");
  AT(mixed, 0.4, "r", "width", "10px");                    /* not interpolable: discrete, */
  AT(mixed, 0.6, "r", "width", "20%");                     /* switching half way */
  AT(path, 0.5, "p", "d", "M 0 0L 15 20");
  AT(path2, 0.4, "p", "d", "M 0 0L 10 10");                /* other commands: discrete */
  AT(path2, 0.6, "p", "d", "M 0 0Q 1 1 20 30");
  AT(pts, 1, "p", "points", "0 0 15 0 15 15");
  AT(style, 0.5, "r", "style", "opacity:0.5;fill:rgba(128,128,128,1)");   /* wins over style */
  AT(xml, 0.5, "r", "fill", "rgba(128,128,128,1)");        /* attributeType XML: the attribute */
  AT(inherit, 1, "r", "style", "fill:rgba(128,0,128,1)");  /* to: from the inherited fill */
  AT(set, 0.5, "r", "visibility", "hidden");
  AT(set, 1, "r", "style", "visibility:visible");
  AT(set, 1000, "r", "style", "visibility:visible");       /* set: indefinite by default */
  AT(setdur, 2.5, "r", "style", "-");
  AT(acolor, 1, "r", "style", "fill:rgba(128,128,128,1)");
  AT(acolor, 3, "r", "style", "fill:rgba(255,128,128,1)");
  AT(href, 0.5, "r", "x", "5");
  AT(two, 0.5, "r", "x", "2.5");
  AT(two, 1.5, "r", "x", "125");                           /* the later begin has priority */
  AT(two_sum, 1, "r", "x", "155");                         /* 5 + 150 */
  AT(palette, 1, "r", "style", "fill:rgba(128,48,128,0.75)");   /* resolved palette colors */
}

static void test_transforms(void) {
  const char *rot = "<rect id='r'><animateTransform attributeName='transform' type='rotate' from='0 50 50' to='90 50 50' dur='2s'/></rect>";
  const char *sum = "<rect id='r' transform='translate(10 0)'><animateTransform attributeName='transform' type='rotate' from='0' to='90' dur='2s' additive='sum'/></rect>";
  const char *rep = "<rect id='r' transform='translate(10 0)'><animateTransform attributeName='transform' type='scale' from='1' to='2' dur='2s'/></rect>";
  const char *two = "<rect id='r'><animateTransform attributeName='transform' type='translate' from='0 0' to='10 20' dur='2s'/>"
                    "<animateTransform attributeName='transform' type='rotate' from='0' to='90' dur='2s' additive='sum'/></rect>";
  const char *acc = "<rect id='r'><animateTransform attributeName='transform' type='rotate' from='0' to='90' dur='1s' repeatCount='3' accumulate='sum'/></rect>";
  const char *skew = "<rect id='r'><animateTransform attributeName='transform' type='skewX' values='0;30;0' dur='2s'/></rect>";
  const char *bad = "<rect id='r' transform='scale(2)'><animateTransform attributeName='transform' type='spin' from='0' to='9' dur='2s'/></rect>";

  AT(rot, 0, "r", "transform", "rotate(0 50 50)");
  AT(rot, 1, "r", "transform", "rotate(45 50 50)");
  AT(sum, 1, "r", "transform", "translate(10 0) rotate(45 0 0)");
  AT(rep, 1, "r", "transform", "scale(1.5 1.5)");
  AT(two, 1, "r", "transform", "translate(5 10) rotate(45 0 0)");
  AT(acc, 1.5, "r", "transform", "rotate(135 0 0)");
  AT(skew, 0.5, "r", "transform", "skewX(15)");
  AT(bad, 1, "r", "transform", "scale(2)");                /* an unknown type: no effect */
}

static void test_bad(void) {
  static const char *const bodies[] = {
    "<rect id='r' x='7'><animate attributeName='x' values='' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' values=';;' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' values='0;10' keyTimes='0;0.5;1' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' values='0;10' keyTimes='0.5;1' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' values='0;10' keyTimes='0;0.9' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' values='0;10' calcMode='spline' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' values='0;10' calcMode='spline' keySplines='0 0 2 1' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='href' from='0' to='10' dur='1s'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' from='0' to='10' dur='1s' href='#nowhere'/></rect>",
    "<rect id='r' x='7'><animate attributeName='x' from='0' to='10' dur='1s' begin='click'/></rect>",
    "<rect id='r' x='7'><animate from='0' to='10' dur='1s'/></rect>",
    NULL
  };
  unsigned i;
  for (i = 0; bodies[i]; i++) AT(bodies[i], 0.5, "r", "x", "7");
  /* absurd numbers do not crash and give finite text */
  AT("<rect id='r'><animate attributeName='x' values='1e308;-1e308;1e-308' dur='1s'/></rect>", 0.3, "r", "x", "0");
  AT("<rect id='r'><animate attributeName='d' from='M 1e999 0' to='M0 0' dur='1s'/></rect>", 0.4, "r", "d", "M 1e999 0");
  AT("<rect id='r'><animate attributeName='fill' from='#zzz' to='rgb(1,2' dur='1s'/></rect>", 0.6, "r", "style", "fill:rgb(1 2");   /* commas become spaces */
}

static void test_duration(void) {
  static const struct { const char *body; double dur; unsigned count; } cases[] = {
    { "<rect/>", 0, 0 },
    { "<rect><animate attributeName='x' from='0' to='1' dur='2s'/></rect>", 2, 1 },
    { "<rect><animate attributeName='x' from='0' to='1' begin='1s' dur='2s' repeatCount='3'/></rect>", 7, 1 },
    { "<rect><animate attributeName='x' from='0' to='1' dur='2s' repeatCount='indefinite'/></rect>", 2, 1 },
    { "<rect><set attributeName='x' to='1' begin='1s'/><animate attributeName='y' from='0' to='1' dur='0.5s'/></rect>", 1, 2 },
    { "<rect><animate attributeName='x' from='0' to='1' dur='10s' end='3s'/></rect>", 3, 1 },
    { "<rect><animate attributeName='x' from='0' to='1' dur='1s' begin='0s;4s'/></rect>", 5, 1 },
  };
  unsigned i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char svg[1024];
    xmlDocPtr d;
    unsigned n = 99;
    double dur;
    snprintf(svg, sizeof svg, "<svg " NS ">%s</svg>", cases[i].body);
    d = parse(svg);
    dur = ct_smil_duration(xmlDocGetRootElement(d), &n);
    CHECK_MSG(fabs(dur - cases[i].dur) < 1e-9 && n == cases[i].count, "case %u: %g s, %u elements", i, dur, n);
    xmlFreeDoc(d);
  }
}

/* ct_smil_check on one element: whether it is kept, and its begin attribute after. */
static int check(const char *elem, char *begin, size_t len) {
  char svg[2048], why[200];
  xmlDocPtr d;
  xmlNodePtr a;
  xmlChar *v;
  int keep, changed = 0;
  snprintf(svg, sizeof svg, "<svg " NS "><rect>%s</rect></svg>", elem);
  d = parse(svg);
  a = xmlDocGetRootElement(d)->children->children;
  keep = ct_smil_check(a, why, sizeof why, &changed);
  v = xmlGetProp(a, (const xmlChar *)"begin");
  snprintf(begin, len, "%s", v ? (const char *)v : "-");
  if (v) xmlFree(v);
  xmlFreeDoc(d);
  return keep;
}

static void test_check(void) {
  char b[256], many[4096];
  unsigned i;
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='2s'/>", b, sizeof b) == 1);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='2s' begin='0s; click; r.end'/>", b, sizeof b) == 1);
  CHECK_STR(b, "0s");
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='2s' begin='click'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='2s' begin='indefinite'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='2s' begin='7200s'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='3601s'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='99999999999999999999999s'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='1s' repeatCount='4000'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='1s' repeatCount='indefinite'/>", b, sizeof b) == 1);
  CHECK(check("<animate attributeName='fill' from='red' to='blue' dur='1s' repeatDur='2h'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='href' to='#x' dur='1s'/>", b, sizeof b) == 0);
  CHECK(check("<set attributeName='xlink:href' to='#x'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='onclick' to='x' dur='1s'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='transform' to='rotate(9)' dur='1s'/>", b, sizeof b) == 0);
  CHECK(check("<animateTransform attributeName='fill' to='red' dur='1s'/>", b, sizeof b) == 0);
  CHECK(check("<animateColor attributeName='x' to='1' dur='1s'/>", b, sizeof b) == 0);
  CHECK(check("<animate attributeName='x' to='1' dur='1s' href='http://example.invalid/#x'/>", b, sizeof b) == 0);
  CHECK(check("<set attributeName='transform' to='rotate(9)'/>", b, sizeof b) == 1);
  strcpy(many, "<animate attributeName='x' dur='1s' values='0");
  for (i = 0; i < 300; i++) strcat(many, ";1");
  strcat(many, "'/>");
  CHECK(check(many, b, sizeof b) == 0);
}

int main(void) {
  test_timing();
  test_values();
  test_transforms();
  test_bad();
  test_duration();
  test_check();
  return ct_test_report("test_smil");
}
