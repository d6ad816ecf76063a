/*
** pdfjoin.cc: a long PDF written as chunks, each finished by the PDF pass, joined into one
** file as they are made (docs/pdf.md).  Each chunk is read with qpdf, one at a time; its
** pages and what they reference are renumbered and written here with our own serializer
** (streams as their raw, still compressed bytes), and the page tree, catalog, cross-reference
** table and trailer close the file.  Objects are written after what they reference, so one
** equal to an object written before (bytes and references) is found by its hash and shared:
** what every chunk repeats (recorded glyphs, their resources, graphics states, font programs
** of the same glyphs) is written once.  What stays in memory grows by an offset an object, a
** number a page and a hash entry for each object but pages and their contents.  Write stage
** (PDF): knows no page or canvas, only PDF files; callable from C (pdfjoin.h).
*/
#define POINTERHOLDER_TRANSITION 4
#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFCryptoProvider.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QUtil.hh>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>

#include "pdfjoin.h"

extern "C" ct_status_t ct_set_error(ct_error_t *err, ct_status_t status, const char *fmt, ...);

namespace {

typedef QPDFObjectHandle OH;

/* Object numbers 1 and 2 are the joined file's page tree and catalog, written last. */
const uint32_t PAGES = 1, CATALOG = 2;

/* An object written, found again by the hash of its bytes. */
struct Written {
  uint32_t  num;
  long long off;     /* where its bytes after "N 0 obj" begin in the output */
  size_t    len;
};

/* Objects are written children first; a chain of references deeper than this is written
   breadth first instead (its objects then not shared). */
const int MAX_DEPTH = 200;

/* Marks an object being written that has no number yet. */
const uint32_t PENDING = UINT32_MAX;

struct IoError : std::runtime_error {
  int code;
  explicit IoError(int e) : std::runtime_error(strerror(e)), code(e) {}
};

uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211u;
  return h;
}

/* A name as PDF writes it: the regular characters as they are, the others as #xx. */
void put_name(std::string &out, const std::string &name) {
  out += '/';
  for (size_t i = 1; i < name.size(); i++) {
    unsigned char ch = (unsigned char)name[i];
    if (ch < 33 || ch > 126 || strchr("#()<>[]{}/%", ch)) {
      char hex[4];
      snprintf(hex, sizeof hex, "#%02x", ch);
      out += hex;
    } else {
      out += (char)ch;
    }
  }
}

}  // namespace

struct ct_pdf_join {
  FILE                  *out;
  std::string            name;
  long long              pos = 0;
  std::vector<long long> offsets{ -1 };       /* by object number; -1 while unwritten */
  std::vector<uint32_t>  kids;                /* the pages, in order */
  std::unordered_multimap<uint64_t, Written> written;   /* objects another chunk may repeat */
  unsigned               chunks = 0;
  std::string            catalog;             /* the first chunk's catalog entries but /Pages */
  std::set<std::string>  catalog_keys;
  std::string            info_entry;          /* "/Info N 0 R" */
  std::string            id0;                 /* the first chunk's /ID, first half, as written */
  std::string            version, max_version;
  std::shared_ptr<QPDFCryptoImpl> md5;

  /* the chunk being added */
  std::map<QPDFObjGen, uint32_t> nums;        /* its objects' numbers here (PENDING: being written) */
  std::deque<OH>                 todo;        /* numbered, to be written (past MAX_DEPTH) */
  std::set<QPDFObjGen>           pages, contents;
  QPDFObjGen                     root_og, tree_og;
  int                            depth = 0;

  void write(const void *p, size_t n) {
    if (n && fwrite(p, 1, n, out) != n) throw IoError(errno ? errno : EIO);
    md5->MD5_update(static_cast<const unsigned char *>(p), n);
    pos += (long long)n;
  }
  void write(const std::string &s) { write(s.data(), s.size()); }

  uint32_t new_num() {
    offsets.push_back(-1);
    return (uint32_t)(offsets.size() - 1);
  }

  uint32_t ref(OH o);
  void     put(OH o, std::string &out, bool top);
  void     put_dict(OH o, std::string &out, bool page, const char *skip);
  uint32_t find(uint64_t h, const std::string &head, const Buffer *data, const std::string &tail);
  uint32_t write_object(OH o);
  void     add(QPDF &q);
  void     finish();
};

/* The number an indirect object has in the output: written now, after what it references
   (so that an object equal to one written before, references included, is not written
   again); one met again while it is being written (a cycle) is numbered at once. */
uint32_t ct_pdf_join::ref(OH o) {
  QPDFObjGen og = o.getObjGen();
  if (og == tree_og) return PAGES;
  if (og == root_og) return CATALOG;
  auto it = nums.find(og);
  if (it != nums.end()) {
    if (it->second == PENDING) it->second = new_num();
    return it->second;
  }
  if (depth >= MAX_DEPTH) {
    uint32_t n = new_num();
    nums[og] = n;
    todo.push_back(o);
    return n;
  }
  nums[og] = PENDING;
  depth++;
  uint32_t n = write_object(o);
  depth--;
  nums[og] = n;
  return n;
}

void ct_pdf_join::put(OH o, std::string &s, bool top) {
  if (!top && o.isIndirect()) {
    if (o.isNull()) { s += "null"; return; }   /* a reference to nothing */
    s += std::to_string(ref(o));
    s += " 0 R";
    return;
  }
  switch (o.getTypeCode()) {
  case ot_null: s += "null"; break;
  case ot_boolean: s += o.getBoolValue() ? "true" : "false"; break;
  case ot_integer: s += std::to_string(o.getIntValue()); break;
  case ot_real: s += o.getRealValue(); break;
  case ot_string: s += o.unparse(); break;
  case ot_name: put_name(s, o.getName()); break;
  case ot_array: {
    s += '[';
    bool first = true;
    for (auto item : o.aitems()) {
      if (!first) s += ' ';
      first = false;
      put(item, s, false);
    }
    s += ']';
    break;
  }
  case ot_dictionary: put_dict(o, s, false, nullptr); break;
  default: throw std::runtime_error("unexpected object type " + std::to_string((int)o.getTypeCode()));
  }
}

/* A dictionary; a page's /Parent is the joined tree; `skip` is left out. */
void ct_pdf_join::put_dict(OH o, std::string &s, bool page, const char *skip) {
  s += "<<";
  for (auto kv : o.ditems()) {
    if (kv.second.isNull() || (skip && kv.first == skip)) continue;
    put_name(s, kv.first);
    s += ' ';
    if (page && kv.first == "/Parent") s += "1 0 R";
    else put(kv.second, s, false);
  }
  s += ">>";
}

/* The number of an object written before with these bytes (read back and compared), or
   PENDING. */
uint32_t ct_pdf_join::find(uint64_t h, const std::string &head, const Buffer *data, const std::string &tail) {
  size_t n = data ? data->getSize() : 0, len = head.size() + n + tail.size();
  auto range = written.equal_range(h);
  if (range.first == range.second) return PENDING;
  if (fflush(out) != 0) throw IoError(errno ? errno : EIO);
  for (auto it = range.first; it != range.second; ++it) {
    const Written &w = it->second;
    if (w.len != len) continue;
    std::vector<char> back(len);
    if (pread(fileno(out), back.data(), len, (off_t)w.off) != (ssize_t)len) throw IoError(errno ? errno : EIO);
    if (memcmp(back.data(), head.data(), head.size()) == 0 &&
        (n == 0 || memcmp(back.data() + head.size(), data->getBuffer(), n) == 0) &&
        memcmp(back.data() + head.size() + n, tail.data(), tail.size()) == 0)
      return w.num;
  }
  return PENDING;
}

/* Writes an object (after what it references) and returns its number: that of an equal
   object written before when there is one, unless a cycle numbered it already.  Pages and
   their content streams, never repeated, are not looked up. */
uint32_t ct_pdf_join::write_object(OH o) {
  QPDFObjGen og = o.getObjGen();
  bool page = pages.count(og) > 0;
  std::shared_ptr<Buffer> data;
  std::string head, tail;
  if (o.isStream()) {
    data = o.getRawStreamData();
    put_dict(o.getDict(), head, false, "/Length");
    head.pop_back();
    head.pop_back();
    head += "/Length " + std::to_string(data->getSize()) + ">>\nstream\n";
    tail = "\nendstream\nendobj\n";
  } else {
    if (o.isDictionary()) put_dict(o, head, page, nullptr);
    else put(o, head, true);
    tail = "\nendobj\n";
  }
  uint32_t n = nums[og];
  bool share = n == PENDING && !page && !contents.count(og);
  uint64_t h = 0;
  if (share) {
    h = fnv(1469598103934665603u, head.data(), head.size());
    if (data) h = fnv(h, data->getBuffer(), data->getSize());
    uint32_t same = find(h, head, data.get(), tail);
    if (same != PENDING) return same;
  }
  if (n == PENDING) n = new_num();
  offsets[n] = pos;
  write(std::to_string(n) + " 0 obj\n");
  long long off = pos;
  write(head);
  if (data) write(data->getBuffer(), data->getSize());
  write(tail);
  if (share) written.emplace(h, Written{ n, off, (size_t)(pos - off) });
  return n;
}

/* One chunk: its pages in order, then everything they reach. */
void ct_pdf_join::add(QPDF &q) {
  OH trailer = q.getTrailer(), root = trailer.getKey("/Root");
  std::string v = q.getPDFVersion();
  if (!root.isDictionary() || !root.getKey("/Pages").isDictionary())
    throw std::runtime_error("the chunk has no page tree");
  nums.clear();
  todo.clear();
  pages.clear();
  root_og = root.getObjGen();
  tree_og = root.getKey("/Pages").getObjGen();
  q.pushInheritedAttributesToPage();   /* /Resources, /MediaBox, /CropBox, /Rotate onto the pages */
  if (chunks == 0) {
    char bin[] = "%\xbf\xf7\xa2\xfe\n";
    version = max_version = v;
    write("%PDF-" + v + "\n");
    write(bin, strlen(bin));
  } else if (v > max_version) {   /* "1.5" < "1.7" < "2.0": a later chunk's is set in the catalog */
    max_version = v;
  }
  contents.clear();
  for (OH page : q.getAllPages()) {
    pages.insert(page.getObjGen());
    OH c = page.getKey("/Contents");
    if (c.isIndirect()) contents.insert(c.getObjGen());
    if (c.isArray())
      for (auto item : c.aitems())
        if (item.isIndirect()) contents.insert(item.getObjGen());
  }
  for (OH page : q.getAllPages()) kids.push_back(ref(page));
  if (chunks == 0) {
    /* the catalog's other entries (output intents, metadata, whatever the pass adds) and
       the document information come from the first chunk; the others carry the same */
    for (auto kv : root.ditems()) {
      if (kv.first == "/Pages" || kv.first == "/Type" || kv.first == "/Version" || kv.second.isNull()) continue;
      catalog_keys.insert(kv.first);
      put_name(catalog, kv.first);
      catalog += ' ';
      put(kv.second, catalog, false);
    }
    OH info = trailer.getKey("/Info");
    if (info.isDictionary()) {
      info_entry = "/Info ";
      if (info.isIndirect()) info_entry += std::to_string(ref(info)) + " 0 R";
      else put(info, info_entry, true);
    }
    OH id = trailer.getKey("/ID");
    if (id.isArray() && id.getArrayNItems() == 2 && id.getArrayItem(0).isString())
      id0 = id.getArrayItem(0).unparse();
  } else {
    for (auto kv : root.ditems()) {
      if (kv.first == "/Pages" || kv.first == "/Type" || kv.first == "/Version" || kv.second.isNull()) continue;
      if (!catalog_keys.count(kv.first))
        throw std::runtime_error("chunk " + std::to_string(chunks + 1) + "'s catalog holds " + kv.first +
                                 ", which the first chunk's lacks");
    }
  }
  while (!todo.empty()) {   /* what lay deeper than MAX_DEPTH, numbered already */
    OH o = todo.front();
    todo.pop_front();
    write_object(o);
  }
  chunks++;
}

/* The page tree, the catalog, the cross-reference table and the trailer. */
void ct_pdf_join::finish() {
  char line[32];
  if (chunks == 0) throw std::runtime_error("no chunk to join");
  offsets[PAGES] = pos;
  write(std::string("1 0 obj\n<</Type /Pages /Count ") + std::to_string(kids.size()) + " /Kids [");
  for (size_t i = 0; i < kids.size(); i++) {
    snprintf(line, sizeof line, i + 1 < kids.size() ? "%u 0 R " : "%u 0 R", kids[i]);
    write(line, strlen(line));
  }
  write(std::string("]>>\nendobj\n"));
  offsets[CATALOG] = pos;
  std::string cat = "2 0 obj\n<</Type /Catalog /Pages 1 0 R";
  if (max_version > version) cat += " /Version /" + max_version;
  if (!catalog.empty()) cat += " " + catalog;
  write(cat + ">>\nendobj\n");

  for (size_t n = 1; n < offsets.size(); n++)
    if (offsets[n] < 0) throw std::runtime_error("object " + std::to_string(n) + " was never written");
  long long xref = pos;
  write("xref\n0 " + std::to_string(offsets.size()) + "\n0000000000 65535 f \n");
  for (size_t n = 1; n < offsets.size(); n++) {
    snprintf(line, sizeof line, "%010lld 00000 n \n", offsets[n]);
    write(line, 20);
  }
  /* /ID: the first chunk's first half (qpdf's, deterministic), then a digest of this file */
  QPDFCryptoImpl::MD5_Digest d;
  md5->MD5_finalize();
  md5->MD5_digest(d);
  std::string id1 = "<";
  for (unsigned char b : d) {
    snprintf(line, sizeof line, "%02x", b);
    id1 += line;
  }
  id1 += ">";
  std::string t = "trailer\n<</Size " + std::to_string(offsets.size()) + " /Root 2 0 R";
  if (!info_entry.empty()) t += " " + info_entry;
  t += " /ID [" + (id0.empty() ? id1 : id0) + id1 + "]>>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  if (fwrite(t.data(), 1, t.size(), out) != t.size()) throw IoError(errno ? errno : EIO);
  pos += (long long)t.size();
}

/* ---- C ---------------------------------------------------------------------------- */

template <class F> static ct_status_t guarded(ct_pdf_join_t *j, const char *what, ct_error_t *err, F f) {
  try {
    f();
    return CT_OK;
  } catch (IoError &e) {
    return ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", j->name.c_str(), strerror(e.code));
  } catch (std::bad_alloc &) {
    return ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory joining the PDF", j->name.c_str());
  } catch (std::exception &e) {
    return ct_set_error(err, CT_ERR_BACKEND, "%s: joining the PDF (%s): %s", j->name.c_str(), what, e.what());
  } catch (...) {
    return ct_set_error(err, CT_ERR_BACKEND, "%s: joining the PDF (%s) failed", j->name.c_str(), what);
  }
}

extern "C" ct_pdf_join_t *ct_pdf_join_create(FILE *out, const char *name) {
  try {
    ct_pdf_join_t *j = new ct_pdf_join_t;
    j->out = out;
    j->name = name;
    j->offsets.push_back(-1);   /* 1: the page tree */
    j->offsets.push_back(-1);   /* 2: the catalog */
    j->md5 = QPDFCryptoProvider::getImpl();
    j->md5->MD5_init();
    return j;
  } catch (...) {
    return nullptr;
  }
}

extern "C" ct_status_t ct_pdf_join_add(ct_pdf_join_t *j, const char *chunk, ct_error_t *err) {
  return guarded(j, "a chunk", err, [&] {
    /* read whole: qpdf reads a file by seeking for nearly every token (a chunk is a few MB) */
    size_t size = 0;
    ct_error_t rerr;
    std::unique_ptr<unsigned char, decltype(&free)> bytes(ct_fs_read_all(chunk, SIZE_MAX / 2, &size, &rerr), free);
    if (!bytes) throw std::runtime_error(rerr.message);
    QPDF q;
    q.setSuppressWarnings(true);
    q.processMemoryFile(chunk, (const char *)bytes.get(), size);
    j->add(q);
  });
}

extern "C" ct_status_t ct_pdf_join_finish(ct_pdf_join_t *j, ct_error_t *err) {
  return guarded(j, "the end", err, [&] { j->finish(); });
}

extern "C" void ct_pdf_join_destroy(ct_pdf_join_t *j) { delete j; }
