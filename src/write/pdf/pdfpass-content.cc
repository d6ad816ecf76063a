/*
** pdfpass-content.cc: the PDF pass's content-stream filter (qpdf token filters): colors set in
** inks, paints left off plates, the text layer in mode 3, the colors reported.  Knows no ICC.
*/
#include "pdfpass-internal.hh"

namespace ct_pdfpass {

/* ---- content streams ----------------------------------------------------------- */

namespace {

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

}  // namespace

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

static OH resources_of(OH dict) {
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

}  // namespace ct_pdfpass
