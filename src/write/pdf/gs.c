/*
** gs.c: runs Ghostscript (Debian's ghostscript) as a child process, for what cairo and the
** PDF pass do not do: rasterizing plates (plates.c).  Its dates come from
** SOURCE_DATE_EPOCH, as ours do.  Write stage (PDF); never started in a sandbox.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "pdf.h"

int ct_gs_run(const char *const *args, const char *what, char *why, size_t whylen) {
  static const char *const head[] = { "gs", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dQUIET" };
  const size_t nhead = sizeof head / sizeof *head;
  const char *epoch = getenv("SOURCE_DATE_EPOCH");
  char sde[64];
  char **argv;
  size_t n = 0, i;
  pid_t pid;
  int status;
  if (ct_fs_restricted()) {
    snprintf(why, whylen, "sandbox: %s needs Ghostscript, a program a sandboxed run does not start", what);
    return -1;
  }
  while (args[n]) n++;
  if (!(argv = calloc(nhead + n + 1, sizeof *argv))) {
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  /* execvp takes char *const[]: the strings are not written to */
  for (i = 0; i < nhead; i++) memcpy(&argv[i], &head[i], sizeof argv[i]);
  for (i = 0; i < n; i++) memcpy(&argv[nhead + i], &args[i], sizeof argv[i]);
  snprintf(sde, sizeof sde, "%s", epoch && *epoch ? epoch : "946684800");
  pid = fork();
  if (pid < 0) {
    snprintf(why, whylen, "cannot start ghostscript: %s", strerror(errno));
    free(argv);
    return -1;
  }
  if (pid == 0) {
    setenv("SOURCE_DATE_EPOCH", sde, 1);
    execvp("gs", argv);
    _exit(127);
  }
  free(argv);
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) { snprintf(why, whylen, "ghostscript: %s", strerror(errno)); return -1; }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    snprintf(why, whylen, "ghostscript (gs) not found: %s needs the Debian package ghostscript", what);
    return -1;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    snprintf(why, whylen, "ghostscript failed (status %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return -1;
  }
  return 0;
}
