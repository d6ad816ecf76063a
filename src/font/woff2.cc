/*
** woff2.cc: WOFF2 through Google's reference library (Debian libwoff-dev), the code the
** browsers' decoders follow: encoding for the font writer, decoding for opening fonts.
** C++ because the library is; callable from C (woff2.h).  Font stage: knows no paint tree,
** color table or page.
*/
#include <brotli/decode.h>
#include <woff2/decode.h>
#include <woff2/encode.h>
#include <woff2/output.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "woff2.h"

namespace {

/* Debian's encoder reports "Compressed N to M." on stderr, and the core prints nothing:
   stderr is /dev/null while it runs (the core is single-threaded), restored on every path. */
struct quiet_stderr {
  FILE *saved = stderr, *null = std::fopen("/dev/null", "w");
  quiet_stderr() { if (null) stderr = null; }
  ~quiet_stderr() {
    if (null) {
      stderr = saved;
      std::fclose(null);
    }
  }
  quiet_stderr(const quiet_stderr &) = delete;
  quiet_stderr &operator=(const quiet_stderr &) = delete;
};

uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* UIntBase128 (WOFF2 section 4.1): at most 5 bytes, no leading zero byte, below 2^32. */
bool base128(const unsigned char *&p, const unsigned char *end, uint32_t *v) {
  uint32_t acc = 0;
  for (int i = 0; i < 5; i++) {
    if (p == end) return false;
    unsigned char b = *p++;
    if (i == 0 && b == 0x80) return false;
    if (acc & 0xFE000000u) return false;
    acc = acc << 7 | (b & 0x7Fu);
    if (!(b & 0x80)) {
      *v = acc;
      return true;
    }
  }
  return false;
}

/* One entry of a WOFF2 table directory (section 5.2). */
struct dir_entry {
  unsigned known;         /* index into the known-tag table, 63: an arbitrary tag */
  uint32_t orig, length;  /* the table's sfnt length, its length in the compressed stream */
  bool     transformed;
};

/* The table directory after the 48-byte header, and where it ends; false if it is cut
   short or malformed (the decoder then refuses the file itself). */
bool read_directory(const unsigned char *d, size_t len, std::vector<dir_entry> *dir, size_t *end_at) {
  unsigned n = (unsigned)(d[12] << 8 | d[13]);
  const unsigned char *p = d + 48, *end = d + len;
  dir->clear();
  dir->reserve(n);
  for (unsigned i = 0; i < n; i++) {
    if (p == end) return false;
    dir_entry e;
    unsigned flags = *p++, version = flags >> 6;
    e.known = flags & 0x3F;
    if (e.known == 0x3F) {   /* an arbitrary tag follows */
      if (end - p < 4) return false;
      p += 4;
    }
    if (!base128(p, end, &e.orig)) return false;
    e.length = e.orig;
    /* glyf (10) and loca (11) are transformed by version 0, the other tables by 1..3 */
    e.transformed = (e.known == 10 || e.known == 11) ? version == 0 : version != 0;
    if (e.transformed && !base128(p, end, &e.length)) return false;
    dir->push_back(e);
  }
  *end_at = (size_t)(p - d);
  return true;
}

/* ---- the overlapSimpleBitmap --------------------------------------------------------

   WOFF2's second edition lets the glyf transform carry the OVERLAP_SIMPLE flags of simple
   glyphs as a bitmap (optionFlags bit 0, the bitmap after the seven substreams).  Debian's
   libwoff2 1.0.2 predates it: it decodes such a file but leaves the flags out, where
   FreeType's own decoder keeps them (FT_OUTLINE_OVERLAP).  So they are put back here, into
   the first flag of each glyph the bitmap names, from the stream ct_woff2_decode inflated;
   single fonts only (a collection's glyf tables are left as the decoder made them). */

uint32_t rd16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }

void wr32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

uint32_t checksum(const unsigned char *p, size_t n) {
  uint32_t sum = 0;
  size_t i;
  for (i = 0; i + 4 <= n; i += 4) sum += rd32(p + i);
  if (i < n) {
    unsigned char tail[4] = { 0, 0, 0, 0 };
    std::memcpy(tail, p + i, n - i);
    sum += rd32(tail);
  }
  return sum;
}

/* A brotli stream (RFC 7932) that stores `raw` as it is: a 64 KiB window (WBITS 16), then
   uncompressed meta-blocks of at most 64 KiB (ISLAST 0, MNIBBLES, MLEN - 1, ISUNCOMPRESSED 1,
   padding to the byte, the bytes), then an empty last meta-block.  Decoding it is copying. */
struct bit_writer {
  std::vector<unsigned char> *out;
  uint32_t acc = 0;
  int bits = 0;
  void put(uint32_t v, int n) {
    acc |= v << bits;
    bits += n;
    while (bits >= 8) {
      out->push_back((unsigned char)acc);
      acc >>= 8;
      bits -= 8;
    }
  }
  void flush() {   /* zero padding to the byte */
    if (bits) out->push_back((unsigned char)acc);
    acc = 0;
    bits = 0;
  }
};

void brotli_stored(const unsigned char *raw, size_t n, std::vector<unsigned char> *out) {
  const size_t block = 1u << 16;
  bit_writer w;
  w.out = out;
  out->reserve(out->size() + n + 4 * (n / block + 2));
  w.put(0, 1);                                 /* WBITS = 16 */
  for (size_t at = 0; at < n; at += block) {
    size_t len = n - at < block ? n - at : block;
    w.put(0, 1);                               /* ISLAST */
    w.put(0, 2);                               /* MNIBBLES = 4: MLEN - 1 < 2^16 */
    w.put((uint32_t)(len - 1), 16);
    w.put(1, 1);                               /* ISUNCOMPRESSED */
    w.flush();
    out->insert(out->end(), raw + at, raw + at + len);
  }
  w.put(1, 1);                                 /* ISLAST */
  w.put(1, 1);                                 /* ISLASTEMPTY */
  w.flush();
}

/* An sfnt table's offset and length, if it lies inside the font. */
bool find_table(const unsigned char *f, size_t len, uint32_t tag, size_t *off, size_t *n, size_t *rec) {
  if (len < 12) return false;
  unsigned count = rd16(f + 4);
  if ((len - 12) / 16 < count) return false;
  for (unsigned i = 0; i < count; i++) {
    const unsigned char *r = f + 12 + 16 * (size_t)i;
    if (rd32(r) != tag) continue;
    *off = rd32(r + 8);
    *n = rd32(r + 12);
    *rec = 12 + 16 * (size_t)i;
    return *off <= len && *n <= len - *off;
  }
  return false;
}

/* The overlap bitmap of the transformed glyf in the inflated stream (one bit per glyph, the
   most significant first), or an empty vector. */
std::vector<unsigned char> overlap_bitmap(const std::vector<dir_entry> &dir,
                                          const std::vector<unsigned char> &stream) {
  size_t at = 0, glyf_at = 0, glyf_len = 0;
  bool found = false;
  for (const dir_entry &e : dir) {
    if (e.known == 10 && e.transformed) {
      glyf_at = at;
      glyf_len = e.length;
      found = true;
      break;
    }
    at += e.length;
  }
  if (!found || glyf_len < 36 || glyf_at > stream.size() || stream.size() - glyf_at < glyf_len) return {};
  const unsigned char *g = stream.data() + glyf_at;
  if (!(rd16(g + 2) & 1)) return {};          /* optionFlags: no bitmap */
  size_t nglyphs = rd16(g + 4), bitmap_len = (nglyphs + 7) >> 3;
  uint64_t bitmap_at = 36;
  for (int i = 0; i < 7; i++) bitmap_at += rd32(g + 8 + 4 * i);
  if (bitmap_at > glyf_len || glyf_len - bitmap_at < bitmap_len) return {};
  return std::vector<unsigned char>(g + bitmap_at, g + bitmap_at + bitmap_len);
}

/* Sets OVERLAP_SIMPLE on the first point of each simple glyph the bitmap names, in the sfnt
   the decoder made, and mends the glyf checksum and head.checkSumAdjustment. */
void apply_overlap_bitmap(const std::vector<unsigned char> &bitmap, unsigned char *sfnt, size_t sfnt_len) {
  const uint32_t glyf_tag = 0x676C7966, loca_tag = 0x6C6F6361, head_tag = 0x68656164;
  size_t nglyphs = bitmap.size() * 8;

  size_t go, gn, grec, lo, ln, lrec, ho, hn, hrec;
  if (!find_table(sfnt, sfnt_len, glyf_tag, &go, &gn, &grec) ||
      !find_table(sfnt, sfnt_len, loca_tag, &lo, &ln, &lrec) ||
      !find_table(sfnt, sfnt_len, head_tag, &ho, &hn, &hrec) || hn < 54)
    return;
  bool long_loca = rd16(sfnt + ho + 50) != 0;
  if (ln / (long_loca ? 4 : 2) < 1) return;
  nglyphs = std::min(nglyphs, ln / (long_loca ? 4 : 2) - 1);   /* loca has nglyphs + 1 entries */
  bool changed = false;
  for (size_t i = 0; i < nglyphs; i++) {
    if (!(bitmap[i >> 3] & (0x80 >> (i & 7)))) continue;
    size_t a = long_loca ? rd32(sfnt + lo + 4 * i) : 2 * (size_t)rd16(sfnt + lo + 2 * i);
    size_t b = long_loca ? rd32(sfnt + lo + 4 * i + 4) : 2 * (size_t)rd16(sfnt + lo + 2 * i + 2);
    if (a >= b || b > gn || b - a < 12) continue;
    unsigned char *gl = sfnt + go + a;
    size_t glen = b - a;
    unsigned contours = rd16(gl);
    if (contours == 0 || contours >= 0x8000) continue;   /* empty or composite */
    size_t p = 10 + 2 * (size_t)contours;
    if (p + 2 > glen) continue;
    p += 2 + rd16(gl + p);                                 /* instructions */
    if (p >= glen) continue;
    if (!(gl[p] & 0x40)) {
      gl[p] |= 0x40;
      changed = true;
    }
  }
  if (!changed) return;
  wr32(sfnt + grec + 4, checksum(sfnt + go, gn));
  wr32(sfnt + ho + 8, 0);
  wr32(sfnt + ho + 8, 0xB1B0AFBAu - checksum(sfnt, sfnt_len));
}

/* The decoder's output: a buffer that grows as it is written, never beyond `limit`. */
class capped_out : public woff2::WOFF2Out {
 public:
  explicit capped_out(size_t limit) : limit_(limit) {}
  ~capped_out() override { std::free(buf_); }
  capped_out(const capped_out &) = delete;
  capped_out &operator=(const capped_out &) = delete;

  bool reserve(size_t need) {
    if (need <= cap_) return true;
    if (need > limit_) {
      over_ = true;
      return false;
    }
    size_t cap = cap_ > limit_ / 2 ? limit_ : cap_ * 2;
    if (cap < need) cap = need;
    unsigned char *p = static_cast<unsigned char *>(std::realloc(buf_, cap ? cap : 1));
    if (!p) {
      nomem_ = true;
      return false;
    }
    std::memset(p + cap_, 0, cap - cap_);   /* gaps the decoder skips read as zeros */
    buf_ = p;
    cap_ = cap;
    return true;
  }
  bool Write(const void *data, size_t n) override { return Write(data, size_, n); }
  bool Write(const void *data, size_t offset, size_t n) override {
    if (offset > limit_ || n > limit_ - offset) {
      over_ = true;
      return false;
    }
    if (!reserve(offset + n)) return false;
    if (n) std::memcpy(buf_ + offset, data, n);
    if (offset + n > size_) size_ = offset + n;
    return true;
  }
  size_t Size() override { return size_; }

  unsigned char *take(size_t *len) {   /* the bytes written, owned by the caller */
    unsigned char *p = buf_;
    *len = size_;
    buf_ = nullptr;
    cap_ = size_ = 0;
    return p;
  }
  bool over() const { return over_; }
  bool nomem() const { return nomem_; }

 private:
  unsigned char *buf_ = nullptr;
  size_t cap_ = 0, size_ = 0, limit_;
  bool over_ = false, nomem_ = false;
};

}  // namespace

unsigned char *ct_woff2_encode(const unsigned char *sfnt, size_t len, size_t *out_len) {
  try {
    size_t cap = woff2::MaxWOFF2CompressedSize(sfnt, len);
    /* zeroed: the encoder skips the padding between the tables it writes */
    unsigned char *out = static_cast<unsigned char *>(std::calloc(cap ? cap : 1, 1));
    if (!out) return nullptr;
    woff2::WOFF2Params params;
    params.allow_transforms = true;
    bool ok;
    {
      quiet_stderr quiet;
      ok = woff2::ConvertTTFToWOFF2(sfnt, len, out, &cap, params);
    }
    if (!ok) {
      std::free(out);
      return nullptr;
    }
    *out_len = cap;
    return out;
  } catch (const std::exception &) {   /* bad_alloc, or the encoder's own */
    return nullptr;
  }
}

ct_woff2_status_t ct_woff2_decode(const unsigned char *data, size_t len, size_t limit,
                                  unsigned char **out, size_t *out_len, uint64_t *detail) {
  uint64_t dummy, stream = 0, tables = 0;
  std::vector<dir_entry> dir;
  size_t dir_end = 0;
  if (!detail) detail = &dummy;
  *detail = 0;
  *out = nullptr;
  *out_len = 0;
  if (len < 48) {
    *detail = 48;
    return CT_WOFF2_TRUNCATED;
  }
  if (rd32(data + 8) != len) {   /* the header's length of the whole file */
    *detail = rd32(data + 8);
    return *detail > len ? CT_WOFF2_TRUNCATED : CT_WOFF2_INVALID;
  }
  /* Check every size the file declares before the decoder allocates from it: the header's
     totalSfntSize, the decompressed stream and the tables the directory lists. */
  *detail = rd32(data + 16);
  if (*detail > limit) return CT_WOFF2_TOO_BIG;
  try {
    if (!read_directory(data, len, &dir, &dir_end)) return CT_WOFF2_INVALID;
  } catch (const std::bad_alloc &) {
    return CT_WOFF2_NOMEM;
  }
  for (const dir_entry &e : dir) {
    stream += e.length;                           /* the decoder inflates this much at once */
    tables += ((uint64_t)e.orig + 3) & ~(uint64_t)3;
  }
  *detail = stream > tables ? stream : tables;
  if (*detail > limit) return CT_WOFF2_TOO_BIG;
  *detail = 0;
  try {
    capped_out sink(limit);
    unsigned n = (unsigned)(data[12] << 8 | data[13]);
    bool single = rd32(data + 4) != 0x74746366;   /* not 'ttcf' */
    std::vector<unsigned char> raw, copy, bitmap;
    const unsigned char *input = data;
    size_t input_len = len;
    /* A single font's brotli stream is inflated here, once: the overlap bitmap is read from
       it, and the decoder is given the same file with the stream stored uncompressed (its
       own inflating then costs a copy).  Metadata and private blocks, which make no part of
       the sfnt, are left out of that copy.  A collection's stream starts after its
       collection directory, which is not read here: it goes to the decoder as it is. */
    if (single) {
      size_t compressed = rd32(data + 20), got = (size_t)stream;
      if (dir_end > len || compressed > len - dir_end || stream == 0) return CT_WOFF2_INVALID;
      raw.resize((size_t)stream);
      if (BrotliDecoderDecompress(compressed, data + dir_end, &got, raw.data()) != BROTLI_DECODER_RESULT_SUCCESS ||
          got != stream)
        return CT_WOFF2_INVALID;
      bitmap = overlap_bitmap(dir, raw);
      copy.assign(data, data + dir_end);
      brotli_stored(raw.data(), raw.size(), &copy);
      std::vector<unsigned char>().swap(raw);                /* the decoder makes its own */
      size_t stored = copy.size() - dir_end;
      copy.resize((copy.size() + 3) & ~(size_t)3);          /* the file ends 4-aligned */
      if (copy.size() > 0xFFFFFFFFu) return CT_WOFF2_TOO_BIG;
      wr32(&copy[8], (uint32_t)copy.size());                 /* length */
      wr32(&copy[20], (uint32_t)stored);                     /* totalCompressedSize */
      std::memset(&copy[28], 0, 20);                         /* no metadata, no private block */
      input = copy.data();
      input_len = copy.size();
    }
    /* first guess: the directory's tables after an sfnt header (a collection grows it) */
    if (!sink.reserve((size_t)tables + 12 + 16 * (size_t)n) && sink.nomem()) return CT_WOFF2_NOMEM;
    if (!woff2::ConvertWOFF2ToTTF(input, input_len, &sink)) {
      if (sink.nomem()) return CT_WOFF2_NOMEM;
      return sink.over() ? CT_WOFF2_TOO_BIG : CT_WOFF2_INVALID;
    }
    *out = sink.take(out_len);
    if (!bitmap.empty()) apply_overlap_bitmap(bitmap, *out, *out_len);
    return CT_WOFF2_OK;
  } catch (const std::bad_alloc &) {
    return CT_WOFF2_NOMEM;
  } catch (const std::exception &) {
    return CT_WOFF2_INVALID;
  }
}
