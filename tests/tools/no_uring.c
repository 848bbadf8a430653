/*
 * no_uring: runs a program on a kernel that, for it, has no io_uring, or
 * refuses it: a seccomp filter makes every io_uring_setup fail with the
 * errno given (the rest of the system calls are let through), inherited
 * by the program and its children.  For the tests of `poll: uring`'s
 * refusal at plan time (tests/e2e/test_uring.sh), on a machine whose
 * kernel has io_uring.
 *
 *   no_uring ENOSYS|EPERM PROGRAM [ARG...]
 *
 * Exit status 2: bad arguments, or the filter could not be set (then it
 * says why); else the program's, as exec leaves it (127: no exec).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define NO_URING_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NO_URING_ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
	int err = argc > 2 && !strcmp(argv[1], "ENOSYS") ? ENOSYS :
		  argc > 2 && !strcmp(argv[1], "EPERM") ? EPERM : 0;

	if (!err) {
		fprintf(stderr, "usage: no_uring ENOSYS|EPERM PROGRAM [ARG...]\n");
		return 2;
	}
#ifdef NO_URING_ARCH
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NO_URING_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		fprintf(stderr, "no_uring: seccomp: %s\n", strerror(errno));
		return 2;
	}
#else
	fprintf(stderr, "no_uring: no seccomp filter for this architecture\n");
	return 2;
#endif
	execvp(argv[2], argv + 2);
	fprintf(stderr, "no_uring: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
