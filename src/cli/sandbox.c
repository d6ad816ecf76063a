/*
** sandbox.c: --sandbox.  The run moves into a child process that confines itself for good
** (ct_sandbox_enter: the path rules, Landlock, seccomp) before its Lua state exists; the
** parent runs no Lua, reads no file of the run's, and writes only what the child hands
** back: an output (-o) outside the working directory, which the child writes into a
** scratch folder beside it, is renamed into place when the child exits 0, and the scratch
** folder is removed either way.  The files the run read come back over a pipe for --watch.
*/
#define _GNU_SOURCE   /* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

static struct {
  int   child;        /* this process is the confined run */
  int   inputs_fd;    /* in the child: where the files it read go */
  pid_t pid;          /* in the parent: the child */
} sbx = { 0, -1, 0 };

/* An output outside the working directory, written by the child into `scratch`. */
typedef struct {
  char  dir[PATH_MAX];       /* its directory as the command line wrote it ("/tmp/x", "..") */
  char  leaf[NAME_MAX + 1];  /* its name, or a frame pattern ("f%04d.png") */
  char  scratch[PATH_MAX];   /* DIR/.chromatype-sandbox-XXXXXX (real path) */
  int   scratch_fd;          /* O_PATH */
  int   real_fd;             /* the real directory */
} handed_t;

int cli_sandbox_child(void) { return sbx.child; }

/* ---- paths ------------------------------------------------------------------------------ */

/* Whether `dir` (as written, relative to `cwd`) is `cwd` or below it, by its text alone
   (the child resolves it for real, without following links out). */
static int lexically_below(const char *cwd, const char *dir) {
  char buf[PATH_MAX * 2], *parts[512], *p, *save = NULL;
  size_t n = 0, i, len = 0;
  if (dir[0] == '/') snprintf(buf, sizeof buf, "%s", dir);
  else snprintf(buf, sizeof buf, "%s/%s", cwd, dir);
  for (p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
    if (strcmp(p, ".") == 0) continue;
    if (strcmp(p, "..") == 0) { if (n) n--; continue; }
    if (n < sizeof parts / sizeof *parts) parts[n++] = p;
  }
  len = strlen(cwd);
  {
    char norm[PATH_MAX * 2];
    size_t used = 0;
    norm[0] = '\0';
    for (i = 0; i < n && used < sizeof norm - 2; i++)
      used += (size_t)snprintf(norm + used, sizeof norm - used, "/%s", parts[i]);
    if (n == 0) strcpy(norm, "/");
    if (strcmp(cwd, "/") == 0) return 1;
    return strncmp(norm, cwd, len) == 0 && (norm[len] == '\0' || norm[len] == '/');
  }
}

/* Sets `h` up for `out` if it lies outside `cwd`; returns 1 if so, 0 if the child may
   write it itself.  Dies when its directory does not exist. */
static int hand_output(const char *cwd, const char *out, handed_t *h) {
  const char *slash = strrchr(out, '/');
  char real[PATH_MAX];
  size_t n;
  if (!slash || strcmp(out, "-") == 0) return 0;
  n = (size_t)(slash - out);
  if (n >= sizeof h->dir || strlen(slash + 1) >= sizeof h->leaf) die(1, "%s: name too long", out);
  memcpy(h->dir, out, n);
  h->dir[n] = '\0';
  if (n == 0) strcpy(h->dir, "/");
  snprintf(h->leaf, sizeof h->leaf, "%s", slash + 1);
  if (lexically_below(cwd, h->dir)) return 0;
  if (!h->leaf[0] || strcmp(h->leaf, ".") == 0 || strcmp(h->leaf, "..") == 0) die(1, "%s: not a file name", out);
  if (!realpath(h->dir, real)) die(1, "%s: cannot write: %s", out, strerror(errno));
  if (snprintf(h->scratch, sizeof h->scratch, "%s/.chromatype-sandbox-XXXXXX", strcmp(real, "/") ? real : "") >=
      (int)sizeof h->scratch)
    die(1, "%s: name too long", out);
  if (!mkdtemp(h->scratch)) die(1, "%s: cannot write: %s", out, strerror(errno));
  if ((h->scratch_fd = open(h->scratch, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
      (h->real_fd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
    int e = errno;
    rmdir(h->scratch);
    die(1, "%s: cannot write: %s", out, strerror(e));
  }
  return 1;
}

/* Whether a file the child left is the output: its name, or a frame of its pattern
   ("f%04d.png": "f" digits ".png"). */
static int is_output(const handed_t *h, const char *name) {
  const char *pct = strchr(h->leaf, '%'), *q;
  size_t pre, suf, n = strlen(name);
  if (!pct) return strcmp(name, h->leaf) == 0;
  pre = (size_t)(pct - h->leaf);
  q = pct + 1;
  while (*q >= '0' && *q <= '9') q++;
  if (*q != 'd') return 0;
  q++;
  suf = strlen(q);
  if (n <= pre + suf || strncmp(name, h->leaf, pre) != 0 || strcmp(name + n - suf, q) != 0) return 0;
  for (size_t i = pre; i < n - suf; i++)
    if (name[i] < '0' || name[i] > '9') return 0;
  return 1;
}

/* Removes what is in the directory `fd`, never following a link.  Closes fd. */
static void remove_tree(int fd) {
  DIR *d = fdopendir(fd);
  struct dirent *e;
  if (!d) { close(fd); return; }
  while ((e = readdir(d)) != NULL) {
    struct stat st;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) remove_tree(sub);
      unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
    } else {
      unlinkat(dirfd(d), e->d_name, 0);
    }
  }
  closedir(d);
}

/* The child has finished: on success its outputs (regular files only) move into place;
   the scratch folder goes either way.  Returns the status to exit with. */
static int take_back(handed_t *h, int ok, int status) {
  int fd = openat(h->scratch_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  struct dirent *e;
  int moved = 0;
  if (d && ok) {
    while ((e = readdir(d)) != NULL) {
      struct stat st;
      if (!is_output(h, e->d_name)) continue;
      if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
      /* a device, FIFO or socket there is never replaced, nor written (see ct_fs_rename) */
      if (fstatat(h->real_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode) &&
          !S_ISLNK(st.st_mode)) {
        fprintf(stderr, "%s: sandbox: writing '%s/%s' refused (not a regular file: a sandboxed run writes no "
                        "device, FIFO or socket)\n", progname, h->dir, e->d_name);
        status = 1;
        continue;
      }
      if (renameat(dirfd(d), e->d_name, h->real_fd, e->d_name) != 0) {
        fprintf(stderr, "%s: %s/%s: cannot write: %s\n", progname, h->dir, e->d_name, strerror(errno));
        status = 1;
      } else {
        moved++;
      }
    }
    rewinddir(d);
  }
  if (d) closedir(d);
  else if (fd >= 0) close(fd);
  if ((fd = openat(h->scratch_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) remove_tree(fd);
  if (rmdir(h->scratch) != 0 && errno != ENOENT)
    fprintf(stderr, "%s: warning: %s: cannot remove: %s\n", progname, h->scratch, strerror(errno));
  close(h->scratch_fd);
  close(h->real_fd);
  (void)moved;
  return status;
}

/* ---- the child ---------------------------------------------------------------------------- */

/* The folders a sandboxed run reads besides the working directory: the script's or
   document's, and the ready filters'. */
static unsigned read_dirs(const char *home, char store[][PATH_MAX], const char **dirs, unsigned max) {
  char path[8192], *p, *save = NULL;
  unsigned n = 0;
  if (home && *home && n < max) {
    snprintf(store[n], PATH_MAX, "%s", home);
    dirs[n] = store[n];
    n++;
  }
  cli_filter_path(path, sizeof path);
  for (p = strtok_r(path, ";", &save); p && n < max; p = strtok_r(NULL, ";", &save)) {
    if (!realpath(p, store[n])) continue;
    dirs[n] = store[n];
    n++;
  }
  return n;
}

static void confine(const handed_t *h, unsigned nhanded) {
  char cwd[PATH_MAX], store[8][PATH_MAX];
  const char *reads[8], *writes[2];
  ct_sandbox_map_t maps[2];
  ct_sandbox_t sb;
  ct_sandbox_report_t rep;
  ct_error_t err;
  unsigned i;
  if (!getcwd(cwd, sizeof cwd)) die(1, "sandbox: the working directory: %s", strerror(errno));
  memset(&sb, 0, sizeof sb);
  sb.cwd = cwd;
  sb.read = reads;
  sb.nread = read_dirs(cli_run_home(), store, reads, 8);
  for (i = 0; i < nhanded; i++) {
    writes[i] = h[i].scratch;
    maps[i].as_written = h[i].dir;
    maps[i].fd = h[i].scratch_fd;
  }
  sb.write = writes;
  sb.nwrite = nhanded;
  sb.maps = maps;
  sb.nmaps = nhanded;
  if (ct_sandbox_enter(&sb, &rep, &err) != CT_OK) die(1, "%s", err.message);
  if (!rep.seccomp)
    fprintf(stderr, "%s: warning: sandbox: no seccomp filter here (the kernel, or valgrind, refuses it): "
            "programs and sockets are kept out by the path rules%s only\n", progname,
            rep.landlock_abi ? " and Landlock" : "");
}

/* ---- the parent --------------------------------------------------------------------------- */

static void forward(int sig) {
  if (sbx.pid > 0) kill(sbx.pid, sig);
}

/* The files the child read, NUL-separated, until it closes the pipe. */
static void read_inputs(int fd) {
  char buf[8192], path[PATH_MAX + 1];
  size_t used = 0;
  for (;;) {
    ssize_t got = read(fd, buf, sizeof buf);
    ssize_t i;
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    for (i = 0; i < got; i++) {
      if (buf[i] == '\0') {
        path[used] = '\0';
        if (used) inputs_add(path);
        used = 0;
      } else if (used < PATH_MAX) {
        path[used++] = buf[i];
      }
    }
  }
  close(fd);
}

int cli_sandbox_fork(int *status) {
  static int warned;
  char cwd[PATH_MAX];
  handed_t handed[1];
  unsigned nhanded = 0;
  int pfd[2], wstatus = 0;
  pid_t parent = getpid();
  struct sigaction sa, old[4];
  static const int sigs[4] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
  unsigned i;

  if (cli_run_opts.plates)
    die(1, "sandbox: --plates: plates are drawn by Ghostscript, a program a sandboxed run does not start");
  if (!warned && ct_sandbox_landlock_abi() == 0) {
    fprintf(stderr, "%s: warning: sandbox: this kernel has no Landlock (Linux 5.13 or later, lsm=landlock): files "
            "are guarded by chromatype's own path rules and the system-call filter, not by the kernel\n", progname);
    warned = 1;
  }
  if (!getcwd(cwd, sizeof cwd)) die(1, "sandbox: the working directory: %s", strerror(errno));
  if (cli_run_opts.output && hand_output(cwd, cli_run_opts.output, &handed[0])) nhanded = 1;
  if (pipe(pfd) != 0) die(1, "sandbox: cannot make a pipe: %s", strerror(errno));
  fflush(stdout);
  fflush(stderr);
  sbx.pid = fork();
  if (sbx.pid < 0) die(1, "sandbox: cannot start the confined run: %s", strerror(errno));
  if (sbx.pid == 0) {
    close(pfd[0]);
    fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
    /* the run ends with the parent, even when the parent is killed */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) _exit(1);
    sbx.child = 1;
    sbx.inputs_fd = pfd[1];
    confine(handed, nhanded);
    return 0;
  }
  close(pfd[1]);
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < 4; i++) sigaction(sigs[i], &sa, &old[i]);
  read_inputs(pfd[0]);
  while (waitpid(sbx.pid, &wstatus, 0) < 0 && errno == EINTR) {}
  for (i = 0; i < 4; i++) sigaction(sigs[i], &old[i], NULL);
  sbx.pid = 0;
  if (WIFEXITED(wstatus)) {
    *status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    int sig = WTERMSIG(wstatus);
    if (sig == SIGSYS)
      fprintf(stderr, "%s: sandbox: the run was stopped for a forbidden system call\n", progname);
    else if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP)
      fprintf(stderr, "%s: sandbox: the run was killed by signal %d (%s)\n", progname, sig, strsignal(sig));
    *status = 128 + sig;
  } else {
    *status = 1;
  }
  for (i = 0; i < nhanded; i++) *status = take_back(&handed[i], *status == 0, *status);
  return 1;
}

/* ---- in the child ----------------------------------------------------------------------- */

void cli_sandbox_send_input(const char *path) {
  size_t n = strlen(path) + 1;
  const char *p = path;
  while (n > 0) {
    ssize_t w = write(sbx.inputs_fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}
