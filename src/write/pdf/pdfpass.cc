/*
** pdfpass.cc: the finishing pass over the PDF cairo writes, through qpdf (C++: its content
** stream tokenizer and token filters are not in its C API).  Write stage; callable from C
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
** Here: the pass's driver, transparency groups, page boxes and marks; colors and inks are
** pdfpass-inks.cc's, shadings pdfpass-shade.cc's, content streams pdfpass-content.cc's.
*/
#include "pdfpass-internal.hh"

namespace ct_pdfpass {

std::string num(double v) {
  char b[32];
  if (std::fabs(v) < 5e-7) v = 0;
  snprintf(b, sizeof b, "%.6f", v);
  char *e = b + strlen(b) - 1;   /* trailing zeros off */
  while (e > b && *e == '0') *e-- = '\0';
  if (*e == '.') *e = '\0';
  return b;
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

}  // namespace ct_pdfpass

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
    ct_pdfpass::Pass ps(q, pass);
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
