/*
** fs.c: every file the core and the bindings open, create, rename, remove or list goes
** through here.  Unrestricted (the default), these are the plain POSIX calls.  Restricted
** (a sandboxed run, ct_fs_restrict), a path is resolved beneath the root it names, never
** by its text: relative paths beneath the working directory, absolute ones beneath the
** root whose folder they start with, with openat2(RESOLVE_BENEATH) so that neither '..'
** nor a symbolic link leads out of the root (where openat2 is missing, the same walk is
** done here, one O_NOFOLLOW component at a time).  Base stage: knows no font, paint or page.
*/
#define _GNU_SOURCE   /* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/openat2.h>
#endif

#include "base.h"

#define MAX_ROOTS 32
#define MAX_MAPS  4

typedef struct {
  char    *path;       /* absolute, real, no trailing '/' ("/" itself: "") */
  size_t   len;
  int      fd;         /* O_PATH | O_DIRECTORY */
  unsigned flags;      /* CT_FS_WRITABLE, CT_FS_SYSTEM */
} root_t;

typedef struct {
  char *dir;           /* a directory as the command line wrote it ("../out", "/tmp/x") */
  int   fd;            /* where its files go: a scratch directory the supervisor handed us */
} map_t;

static struct {
  int      on;
  unsigned nroots, nmaps;
  root_t   roots[MAX_ROOTS];
  map_t    maps[MAX_MAPS];
} fs;

/* How a path resolved: a directory to start from and the path from there. */
typedef struct {
  int         dirfd;
  const char *rel;
  unsigned    flags;   /* the root's */
  const char *root;    /* the root's path, for messages (NULL: unrestricted or a map) */
} where_t;

static const char *verb(int write) { return write ? "writing" : "reading"; }

static ct_status_t denied(ct_error_t *err, int write, const char *path, const char *why) {
  return ct_set_error(err, CT_ERR_DENIED, "sandbox: %s '%s' refused (%s)", verb(write), path, why);
}

static ct_status_t io_error(ct_error_t *err, int write, const char *path, int e) {
  if (e == EXDEV || e == ELOOP)
    return denied(err, write, path, "it leads outside the working directory through '..' or a symbolic link");
  return ct_set_error(err, CT_ERR_IO, "%s: cannot %s: %s", path, write ? "write" : "open", strerror(e));
}

int ct_fs_restricted(void) { return fs.on; }

/* ---- opening beneath a directory ------------------------------------------------------- */

/* Opens `rel` beneath `dirfd` without leaving it, as openat2(RESOLVE_BENEATH) does, for
   kernels without it: component by component with O_NOFOLLOW, a folder stack for '..',
   relative symbolic links spliced into the rest of the path (40 at most).  '..' above
   `dirfd` and absolute links fail with EXDEV. */
#define WALK_DEPTH 256
#define WALK_LINKS 40
static int open_walk(int dirfd, const char *rel, int flags, mode_t mode) {
  char work[PATH_MAX * 2], comp[NAME_MAX + 1];
  const char *rest;
  int stack[WALK_DEPTH], depth = 0, links = 0, fd = -1, e = 0;
  size_t i;
  if (strlen(rel) >= sizeof work) { errno = ENAMETOOLONG; return -1; }
  strcpy(work, rel);
  rest = work;
  stack[0] = dirfd;
  for (;;) {
    size_t n;
    int last;
    struct stat sb;
    while (*rest == '/') rest++;
    n = strcspn(rest, "/");
    if (n > NAME_MAX) { e = ENAMETOOLONG; break; }
    memcpy(comp, rest, n);
    comp[n] = '\0';
    rest += n;
    while (*rest == '/') rest++;
    last = *rest == '\0';
    if (n == 0 || strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
      if (comp[0] == '.' && comp[1] == '.') {
        if (depth == 0) { e = EXDEV; break; }
        close(stack[depth--]);
      }
      if (last) {
        fd = openat(stack[depth], ".", flags, mode);
        if (fd < 0) e = errno;
        break;
      }
      continue;
    }
    if (fstatat(stack[depth], comp, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode)) {
      char target[PATH_MAX], joined[PATH_MAX * 2];
      ssize_t t = readlinkat(stack[depth], comp, target, sizeof target - 1);
      if (t < 0) { e = errno; break; }
      target[t] = '\0';
      if (target[0] == '/') { e = EXDEV; break; }   /* an absolute link leaves the root */
      if (++links > WALK_LINKS) { e = ELOOP; break; }
      if ((size_t)snprintf(joined, sizeof joined, "%s/%s", target, rest) >= sizeof work) { e = ENAMETOOLONG; break; }
      strcpy(work, joined);
      rest = work;
      continue;
    }
    if (last) {
      fd = openat(stack[depth], comp, flags | O_NOFOLLOW, mode);
      if (fd < 0) e = errno == ELOOP ? EXDEV : errno;   /* became a link meanwhile */
      else if ((flags & O_PATH) && fstat(fd, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        close(fd);
        fd = -1;
        e = EXDEV;
      }
      break;
    }
    if (depth + 1 >= WALK_DEPTH) { e = ENAMETOOLONG; break; }
    fd = openat(stack[depth], comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      e = errno == ENOTDIR && fstatat(stack[depth], comp, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode)
          ? EXDEV : errno;
      break;
    }
    stack[++depth] = fd;
    fd = -1;
  }
  for (i = 1; i <= (size_t)depth; i++) close(stack[i]);
  if (fd < 0) errno = e ? e : ENOENT;
  return fd;
}

static int open_beneath(int dirfd, const char *rel, int flags, mode_t mode) {
#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
  /* CHROMATYPE_FS_OPENAT2=0: the walk of old kernels, for tests (read once) */
  static int no_openat2 = -1;
  if (no_openat2 < 0) {
    const char *e = getenv("CHROMATYPE_FS_OPENAT2");
    no_openat2 = e && strcmp(e, "0") == 0;
  }
  if (!no_openat2) {
    struct open_how how;
    int fd;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)flags;
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return fd;
    no_openat2 = 1;   /* an old kernel (before 5.6), or a filter that refuses it */
  }
#endif
  return open_walk(dirfd, rel, flags, mode);
}

/* ---- resolving a path ------------------------------------------------------------------ */

static ct_status_t resolve(const char *path, int write, where_t *w, ct_error_t *err) {
  const char *slash;
  unsigned i, best = MAX_ROOTS;
  size_t best_len = 0;
  memset(w, 0, sizeof *w);
  w->dirfd = AT_FDCWD;
  w->rel = path;
  if (!path || !*path) return ct_set_error(err, CT_ERR_IO, "an empty file name");
  if (!fs.on) return CT_OK;
  slash = strrchr(path, '/');
  for (i = 0; slash && i < fs.nmaps; i++) {
    size_t n = (size_t)(slash - path);
    if (strlen(fs.maps[i].dir) == n && strncmp(fs.maps[i].dir, path, n) == 0) {
      w->dirfd = fs.maps[i].fd;
      w->rel = slash + 1;
      w->flags = CT_FS_WRITABLE;
      return CT_OK;
    }
  }
  if (path[0] != '/') {
    w->dirfd = fs.roots[0].fd;
    w->flags = fs.roots[0].flags;
    w->root = fs.roots[0].path;
  } else {
    for (i = 0; i < fs.nroots; i++) {
      const root_t *r = &fs.roots[i];
      if (strncmp(path, r->path, r->len) == 0 && (path[r->len] == '/' || path[r->len] == '\0') &&
          (best == MAX_ROOTS || r->len > best_len)) {
        best = i;
        best_len = r->len;
      }
    }
    if (best == MAX_ROOTS)
      return denied(err, write, path, write ? "only below the working directory"
                                            : "outside the working directory and the folders it may read");
    w->dirfd = fs.roots[best].fd;
    w->flags = fs.roots[best].flags;
    w->root = fs.roots[best].path;
    w->rel = path + best_len;
    while (*w->rel == '/') w->rel++;
    if (!*w->rel) w->rel = ".";
  }
  if (write && !(w->flags & CT_FS_WRITABLE))
    return denied(err, write, path, "only below the working directory");
  return CT_OK;
}

/* The directory holding the last component of a resolved path, and that component.
   Returns the directory's fd (to close if *owned; AT_FDCWD unrestricted), or NO_DIR with
   errno. */
#define NO_DIR (-1000)
static int open_parent(const where_t *w, char *leaf, size_t size, int *owned) {
  const char *slash = strrchr(w->rel, '/');
  const char *name = slash ? slash + 1 : w->rel;
  *owned = 0;
  if (strlen(name) >= size) { errno = ENAMETOOLONG; return NO_DIR; }
  strcpy(leaf, name);
  if (!*leaf || strcmp(leaf, ".") == 0 || strcmp(leaf, "..") == 0) { errno = EISDIR; return NO_DIR; }
  if (!slash) return w->dirfd;
  {
    char dir[PATH_MAX];
    size_t n = (size_t)(slash - w->rel);
    int fd;
    if (n >= sizeof dir) { errno = ENAMETOOLONG; return NO_DIR; }
    memcpy(dir, w->rel, n);
    dir[n] = '\0';
    if (n == 0) strcpy(dir, "/");
    if (w->dirfd == AT_FDCWD) fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    else fd = open_beneath(w->dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) return NO_DIR;
    *owned = 1;
    return fd;
  }
}

/* A system root (a font folder) may hold links to other system folders (Debian's font
   packages link /usr/share/fonts/... to /usr/share/fonts-NAME/...): the file's real path
   must then lie beneath a system root or /usr/share. */
static int open_system(const char *path, int flags) {
  char real[PATH_MAX];
  unsigned i;
  if (!realpath(path, real)) return -1;
  for (i = 0; i < fs.nroots; i++) {
    const root_t *r = &fs.roots[i];
    if ((r->flags & CT_FS_SYSTEM) && strncmp(real, r->path, r->len) == 0 && real[r->len] == '/')
      return open(real, flags | O_NOFOLLOW);
  }
  if (strncmp(real, "/usr/share/", 11) == 0) return open(real, flags | O_NOFOLLOW);
  errno = EXDEV;
  return -1;
}

/* ---- the public calls ------------------------------------------------------------------ */

/* Every file read is a regular file: a FIFO (or a device, a socket) would block the run or
   never end.  Opened without blocking, so that a FIFO with no writer does not hang the
   open itself, and checked before anything is read; blocking again for the reads. */
int ct_fs_open_read(const char *path, ct_error_t *err) {
  const int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  where_t w;
  struct stat sb;
  int fd;
  if (resolve(path, 0, &w, err) != CT_OK) return -1;
  if (w.dirfd == AT_FDCWD) fd = open(path, flags);
  else {
    fd = open_beneath(w.dirfd, w.rel, flags, 0);
    if (fd < 0 && (errno == EXDEV || errno == ELOOP) && (w.flags & CT_FS_SYSTEM)) fd = open_system(path, flags);
  }
  if (fd < 0) {
    io_error(err, 0, path, errno);
    return -1;
  }
  if (fstat(fd, &sb) != 0) {
    io_error(err, 0, path, errno);
    close(fd);
    return -1;
  }
  if (!S_ISREG(sb.st_mode)) {
    if (S_ISDIR(sb.st_mode)) ct_set_error(err, CT_ERR_IO, "%s: cannot read: %s", path, strerror(EISDIR));
    else ct_set_error(err, CT_ERR_IO, "%s: cannot read: not a regular file", path);
    close(fd);
    return -1;
  }
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    io_error(err, 0, path, errno);
    close(fd);
    return -1;
  }
  /* A second name of a file in a folder the run may write or read as its own can be a
     name for a file anywhere (ln /elsewhere/secret here): refused. */
  if (fs.on && !(w.flags & CT_FS_SYSTEM) && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_nlink > 1) {
    close(fd);
    denied(err, 0, path, "the file has other names: hard links");
    return -1;
  }
  return fd;
}

FILE *ct_fs_fopen_read(const char *path, ct_error_t *err) {
  int fd = ct_fs_open_read(path, err);
  FILE *f;
  if (fd < 0) return NULL;
  if (!(f = fdopen(fd, "rb"))) {
    int e = errno;
    close(fd);
    io_error(err, 0, path, e);
  }
  return f;
}

unsigned char *ct_fs_read_all(const char *path, size_t max, size_t *len, ct_error_t *err) {
  int fd = ct_fs_open_read(path, err);
  struct stat sb;
  unsigned char *buf = NULL;
  size_t cap = 0, n = 0;
  if (fd < 0) return NULL;
  if (fstat(fd, &sb) != 0) { io_error(err, 0, path, errno); goto fail; }   /* a regular file */
  for (;;) {
    ssize_t got;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : (sb.st_size > 0 ? (size_t)sb.st_size + 1 : 65536);
      unsigned char *m;
      if (cap >= max + 1) {
        ct_set_error(err, CT_ERR_LIMIT, "%s: file exceeds the limit of %zu bytes", path, max);
        goto fail;
      }
      if (ncap > max + 1) ncap = max + 1;
      if (!(m = realloc(buf, ncap + 1))) { ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", path); goto fail; }
      buf = m;
      cap = ncap;
    }
    got = read(fd, buf + n, cap - n);
    if (got < 0) {
      if (errno == EINTR) continue;
      io_error(err, 0, path, errno);
      goto fail;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  if (n > max) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: file exceeds the limit of %zu bytes", path, max);
    goto fail;
  }
  if (!buf && !(buf = malloc(1))) { ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", path); goto fail; }
  buf[n] = '\0';   /* text readers may rely on it */
  close(fd);
  *len = n;
  return buf;
fail:
  free(buf);
  close(fd);
  return NULL;
}

int ct_fs_exists(const char *path) {
  struct stat sb;
  return ct_fs_stat(path, &sb, NULL) == CT_OK;
}

ct_status_t ct_fs_stat(const char *path, struct stat *sb, ct_error_t *err) {
  where_t w;
  int fd;
  if (resolve(path, 0, &w, err) != CT_OK) return err ? err->status : CT_ERR_DENIED;
  if (w.dirfd == AT_FDCWD) {
    if (stat(path, sb) != 0) return io_error(err, 0, path, errno);
    return CT_OK;
  }
  fd = open_beneath(w.dirfd, w.rel, O_PATH | O_CLOEXEC, 0);
  if (fd < 0 && (errno == EXDEV || errno == ELOOP) && (w.flags & CT_FS_SYSTEM)) fd = open_system(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return io_error(err, 0, path, errno);
  if (fstat(fd, sb) != 0) {
    int e = errno;
    close(fd);
    return io_error(err, 0, path, e);
  }
  close(fd);
  return CT_OK;
}

static DIR *ct_fs_opendir(const char *path, ct_error_t *err) {
  where_t w;
  int fd;
  DIR *d;
  if (resolve(path, 0, &w, err) != CT_OK) return NULL;
  if (w.dirfd == AT_FDCWD) {
    if (!(d = opendir(path))) io_error(err, 0, path, errno);
    return d;
  }
  if ((fd = open_beneath(w.dirfd, w.rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)) < 0) {
    io_error(err, 0, path, errno);
    return NULL;
  }
  if (!(d = fdopendir(fd))) {
    int e = errno;
    close(fd);
    io_error(err, 0, path, e);
  }
  return d;
}

/* ---- targets that are not files ------------------------------------------------------- */

/* Whether `path` names something that is neither a regular file nor a folder: a device
   (/dev/null, /dev/full, a tty), a FIFO or a socket.  Such a target is written through
   (opened and written in place), never replaced by a rename. */
static int is_node(const char *path) {
  struct stat sb;
  if (ct_fs_stat(path, &sb, NULL) != CT_OK) return 0;
  return !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

/* A sandboxed run writes no device, FIFO or socket: what it would reach through one is
   outside what the path rules can see. */
static ct_status_t node_refused(const char *path, ct_error_t *err) {
  return denied(err, 1, path, "not a regular file: a sandboxed run writes no device, FIFO or socket");
}

/* The finished temporary `from` copied into the node `to` (opened, never created or
   replaced), then removed.  A failed write (ENOSPC on /dev/full) names `to`. */
static ct_status_t write_through(const char *from, const char *to, ct_error_t *err) {
  enum { CHUNK = 65536 };
  char *buf;
  int in, out, e = 0;
  if (!(buf = malloc(CHUNK))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");   /* not static: threads write too */
  if ((in = open(from, O_RDONLY | O_CLOEXEC)) < 0) {
    free(buf);
    return io_error(err, 1, to, errno);
  }
  if ((out = open(to, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0) {
    e = errno;
    close(in);
    free(buf);
    return io_error(err, 1, to, e);
  }
  while (!e) {
    ssize_t got = read(in, buf, CHUNK), put = 0;
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) e = errno;
    if (got <= 0) break;
    while (put < got && !e) {
      ssize_t w = write(out, buf + put, (size_t)(got - put));
      if (w < 0 && errno != EINTR) e = errno;
      else if (w == 0) e = EIO;
      else if (w > 0) put += w;
    }
  }
  if (close(out) != 0 && !e && errno != EINTR) e = errno;
  close(in);
  free(buf);
  if (e) return io_error(err, 1, to, e);
  unlink(from);
  return CT_OK;
}

/* Where the temporary of a node goes: the temporary folder ($TMPDIR or /tmp), since the
   node's own folder (/dev) need not be writable.  malloc'ed, or NULL. */
static char *node_temp_base(const char *path) {
  const char *dir = getenv("TMPDIR"), *slash = strrchr(path, '/');
  size_t n;
  char *base;
  if (!dir || dir[0] != '/') dir = "/tmp";
  n = strlen(dir) + strlen(path) + 16;
  if ((base = malloc(n))) snprintf(base, n, "%s/chromatype-%s", dir, slash ? slash + 1 : path);
  return base;
}

int ct_fs_create_temp(const char *target, const char *tag, char **name, ct_error_t *err) {
  static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static unsigned long long counter;
  where_t w;
  size_t n;
  char *tmp = NULL, *alt = NULL, leaf[NAME_MAX + 1];
  const char *path = target;   /* where the temporary goes beside; messages name the target */
  int dirfd = -1, owned = 0, fd = -1, tries, e = 0;
  *name = NULL;
  if (target && *target && is_node(target)) {
    if (fs.on) { node_refused(target, err); return -1; }
    if (!(path = alt = node_temp_base(target))) { ct_set_error(err, CT_ERR_NOMEM, "out of memory"); return -1; }
  }
  n = strlen(path) + strlen(tag) + 8;
  if (resolve(path, 1, &w, err) != CT_OK) goto fail;
  if (!(tmp = malloc(n))) { ct_set_error(err, CT_ERR_NOMEM, "out of memory"); goto fail; }
  /* the temporary's directory is the target's; resolved once, the name made in it */
  {
    where_t wt = w;
    char *t2 = malloc(strlen(w.rel) + strlen(tag) + 8);
    if (!t2) { ct_set_error(err, CT_ERR_NOMEM, "out of memory"); goto fail; }
    sprintf(t2, "%s%sXXXXXX", w.rel, tag);
    wt.rel = t2;
    dirfd = open_parent(&wt, leaf, sizeof leaf, &owned);
    e = errno;
    free(t2);
  }
  if (dirfd == NO_DIR) {
    io_error(err, 1, target, e);
    goto fail;
  }
  for (tries = 0; tries < 100; tries++) {
    unsigned long long v = ((unsigned long long)getpid() << 32) ^ (unsigned long long)(uintptr_t)&v ^
                           (++counter * 0x9E3779B97F4A7C15ull) ^ (unsigned long long)tries;
    size_t ll = strlen(leaf), i;
    for (i = 0; i < 6; i++) {
      leaf[ll - 6 + i] = letters[v % 62];
      v /= 62;
    }
    fd = openat(dirfd, leaf, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) break;
  }
  e = errno;
  if (owned) close(dirfd);
  if (fd < 0) {
    io_error(err, 1, target, e);
    goto fail;
  }
  snprintf(tmp, n, "%s%s%s", path, tag, leaf + strlen(leaf) - 6);
  free(alt);
  *name = tmp;
  return fd;
fail:
  free(tmp);
  free(alt);
  return -1;
}

FILE *ct_fs_fopen_temp(const char *path, const char *tag, const char *mode, char **name, ct_error_t *err) {
  int fd = ct_fs_create_temp(path, tag, name, err);
  FILE *f;
  if (fd < 0) return NULL;
  if (!(f = fdopen(fd, mode))) {
    int e = errno;
    close(fd);
    ct_fs_unlink(*name);
    free(*name);
    *name = NULL;
    io_error(err, 1, path, e);
  }
  return f;
}

/* Runs op on the parent directory of `path` and its last component. */
static ct_status_t at_parent(const char *path, int write, int (*op)(int, const char *, void *), void *ud,
                             ct_error_t *err) {
  where_t w;
  char leaf[NAME_MAX + 1];
  int dirfd, owned, r, e;
  if (resolve(path, write, &w, err) != CT_OK) return err ? err->status : CT_ERR_DENIED;
  if ((dirfd = open_parent(&w, leaf, sizeof leaf, &owned)) == NO_DIR) return io_error(err, write, path, errno);
  r = op(dirfd, leaf, ud);
  e = errno;
  if (owned) close(dirfd);
  return r == 0 ? CT_OK : io_error(err, write, path, e);
}

static int op_unlink(int dirfd, const char *leaf, void *ud) { (void)ud; return unlinkat(dirfd, leaf, 0); }
static int op_mkdir(int dirfd, const char *leaf, void *ud) {
  int r = mkdirat(dirfd, leaf, *(mode_t *)ud);
  return r != 0 && errno == EEXIST ? 0 : r;
}

int ct_fs_unlink(const char *path) { return at_parent(path, 1, op_unlink, NULL, NULL) == CT_OK ? 0 : -1; }

ct_status_t ct_fs_mkdir(const char *path, ct_error_t *err) {
  mode_t mode = 0777;
  struct stat sb;
  ct_status_t st = at_parent(path, 1, op_mkdir, &mode, err);
  if (st != CT_OK) return st;
  if ((st = ct_fs_stat(path, &sb, err)) != CT_OK) return st;
  if (!S_ISDIR(sb.st_mode)) return ct_set_error(err, CT_ERR_IO, "%s: not a directory", path);
  return CT_OK;
}

ct_status_t ct_fs_mkdirs(const char *path, ct_error_t *err) {
  char buf[PATH_MAX];
  size_t i, n = strlen(path);
  ct_status_t st;
  if (n >= sizeof buf) return ct_set_error(err, CT_ERR_IO, "%s: name too long", path);
  strcpy(buf, path);
  while (n > 1 && buf[n - 1] == '/') buf[--n] = '\0';
  for (i = 1; i <= n; i++) {
    if (buf[i] == '/' || buf[i] == '\0') {
      char c = buf[i];
      struct stat sb;
      buf[i] = '\0';
      if (ct_fs_stat(buf, &sb, NULL) != CT_OK && (st = ct_fs_mkdir(buf, err)) != CT_OK) return st;
      buf[i] = c;
    }
  }
  return CT_OK;
}

char **ct_fs_list(const char *path, size_t *count, ct_error_t *err) {
  DIR *d = ct_fs_opendir(path, err);
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0;
  *count = 0;
  if (!d) return NULL;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (n + 1 >= cap) {
      char **m = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof *names);
      if (!m) goto nomem;
      names = m;
    }
    if (!(names[n] = strdup(e->d_name))) goto nomem;
    n++;
  }
  closedir(d);
  if (!names && !(names = malloc(sizeof *names))) { ct_set_error(err, CT_ERR_NOMEM, "out of memory"); return NULL; }
  names[n] = NULL;
  *count = n;
  return names;
nomem:
  closedir(d);
  ct_fs_free_list(names, n);
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return NULL;
}

void ct_fs_free_list(char **names, size_t count) {
  size_t i;
  if (!names) return;
  for (i = 0; i < count; i++) free(names[i]);
  free(names);
}

ct_status_t ct_fs_rename(const char *from, const char *to, ct_error_t *err) {
  where_t wf, wt;
  char lf[NAME_MAX + 1], lt[NAME_MAX + 1];
  int df, dt, of, ot, r = -1, e;
  if (resolve(from, 1, &wf, err) != CT_OK || resolve(to, 1, &wt, err) != CT_OK) return err ? err->status : CT_ERR_DENIED;
  if (is_node(to)) return fs.on ? node_refused(to, err) : write_through(from, to, err);
  if ((df = open_parent(&wf, lf, sizeof lf, &of)) == NO_DIR) return io_error(err, 1, to, errno);
  if ((dt = open_parent(&wt, lt, sizeof lt, &ot)) != NO_DIR) {
    r = renameat(df, lf, dt, lt);
  }
  e = errno;
  if (of) close(df);
  if (dt != NO_DIR && ot) close(dt);
  return r == 0 ? CT_OK : io_error(err, 1, to, e);
}

/* ---- turning the rules on -------------------------------------------------------------- */

ct_status_t ct_fs_restrict(const ct_fs_root_t *roots, unsigned n, ct_error_t *err) {
  unsigned i;
  if (fs.on) return ct_set_error(err, CT_ERR_INVALID_ARG, "the file rules are set already");
  if (n == 0 || !(roots[0].flags & CT_FS_WRITABLE))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "the first root must be the writable working directory");
  for (i = 0; i < n && fs.nroots < MAX_ROOTS; i++) {
    char real[PATH_MAX];
    root_t *r = &fs.roots[fs.nroots];
    int fd;
    if (!realpath(roots[i].path, real)) {
      if (i == 0) return ct_set_error(err, CT_ERR_IO, "%s: %s", roots[i].path, strerror(errno));
      continue;   /* a font folder that does not exist */
    }
    if ((fd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
      if (i == 0) return ct_set_error(err, CT_ERR_IO, "%s: %s", real, strerror(errno));
      continue;
    }
    if (strcmp(real, "/") == 0) real[0] = '\0';
    if (!(r->path = strdup(real))) { close(fd); return ct_set_error(err, CT_ERR_NOMEM, "out of memory"); }
    r->len = strlen(real);
    r->fd = fd;
    r->flags = roots[i].flags;
    fs.nroots++;
  }
  fs.on = 1;
  return CT_OK;
}

ct_status_t ct_fs_map_dir(const char *as_written, int dirfd, ct_error_t *err) {
  map_t *m;
  if (fs.nmaps == MAX_MAPS) return ct_set_error(err, CT_ERR_LIMIT, "too many handed folders");
  m = &fs.maps[fs.nmaps];
  if (!(m->dir = strdup(as_written))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  m->fd = dirfd;
  fs.nmaps++;
  return CT_OK;
}
