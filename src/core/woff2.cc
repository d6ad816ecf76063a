/*
** woff2.cc: WOFF2 through Google's encoder (Debian libwoff-dev), the reference the
** browsers' decoders follow.  C++ because the encoder is; callable from C (fontwrite.h).
** Core layer.
*/
#include <woff2/encode.h>

#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

/* declared in fontwrite.h, which is C */
extern "C" unsigned char *ct_woff2_encode(const unsigned char *sfnt, size_t len, size_t *out_len);

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
