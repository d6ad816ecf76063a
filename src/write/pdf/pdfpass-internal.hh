/*
** pdfpass-internal.hh: what the files of the PDF pass share: a color's kind, the Pass and its
** state, a few helpers.  Write stage, private to pdfpass*.cc; C sees only pdfpass.h.
*/
#ifndef CT_PDFPASS_INTERNAL_HH
#define CT_PDFPASS_INTERNAL_HH

/* qpdf 11: std::shared_ptr throughout, no PointerHolder */
#define POINTERHOLDER_TRANSITION 4
#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>
#include <qpdf/QUtil.hh>

#include <lcms2.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "pdfpass.h"

extern "C" ct_status_t ct_set_error(ct_error_t *err, ct_status_t status, const char *fmt, ...);

namespace ct_pdfpass {

typedef QPDFObjectHandle OH;

/* A number as content streams write it: six decimals at most, no trailing zeros (pdfpass.cc). */
std::string num(double v);

/* ---- what a color is printed with --------------------------------------------- */

enum Kind { K_UNKNOWN, K_PAPER, K_PROCESS, K_INK, K_PATTERN };

struct Color {
  Kind   kind = K_UNKNOWN;
  int    ink = -1;
  double tint = 0;
  double rgb[3] = { 0, 0, 0 };
  OH     pattern;              /* K_PATTERN: the pattern object */
};

/* A shading's colors: the inks among them, and whether some need process. */
struct ShadeClass {
  unsigned inks = 0;           /* bit i: ink i */
  bool     process = false;
};

class Pass {
 public:
  Pass(QPDF &qpdf, ct_pdf_pass_t *pass) : q(qpdf), p(pass) {}
  void run();

  QPDF          &q;
  ct_pdf_pass_t *p;
  std::map<QPDFObjGen, ShadeClass> shades;
  std::set<QPDFObjGen>             smask_groups;
  std::set<std::string>            seen_process;
  OH ink_cs[CT_MAX_INKS];
  OH all_cs, gs_op, gs_ko;
  bool manage_op = false;

  Color classify(double r, double g, double b) const;
  bool overprints(int ink) const { return p->overprint || (ink >= 0 && p->inks[ink].overprint); }
  /* --cmyk: process colors through ICC profiles (sRGB in, the press profile out) */
  cmsHTRANSFORM xf = nullptr;
  std::map<uint64_t, std::array<double, 4>> cmyk_cache;
  std::vector<ct_ink_t> inks_eff;   /* the inks, with a CMYK alternate computed under --cmyk */
  enum { T_INKS, T_GRAY, T_CMYK } tmode = T_INKS;   /* what shading colors become */
  std::array<double, 4> to_cmyk(const double rgb[3]);
  ~Pass() {
    if (xf) cmsDeleteTransform(xf);
  }
  void note_process(const double rgb[3]);
  bool plate_skips(const ShadeClass &c) const;
  bool shade_overprints(const ShadeClass &c) const;

 private:   /* pdfpass-inks.cc, pdfpass-shade.cc (shadings), pdfpass-content.cc (filter_streams), pdfpass.cc */
  void make_color_spaces();
  void find_smask_groups();
  void convert_shadings();
  bool convert_shading(OH shading, ShadeClass &cls);
  bool collect_function(OH fn, std::vector<Color> &out, int depth);
  OH map_function(OH fn, const std::vector<int> &inks, int depth);
  bool convert_mesh(OH shading, ShadeClass &cls);
  std::vector<double> target(const Color &c, const std::vector<int> &inks);
  void add_resources(OH resources);
  void filter_streams();
  void add_marks();
  bool transparent(OH res, int depth);
  void convert_images();
  void drop_groups();
  std::map<QPDFObjGen, bool> opaque_memo;   /* XObjects: true when nothing in them is transparent */
};

/* pdfpass-inks.cc: a color space's DeviceN over `inks`; `resources`'s sub-dictionary `key`,
   made if missing. */
OH device_n(QPDF &q, const ct_ink_t *all, const OH *seps, const std::vector<int> &inks);
OH sub_dict(OH resources, const char *key);

}  // namespace ct_pdfpass

#endif /* CT_PDFPASS_INTERNAL_HH */
