/*
** woff2.cc: WOFF2 through Google's encoder (Debian libwoff-dev), the reference the
** browsers' decoders follow.  C++ because the encoder is; callable from C (fontwrite.h).
** Core layer.
*/
#include <woff2/encode.h>

#include <cstdlib>
#include <new>
#include <string>

/* declared in fontwrite.h, which is C */
extern "C" unsigned char *ct_woff2_encode(const unsigned char *sfnt, size_t len, size_t *out_len);

unsigned char *ct_woff2_encode(const unsigned char *sfnt, size_t len, size_t *out_len) {
  try {
    size_t cap = woff2::MaxWOFF2CompressedSize(sfnt, len);
    unsigned char *out = static_cast<unsigned char *>(std::malloc(cap ? cap : 1));
    if (!out) return nullptr;
    woff2::WOFF2Params params;
    params.allow_transforms = true;
    if (!woff2::ConvertTTFToWOFF2(sfnt, len, out, &cap, params)) {
      std::free(out);
      return nullptr;
    }
    *out_len = cap;
    return out;
  } catch (const std::exception &) {   /* bad_alloc, or the encoder's own */
    return nullptr;
  }
}
