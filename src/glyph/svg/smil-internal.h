/*
** smil-internal.h: what the SMIL files (smil.c, smil-text.c, smil-time.c, smil-value.c,
** smil-rules.c) share among themselves.  Included by those files only; the SMIL API the
** rest of the core sees is in svg.h.
*/
#ifndef CT_SMIL_INTERNAL_H
#define CT_SMIL_INTERNAL_H

#include <stddef.h>

#include <libxml/tree.h>

#include "svg-private.h"

/* ---- smil-rules.c: names ------------------------------------------------------------ */

typedef enum { A_ANIMATE, A_SET, A_TRANSFORM, A_COLOR } akind_t;

/* What attributeName may name.  prop: a CSS property (animated into the override style);
   inherit: inherited (its base value may come from an ancestor); initial: its value when
   nothing sets it. */
typedef enum { VT_NUMBER, VT_COLOR, VT_PATH, VT_TRANSFORM, VT_STRING } vtype_t;
typedef struct { const char *name; unsigned char type, prop, inherit; const char *initial; } attr_info_t;

int ct_smil_anim_kind(const xmlChar *name);
const attr_info_t *ct_smil_attr_info(const char *name);

/* ---- smil-text.c: small text helpers (the growing string: svg-private.h) ------------ */

void ct_smil_sb_str(sbuf_t *b, const char *s);
void ct_smil_sb_num(sbuf_t *b, double v);
char *ct_smil_sb_take(sbuf_t *b);
int ct_smil_is_wsp(int c);
const char *ct_smil_skip_wsp(const char *s, const char *end);
const char *ct_smil_trim_end(const char *s, const char *end);
size_t ct_smil_scan_number(const char *s, const char *end, double *v);
typedef int (*item_fn)(const char *s, const char *end, void *data);
unsigned ct_smil_split(const char *s, char sep, item_fn f, void *data);
int ct_smil_count_item(const char *s, const char *end, void *data);
char *ct_smil_prop(xmlNodePtr n, const char *name);

/* ---- smil-time.c: time values and timing ------------------------------------------------ */

#define MAX_TIMES 64   /* begin and end values kept per element */

typedef struct { double v[MAX_TIMES]; unsigned n, dropped; } times_t;

typedef struct {
  times_t begin, end;
  int     has_end;
  double  dur;          /* simple duration; INFINITY: indefinite (or not given) */
  double  rcount;       /* repeatCount: NAN not given, INFINITY indefinite */
  double  rdur;         /* repeatDur: NAN not given, INFINITY indefinite */
  int     freeze;
  int     restart;      /* 0 always, 1 whenNotActive, 2 never */
} timing_t;

int ct_smil_parse_clock(const char *s, const char *end, double *out);
void ct_smil_parse_times(const char *s, times_t *t);
void ct_smil_parse_timing(xmlNodePtr el, timing_t *tm);
int ct_smil_sample_time(const timing_t *tm, double t, double *p, double *k, double *prio);

/* ---- smil-value.c: values --------------------------------------------------------------- */

/* A value as a skeleton (its text with \1 for each number) and its numbers.  Two values
   interpolate when their skeletons are equal.  Colors are "rgba(\1,\1,\1,\1)" with
   r, g, b 0..255 and alpha 0..1. */
typedef struct {
  char    *skel;
  double  *v;
  unsigned n, cap;
  int      color;
} tval_t;

void ct_smil_tv_free(tval_t *t);
int ct_smil_tv_copy(tval_t *out, const tval_t *a);
int ct_smil_tv_same(const tval_t *a, const tval_t *b);
int ct_smil_tv_parse(int vt, int ttype, const char *s, const char *end, tval_t *t);
char *ct_smil_tv_format(const tval_t *t);
int ct_smil_tv_mix(tval_t *out, const tval_t *a, const tval_t *b, double u, int add);
extern const char *const ct_smil_tf_names[];   /* animateTransform types: anim_t.ttype */

/* ---- one animation element: smil.c fills it, smil-value.c's function reads it -------- */

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

/* ---- smil-value.c: the animation function ---------------------------------------------- */

enum { CM_DISCRETE, CM_LINEAR, CM_PACED, CM_SPLINE };

typedef struct {
  tval_t  *v;
  unsigned n;
  double  *kt;      /* keyTimes, n of them, or NULL */
  double  *ks;      /* keySplines, 4 per interval, or NULL */
  int      mode;
  int      additive, accumulate, to_anim;
} func_t;

void ct_smil_func_free(func_t *f);
int ct_smil_func_init(const anim_t *a, func_t *f);
int ct_smil_func_eval(const func_t *f, const anim_t *a, double p, tval_t *out);

#endif
