/*
** sandbox.c: a process confined for good, for running what a stranger wrote.  Three
** layers, each enough alone for files: the path rules of fs.c (every file the core opens),
** Landlock (the kernel's file access: the working directory read and written, the run's
** own folders, fonts and system libraries read, nothing executed; no TCP, no signals or
** abstract sockets outside the sandbox where the kernel has them), and a seccomp filter
** (no execve, no sockets, no namespaces, links, ptrace or kernel keys).  Capabilities are
** dropped and no_new_privs set first.  Linux only.  Base stage: knows no font, paint or page.
*/
#define _GNU_SOURCE   /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/landlock.h>
#include <seccomp.h>
#include <fontconfig/fontconfig.h>

#include "base.h"

/* ---- Landlock ------------------------------------------------------------------------- */

/* Rights of later ABIs than Debian 12's headers know (linux/landlock.h of 6.1). */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#define LL_NET_BIND_TCP        (1ULL << 0)
#define LL_NET_CONNECT_TCP     (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)
#define LL_SCOPE_SIGNAL        (1ULL << 1)

/* struct landlock_ruleset_attr as of ABI 6; older kernels take a prefix of it. */
struct ll_ruleset_attr {
  unsigned long long handled_access_fs;
  unsigned long long handled_access_net;
  unsigned long long scoped;
};

struct ll_path_beneath {
  unsigned long long allowed_access;
  int parent_fd;
} __attribute__((packed));

#define LL_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
                        LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
/* what the run does in the working directory: never links, devices, sockets, or execution */
#define LL_WRITE (LL_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_DIR | \
                  LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REFER | \
                  LANDLOCK_ACCESS_FS_TRUNCATE)

int ct_sandbox_landlock_abi(void) {
  /* CHROMATYPE_SANDBOX_LANDLOCK=0: as on a kernel without it, for tests */
  const char *e = getenv("CHROMATYPE_SANDBOX_LANDLOCK");
  long v;
  if (e && strcmp(e, "0") == 0) return 0;
  v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return v > 0 ? (int)v : 0;
}

static unsigned long long fs_rights(int abi) {
  unsigned long long r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;   /* ABI 1: bits 0..12 */
  if (abi >= 2) r |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) r |= LANDLOCK_ACCESS_FS_TRUNCATE;
  if (abi >= 5) r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
  return r;
}

/* Allows `rights` beneath `path` (a file gets only the file rights); a path that does
   not exist is skipped. */
static ct_status_t ll_allow(int ruleset, const char *path, unsigned long long rights, unsigned long long handled,
                            ct_error_t *err) {
  struct ll_path_beneath pb;
  struct stat sb;
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return CT_OK;
  if (fstat(fd, &sb) == 0 && !S_ISDIR(sb.st_mode)) rights &= LL_FILE_RIGHTS;
  memset(&pb, 0, sizeof pb);
  pb.allowed_access = rights & handled;
  pb.parent_fd = fd;
  if (pb.allowed_access && syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0) {
    int e = errno;
    close(fd);
    return ct_set_error(err, CT_ERR_BACKEND, "sandbox: Landlock refuses a rule for %s: %s", path, strerror(e));
  }
  close(fd);
  return CT_OK;
}

/* Fontconfig's folders: its fonts and its caches, read (fontconfig was started before). */
static ct_status_t ll_allow_fontconfig(int ruleset, unsigned long long handled, ct_error_t *err) {
  FcConfig *cfg = FcConfigGetCurrent();
  FcStrList *l;
  FcChar8 *d;
  ct_status_t st = CT_OK;
  if (!cfg) return CT_OK;
  if ((l = FcConfigGetFontDirs(cfg))) {
    while (st == CT_OK && (d = FcStrListNext(l))) st = ll_allow(ruleset, (const char *)d, LL_READ, handled, err);
    FcStrListDone(l);
  }
  if (st == CT_OK && (l = FcConfigGetCacheDirs(cfg))) {
    while (st == CT_OK && (d = FcStrListNext(l))) {
      FcChar8 *real = FcStrCopyFilename(d);   /* "~/.cache/fontconfig" with the ~ expanded */
      st = ll_allow(ruleset, (const char *)(real ? real : d), LL_READ, handled, err);
      FcStrFree(real);
    }
    FcStrListDone(l);
  }
  return st;
}

/* System files every run reads: libraries and their data (gdk-pixbuf's loaders, ICU,
   hyphenation dictionaries, locales), fontconfig's configuration, the dynamic loader's
   cache, the time zone; /dev/null written, /dev/urandom read. */
static const char *const system_read[] = {
  "/usr", "/lib", "/lib64", "/lib32", "/etc/fonts", "/etc/ld.so.cache", "/etc/localtime",
  "/var/cache/fontconfig", "/dev/urandom", "/sys/devices/system/cpu",
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  "/proc/self",   /* the sanitizers read their own maps */
#endif
};

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
/* A sanitizer build reads its suppressions files (LSAN_OPTIONS=suppressions=PATH, ...) when
   the run ends, from inside the confinement: they are read too. */
static ct_status_t ll_allow_suppressions(int ruleset, unsigned long long handled, ct_error_t *err) {
  static const char *const vars[] = { "LSAN_OPTIONS", "ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS" };
  ct_status_t st = CT_OK;
  unsigned i;
  for (i = 0; st == CT_OK && i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]), *p;
    char path[4096];
    size_t n;
    if (!v || !(p = strstr(v, "suppressions="))) continue;
    p += strlen("suppressions=");
    n = strcspn(p, ": ");
    if (n == 0 || n >= sizeof path) continue;
    memcpy(path, p, n);
    path[n] = '\0';
    st = ll_allow(ruleset, path, LL_READ, handled, err);
  }
  return st;
}
#endif

static ct_status_t landlock(const ct_sandbox_t *sb, int abi, ct_error_t *err) {
  struct ll_ruleset_attr attr;
  size_t size;
  unsigned i;
  int ruleset;
  ct_status_t st = CT_OK;
  memset(&attr, 0, sizeof attr);
  attr.handled_access_fs = fs_rights(abi);
  size = sizeof attr.handled_access_fs;
  if (abi >= 4) {
    attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;   /* no rules: no TCP at all */
    size = 2 * sizeof(unsigned long long);
  }
  if (abi >= 6) {
    attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;   /* no signals to processes outside */
    size = sizeof attr;
  }
  ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) return ct_set_error(err, CT_ERR_BACKEND, "sandbox: Landlock: %s", strerror(errno));
  st = ll_allow(ruleset, sb->cwd, LL_WRITE, attr.handled_access_fs, err);
  for (i = 0; st == CT_OK && i < sb->nwrite; i++) st = ll_allow(ruleset, sb->write[i], LL_WRITE, attr.handled_access_fs, err);
  for (i = 0; st == CT_OK && i < sb->nread; i++) st = ll_allow(ruleset, sb->read[i], LL_READ, attr.handled_access_fs, err);
  for (i = 0; st == CT_OK && i < sizeof system_read / sizeof *system_read; i++)
    st = ll_allow(ruleset, system_read[i], LL_READ, attr.handled_access_fs, err);
  if (st == CT_OK)
    st = ll_allow(ruleset, "/dev/null", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                  LANDLOCK_ACCESS_FS_TRUNCATE, attr.handled_access_fs, err);
  if (st == CT_OK) st = ll_allow_fontconfig(ruleset, attr.handled_access_fs, err);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  if (st == CT_OK) st = ll_allow_suppressions(ruleset, attr.handled_access_fs, err);
#endif
  if (st == CT_OK && syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
    st = ct_set_error(err, CT_ERR_BACKEND, "sandbox: Landlock: %s", strerror(errno));
  close(ruleset);
  return st;
}

/* ---- seccomp -------------------------------------------------------------------------- */

/* System calls a confined run never makes: starting programs, the network, namespaces and
   mounts, links (a second name for a file outside), kernel keys and modules, io_uring (its
   operations pass no filter), faking terminal input.  Refused with EPERM, so that a library
   that tries one fails as it would without the right. */
static const int denied_calls[] = {
  SCMP_SYS(execve), SCMP_SYS(execveat),
  SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen),
  SCMP_SYS(accept), SCMP_SYS(accept4),
  SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(unshare),
  SCMP_SYS(setns), SCMP_SYS(open_tree), SCMP_SYS(move_mount), SCMP_SYS(fsopen), SCMP_SYS(fsmount),
  SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink), SCMP_SYS(symlinkat), SCMP_SYS(mknod), SCMP_SYS(mknodat),
  SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at),
  SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(userfaultfd), SCMP_SYS(fanotify_init),
  SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key),
  SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(kexec_load),
  SCMP_SYS(kexec_file_load), SCMP_SYS(reboot), SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(acct),
  SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register),
  SCMP_SYS(iopl), SCMP_SYS(ioperm), SCMP_SYS(settimeofday), SCMP_SYS(clock_settime), SCMP_SYS(adjtimex),
  SCMP_SYS(sethostname), SCMP_SYS(setdomainname), SCMP_SYS(personality), SCMP_SYS(vhangup),
};

/* Without Landlock, which keeps a confined process from tracing any outside its domain,
   ptrace and its relatives are refused too (with it, the sanitizers' leak check may trace
   the run's own threads). */
static const int denied_without_landlock[] = {
  SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(kcmp),
};

static ct_status_t seccomp(int landlocked, ct_error_t *err) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  static const unsigned long ns_flags[] = { CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET,
                                            CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWCGROUP };
  unsigned i;
  int rc = 0;
  if (!ctx) return ct_set_error(err, CT_ERR_NOMEM, "sandbox: seccomp: out of memory");
  for (i = 0; rc == 0 && i < sizeof denied_calls / sizeof *denied_calls; i++)
    if (denied_calls[i] >= 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), denied_calls[i], 0);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  landlocked = 1;   /* a sanitizer build (tests only): its leak check traces the run's threads */
#endif
  for (i = 0; rc == 0 && !landlocked && i < sizeof denied_without_landlock / sizeof *denied_without_landlock; i++)
    rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), denied_without_landlock[i], 0);
  /* threads, yes; new namespaces, no.  clone3 hides its flags in memory a filter cannot
     read: ENOSYS makes glibc use clone. */
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  for (i = 0; rc == 0 && i < sizeof ns_flags / sizeof *ns_flags; i++)
    rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                          SCMP_A0(SCMP_CMP_MASKED_EQ, ns_flags[i], ns_flags[i]));
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX));
  /* the other ABIs of this CPU (x32, i386) are killed: the filter is for the native one */
  if (rc == 0) rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  /* a kernel (or valgrind) without seccomp filters: reported, the other layers stay */
  if (rc == -EINVAL || rc == -ENOSYS) return CT_ERR_NOT_FOUND;
  if (rc != 0) return ct_set_error(err, CT_ERR_BACKEND, "sandbox: seccomp: %s", strerror(-rc));
  return CT_OK;
}

/* ---- capabilities --------------------------------------------------------------------- */

/* A run as root keeps no capability: it may not read past file modes, kill others'
   processes or bind low ports, and cannot get them back. */
static ct_status_t drop_capabilities(ct_error_t *err) {
  struct __user_cap_header_struct hdr;
  struct __user_cap_data_struct data[2];
  int cap;
  for (cap = 0; cap <= 63; cap++)
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno == EINVAL) break;   /* past the last */
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  memset(&hdr, 0, sizeof hdr);
  memset(data, 0, sizeof data);
  hdr.version = _LINUX_CAPABILITY_VERSION_3;
  if (syscall(SYS_capset, &hdr, data) != 0)
    return ct_set_error(err, CT_ERR_BACKEND, "sandbox: cannot drop capabilities: %s", strerror(errno));
  return CT_OK;
}

/* ---- entering ------------------------------------------------------------------------- */

ct_status_t ct_sandbox_enter(const ct_sandbox_t *sb, ct_sandbox_report_t *report, ct_error_t *err) {
  ct_fs_root_t roots[40];
  FcConfig *cfg;
  FcStrList *l;
  FcChar8 *d;
  unsigned n = 0, i;
  ct_status_t st;
  int abi;

  memset(report, 0, sizeof *report);
  /* fontconfig reads its configuration and caches now, while it may */
  if (!FcInit()) return ct_set_error(err, CT_ERR_BACKEND, "fontconfig: cannot start");
  roots[n].path = sb->cwd;
  roots[n++].flags = CT_FS_WRITABLE;
  for (i = 0; i < sb->nread && n < 24; i++) {
    roots[n].path = sb->read[i];
    roots[n++].flags = 0;
  }
  if ((cfg = FcConfigGetCurrent()) && (l = FcConfigGetFontDirs(cfg))) {
    while (n < sizeof roots / sizeof *roots && (d = FcStrListNext(l))) {
      roots[n].path = (const char *)d;   /* fontconfig's, alive while the list is */
      roots[n++].flags = CT_FS_SYSTEM;
    }
    st = ct_fs_restrict(roots, n, err);
    FcStrListDone(l);
  } else {
    st = ct_fs_restrict(roots, n, err);
  }
  if (st != CT_OK) return st;
  for (i = 0; i < sb->nmaps; i++)
    if ((st = ct_fs_map_dir(sb->maps[i].as_written, sb->maps[i].fd, err)) != CT_OK) return st;

  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return ct_set_error(err, CT_ERR_BACKEND, "sandbox: no_new_privs: %s", strerror(errno));
  if (geteuid() == 0 || getuid() == 0) {
    if ((st = drop_capabilities(err)) != CT_OK) return st;
  }
  abi = ct_sandbox_landlock_abi();
  if (abi > 0) {
    if ((st = landlock(sb, abi, err)) != CT_OK) return st;
    report->landlock_abi = abi;
  }
  st = seccomp(abi > 0, err);
  if (st == CT_ERR_NOT_FOUND) return CT_OK;   /* report->seccomp stays 0 */
  if (st != CT_OK) return st;
  report->seccomp = 1;
  return CT_OK;
}
