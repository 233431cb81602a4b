#ifndef SOPHON_SPAWN_H
#define SOPHON_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated) in a new process, in a process group
/// of its own (its pid), whose standard streams are `stdin_fd`, `stdout_fd` and `stderr_fd`, every other descriptor closed, no
/// signal blocked and every signal at its default action. On Linux the child is killed
/// (SIGKILL) when the thread that called this ends, so call it from a thread that lives as
/// long as the process: then no child outlives its shell, even one killed with SIGKILL.
///
/// Returns the child's pid, or -1 with `*error_number` set to the errno of the failed fork or
/// exec (ENOENT, EACCES, ENOEXEC, ...); a child whose exec failed has been reaped.
pid_t sophon_spawn(
    const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd,
    int *error_number);

/// A pipe whose two ends are close-on-exec (`pipe2(fds, O_CLOEXEC)`): 0, or -1 with errno set.
int sophon_pipe_cloexec(int fds[2]);

#endif
