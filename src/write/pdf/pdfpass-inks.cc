/*
** pdfpass-inks.cc: the PDF pass's colors: which ink prints a color, Separation and DeviceN
** spaces, overprint states, --cmyk through lcms2 (colors and pictures).  Knows no content stream.
*/
#include "pdfpass-internal.hh"

namespace ct_pdfpass {

static std::string ink_name(const ct_ink_t &ink) { return "/" + std::string(ink.name); }

/* ---- what a color is printed with --------------------------------------------- */

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

static OH fn2(const std::vector<double> &c0, const std::vector<double> &c1) {
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

static OH separation(QPDF &q, const ct_ink_t &ink) {
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

}  // namespace ct_pdfpass
