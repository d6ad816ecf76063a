/*
** error.c: status codes, error detail, FreeType error names, small parsers.
** Base stage: knows no font, paint or page.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <ctype.h>

#include "base.h"

const char *ct_status_string(ct_status_t status) {
  switch (status) {
  case CT_OK:               return "success";
  case CT_ERR_NOMEM:        return "out of memory";
  case CT_ERR_IO:           return "input/output error";
  case CT_ERR_INVALID_FONT: return "invalid font";
  case CT_ERR_INVALID_ARG:  return "invalid argument";
  case CT_ERR_NOT_FOUND:    return "not found";
  case CT_ERR_LIMIT:        return "limit exceeded";
  case CT_ERR_BACKEND:      return "backend failure";
  case CT_ERR_INVALID_IMAGE: return "invalid image";
  case CT_ERR_CALLBACK: return "error in a callback";
  case CT_ERR_DENIED:   return "refused by the sandbox";
  }
  return "unknown status";
}

ct_status_t ct_set_error(ct_error_t *err, ct_status_t status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->status = status;
  }
  return status;
}

/* FreeType's own error strings, compiled in through its X-macro header. */
const char *ct_ft_error_string(FT_Error error) {
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_START_LIST switch (error) {
#define FT_ERROR_END_LIST }
#include FT_ERRORS_H
  return "unknown FreeType error";
}

ct_status_t ct_from_ft_error(FT_Error error) {
  switch (error) {
  case 0: return CT_OK;
  case FT_Err_Out_Of_Memory: return CT_ERR_NOMEM;
  case FT_Err_Cannot_Open_Resource: return CT_ERR_IO;
  default: return CT_ERR_INVALID_FONT;
  }
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

int ct_rgba_parse(const char *s, ct_rgba_t *out) {
  unsigned v[8];
  size_t n, i;
  if (!s) return -1;
  if (*s == '#') s++;
  n = strlen(s);
  if (n != 3 && n != 4 && n != 6 && n != 8) return -1;
  for (i = 0; i < n; i++) {
    int h = hexval((unsigned char)s[i]);
    if (h < 0) return -1;
    v[i] = (unsigned)h;
  }
  if (n <= 4) {   /* #RGB[A]: each digit doubled */
    out->r = v[0] * 17 / 255.0;
    out->g = v[1] * 17 / 255.0;
    out->b = v[2] * 17 / 255.0;
    out->a = n == 4 ? v[3] * 17 / 255.0 : 1.0;
  } else {
    out->r = (v[0] * 16 + v[1]) / 255.0;
    out->g = (v[2] * 16 + v[3]) / 255.0;
    out->b = (v[4] * 16 + v[5]) / 255.0;
    out->a = n == 8 ? (v[6] * 16 + v[7]) / 255.0 : 1.0;
  }
  return 0;
}

/* Decodes one UTF-8 sequence; invalid bytes decode as U+FFFD, one byte long. */
uint32_t ct_utf8_decode(const char *str, size_t len, size_t *used) {
  const unsigned char *s = (const unsigned char *)str;
  uint32_t c;
  size_t n, i;
  *used = 1;
  if (len == 0) { *used = 0; return 0; }
  if (s[0] < 0x80) return s[0];
  if ((s[0] & 0xE0) == 0xC0) { n = 2; c = s[0] & 0x1Fu; }
  else if ((s[0] & 0xF0) == 0xE0) { n = 3; c = s[0] & 0x0Fu; }
  else if ((s[0] & 0xF8) == 0xF0) { n = 4; c = s[0] & 0x07u; }
  else return 0xFFFD;
  if (n > len) return 0xFFFD;
  for (i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0xFFFD;
    c = (c << 6) | (s[i] & 0x3Fu);
  }
  *used = n;
  return c;
}
