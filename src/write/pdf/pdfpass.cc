/*
** pdfpass.cc: the finishing pass over the PDF cairo writes, through qpdf (C++: its content
** stream tokenizer and token filters are not in its C API).  Core layer; callable from C
** (pdfpass.h).  What it does, and why cairo 1.16 cannot (docs/pdf.md):
**  - resource dictionaries written anew: cairo 1.16 lists a form XObject in a page's
**    resources once per use (its _cairo_pdf_surface_add_xobject appends without looking),
**    so a glyph recorded once and drawn 40 times was 40 equal keys; qpdf reads each
**    dictionary into a map and writes every key once;
**  - the copyable text layer in text rendering mode 3 (no ink): canvas.c draws it at a
**    marker opacity, whose graphics state this pass replaces with "3 Tr";
**  - spot inks: colors an ink prints become its Separation color space (tints), gradients
**    Separation or DeviceN shadings; overprint through graphics states; print marks in the
**    /All separation;
**  - plates: the same file with one ink's tints as gray and everything else as paper (or
**    left out, where it overprints).
** Streams are filtered lazily, as qpdf writes them, so a long document is not held whole.
*/
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

namespace {

typedef QPDFObjectHandle OH;

std::string num(double v) {
  char b[32];
  if (std::fabs(v) < 5e-7) v = 0;
  snprintf(b, sizeof b, "%.6f", v);
  char *e = b + strlen(b) - 1;   /* trailing zeros off */
  while (e > b && *e == '0') *e-- = '\0';
  if (*e == '.') *e = '\0';
  return b;
}

std::string ink_name(const ct_ink_t &ink) { return "/" + std::string(ink.name); }

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

 private:
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

std::array<double, 4> Pass::to_cmyk(const double rgb[3]) {
  uint16_t in[3], out[4];
  uint64_t key = 0;
  for (int i = 0; i < 3; i++) {
    in[i] = (uint16_t)std::lround(std::min(1.0, std::max(0.0, rgb[i])) * 65535);
    key = key << 16 | in[i];
  }
  auto it = cmyk_cache.find(key);
  if (it != cmyk_cache.end()) return it->second;
  cmsDoTransform(xf, in, out, 1);
  std::array<double, 4> v = { out[0] / 65535.0, out[1] / 65535.0, out[2] / 65535.0, out[3] / 65535.0 };
  cmyk_cache[key] = v;
  return v;
}

Color Pass::classify(double r, double g, double b) const {
  Color c;
  c.rgb[0] = r;
  c.rgb[1] = g;
  c.rgb[2] = b;
  if (r > 1 - 0.6 / 255 && g > 1 - 0.6 / 255 && b > 1 - 0.6 / 255) {
    c.kind = K_PAPER;
    return c;
  }
  double t;
  int i = ct_ink_match(p->inks, p->ink_count, r, g, b, &t);
  if (i >= 0) {
    c.kind = K_INK;
    c.ink = i;
    c.tint = t;
  } else {
    c.kind = K_PROCESS;
  }
  return c;
}

void Pass::note_process(const double rgb[3]) {
  char hex[8];
  snprintf(hex, sizeof hex, "#%02x%02x%02x", (int)std::lround(rgb[0] * 255), (int)std::lround(rgb[1] * 255),
           (int)std::lround(rgb[2] * 255));
  if (!seen_process.insert(hex).second) return;
  if (p->nprocess < CT_PDF_REPORT_COLORS) memcpy(p->process[p->nprocess], hex, 8);
  p->nprocess++;
}

bool Pass::shade_overprints(const ShadeClass &c) const {
  if (p->overprint) return true;
  if (c.process || c.inks == 0) return false;
  for (unsigned i = 0; i < p->ink_count; i++)
    if ((c.inks >> i & 1) && !p->inks[i].overprint) return false;
  return true;
}

/* On ink k's plate, a shading without ink k that overprints leaves the plate alone. */
bool Pass::plate_skips(const ShadeClass &c) const {
  return !(c.inks >> p->plate & 1) && shade_overprints(c);
}

/* ---- color spaces and graphics states ---------------------------------------- */

OH fn2(const std::vector<double> &c0, const std::vector<double> &c1) {
  OH f = OH::newDictionary();
  OH a0 = OH::newArray(), a1 = OH::newArray(), d = OH::newArray();
  for (double v : c0) a0.appendItem(OH::newReal(v, 6));
  for (double v : c1) a1.appendItem(OH::newReal(v, 6));
  d.appendItem(OH::newInteger(0));
  d.appendItem(OH::newInteger(1));
  f.replaceKey("/FunctionType", OH::newInteger(2));
  f.replaceKey("/Domain", d);
  f.replaceKey("/C0", a0);
  f.replaceKey("/C1", a1);
  f.replaceKey("/N", OH::newInteger(1));
  return f;
}

OH separation(QPDF &q, const ct_ink_t &ink) {
  OH cs = OH::newArray();
  cs.appendItem(OH::newName("/Separation"));
  cs.appendItem(OH::newName(ink_name(ink)));
  if (ink.has_cmyk) {
    cs.appendItem(OH::newName("/DeviceCMYK"));
    cs.appendItem(fn2({ 0, 0, 0, 0 }, { ink.cmyk[0], ink.cmyk[1], ink.cmyk[2], ink.cmyk[3] }));
  } else {
    cs.appendItem(OH::newName("/DeviceRGB"));
    cs.appendItem(fn2({ 1, 1, 1 }, { ink.color.r, ink.color.g, ink.color.b }));
  }
  return q.makeIndirectObject(cs);
}

/* DeviceN over `inks`: the alternate mixes them as inks do, multiplying in RGB (or adding,
   clamped, in CMYK when every ink has its CMYK), by a PostScript calculator function. */
OH device_n(QPDF &q, const ct_ink_t *all, const OH *seps, const std::vector<int> &inks) {
  size_t n = inks.size();
  bool cmyk = true;
  for (int i : inks) cmyk = cmyk && all[i].has_cmyk;
  unsigned nch = cmyk ? 4 : 3;
  std::string code = "{";
  for (unsigned ch = 0; ch < nch; ch++) {
    code += cmyk ? " 0" : " 1";
    for (size_t i = 0; i < n; i++) {
      const ct_ink_t &ink = all[inks[i]];
      /* stack: t1..tn, ch results, acc: t_i is (n - 1 - i) + ch + 1 below the top */
      code += " " + std::to_string((n - 1 - i) + ch + 1) + " index";
      if (cmyk) {
        code += " " + num(ink.cmyk[ch]) + " mul add";
      } else {
        double c = ch == 0 ? ink.color.r : ch == 1 ? ink.color.g : ink.color.b;
        code += " " + num(1 - c) + " mul 1 exch sub mul";
      }
    }
    if (cmyk) code += " dup 1 gt { pop 1 } if";
  }
  code += " " + std::to_string(n + nch) + " " + std::to_string(nch) + " roll";
  for (size_t i = 0; i < n; i++) code += " pop";
  code += " }";
  OH fn = q.newStream(code);
  OH dom = OH::newArray(), range = OH::newArray();
  for (size_t i = 0; i < n; i++) {
    dom.appendItem(OH::newInteger(0));
    dom.appendItem(OH::newInteger(1));
  }
  for (unsigned i = 0; i < nch; i++) {
    range.appendItem(OH::newInteger(0));
    range.appendItem(OH::newInteger(1));
  }
  fn.getDict().replaceKey("/FunctionType", OH::newInteger(4));
  fn.getDict().replaceKey("/Domain", dom);
  fn.getDict().replaceKey("/Range", range);
  OH names = OH::newArray(), colorants = OH::newDictionary(), attrs = OH::newDictionary();
  for (int i : inks) {
    names.appendItem(OH::newName(ink_name(all[i])));
    colorants.replaceKey(ink_name(all[i]), seps[i]);
  }
  /* each colorant's own Separation, so readers can simulate overprint and separate */
  attrs.replaceKey("/Subtype", OH::newName("/DeviceN"));
  attrs.replaceKey("/Colorants", colorants);
  OH cs = OH::newArray();
  cs.appendItem(OH::newName("/DeviceN"));
  cs.appendItem(names);
  cs.appendItem(OH::newName(cmyk ? "/DeviceCMYK" : "/DeviceRGB"));
  cs.appendItem(fn);
  cs.appendItem(attrs);
  return q.makeIndirectObject(cs);
}

void Pass::make_color_spaces() {
  if (p->cmyk && p->plate < 0) {
    /* the profiles: lcms2's sRGB, and the press profile Ghostscript converts to (Debian's
       libgs-common), or CHROMATYPE_CMYK_PROFILE */
    const char *path = getenv("CHROMATYPE_CMYK_PROFILE");
    if (!path || !*path) path = "/usr/share/color/icc/ghostscript/default_cmyk.icc";
    cmsHPROFILE rgb = cmsCreate_sRGBProfile(), cmyk = cmsOpenProfileFromFile(path, "r");
    if (cmyk && cmsGetColorSpace(cmyk) != cmsSigCmykData) {
      cmsCloseProfile(cmyk);
      cmyk = nullptr;
    }
    if (rgb && cmyk) xf = cmsCreateTransform(rgb, TYPE_RGB_16, cmyk, TYPE_CMYK_16, INTENT_PERCEPTUAL, 0);
    if (rgb) cmsCloseProfile(rgb);
    if (cmyk) cmsCloseProfile(cmyk);
    if (!xf)
      throw std::runtime_error(std::string("CMYK output: no CMYK profile at ") + path +
                               " (Debian package libgs-common, or CHROMATYPE_CMYK_PROFILE)");
  }
  inks_eff.assign(p->inks, p->inks + p->ink_count);
  for (ct_ink_t &ink : inks_eff)
    if (xf && !ink.has_cmyk) {
      const double rgb[3] = { ink.color.r, ink.color.g, ink.color.b };
      std::array<double, 4> v = to_cmyk(rgb);
      for (int i = 0; i < 4; i++) ink.cmyk[i] = v[i];
      ink.has_cmyk = 1;
    }
  for (unsigned i = 0; i < p->ink_count; i++) ink_cs[i] = separation(q, inks_eff[i]);
  OH cs = OH::newArray();
  cs.appendItem(OH::newName("/Separation"));
  cs.appendItem(OH::newName("/All"));
  cs.appendItem(OH::newName("/DeviceCMYK"));
  cs.appendItem(fn2({ 0, 0, 0, 0 }, { 1, 1, 1, 1 }));
  all_cs = q.makeIndirectObject(cs);
  OH op = OH::newDictionary(), ko = OH::newDictionary();
  op.replaceKey("/Type", OH::newName("/ExtGState"));
  op.replaceKey("/OP", OH::newBool(true));
  op.replaceKey("/op", OH::newBool(true));
  op.replaceKey("/OPM", OH::newInteger(1));
  ko.replaceKey("/Type", OH::newName("/ExtGState"));
  ko.replaceKey("/OP", OH::newBool(false));
  ko.replaceKey("/op", OH::newBool(false));
  gs_op = q.makeIndirectObject(op);
  gs_ko = q.makeIndirectObject(ko);
  manage_op = p->plate < 0 && p->ink_count > 0 && p->overprint;
  for (unsigned i = 0; i < p->ink_count && p->plate < 0; i++) manage_op = manage_op || p->inks[i].overprint;
}

OH sub_dict(OH resources, const char *key) {
  OH d = resources.getKey(key);
  if (!d.isDictionary()) {
    d = OH::newDictionary();
    resources.replaceKey(key, d);
  }
  return d;
}

void Pass::add_resources(OH resources) {
  OH cs = sub_dict(resources, "/ColorSpace");
  for (unsigned i = 0; i < p->ink_count && p->plate < 0; i++) cs.replaceKey("/ctInk" + std::to_string(i), ink_cs[i]);
  if (p->plate < 0) cs.replaceKey("/ctAll", all_cs);
  if (manage_op) {
    OH gs = sub_dict(resources, "/ExtGState");
    gs.replaceKey("/ctOP", gs_op);
    gs.replaceKey("/ctKO", gs_ko);
  }
}

/* Forms that are soft masks draw luminosity, not ink: left as they are. */
void Pass::find_smask_groups() {
  for (OH &o : q.getAllObjects()) {
    if (!o.isDictionary()) continue;
    OH sm = o.getKey("/SMask");
    if (sm.isDictionary() && sm.getKey("/G").isStream()) smask_groups.insert(sm.getKey("/G").getObjGen());
  }
}

/* ---- shadings ---------------------------------------------------------------- */

bool Pass::collect_function(OH fn, std::vector<Color> &out, int depth) {
  if (depth > 8 || !fn.isDictionary()) return false;
  OH d = fn.isStream() ? fn.getDict() : fn;
  OH type = d.getKey("/FunctionType");
  if (!type.isInteger()) return false;
  if (type.getIntValue() == 2) {
    for (const char *k : { "/C0", "/C1" }) {
      OH c = d.getKey(k);
      if (!c.isArray() || c.getArrayNItems() != 3) return false;
      double v[3];
      for (int i = 0; i < 3; i++) {
        OH x = c.getArrayItem(i);
        if (!x.isNumber()) return false;
        v[i] = x.getNumericValue();
      }
      out.push_back(classify(v[0], v[1], v[2]));
    }
    return true;
  }
  if (type.getIntValue() == 3) {
    OH fs = d.getKey("/Functions");
    if (!fs.isArray()) return false;
    for (int i = 0; i < fs.getArrayNItems(); i++)
      if (!collect_function(fs.getArrayItem(i), out, depth + 1)) return false;
    return true;
  }
  return false;
}

/* A color's components in the target space: the tints of `inks` (print file) or the gray of
   the plate's ink (plate: empty `inks`). */
std::vector<double> Pass::target(const Color &c, const std::vector<int> &inks) {
  if (tmode == T_GRAY) return { c.kind == K_INK && c.ink == p->plate ? 1 - c.tint : 1.0 };
  if (tmode == T_CMYK) {
    std::array<double, 4> v = to_cmyk(c.rgb);
    return { v[0], v[1], v[2], v[3] };
  }
  std::vector<double> v(inks.size(), 0.0);
  for (size_t i = 0; i < inks.size(); i++)
    if (c.kind == K_INK && c.ink == inks[i]) v[i] = c.tint;
  return v;
}

OH Pass::map_function(OH fn, const std::vector<int> &inks, int depth) {
  OH d = fn.isStream() ? fn.getDict() : fn;
  OH out = OH::newDictionary();
  for (auto &kv : d.getDictAsMap()) out.replaceKey(kv.first, kv.second);
  if (d.getKey("/FunctionType").getIntValue() == 2) {
    for (const char *k : { "/C0", "/C1" }) {
      OH c = d.getKey(k);
      Color col = classify(c.getArrayItem(0).getNumericValue(), c.getArrayItem(1).getNumericValue(),
                           c.getArrayItem(2).getNumericValue());
      OH a = OH::newArray();
      for (double v : target(col, inks)) a.appendItem(OH::newReal(v, 6));
      out.replaceKey(k, a);
    }
  } else {
    OH fs = d.getKey("/Functions"), nf = OH::newArray();
    for (int i = 0; i < fs.getArrayNItems(); i++) nf.appendItem(map_function(fs.getArrayItem(i), inks, depth + 1));
    out.replaceKey("/Functions", nf);
  }
  out.removeKey("/Range");
  return out;
}

/* The inks of a class, in index order, and the color space they are painted in. */
static std::vector<int> ink_list(unsigned mask, unsigned n) {
  std::vector<int> v;
  for (unsigned i = 0; i < n; i++)
    if (mask >> i & 1) v.push_back((int)i);
  return v;
}

/* Tensor-product and Coons patch meshes as cairo writes them (sweeps): 8-bit flags, 32-bit
   coordinates, 16-bit color components; the colors are rewritten in the target space. */
bool Pass::convert_mesh(OH shading, ShadeClass &cls) {
  OH d = shading.getDict();
  long long type = d.getKey("/ShadingType").getIntValue();
  if (!d.getKey("/BitsPerFlag").isInteger() || d.getKey("/BitsPerFlag").getIntValue() != 8 ||
      !d.getKey("/BitsPerCoordinate").isInteger() || d.getKey("/BitsPerCoordinate").getIntValue() != 32 ||
      !d.getKey("/BitsPerComponent").isInteger() || d.getKey("/BitsPerComponent").getIntValue() != 16 ||
      d.hasKey("/Function"))
    return false;
  size_t npts = type == 7 ? 16 : 12, head = 1 + npts * 8, rec = head + 4 * 3 * 2;
  std::shared_ptr<Buffer> data = shading.getStreamData(qpdf_dl_generalized);
  size_t len = data->getSize();
  const unsigned char *b = data->getBuffer();
  if (len % rec != 0) return false;
  std::vector<Color> colors;
  for (size_t off = 0; off < len; off += rec) {
    if (b[off] != 0) return false;   /* cairo writes whole patches only */
    for (int k = 0; k < 4; k++) {
      double v[3];
      for (int c = 0; c < 3; c++) {
        const unsigned char *x = b + off + head + (size_t)(k * 3 + c) * 2;
        v[c] = (x[0] << 8 | x[1]) / 65535.0;
      }
      colors.push_back(classify(v[0], v[1], v[2]));
    }
  }
  for (const Color &c : colors) {
    if (c.kind == K_INK) cls.inks |= 1u << c.ink;
    if (c.kind == K_PROCESS) cls.process = true;
  }
  tmode = p->plate >= 0 ? T_GRAY : T_INKS;
  if (cls.process && p->plate < 0) {
    for (const Color &c : colors)
      if (c.kind == K_PROCESS) note_process(c.rgb);
    if (!xf) return false;
    tmode = T_CMYK;
  }
  if (p->plate < 0 && cls.inks == 0) {
    if (!xf) return false;
    tmode = T_CMYK;
  }
  std::vector<int> inks = ink_list(cls.inks, p->ink_count);
  size_t ncomp = tmode == T_GRAY ? 1 : tmode == T_CMYK ? 4 : inks.size(), nrec = head + 4 * ncomp * 2;
  std::string outd;
  outd.reserve(len / rec * nrec);
  size_t ci = 0;
  for (size_t off = 0; off < len; off += rec) {
    outd.append((const char *)b + off, head);
    for (int k = 0; k < 4; k++) {
      for (double v : target(colors[ci++], inks)) {
        unsigned u = (unsigned)std::lround(std::min(1.0, std::max(0.0, v)) * 65535);
        outd.push_back((char)(u >> 8));
        outd.push_back((char)(u & 0xff));
      }
    }
  }
  OH decode = d.getKey("/Decode"), nd = OH::newArray();
  if (!decode.isArray() || decode.getArrayNItems() < 4) return false;
  for (int i = 0; i < 4; i++) nd.appendItem(decode.getArrayItem(i));
  for (size_t i = 0; i < ncomp; i++) {
    nd.appendItem(OH::newInteger(0));
    nd.appendItem(OH::newInteger(1));
  }
  d.replaceKey("/Decode", nd);
  d.replaceKey("/ColorSpace", tmode == T_GRAY ? OH::newName("/DeviceGray")
                              : tmode == T_CMYK ? OH::newName("/DeviceCMYK")
                              : inks.size() == 1 ? ink_cs[inks[0]] : device_n(q, inks_eff.data(), ink_cs, inks));
  shading.replaceStreamData(outd, OH::newNull(), OH::newNull());
  return true;
}

bool Pass::convert_shading(OH shading, ShadeClass &cls) {
  OH d = shading.isStream() ? shading.getDict() : shading;
  OH cs = d.getKey("/ColorSpace");
  if (!cs.isName() || cs.getName() != "/DeviceRGB") return false;
  long long type = d.getKey("/ShadingType").getIntValue();
  if (type >= 4) return shading.isStream() && convert_mesh(shading, cls);
  std::vector<Color> colors;
  if (!collect_function(d.getKey("/Function"), colors, 0)) {
    cls.process = true;
    return false;
  }
  for (const Color &c : colors) {
    if (c.kind == K_INK) cls.inks |= 1u << c.ink;
    if (c.kind == K_PROCESS) cls.process = true;
  }
  tmode = p->plate >= 0 ? T_GRAY : T_INKS;
  if (p->plate < 0) {
    if (cls.process) {
      for (const Color &c : colors)
        if (c.kind == K_PROCESS) note_process(c.rgb);
      if (!xf) return false;
      tmode = T_CMYK;   /* --cmyk: a process gradient in DeviceCMYK */
    } else if (cls.inks == 0 && !xf) {
      return false;   /* paper only */
    } else if (cls.inks == 0) {
      tmode = T_CMYK;
    }
  }
  std::vector<int> inks = ink_list(cls.inks, p->ink_count);
  d.replaceKey("/Function", map_function(d.getKey("/Function"), inks, 0));
  d.replaceKey("/ColorSpace", tmode == T_GRAY ? OH::newName("/DeviceGray")
                              : tmode == T_CMYK ? OH::newName("/DeviceCMYK")
                              : inks.size() == 1 ? ink_cs[inks[0]] : device_n(q, inks_eff.data(), ink_cs, inks));
  if (d.hasKey("/Background")) d.removeKey("/Background");
  return true;
}

void Pass::convert_shadings() {
  /* the shadings soft masks use are luminosity: not converted */
  std::set<QPDFObjGen> mask_shadings;
  for (const QPDFObjGen &g : smask_groups) {
    OH form = q.getObjectByObjGen(g);
    OH res = form.getDict().getKey("/Resources");
    if (!res.isDictionary()) continue;
    for (const char *k : { "/Shading", "/Pattern" }) {
      OH sub = res.getKey(k);
      if (!sub.isDictionary()) continue;
      for (auto &kv : sub.getDictAsMap()) {
        mask_shadings.insert(kv.second.getObjGen());
        OH sh = kv.second.isDictionary() ? kv.second.getKey("/Shading") : OH::newNull();
        if (sh.isDictionary()) mask_shadings.insert(sh.getObjGen());
      }
    }
  }
  for (OH &o : q.getAllObjects()) {
    OH d = o.isStream() ? o.getDict() : o;
    if (!d.isDictionary() || !d.getKey("/ShadingType").isInteger() || mask_shadings.count(o.getObjGen())) continue;
    ShadeClass cls;
    convert_shading(o, cls);
    shades[o.getObjGen()] = cls;
  }
}

/* ---- content streams ----------------------------------------------------------- */

struct GState {
  Color fill, stroke;
  int   op = -1;           /* overprint set: -1 unknown, 0 knockout, 1 overprint */
  int   tr = 0;            /* text rendering mode */
  bool  fill_skip = false, stroke_skip = false;   /* plates: paints that leave the plate alone */
};

class Filter : public QPDFObjectHandle::TokenFilter {
 public:
  Filter(Pass &owner, OH resources, bool page, std::set<std::string> markers = {})
      : pass(owner), res(resources), text_layer(markers) {
    if (page) {   /* a page starts in black; a form inherits what it is drawn with */
      st.fill = pass.classify(0, 0, 0);
      st.stroke = st.fill;
    }
  }
  void handleToken(QPDFTokenizer::Token const &t) override;
  void handleEOF() override { flush(); }

 private:
  Pass &pass;
  OH res;
  std::set<std::string> text_layer;   /* the graphics states the text layer is drawn with */
  GState st;
  std::vector<GState> stack;
  std::vector<QPDFTokenizer::Token> operands;

  void flush() {
    for (auto &t : operands) writeToken(t);
    operands.clear();
  }
  std::vector<double> numbers() const {
    std::vector<double> v;
    for (auto &t : operands)
      if (t.getType() == QPDFTokenizer::tt_integer || t.getType() == QPDFTokenizer::tt_real)
        v.push_back(std::atof(t.getValue().c_str()));
    return v;
  }
  std::string last_name() const {
    for (auto it = operands.rbegin(); it != operands.rend(); ++it)
      if (it->getType() == QPDFTokenizer::tt_name) return it->getValue();
    return "";
  }
  OH resource(const char *kind, const std::string &name) {
    OH d = res.isDictionary() ? res.getKey(kind) : OH::newNull();
    return d.isDictionary() ? d.getKey(name) : OH::newNull();
  }
  void set_color(bool fill, Color c, QPDFTokenizer::Token const &op);
  void emit(const std::string &s) { write("\n" + s + "\n"); }
  void keep(QPDFTokenizer::Token const &op) {
    flush();
    writeToken(op);
  }
  void paint(bool fill, bool stroke, const std::string &op);
  void note(const Color &c);
  const ShadeClass *pattern_class(const Color &c);
};

const ShadeClass *Filter::pattern_class(const Color &c) {
  OH pat = c.pattern;
  if (c.kind != K_PATTERN || !pat.isDictionary()) return nullptr;
  OH d = pat.isStream() ? pat.getDict() : pat;
  OH sh = d.getKey("/Shading");
  if (!sh.isDictionary()) return nullptr;
  auto it = pass.shades.find(sh.getObjGen());
  return it == pass.shades.end() ? nullptr : &it->second;
}

void Filter::note(const Color &c) {
  if (c.kind == K_PROCESS) pass.note_process(c.rgb);
  else if (c.kind == K_INK) pass.p->inks_used |= 1u << c.ink;
  else if (const ShadeClass *sc = pattern_class(c)) pass.p->inks_used |= sc->inks;
}

/* Writes the operator that sets `c` (fill or stroke) in the target, in place of `op` and
   its operands (kept where the color stays as it is). */
void Filter::set_color(bool fill, Color c, QPDFTokenizer::Token const &op) {
  ct_pdf_pass_t *p = pass.p;
  (fill ? st.fill : st.stroke) = c;
  bool &skip = fill ? st.fill_skip : st.stroke_skip;
  skip = false;
  if (p->plate >= 0) {
    if (c.kind == K_PATTERN) {
      const ShadeClass *sc = pattern_class(c);
      skip = sc && pass.plate_skips(*sc);
      keep(op);
      return;
    }
    double gray = 1;
    if (c.kind == K_INK && c.ink == p->plate) gray = 1 - c.tint;
    else if (c.kind == K_UNKNOWN) { keep(op); return; }
    else if (c.kind == K_PAPER ? p->overprint : pass.overprints(c.kind == K_INK ? c.ink : -1)) skip = true;
    operands.clear();
    emit(num(gray) + (fill ? " g" : " G"));
    return;
  }
  if (pass.manage_op) {
    int want = 0;
    if (c.kind == K_INK) want = pass.overprints(c.ink);
    else if (c.kind == K_PATTERN) {
      const ShadeClass *sc = pattern_class(c);
      want = sc && pass.shade_overprints(*sc);
    } else want = p->overprint;
    if (want != st.op) {
      emit(want ? "/ctOP gs" : "/ctKO gs");
      st.op = want;
    }
  }
  if (c.kind == K_INK) {
    operands.clear();
    emit("/ctInk" + std::to_string(c.ink) + (fill ? " cs " : " CS ") + num(c.tint) + (fill ? " scn" : " SCN"));
    return;
  }
  if (pass.xf && (c.kind == K_PROCESS || c.kind == K_PAPER) && op.getValue() != "k" && op.getValue() != "K") {
    std::array<double, 4> v = pass.to_cmyk(c.rgb);
    operands.clear();
    emit(num(v[0]) + " " + num(v[1]) + " " + num(v[2]) + " " + num(v[3]) + (fill ? " k" : " K"));
    return;
  }
  keep(op);
}

/* A painting operator: reported (print file) or left out where the plate is not touched. */
void Filter::paint(bool fill, bool stroke, const std::string &op) {
  ct_pdf_pass_t *p = pass.p;
  if (p->plate < 0) {
    if (fill) note(st.fill);
    if (stroke) note(st.stroke);
    flush();
    write(op);
    return;
  }
  bool f = fill && !st.fill_skip, s = stroke && !st.stroke_skip;
  flush();
  if (fill == f && stroke == s) { write(op); return; }
  if (!f && !s) { write(op == "b" || op == "b*" || op == "s" ? "h n" : "n"); return; }
  /* one of the two is left out */
  if (op == "B") write(f ? "f" : "S");
  else if (op == "B*") write(f ? "f*" : "S");
  else if (op == "b") write(f ? "h f" : "s");
  else write(f ? "h f*" : "s");   /* b* */
}

void Filter::handleToken(QPDFTokenizer::Token const &t) {
  QPDFTokenizer::token_type_e type = t.getType();
  if (type != QPDFTokenizer::tt_word) {
    if (type == QPDFTokenizer::tt_eof) return;
    operands.push_back(t);
    return;
  }
  const std::string op = t.getValue();
  ct_pdf_pass_t *p = pass.p;
  if (op == "q") {
    stack.push_back(st);
  } else if (op == "Q") {
    if (!stack.empty()) {
      st = stack.back();
      stack.pop_back();
    }
  } else if (op == "rg" || op == "RG" || op == "g" || op == "G") {
    std::vector<double> v = numbers();
    bool gray = op == "g" || op == "G";
    if (v.size() == (gray ? 1u : 3u)) {
      set_color(op == "rg" || op == "g", gray ? pass.classify(v[0], v[0], v[0]) : pass.classify(v[0], v[1], v[2]), t);
      return;
    }
  } else if (op == "k" || op == "K") {
    Color c;
    c.kind = K_PROCESS;
    std::vector<double> v = numbers();
    if (v.size() == 4)
      for (int i = 0; i < 3; i++) c.rgb[i] = (1 - v[i]) * (1 - v[3]);
    set_color(op == "k", c, t);
    return;
  } else if (op == "cs" || op == "CS") {
    /* cairo sets /Pattern here, and the pattern with scn; other spaces are kept as they are */
    std::string n = last_name();
    Color c;
    c.kind = n == "/Pattern" ? K_PATTERN : K_UNKNOWN;
    (op == "cs" ? st.fill : st.stroke) = c;
  } else if (op == "scn" || op == "SCN" || op == "sc" || op == "SC") {
    bool fill = op == "scn" || op == "sc";
    Color c = fill ? st.fill : st.stroke;
    if (c.kind == K_PATTERN) {
      c.pattern = resource("/Pattern", last_name());
      set_color(fill, c, t);
      return;
    }
  } else if (op == "gs") {
    if (text_layer.count(last_name())) {
      /* the text layer: no ink at all, and no transparency */
      operands.clear();
      emit("3 Tr");
      st.tr = 3;
      return;
    }
  } else if (op == "Tr") {
    std::vector<double> v = numbers();
    if (v.size() == 1) st.tr = (int)v[0];
  } else if (op == "f" || op == "F" || op == "f*") {
    paint(true, false, op);
    return;
  } else if (op == "S" || op == "s") {
    paint(false, true, op);
    return;
  } else if (op == "B" || op == "B*" || op == "b" || op == "b*") {
    paint(true, true, op);
    return;
  } else if (op == "Tj" || op == "TJ" || op == "'" || op == "\"") {
    bool invisible = st.tr == 3 || st.tr == 7;
    if (!invisible && p->plate < 0) note(st.fill);
    if (!invisible && p->plate >= 0 && st.fill_skip) {
      emit("3 Tr");
      keep(t);
      emit(std::to_string(st.tr) + " Tr");
      return;
    }
  } else if (op == "sh") {
    OH sh = resource("/Shading", last_name());
    auto it = pass.shades.find(sh.getObjGen());
    if (it != pass.shades.end()) {
      if (p->plate < 0) pass.p->inks_used |= it->second.inks;
      if (p->plate >= 0 && pass.plate_skips(it->second)) {
        operands.clear();
        return;
      }
      if (pass.manage_op) {
        int want = pass.shade_overprints(it->second);
        if (want != st.op) { emit(want ? "/ctOP gs" : "/ctKO gs"); st.op = want; }
      }
    }
  } else if (op == "Do") {
    OH x = resource("/XObject", last_name());
    OH d = x.isStream() ? x.getDict() : OH::newNull();
    if (d.isDictionary() && d.getKey("/Subtype").isName() && d.getKey("/Subtype").getName() == "/Image") {
      bool stencil = d.getKey("/ImageMask").isBool() && d.getKey("/ImageMask").getBoolValue();
      if (stencil) {
        if (p->plate >= 0 && st.fill_skip) { operands.clear(); return; }
        if (p->plate < 0) note(st.fill);
      } else if (p->plate < 0) {
        pass.p->images++;
      } else {
        operands.clear();
        /* a picture is process color: paper on the plate where it knocks out */
        if (!p->overprint) emit("q 1 g 0 0 1 1 re f Q");
        return;
      }
    }
  }
  flush();
  writeToken(t);
}

/* The graphics states of the text layer in `res` (canvas.c draws it at the marker opacity),
   taken out of it: the layer's text is drawn in mode 3 instead. */
static std::set<std::string> text_layer_states(OH res) {
  std::set<std::string> markers;
  OH gs = res.isDictionary() ? res.getKey("/ExtGState") : OH::newNull();
  if (!gs.isDictionary()) return markers;
  for (auto &kv : gs.getDictAsMap()) {
    OH ca = kv.second.isDictionary() ? kv.second.getKey("/ca") : OH::newNull();
    if (ca.isNumber() && std::fabs(ca.getNumericValue() - CT_TEXT_LAYER_ALPHA) < 1e-9 && !kv.second.hasKey("/SMask"))
      markers.insert(kv.first);
  }
  for (const std::string &m : markers) gs.removeKey(m);
  return markers;
}

OH resources_of(OH dict) {
  OH res = dict.getKey("/Resources");
  if (!res.isDictionary()) {
    res = OH::newDictionary();
    dict.replaceKey("/Resources", res);
  }
  return res;
}

/* A form holding the text layer: its text in mode 3, and no transparency group left. */
static void text_layer_form(Pass &pass, OH form, std::set<std::string> &&markers) {
  OH d = form.getDict();
  if (d.hasKey("/Group")) d.removeKey("/Group");
  form.addTokenFilter(std::make_shared<Filter>(pass, resources_of(d), false, markers));
}

void Pass::filter_streams() {
  bool inks = p->ink_count > 0 || p->plate >= 0 || xf;
  std::set<QPDFObjGen> done;
  /* with inks: every form and tiling pattern, once, whatever draws them */
  for (OH &o : inks ? q.getAllObjects() : std::vector<OH>()) {
    if (!o.isStream()) continue;
    OH d = o.getDict();
    bool form = d.getKey("/Subtype").isName() && d.getKey("/Subtype").getName() == "/Form";
    bool tiling = d.getKey("/PatternType").isInteger() && d.getKey("/PatternType").getIntValue() == 1;
    if (!(form || tiling) || smask_groups.count(o.getObjGen())) continue;
    OH res = resources_of(d);
    add_resources(res);
    std::set<std::string> markers = text_layer_states(res);
    if (!markers.empty()) d.removeKey("/Group");
    o.addTokenFilter(std::make_shared<Filter>(*this, res, false, markers));
  }
  for (QPDFPageObjectHelper &page : QPDFPageDocumentHelper(q).getAllPages()) {
    OH po = page.getObjectHandle();
    OH res = resources_of(po);
    if (inks) {
      add_resources(res);
      page.addContentTokenFilter(std::make_shared<Filter>(*this, res, true, text_layer_states(res)));
      continue;
    }
    /* without inks only the text layer changes: canvas.c draws it in a group of its own
       (a form), so the page's own content is copied as it is */
    OH xo = res.getKey("/XObject");
    if (!xo.isDictionary()) continue;
    for (auto &kv : xo.getDictAsMap()) {
      OH f = kv.second;
      if (!f.isStream() || done.count(f.getObjGen())) continue;
      OH d = f.getDict();
      if (!d.getKey("/Subtype").isName() || d.getKey("/Subtype").getName() != "/Form") continue;
      std::set<std::string> markers = text_layer_states(d.getKey("/Resources"));
      if (markers.empty()) continue;
      done.insert(f.getObjGen());
      text_layer_form(*this, f, std::move(markers));
    }
  }
}

/* Whether drawing with `res` can show transparency: an ExtGState with an alpha below 1, a
   soft mask or a blend mode, or an image with a soft mask, here or in a form it draws.
   Memoized per object: recordings are shared by many pages. */
bool Pass::transparent(OH res, int depth) {
  if (!res.isDictionary() || depth > 32) return depth > 32;
  OH gs = res.getKey("/ExtGState");
  if (gs.isDictionary()) {
    for (auto &kv : gs.getDictAsMap()) {
      OH g = kv.second;
      if (!g.isDictionary()) continue;
      for (const char *k : { "/CA", "/ca" })
        if (g.getKey(k).isNumber() && g.getKey(k).getNumericValue() < 1) return true;
      OH sm = g.getKey("/SMask"), bm = g.getKey("/BM");
      if (sm.isDictionary() || (sm.isName() && sm.getName() != "/None")) return true;
      if (bm.isName() && bm.getName() != "/Normal" && bm.getName() != "/Compatible") return true;
      if (bm.isArray()) return true;
    }
  }
  OH xo = res.getKey("/XObject");
  if (xo.isDictionary()) {
    for (auto &kv : xo.getDictAsMap()) {
      OH x = kv.second;
      if (!x.isStream()) continue;
      auto memo = opaque_memo.find(x.getObjGen());
      if (memo != opaque_memo.end()) {
        if (!memo->second) return true;
        continue;
      }
      OH d = x.getDict();
      bool t = d.hasKey("/SMask") || d.hasKey("/SMaskInData");
      if (!t && d.getKey("/Subtype").isName() && d.getKey("/Subtype").getName() == "/Form")
        t = transparent(d.getKey("/Resources"), depth + 1);
      opaque_memo[x.getObjGen()] = !t;
      if (t) return true;
    }
  }
  OH pat = res.getKey("/Pattern");
  if (pat.isDictionary()) {
    for (auto &kv : pat.getDictAsMap()) {
      OH d = kv.second.isStream() ? kv.second.getDict() : kv.second;
      if (d.isDictionary() && (transparent(d.getKey("/Resources"), depth + 1) ||
                               transparent(d.getKey("/ExtGState").isDictionary() ? d : OH::newNull(), depth + 1)))
        return true;
    }
  }
  return false;
}

/* --cmyk: RGB pictures in DeviceCMYK (8 bits a component, whatever filter they had: qpdf
   decodes Flate and JPEG; a picture it cannot decode stays RGB); transparency groups blend
   in DeviceCMYK.  Soft masks are gray and stay as they are. */
void Pass::convert_images() {
  for (OH &o : q.getAllObjects()) {
    OH d = o.isStream() ? o.getDict() : o;
    if (!d.isDictionary()) continue;
    OH g = d.getKey("/Group");
    if (g.isDictionary() && g.getKey("/CS").isName() && g.getKey("/CS").getName() == "/DeviceRGB" &&
        !smask_groups.count(o.getObjGen()))
      g.replaceKey("/CS", OH::newName("/DeviceCMYK"));
    if (!o.isStream() || !d.getKey("/Subtype").isName() || d.getKey("/Subtype").getName() != "/Image") continue;
    OH cs = d.getKey("/ColorSpace"), bpc = d.getKey("/BitsPerComponent");
    if (!cs.isName() || cs.getName() != "/DeviceRGB" || !bpc.isInteger() || bpc.getIntValue() != 8) continue;
    long long w = d.getKey("/Width").isInteger() ? d.getKey("/Width").getIntValue() : 0;
    long long h = d.getKey("/Height").isInteger() ? d.getKey("/Height").getIntValue() : 0;
    std::shared_ptr<Buffer> data;
    try {
      data = o.getStreamData(qpdf_dl_all);
    } catch (std::exception &) {
      continue;
    }
    if (w <= 0 || h <= 0 || data->getSize() != (size_t)w * (size_t)h * 3) continue;
    std::string out((size_t)w * (size_t)h * 4, '\0');
    const unsigned char *px = data->getBuffer();
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
      const double rgb[3] = { px[3 * i] / 255.0, px[3 * i + 1] / 255.0, px[3 * i + 2] / 255.0 };
      std::array<double, 4> v = to_cmyk(rgb);
      for (int k = 0; k < 4; k++) out[4 * i + (size_t)k] = (char)std::lround(v[(size_t)k] * 255);
    }
    o.replaceStreamData(out, OH::newNull(), OH::newNull());
    d.replaceKey("/ColorSpace", OH::newName("/DeviceCMYK"));
    if (d.hasKey("/Decode")) d.removeKey("/Decode");
  }
}

/* cairo gives every page (and every form it records) a transparency group; where nothing
   on the page is transparent (the text layer no longer is), the groups go, and preflight
   sees an opaque page. */
void Pass::drop_groups() {
  for (QPDFPageObjectHelper &page : QPDFPageDocumentHelper(q).getAllPages()) {
    OH po = page.getObjectHandle();
    if (!po.hasKey("/Group") || transparent(po.getKey("/Resources"), 0)) continue;
    po.removeKey("/Group");
  }
  for (auto &kv : opaque_memo) {
    if (!kv.second) continue;
    OH x = q.getObjectByObjGen(kv.first);
    if (x.isStream() && x.getDict().hasKey("/Group")) x.getDict().removeKey("/Group");
  }
}

/* Crop marks at the corners of `trim` and registration targets at its sides, `slug` points
   outside, for a plate whose page has no marks of its own. */
static std::string plate_marks(const double trim[4], double slug) {
  std::string s;
  double t = 0.25, gap = 3, len = slug - gap - 1;
  double x0 = trim[0], y0 = trim[1], x1 = trim[2], y1 = trim[3];
  auto rect = [&](double x, double y, double w, double h) {
    s += num(x) + " " + num(y) + " " + num(w) + " " + num(h) + " re\n";
  };
  for (double cx : { x0, x1 })
    for (double cy : { y0, y1 }) {
      rect(cx == x0 ? x0 - gap - len : x1 + gap, cy - t / 2, len, t);
      rect(cx - t / 2, cy == y0 ? y0 - gap - len : y1 + gap, t, len);
    }
  double r = std::min(6.0, (slug - gap) / 2 - 1), d = gap + (slug - gap) / 2, qr = r * 0.6;
  double centers[4][2] = { { (x0 + x1) / 2, y0 - d }, { (x0 + x1) / 2, y1 + d }, { x0 - d, (y0 + y1) / 2 },
                           { x1 + d, (y0 + y1) / 2 } };
  for (auto &c : centers) {
    double mx = c[0], my = c[1];
    rect(mx - r, my - t / 2, 2 * r, t);
    rect(mx - t / 2, my - r, t, 2 * r);
    rect(mx - qr, my - qr, 2 * qr, t);
    rect(mx - qr, my + qr - t, 2 * qr, t);
    rect(mx - qr, my - qr, t, 2 * qr);
    rect(mx + qr - t, my - qr, t, 2 * qr);
  }
  return s + "f\n";
}

static OH box(const double b[4]) {
  OH a = OH::newArray();
  for (int i = 0; i < 4; i++) a.appendItem(OH::newReal(b[i], 6));
  return a;
}

/* Each page's boxes and marks. */
void Pass::add_marks() {
  std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(q).getAllPages();
  for (size_t i = 0; i < pages.size() && i < p->npages; i++) {
    const ct_pdf_page_t &pg = p->pages[i];
    std::string s;
    if (pg.has_trim) {
      pages[i].getObjectHandle().replaceKey("/TrimBox", box(pg.trim));
      pages[i].getObjectHandle().replaceKey("/BleedBox", box(pg.bleed));
    }
    for (unsigned k = 0; k < pg.nmarks; k++) {
      const double *m = pg.marks + 4 * k;
      s += num(m[0]) + " " + num(m[1]) + " " + num(m[2] - m[0]) + " " + num(m[3] - m[1]) + " re\n";
    }
    if (!s.empty()) s += "f\n";
    if (p->plate >= 0 && pg.nmarks == 0) {
      /* a plate is registered by its marks: a page without them gets a slug of 12 mm */
      const double slug = 34;
      double trim[4] = { 0, 0, pg.width, pg.height };
      if (pg.has_trim) memcpy(trim, pg.trim, sizeof trim);
      /* the sheet: the page, and the slug around the trim */
      double mb[4] = { std::min(0.0, trim[0] - slug), std::min(0.0, trim[1] - slug),
                       std::max(pg.width, trim[2] + slug), std::max(pg.height, trim[3] + slug) };
      OH po = pages[i].getObjectHandle();
      po.replaceKey("/MediaBox", box(mb));
      if (po.hasKey("/CropBox")) po.removeKey("/CropBox");
      if (!pg.has_trim) po.replaceKey("/TrimBox", box(trim));
      s += plate_marks(trim, slug);
    }
    if (s.empty()) continue;
    /* the page's own drawing may leave its matrix changed: it goes in q ... Q */
    pages[i].addPageContents(q.newStream(std::string("q\n")), true);
    std::string color = p->plate >= 0 ? "0 g\n" : "/ctAll cs 1 scn\n";
    pages[i].addPageContents(q.newStream("Q\nq\n" + color + s + "Q\n"), false);
    if (p->plate < 0) sub_dict(pages[i].getObjectHandle().getKey("/Resources"), "/ColorSpace").replaceKey("/ctAll", all_cs);
  }
}

/* cairo 1.16 writes the document's dates without the "D:" that ISO 32000 requires. */
static void fix_dates(QPDF &q) {
  OH info = q.getTrailer().getKey("/Info");
  if (!info.isDictionary()) return;
  for (const char *k : { "/CreationDate", "/ModDate" }) {
    OH d = info.getKey(k);
    if (d.isString() && d.getStringValue().compare(0, 2, "D:") != 0)
      info.replaceKey(k, OH::newString("D:" + d.getStringValue()));
  }
}

void Pass::run() {
  if (p->plate < 0) fix_dates(q);
  make_color_spaces();
  if (p->ink_count > 0 || p->plate >= 0 || xf) {
    find_smask_groups();
    convert_shadings();
  }
  if (xf) convert_images();
  filter_streams();
  drop_groups();
  add_marks();
}

}  // namespace

extern "C" ct_status_t ct_pdf_pass(const char *in, const void *in_mem, size_t in_len, FILE *out, const char *name,
                                   char **out_mem, size_t *out_len, ct_pdf_pass_t *pass, ct_error_t *err) {
  if (!name) name = "-";
  try {
    QPDF q;
    q.setSuppressWarnings(true);   /* cairo's repeated resource keys: read once, written once */
    if (in) {
      FILE *f = ct_fs_fopen_read(in, err);
      if (!f) return err ? err->status : CT_ERR_IO;
      q.processFile(in, f, true);
    } else q.processMemoryFile("cairo.pdf", (const char *)in_mem, in_len);
    pass->nprocess = pass->images = pass->inks_used = 0;
    /* Read every object now, a few hundred at a time, dropping qpdf's warnings in between:
       cairo's resource dictionaries repeat keys hundreds of times a page, qpdf keeps a
       warning for each until asked, and its first new indirect object reads the whole file
       at once (a 2,000-page document: 330,000 warnings, 100 MB). */
    size_t n = 0;
    for (auto &kv : q.getXRefTable()) {
      q.getObjectByObjGen(kv.first).getTypeCode();
      if (++n % 256 == 0) q.getWarnings();
    }
    q.getWarnings();
    Pass ps(q, pass);
    ps.run();
    QPDFWriter w(q);
    if (out) w.setOutputFile(name, out, false);
    else w.setOutputMemory();
    w.setDeterministicID(true);
    w.setCompressStreams(true);
    w.setDecodeLevel(qpdf_dl_none);   /* streams not filtered here are copied as they are */
    w.setObjectStreamMode(qpdf_o_preserve);   /* none, as cairo writes: plain objects for every reader and tool */
    w.write();
    if (!out) {
      Buffer *b = w.getBuffer();
      *out_len = b->getSize();
      if (!(*out_mem = (char *)malloc(*out_len ? *out_len : 1)))
        return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
      memcpy(*out_mem, b->getBuffer(), *out_len);
      delete b;
    }
    return CT_OK;
  } catch (std::bad_alloc &) {
    return ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory in the PDF pass", name);
  } catch (std::exception &e) {
    return ct_set_error(err, CT_ERR_BACKEND, "%s: PDF pass: %s", name, e.what());
  } catch (...) {
    return ct_set_error(err, CT_ERR_BACKEND, "%s: PDF pass failed", name);
  }
}
