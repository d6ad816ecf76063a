/*
** test_fs.c: the sandbox's file rules (fs.c) and its kernel confinement (sandbox.c).
** Paths are resolved beneath their root, never by their text: '..', absolute paths,
** symbolic links to files and folders outside, hard links, writes to read-only roots,
** a handed folder; then, in a child that entered the sandbox, the kernel refuses what the
** rules would (open outside, execve, sockets, links, namespaces, signals to the parent)
** even for calls that do not go through fs.c.  Core unit test.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct-test.h"
#include "ct.h"

static char top[] = "/tmp/ct-test-fs-XXXXXX";
static char work[600], out[600], ro[600];

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (f) { fputs(text, f); fclose(f); }
}

static char *read_text(const char *path, ct_error_t *err) {
  size_t len;
  return (char *)ct_fs_read_all(path, 1 << 20, &len, err);
}

/* Reads `path` under the rules: 1 if read, 0 if refused (CT_ERR_DENIED), -1 otherwise. */
static int readable(const char *path) {
  ct_error_t err;
  char *t = read_text(path, &err);
  if (t) { free(t); return 1; }
  return err.status == CT_ERR_DENIED ? 0 : -1;
}

static int denied_write(const char *path) {
  char *tmp = NULL;
  ct_error_t err;
  int fd = ct_fs_create_temp(path, ".tmp-", &tmp, &err);
  if (fd >= 0) {
    close(fd);
    ct_fs_unlink(tmp);
    free(tmp);
    return 0;
  }
  return err.status == CT_ERR_DENIED;
}

static void unrestricted(void) {
  char p[700];
  ct_error_t err;
  char *t;
  snprintf(p, sizeof p, "%s/a.txt", work);
  CHECK(!ct_fs_restricted());
  t = read_text(p, &err);
  CHECK(t && strcmp(t, "inside") == 0);
  free(t);
  snprintf(p, sizeof p, "%s/secret.txt", out);
  CHECK(readable(p) == 1);                       /* no rules yet: any file */
}

/* After ct_fs_restrict: cwd = work (writable), ro readable. */
static void rules(void) {
  char p[700], q[700];
  ct_error_t err;
  struct stat sb;
  char *tmp = NULL, *t;
  int fd;
  size_t n;
  char **names;

  CHECK(ct_fs_restricted());
  CHECK(readable("a.txt") == 1);
  CHECK(readable("./sub/../a.txt") == 1);        /* '..' that stays inside */
  CHECK(readable("../secret.txt") == 0);
  snprintf(p, sizeof p, "%s/../out/secret.txt", work);
  CHECK(readable(p) == 0);                       /* '..' out of an absolute root */
  CHECK(readable("../out/secret.txt") == 0);
  CHECK(readable("/etc/hostname") == 0);
  snprintf(p, sizeof p, "%s/secret.txt", out);
  CHECK(readable(p) == 0);
  CHECK(readable("in-link.txt") == 1);           /* a link to a file inside */
  CHECK(readable("out-link.txt") == 0);          /* ... to a file outside */
  CHECK(readable("out-dir/secret.txt") == 0);    /* through a link to a folder outside */
  CHECK(readable("abs-link.txt") == 0);          /* an absolute link */
  CHECK(readable("hard.txt") == 0);              /* a second name of a file outside */
  t = read_text("hard.txt", &err);
  CHECK(!t && strstr(err.message, "hard links"));
  free(t);
  snprintf(p, sizeof p, "%s/r.txt", ro);
  CHECK(readable(p) == 1);                       /* a read-only root */
  CHECK(denied_write(p));
  CHECK(readable("missing.txt") == -1);          /* absent: not a refusal */
  CHECK(!ct_fs_exists("out-link.txt") && ct_fs_exists("a.txt"));
  CHECK(ct_fs_stat("out-dir", &sb, &err) == CT_ERR_DENIED);

  /* writes: temporaries beside the target, renamed; never through a link */
  CHECK(denied_write("/tmp/x.png"));
  CHECK(denied_write("../x.png"));
  CHECK(denied_write("out-dir/x.png"));
  fd = ct_fs_create_temp("new.txt", ".tmp-", &tmp, &err);
  CHECK(fd >= 0);
  if (fd >= 0) {
    CHECK(write(fd, "new", 3) == 3);
    close(fd);
    CHECK(ct_fs_rename(tmp, "new.txt", &err) == CT_OK);
    free(tmp);
    t = read_text("new.txt", &err);
    CHECK(t && strcmp(t, "new") == 0);
    free(t);
  }
  /* over a link to a file outside: the link is replaced, the file outside untouched */
  fd = ct_fs_create_temp("out-link.txt", ".tmp-", &tmp, &err);
  CHECK(fd >= 0);
  if (fd >= 0) {
    CHECK(write(fd, "mine", 4) == 4);
    close(fd);
    CHECK(ct_fs_rename(tmp, "out-link.txt", &err) == CT_OK);
    free(tmp);
  }
  snprintf(q, sizeof q, "%s/secret.txt", out);
  {
    FILE *f = fopen(q, "rb");
    char buf[32] = "";
    if (f) { CHECK(fgets(buf, sizeof buf, f) != NULL); fclose(f); }
    CHECK_STR(buf, "secret");
  }
  CHECK(lstat("out-link.txt", &sb) == 0 && S_ISREG(sb.st_mode));
  /* the same over a hard link */
  CHECK(ct_fs_mkdirs("made/deep/er", &err) == CT_OK && stat("made/deep/er", &sb) == 0 && S_ISDIR(sb.st_mode));
  CHECK(ct_fs_mkdirs("out-dir/x", &err) == CT_ERR_DENIED);
  CHECK(ct_fs_unlink("../out/secret.txt") != 0 && access(q, F_OK) == 0);
  names = ct_fs_list(".", &n, &err);
  CHECK(names && n >= 5);
  ct_fs_free_list(names, n);
  CHECK(ct_fs_list("out-dir", &n, &err) == NULL && err.status == CT_ERR_DENIED);
  CHECK(ct_fs_rename("a.txt", "../stolen.txt", &err) == CT_ERR_DENIED);
}

/* A handed folder: files named in "/elsewhere/out" go to the scratch folder. */
static void handed(const char *scratch) {   /* scratch: at most 600 bytes */
  ct_error_t err;
  char *tmp = NULL;
  int fd, dfd = open(scratch, O_PATH | O_DIRECTORY);
  char p[800];
  CHECK(dfd >= 0);
  CHECK(ct_fs_map_dir("/elsewhere/out", dfd, &err) == CT_OK);
  fd = ct_fs_create_temp("/elsewhere/out/doc.pdf", ".tmp-", &tmp, &err);
  CHECK(fd >= 0);
  if (fd >= 0) {
    close(fd);
    CHECK(ct_fs_rename(tmp, "/elsewhere/out/doc.pdf", &err) == CT_OK);
    free(tmp);
  }
  snprintf(p, sizeof p, "%s/doc.pdf", scratch);
  CHECK(access(p, F_OK) == 0);
  CHECK(denied_write("/elsewhere/doc.pdf"));     /* only that folder, as written */
}

/* In a forked child: the kernel's layers, for calls that bypass fs.c. */
static int confined_child(void) {
  ct_sandbox_t sb;
  ct_sandbox_report_t rep;
  ct_error_t err;
  const char *reads[1] = { ro };
  char p[700];
  int fails = 0, fd;
  memset(&sb, 0, sizeof sb);
  sb.cwd = work;
  sb.read = reads;
  sb.nread = 1;
  if (ct_sandbox_enter(&sb, &rep, &err) != CT_OK) {
    fprintf(stderr, "enter: %s\n", err.message);
    return 100;
  }
#define EXPECT(cond) do { if (!(cond)) { fprintf(stderr, "confined: failed: %s\n", #cond); fails++; } } while (0)
  if (rep.seccomp) {
    EXPECT(execl("/bin/true", "true", (char *)NULL) != 0 && errno == EPERM);
    EXPECT(socket(AF_INET, SOCK_STREAM, 0) < 0 && errno == EPERM);
    EXPECT(socket(AF_UNIX, SOCK_STREAM, 0) < 0);
    EXPECT(symlink("/etc/passwd", "sym") != 0);
    EXPECT(link("a.txt", "a2.txt") != 0);
    EXPECT(unshare(CLONE_NEWUSER) != 0);
    EXPECT(access("sym", F_OK) != 0 && access("a2.txt", F_OK) != 0);
  } else {
    fprintf(stderr, "test_fs: note: no seccomp here (valgrind?); the system-call filter is not tested\n");
  }
  if (rep.landlock_abi > 0) {
    snprintf(p, sizeof p, "%s/secret.txt", out);
    EXPECT(open(p, O_RDONLY) < 0 && errno == EACCES);          /* plain open, past fs.c */
    EXPECT(open("/etc/hostname", O_RDONLY) < 0 && errno == EACCES);
    snprintf(p, sizeof p, "%s/new.txt", out);
    EXPECT(open(p, O_WRONLY | O_CREAT, 0644) < 0);
    EXPECT((fd = open("plain.txt", O_WRONLY | O_CREAT, 0644)) >= 0);   /* the working directory */
    if (fd >= 0) close(fd);
    snprintf(p, sizeof p, "%s/r.txt", ro);
    EXPECT((fd = open(p, O_RDONLY)) >= 0);
    if (fd >= 0) close(fd);
    EXPECT(open(p, O_WRONLY) < 0);
    EXPECT((fd = open("/usr/share/fonts", O_RDONLY | O_DIRECTORY)) >= 0 || errno == ENOENT);
    if (fd >= 0) close(fd);
    if (rep.landlock_abi >= 6) EXPECT(kill(getppid(), 0) != 0 && errno == EPERM);   /* no signals out */
  } else {
    fprintf(stderr, "test_fs: note: no Landlock here; the kernel's file checks are not tested\n");
  }
  return fails;
}

int main(void) {
  char p[700], q[700], scratch[700];
  pid_t pid;
  int status = 0;
  if (!mkdtemp(top)) return 1;
  snprintf(work, sizeof work, "%s/work", top);
  snprintf(out, sizeof out, "%s/out", top);
  snprintf(ro, sizeof ro, "%s/ro", top);
  snprintf(scratch, sizeof scratch, "%s/scratch", top);
  mkdir(work, 0755);
  mkdir(out, 0755);
  mkdir(ro, 0755);
  mkdir(scratch, 0755);
  snprintf(p, sizeof p, "%s/sub", work);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/a.txt", work);
  put(p, "inside");
  snprintf(q, sizeof q, "%s/secret.txt", out);
  put(q, "secret");
  snprintf(p, sizeof p, "%s/r.txt", ro);
  put(p, "read-only");
  CHECK(chdir(work) == 0);
  CHECK(symlink("a.txt", "in-link.txt") == 0);
  CHECK(symlink("../out/secret.txt", "out-link.txt") == 0);
  CHECK(symlink(out, "out-dir") == 0);
  CHECK(symlink(q, "abs-link.txt") == 0);
  CHECK(link(q, "hard.txt") == 0);

  /* first, before this process restricts itself: the child enters the sandbox anew */
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid == 0) _exit(confined_child());
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the confined child: %s %d",
            WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  /* nothing appeared outside */
  snprintf(p, sizeof p, "%s/new.txt", out);
  CHECK(access(p, F_OK) != 0);

  unrestricted();
  {
    ct_fs_root_t roots[2] = { { work, CT_FS_WRITABLE }, { ro, 0 } };
    ct_error_t err;
    CHECK(ct_fs_restrict(roots, 2, &err) == CT_OK);
    CHECK(ct_fs_restrict(roots, 2, &err) != CT_OK);   /* once */
  }
  rules();
  handed(scratch);

  snprintf(p, sizeof p, "rm -rf '%s'", top);
  CHECK(system(p) == 0);
  return ct_test_report("test_fs");
}
