/*
** pdfpass-shade.cc: the PDF pass's gradients: function and mesh shadings recolored as inks
** (Separation, DeviceN), gray on a plate or DeviceCMYK.  Knows no content stream.
*/
#include "pdfpass-internal.hh"

namespace ct_pdfpass {

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

}  // namespace ct_pdfpass
