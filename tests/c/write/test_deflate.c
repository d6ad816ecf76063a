/*
** test_deflate.c: the PNG row encoder (src/write/png/deflate.c) against zlib's inflate: pieces
** of every kind of data (runs, pixel repeats, noise that needs stored blocks, one byte,
** skewed literals that need codes longer than 15 bits before the limit), for 3 and 4
** bytes a pixel, joined in order into one stream that must inflate to the input exactly
** and end where it ends; the same input always gives the same bytes.  Core unit test.
*/
#include <stdint.h>
#include <zlib.h>

#include "ct-test.h"
#include "write/png/png.h"

static uint32_t rng = 12345;
static unsigned next(void) {
  rng = rng * 1103515245u + 12345u;
  return (rng >> 16) & 0x7fff;
}

/* Compresses `n` bytes as `pieces` pieces and inflates the joined stream back. */
static int roundtrip(const unsigned char *in, size_t n, unsigned bpp, unsigned pieces, size_t *total) {
  unsigned char *joined = NULL, *back = malloc(n + 1);
  size_t jlen = 0, off = 0, step = (n + pieces - 1) / pieces;
  unsigned k;
  z_stream z;
  int ok = 1, rc;
  for (k = 0; k < pieces && off < n; k++) {
    size_t len = n - off < step ? n - off : step;
    unsigned char *out;
    size_t olen;
    if (!ct_deflate_piece(in + off, len, bpp, off + len == n, NULL, &out, &olen)) return 0;
    joined = realloc(joined, jlen + olen);
    memcpy(joined + jlen, out, olen);
    jlen += olen;
    free(out);
    off += len;
  }
  memset(&z, 0, sizeof z);
  inflateInit2(&z, -15);   /* raw deflate */
  z.next_in = joined;
  z.avail_in = (uInt)jlen;
  z.next_out = back;
  z.avail_out = (uInt)(n + 1);
  rc = inflate(&z, Z_FINISH);
  if (rc != Z_STREAM_END) {
    fprintf(stderr, "inflate: %d (%s)\n", rc, z.msg ? z.msg : "");
    ok = 0;
  }
  if (ok && (z.total_out != n || memcmp(back, in, n) != 0)) ok = 0;
  if (ok && z.avail_in != 0) ok = 0;   /* the stream ends where the last piece ends */
  inflateEnd(&z);
  if (total) *total = jlen;
  free(joined);
  free(back);
  return ok;
}

int main(void) {
  size_t n = 300000, i, len1, len2;
  unsigned char *buf = malloc(n);
  unsigned bpp, pieces;

  for (bpp = 3; bpp <= 4; bpp++) {
    for (pieces = 1; pieces <= 7; pieces += 3) {
      /* rows of a flat page: zero runs (the Up filter), a filter byte every row */
      for (i = 0; i < n; i++) buf[i] = i % 1201 == 0 ? 2 : 0;
      CHECK_MSG(roundtrip(buf, n, bpp, pieces, &len1), "zero rows, bpp %u, %u pieces", bpp, pieces);
      CHECK_MSG(len1 < n / 50, "zero rows compress: %zu bytes", len1);
      /* a repeated pixel, then patches of it broken by noise */
      for (i = 0; i < n; i++) buf[i] = (unsigned char)(i % bpp * 40 + 7);
      for (i = 0; i < n; i += 997) buf[i] = (unsigned char)next();
      CHECK_MSG(roundtrip(buf, n, bpp, pieces, NULL), "pixel runs, bpp %u, %u pieces", bpp, pieces);
      /* noise: stored blocks (more than 65,535 bytes a piece) */
      for (i = 0; i < n; i++) buf[i] = (unsigned char)next();
      CHECK_MSG(roundtrip(buf, n, bpp, pieces, &len1), "noise, bpp %u, %u pieces", bpp, pieces);
      CHECK_MSG(len1 <= n + 5 * (n / 65535 + 2) * pieces + 8 * pieces, "noise grows little: %zu", len1);
      /* skewed literals (Fibonacci-like frequencies: Huffman codes over 15 bits, limited) */
      {
        size_t pos = 0;
        unsigned s, f = 1, g = 1;
        for (s = 0; s < 30 && pos < n; s++) {
          size_t c;
          for (c = 0; c < f && pos < n; c++) buf[pos++] = (unsigned char)(s * 7 + (c & 1));
          { unsigned t = f + g; g = f; f = t; }
        }
        for (; pos < n; pos++) buf[pos] = (unsigned char)(pos * 31 + pos / 7);
        /* shuffle so that runs do not hide the skew */
        for (i = n - 1; i > 0; i--) {
          size_t j = ((size_t)next() << 15 | next()) % (i + 1);
          unsigned char t = buf[i]; buf[i] = buf[j]; buf[j] = t;
        }
      }
      CHECK_MSG(roundtrip(buf, n, bpp, pieces, NULL), "skewed literals, bpp %u, %u pieces", bpp, pieces);
      /* short runs around the minimum match, and runs longer than 258 by 1 and 2 */
      for (i = 0; i < n; i++) {
        unsigned phase = (unsigned)(i % 1000);
        buf[i] = phase < 3 + (i / 1000) % 9 ? 9 : phase < 262 ? 0 : (unsigned char)(phase * 13);
      }
      CHECK_MSG(roundtrip(buf, n, bpp, pieces, NULL), "runs near the limits, bpp %u, %u pieces", bpp, pieces);
    }
    /* tiny pieces: one byte, a few bytes */
    buf[0] = 2; buf[1] = 200; buf[2] = 200; buf[3] = 200; buf[4] = 200;
    CHECK(roundtrip(buf, 1, bpp, 1, NULL));
    CHECK(roundtrip(buf, 5, bpp, 2, NULL));
    CHECK(roundtrip(buf, 5, bpp, 5, NULL));
  }
  /* deterministic: the same piece, the same bytes */
  for (i = 0; i < n; i++) buf[i] = (unsigned char)(i % 3000 < 2000 ? 0 : next());
  CHECK(roundtrip(buf, n, 3, 4, &len1) && roundtrip(buf, n, 3, 4, &len2) && len1 == len2);
  {
    unsigned char *a, *b;
    size_t la, lb;
    CHECK(ct_deflate_piece(buf, n, 3, 1, NULL, &a, &la) && ct_deflate_piece(buf, n, 3, 1, NULL, &b, &lb) && la == lb &&
          memcmp(a, b, la) == 0);
    free(a);
    free(b);
  }
  {
    unsigned char *none;
    CHECK(!ct_deflate_piece(buf, 0, 3, 1, NULL, &none, &len1) && !none);   /* nothing to compress: refused */
  }
  free(buf);
  return ct_test_report("deflate");
}
