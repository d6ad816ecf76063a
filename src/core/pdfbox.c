/*
** pdfbox.c: adds /TrimBox and /BleedBox to the pages of a PDF written by cairo 1.16
** (which has no API for them), streaming: each page dictionary gets the boxes after its
** /MediaBox line, and the cross-reference table and startxref are moved by the bytes
** inserted before each object.  Core layer.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct-private.h"

#define LINE_MAX_BYTES 4096   /* longer lines (stream data) are copied through unread */

typedef struct {
  long at;      /* input offset after which bytes were inserted */
  long total;   /* bytes inserted up to and including this point */
} shift_t;

typedef struct {
  FILE *in, *out;
  char block[65536];
  size_t blen, bpos;
  long in_off;                /* input offset of the next byte to read */
  shift_t *shifts;
  unsigned nshift, capshift;
  int failed;
} pdfio_t;

/* Reads one line (with its '\n') of at most LINE_MAX_BYTES into `line`; returns its length,
   0 at the end.  `*whole` is 0 when the line was cut (a long line: the rest follows). */
static size_t read_line(pdfio_t *io, char *line, int *whole) {
  size_t n = 0;
  *whole = 0;
  while (n < LINE_MAX_BYTES) {
    char c;
    if (io->bpos == io->blen) {
      io->blen = fread(io->block, 1, sizeof io->block, io->in);
      io->bpos = 0;
      if (io->blen == 0) { *whole = 1; break; }
    }
    c = io->block[io->bpos++];
    line[n++] = c;
    io->in_off++;
    if (c == '\n') { *whole = 1; break; }
  }
  return n;
}

static void put(pdfio_t *io, const char *s, size_t n) {
  if (n && fwrite(s, 1, n, io->out) != n) io->failed = errno ? errno : EIO;
}

/* Bytes inserted before input offset `off`. */
static long shift_of(const pdfio_t *io, long off) {
  long d = 0;
  unsigned lo = 0, hi = io->nshift;
  while (lo < hi) {                  /* the last shift with at <= off */
    unsigned mid = (lo + hi) / 2;
    if (io->shifts[mid].at <= off) { d = io->shifts[mid].total; lo = mid + 1; }
    else hi = mid;
  }
  return d;
}

static int add_shift(pdfio_t *io, long at, long n) {
  if (io->nshift == io->capshift) {
    unsigned cap = io->capshift ? 2 * io->capshift : 64;
    shift_t *s = realloc(io->shifts, cap * sizeof *s);
    if (!s) return -1;
    io->shifts = s;
    io->capshift = cap;
  }
  io->shifts[io->nshift].at = at;
  io->shifts[io->nshift].total = (io->nshift ? io->shifts[io->nshift - 1].total : 0) + n;
  io->nshift++;
  return 0;
}

static int starts(const char *line, size_t n, const char *prefix) {
  size_t k = strlen(prefix);
  return n >= k && memcmp(line, prefix, k) == 0;
}

ct_status_t ct_pdf_add_boxes(FILE *in, FILE *out, const ct_pdf_boxes_t *pages, unsigned npages,
                             ct_error_t *err) {
  pdfio_t io;
  char line[LINE_MAX_BYTES + 1];
  int whole, at_start = 1, in_page = 0, in_xref = 0, want_startxref = 0;
  long xref_at = -1, entries = 0;
  unsigned page = 0;
  size_t n;
  ct_status_t st = CT_OK;

  memset(&io, 0, sizeof io);
  io.in = in;
  io.out = out;
  while ((n = read_line(&io, line, &whole)) > 0) {
    int line_start = at_start;
    at_start = whole && line[n - 1] == '\n';
    if (!line_start || !whole) { put(&io, line, n); continue; }
    line[n] = '\0';
    if (want_startxref) {                          /* the offset after "startxref" */
      char num[32];
      int k;
      want_startxref = 0;
      if (xref_at >= 0) {
        k = snprintf(num, sizeof num, "%ld\n", xref_at + shift_of(&io, xref_at));
        put(&io, num, (size_t)k);
        continue;
      }
    } else if (in_xref) {
      long first, count, off;
      int gen;
      char kind;
      if (entries == 0 && sscanf(line, "%ld %ld", &first, &count) == 2 && !strchr(line, 'n') &&
          !strchr(line, 'f')) {
        entries = count;
      } else if (entries > 0 && n >= 18 && sscanf(line, "%10ld %5d %c", &off, &gen, &kind) == 3) {
        if (kind == 'n') {
          char entry[32];
          int k = snprintf(entry, sizeof entry, "%010ld", off + shift_of(&io, off));
          if (k == 10) { put(&io, entry, 10); put(&io, line + 10, n - 10); }
          else put(&io, line, n);
          if (--entries == 0) in_xref = 0;
          continue;
        }
        if (--entries == 0) in_xref = 0;
      } else {
        in_xref = 0;
      }
    } else if (starts(line, n, "<< /Type /Page ") || strcmp(line, "<< /Type /Page\n") == 0) {
      in_page = 1;
    } else if (in_page && starts(line, n, "   /MediaBox [")) {
      in_page = 0;
      put(&io, line, n);
      if (page < npages && pages[page].set) {
        char boxes[256];
        const double *t = pages[page].trim, *b = pages[page].bleed;
        int k = snprintf(boxes, sizeof boxes,
                         "   /TrimBox [ %.6f %.6f %.6f %.6f ]\n   /BleedBox [ %.6f %.6f %.6f %.6f ]\n",
                         t[0], t[1], t[2], t[3], b[0], b[1], b[2], b[3]);
        if (k <= 0 || (size_t)k >= sizeof boxes || add_shift(&io, io.in_off, k) != 0) {
          st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
          goto done;
        }
        put(&io, boxes, (size_t)k);
      }
      page++;
      continue;
    } else if (strcmp(line, "xref\n") == 0) {
      xref_at = io.in_off - (long)n;
      in_xref = 1;
      entries = 0;
    } else if (strcmp(line, "startxref\n") == 0) {
      want_startxref = 1;
    } else if (starts(line, n, ">>")) {
      in_page = 0;
    }
    put(&io, line, n);
  }
  if (ferror(in)) io.failed = errno ? errno : EIO;
  if (!io.failed && fflush(out) != 0) io.failed = errno ? errno : EIO;
  if (io.failed) st = ct_set_error(err, CT_ERR_IO, "cannot write the PDF: %s", strerror(io.failed));
done:
  free(io.shifts);
  return st;
}
