/*
** woff2.h: WOFF2 both ways through Google's reference library (Debian libwoff-dev), the
** code the browsers' decoders follow.  Implemented in C++ (woff2.cc), callable from C.
** Font stage, reached through font.h: font.c decodes, fontmake/ encodes.
*/
#ifndef CT_WOFF2_H
#define CT_WOFF2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sfnt as WOFF2 (glyf/loca transformed); malloc'ed, or NULL. */
unsigned char *ct_woff2_encode(const unsigned char *sfnt, size_t len, size_t *out_len);

/* Why a WOFF2 file was not decoded. */
typedef enum {
  CT_WOFF2_OK = 0,
  CT_WOFF2_TRUNCATED,    /* the header's length is not the file's (*detail: the header's) */
  CT_WOFF2_TOO_BIG,      /* it would decode to more than `limit` bytes (*detail: the size
                            its header or table directory declares, or 0 if only the
                            decoding found out) */
  CT_WOFF2_INVALID,      /* the decoder refused it (bad directory, brotli stream or transform) */
  CT_WOFF2_NOMEM
} ct_woff2_status_t;

/* Decodes a WOFF2 file (single font or collection) into its plain sfnt, a new malloc'ed
   buffer of *out_len bytes in *out.  Nothing is allocated from the sizes the file declares
   before they are checked against `limit`, and the decoder cannot write past it.  Does not
   throw; *detail (may be NULL) explains CT_WOFF2_TRUNCATED and CT_WOFF2_TOO_BIG. */
ct_woff2_status_t ct_woff2_decode(const unsigned char *data, size_t len, size_t limit,
                                  unsigned char **out, size_t *out_len, uint64_t *detail);

#ifdef __cplusplus
}
#endif

#endif /* CT_WOFF2_H */
