// The shell's child processes (plugins, MCP servers) are started here rather than by
// Foundation's Process, which cannot ask the kernel to kill a child when its parent dies
// (issue 25 point 12: a plugin stuck in a call outlived a sophon killed with SIGKILL).

#define _GNU_SOURCE
#include "sophon_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

// Writes the errno of a failed step to `report` and ends the child. Only async-signal-safe
// calls from here on: the parent may have had other threads.
static void fail(int report, int error_number) {
    ssize_t ignored = write(report, &error_number, sizeof error_number);
    (void)ignored;
    _exit(127);
}

static void close_from(int first) {
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
    long last = sysconf(_SC_OPEN_MAX);
    if (last < 0 || last > 65536) last = 65536;
    for (int fd = first; fd < last; fd++) close(fd);
}

pid_t sophon_spawn(
    const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd,
    int *error_number) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        *error_number = errno;
        return -1;
    }
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        *error_number = errno;
        close(report[0]);
        close(report[1]);
        return -1;
    }
    if (child == 0) {
#ifdef __linux__
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail(report[1], errno);
        if (getppid() != parent) _exit(127);  // The parent died before the line above.
#else
        (void)parent;
#endif
        // Its own process group: Ctrl-C at the terminal is the shell's to handle (it sends the
        // plugin a cancel), and the shell can end the child with everything it started.
        if (setpgid(0, 0) != 0) fail(report[1], errno);
        for (int signal_number = 1; signal_number < NSIG; signal_number++) {
            if (signal_number != SIGKILL && signal_number != SIGSTOP) signal(signal_number, SIG_DFL);
        }
        sigset_t empty;
        sigemptyset(&empty);
        sigprocmask(SIG_SETMASK, &empty, NULL);
        // Move the three streams above 2 first, so dup2 into 0-2 never overwrites one of them.
        int in = fcntl(stdin_fd, F_DUPFD_CLOEXEC, 3);
        int out = fcntl(stdout_fd, F_DUPFD_CLOEXEC, 3);
        int err = fcntl(stderr_fd, F_DUPFD_CLOEXEC, 3);
        if (in < 0 || out < 0 || err < 0) fail(report[1], errno);
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) fail(report[1], errno);
        // Keep the report pipe (close-on-exec) above every other descriptor we close.
        int keep = fcntl(report[1], F_DUPFD_CLOEXEC, 3);
        if (keep < 0) fail(report[1], errno);
        if (dup2(keep, 3) < 0) fail(keep, errno);
        fcntl(3, F_SETFD, FD_CLOEXEC);
        close_from(4);
        execve(path, argv, envp);
        fail(3, errno);
    }
    close(report[1]);
    int child_errno = 0;
    ssize_t got;
    do {
        got = read(report[0], &child_errno, sizeof child_errno);
    } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof child_errno) {
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        *error_number = child_errno;
        return -1;
    }
    return child;
}

int sophon_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
