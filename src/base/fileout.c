/*
** fileout.c: whole files written safely: to a temporary name beside the target, then
** renamed, so that a reader never sees half a file and a failure leaves none.  Base stage:
** knows no font, paint or page.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"

FILE *ct_file_open_temp(const char *path, const char *mode, char **tmp_out, ct_error_t *err) {
  return ct_fs_fopen_temp(path, ".tmp-", mode, tmp_out, err);
}

/* Writes `len` bytes to `path` through a temporary file and a rename. */
ct_status_t ct_file_write_atomic(const char *path, const void *data, size_t len, ct_error_t *err) {
  char *tmp;
  FILE *f = ct_file_open_temp(path, "wb", &tmp, err);
  int e = 0;
  ct_status_t st = CT_OK;
  if (!f) return err ? err->status : CT_ERR_IO;
  if (fwrite(data, 1, len, f) != len) e = errno ? errno : EIO;
  if (fclose(f) != 0 && !e) e = errno;
  if (e) st = ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", path, strerror(e));
  else st = ct_fs_rename(tmp, path, err);
  if (st != CT_OK) ct_fs_unlink(tmp);
  free(tmp);
  return st;
}

int ct_file_temp_target(const char *name, char *target, size_t size) {
  const char *t = strstr(name, ".tmp-"), *x = NULL;
  size_t base, i;
  /* the last ".tmp-" of the name: a target's own name may hold the same letters */
  while (t) {
    x = t;
    t = strstr(t + 1, ".tmp-");
  }
  if (!x || x == name) return 0;
  base = (size_t)(x - name);
  x += 5;
  if (strncmp(x, "pass-", 5) == 0 && strlen(x) == 11) x += 5;   /* mkstemp's six letters follow */
  if (strlen(x) != 6) return 0;
  for (i = 0; i < 6; i++)   /* mkstemp's letters: A-Z, a-z, 0-9 (not isalnum: no locale) */
    if (!((x[i] >= 'A' && x[i] <= 'Z') || (x[i] >= 'a' && x[i] <= 'z') || (x[i] >= '0' && x[i] <= '9'))) return 0;
  if (base >= size) return 0;
  memcpy(target, name, base);
  target[base] = '\0';
  return 1;
}
