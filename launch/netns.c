/* topology: netns: the namespaces, their TUN devices and the link
 * process.  See netns.h. */
#include "netns.h"
#include "link.h"
#include "iproute.h"
#include "netem.h"
#include "procinfo.h"
#include "spawn.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAP_NET_ADMIN_BIT 12
#define CAP_SYS_ADMIN_BIT 21

/* 1 when this process may make namespaces and network devices. */
static int has_caps(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long eff = 0;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	if (f)
		fclose(f);
	return (eff >> CAP_NET_ADMIN_BIT & 1) && (eff >> CAP_SYS_ADMIN_BIT & 1);
}

/* When process pid started, in seconds since the epoch (a little early:
 * the boot time is whole seconds), or -1 when there is no such process
 * (or only its zombie). */
static double proc_started(long pid)
{
	unsigned long long ticks, btime = 0;
	char buf[256];
	FILE *f;

	if (proc_start_time((pid_t)pid, &ticks) < 0)
		return -1;
	if ((f = fopen("/proc/stat", "re"))) {
		while (fgets(buf, sizeof(buf), f) && sscanf(buf, "btime %llu", &btime) != 1)
			;
		fclose(f);
	}
	return (double)btime + (double)ticks / (double)sysconf(_SC_CLK_TCK);
}

/* 1 when namespace path (of a runner with that pid) may be in use: the
 * pid runs a process that started before the namespace was made.  Not
 * the process's name: a runner started as another name (a symlink, a
 * versioned install) is no less running. */
static int in_use(long pid, const char *path)
{
	struct stat st;
	double started = proc_started(pid);

	if (started < 0 || stat(path, &st) < 0)
		return started >= 0;
	return started <= (double)st.st_ctim.tv_sec + 1;
}

void netns_sweep(void)
{
	DIR *d = opendir("/run/netns");
	struct dirent *e;
	char err[768];

	if (!d)
		return;
	while (has_caps() && (e = readdir(d))) {
		long pid;
		char side, path[300];
		int end = 0;
		snprintf(path, sizeof(path), "/run/netns/%s", e->d_name);
		if (sscanf(e->d_name, "matrix-%ld-%c%n", &pid, &side, &end) != 2 || e->d_name[end] ||
		    (side != 's' && side != 'c') || pid <= 0 ||
		    (pid != (long)getpid() && in_use(pid, path)))
			continue;	/* ours are not made yet: one of our pid is stale */
		const char *args[] = { "netns", "del", e->d_name, NULL };
		if (iproute_run("ip", args, err, sizeof(err)) < 0)
			fprintf(stderr, "matrix: cannot remove network namespace %s of matrix run %ld, "
				"which is no longer running: %s\n", e->d_name, pid, err);
		else
			fprintf(stderr, "matrix: removed network namespace %s of matrix run %ld, which "
				"is no longer running\n", e->d_name, pid);
	}
	closedir(d);
}

/* SIOCSIFADDR or SIOCSIFDSTADDR of dev to addr. */
static int set_addr(int sock, const char *dev, unsigned long req, const char *addr)
{
	struct ifreq ifr = { 0 };
	struct sockaddr_in sin = { .sin_family = AF_INET };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	inet_pton(AF_INET, addr, &sin.sin_addr);
	memcpy(&ifr.ifr_addr, &sin, sizeof(sin));
	return ioctl(sock, req, &ifr);
}

/* struct in6_ifreq of <linux/ipv6.h>, which does not go with <netinet/in.h> */
struct addr6_req {
	struct in6_addr addr;
	uint32_t prefixlen;
	int ifindex;
};

/* dev's IPv6 address addr/64 (SIOCSIFADDR on an AF_INET6 socket, as `ip
 * -6 addr add` does): 0, or -1 with errno.  A TUN device is NOARP: no
 * duplicate address detection, the address is there at once. */
static int set_addr6(const char *dev, const char *addr)
{
	struct ifreq ifr = { 0 };
	struct addr6_req req = { .prefixlen = 64 };
	int sock = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = -1;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	inet_pton(AF_INET6, addr, &req.addr);
	if (sock >= 0 && ioctl(sock, SIOCGIFINDEX, &ifr) == 0) {
		req.ifindex = ifr.ifr_ifindex;
		rc = ioctl(sock, SIOCSIFADDR, &req);
	}
	int e = errno;
	if (sock >= 0)
		close(sock);
	errno = e;
	return rc;
}

static int set_up(int sock, const char *dev)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0)
		return -1;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	return ioctl(sock, SIOCSIFFLAGS, &ifr);
}

/* In the current namespace: the TUN device NETNS_DEV with addr and its
 * peer, and lo, up, then its IPv6 address addr6 (a failure of which only
 * says why in no6, a kernel without IPv6 still has the IPv4 link).  Its
 * descriptor, or -1 with err. */
static int make_tun(const char *addr, const char *peer, const char *addr6, char *no6,
		    size_t no6len, char *err, size_t errlen)
{
	struct ifreq ifr = { .ifr_flags = IFF_TUN | IFF_NO_PI };
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	const char *what = fd < 0 ? "open /dev/net/tun" : sock < 0 ? "socket" : NULL;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", NETNS_DEV);
	if (!what && ioctl(fd, TUNSETIFF, &ifr) < 0)
		what = "TUNSETIFF " NETNS_DEV;
	if (!what && set_addr(sock, NETNS_DEV, SIOCSIFADDR, addr) < 0)
		what = "set the address of " NETNS_DEV;
	if (!what && set_addr(sock, NETNS_DEV, SIOCSIFDSTADDR, peer) < 0)
		what = "set the peer address of " NETNS_DEV;
	if (!what && set_up(sock, NETNS_DEV) < 0)
		what = "set " NETNS_DEV " up";
	if (!what && set_up(sock, "lo") < 0)
		what = "set lo up";
	if (!what && !no6[0] && set_addr6(NETNS_DEV, addr6) < 0)
		snprintf(no6, no6len, "cannot give %s the IPv6 address %s/64: %s", NETNS_DEV, addr6,
			 strerror(errno));
	if (what) {
		snprintf(err, errlen, "%s: %s", what, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	if (sock >= 0)
		close(sock);
	return fd;
}

void netns_name(const char *role, char *buf, size_t len)
{
	snprintf(buf, len, "matrix-%ld-%c", (long)getpid(), strcmp(role, "server") ? 'c' : 's');
}

/* Into namespace ns (*self: the runner's, to come back to): 0, or -1
 * with errno and nothing to come back from. */
static int enter(const char *ns, int *self)
{
	char path[64];
	int there;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	if ((*self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if ((there = open(path, O_RDONLY | O_CLOEXEC)) < 0 || setns(there, CLONE_NEWNET) < 0) {
		int e = errno;
		if (there >= 0)
			close(there);
		close(*self);
		errno = e;
		return -1;
	}
	close(there);
	return 0;
}

/* Back into the runner's namespace from enter(). */
static void leave(int self)
{
	int e = errno;

	if (setns(self, CLONE_NEWNET) < 0) {
		/* the runner would go on in the wrong namespace: no */
		fprintf(stderr, "matrix: cannot return to the runner's network namespace: %s\n",
			strerror(errno));
		abort();
	}
	close(self);
	errno = e;
}

FILE *netns_fopen(const char *ns, const char *path)
{
	int self;
	FILE *f;

	if (enter(ns, &self) < 0)
		return NULL;
	f = fopen(path, "re");
	leave(self);
	return f;
}

/* make_tun inside namespace ns, and back; the address pair [0] or [1]. */
static int tun_in(struct netns *n, int i, char *err, size_t errlen)
{
	static const char *const addr[2][2] = {
		{ NETNS_SERVER_ADDR, NETNS_CLIENT_ADDR }, { NETNS_CLIENT_ADDR, NETNS_SERVER_ADDR },
	};
	static const char *const addr6[2] = { NETNS_SERVER_ADDR6, NETNS_CLIENT_ADDR6 };
	int self, fd = -1;

	if (enter(n->name[i], &self) < 0) {
		snprintf(err, errlen, "enter /run/netns/%s: %s", n->name[i], strerror(errno));
		return -1;
	}
	fd = make_tun(addr[i][0], addr[i][1], addr6[i], n->no_ipv6, sizeof(n->no_ipv6), err, errlen);
	leave(self);
	return fd;
}

/* Forks the link process between fds[0] and fds[1] (closed here). */
static int start_link(struct netns *n, int fds[2], char *err, size_t errlen)
{
	int sv[2];
	pid_t parent = getpid(), pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		close(sv[0]);
		int null = open("/dev/null", O_RDWR);	/* it holds no pipe of the runner's caller */
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			if (null > 2)
				close(null);
		}
		link_main(fds[0], fds[1], sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(sv[0]);
		return -1;
	}
	n->link_pid = pid;
	n->ctl = sv[0];
	return 0;
}

/* MATRIX_LINK: auto (unset, empty), user or netem; NULL with err for
 * anything else. */
static const char *link_wanted(char *err, size_t errlen)
{
	const char *want = getenv("MATRIX_LINK");

	if (!want || !*want)
		return "auto";
	if (strcmp(want, "auto") && strcmp(want, "user") && strcmp(want, "netem")) {
		snprintf(err, errlen, "MATRIX_LINK=%s: expected auto (netem where the kernel has "
			 "it), netem or user (the user-space link)", want);
		return NULL;
	}
	return want;
}

/* The kernel's netem between the namespaces when it has it (netem.h), as
 * want (link_wanted) says: 1 in place, 0 not (why in n->no_netem: the
 * user-space link then), -1 with err when want is netem and it cannot be. */
static int pick_netem(struct netns *n, const char *want, char *err, size_t errlen)
{
	char why[512];

	if (!strcmp(want, "user")) {
		snprintf(n->no_netem, sizeof(n->no_netem), "MATRIX_LINK=user");
		return 0;
	}
	if (netem_open(n->name, why, sizeof(why)) == 0)
		return 1;
	if (!strcmp(want, "netem")) {
		snprintf(err, errlen, "MATRIX_LINK=netem: %s", why);
		return -1;
	}
	snprintf(n->no_netem, sizeof(n->no_netem), "%s", why);
	return 0;
}

int netns_open(struct netns *n, const struct matrix *m, char *err, size_t errlen)
{
	int fds[2] = { -1, -1 };
	const char *want;

	memset(n, 0, sizeof(*n));
	n->ctl = -1;
	if (!m->topology.netns)
		return 0;
	if (!(want = link_wanted(err, errlen)))
		return -1;
	if (!has_caps()) {
		snprintf(err, errlen, "%s:%d:%d: topology: netns needs root, or the capabilities "
			 "CAP_NET_ADMIN and CAP_SYS_ADMIN (network namespaces and a TUN device in "
			 "each); this process has not both: run it as root (sudo) or with those "
			 "capabilities", m->path, m->topology.pos.line, m->topology.pos.col);
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		netns_name(i ? "client" : "server", n->name[i], sizeof(n->name[i]));
		const char *args[] = { "netns", "add", n->name[i], NULL };
		if (iproute_run("ip", args, err, errlen) < 0) {
			n->name[i][0] = '\0';
			netns_close(n);
			return -1;
		}
	}
	int netem = pick_netem(n, want, err, errlen);
	if (netem) {
		if (netem < 0)
			netns_close(n);
		n->on = n->netem = netem > 0;
		return netem > 0 ? 0 : -1;
	}
	fds[0] = tun_in(n, 0, err, errlen);
	if (fds[0] >= 0)
		fds[1] = tun_in(n, 1, err, errlen);
	if (fds[1] < 0 || start_link(n, fds, err, errlen) < 0) {
		if (fds[0] >= 0)
			close(fds[0]);
		if (fds[1] >= 0)
			close(fds[1]);
		netns_close(n);
		return -1;
	}
	close(fds[0]);
	close(fds[1]);
	n->on = 1;
	return 0;
}

/* 1 with err when the link process has ended (killed, say): no cell can
 * cross the link any more (its TUN devices went with it).  wait: it is
 * known to be exiting (its end of ctl closed), reaped as soon as it is. */
static int link_ended(struct netns *n, int wait, char *err, size_t errlen)
{
	char how[128];
	pid_t got = 0;
	int st;

	while (!n->link_ended[0] && n->link_pid > 0 &&
	       (got = waitpid(n->link_pid, &st, wait ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (!n->link_ended[0] && n->link_pid > 0 && got == n->link_pid) {
		spawn_describe_status(st, how, sizeof(how));
		snprintf(n->link_ended, sizeof(n->link_ended), "the link process (pid %ld) %s: "
			 "no packet crosses the link any more", (long)n->link_pid, how);
	}
	if (n->link_ended[0])
		snprintf(err, errlen, "%s", n->link_ended);
	return n->link_ended[0] != 0;
}

int netns_link_fd(const struct netns *n)
{
	return n && n->on && !n->link_ended[0] ? n->ctl : -1;
}

int netns_link_lost(struct netns *n, char *err, size_t errlen)
{
	char c;

	if (!n || !n->on || n->link_pid <= 0)
		return 0;
	/* only its answers to netns_apply come on ctl, each read there (one
	 * that came after netns_apply gave up is dropped now): an end of
	 * file is a link process that is exiting */
	if (!n->link_ended[0] && recv(n->ctl, &c, 1, MSG_DONTWAIT) == 0)
		return link_ended(n, 1, err, errlen);
	return link_ended(n, 0, err, errlen);
}

int netns_apply(struct netns *n, const struct cell_params *p, char *err, size_t errlen)
{
	struct pollfd pf = { .fd = n->ctl, .events = POLLIN };
	struct link_ack ack = { 0 };

	if (!n->on)
		return 0;
	if (link_ended(n, 0, err, errlen))
		return -1;
	if (n->no_ipv6[0] && plan_program_family(p) == AF_INET6) {
		snprintf(err, errlen, "%s: the link has no IPv6: %s", p->transport->name, n->no_ipv6);
		return -1;
	}
	n->applied = 0;
	if (n->netem) {
		if (netem_apply(n->name, &p->link, err, errlen) < 0)
			return -1;
		n->link = p->link;
		n->applied = 1;
		return 0;
	}
	errno = 0;
	/* every repetition, also of the same link: its flush */
	if (write(n->ctl, &p->link, sizeof(p->link)) != (ssize_t)sizeof(p->link) ||
	    poll(&pf, 1, 5000) != 1 || read(n->ctl, &ack, sizeof(ack)) != (ssize_t)sizeof(ack) ||
	    ack.k != 'k') {
		snprintf(err, errlen, "the link process (pid %ld) did not take the cell's link: %s",
			 (long)n->link_pid, errno ? strerror(errno) : "no answer in 5 s");
		return -1;
	}
	n->link = p->link;
	n->applied = 1;
	n->flushed = ack.flushed;
	return 0;
}

int netns_cpu_ns(const struct netns *n, uint64_t *ns)
{
	struct timespec ts;
	clockid_t clk;

	if (!n->on || n->link_pid <= 0 || n->link_ended[0] ||
	    clock_getcpuclockid(n->link_pid, &clk) || clock_gettime(clk, &ts) < 0)
		return -1;
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

void netns_close(struct netns *n)
{
	char err[768];

	if (n->link_pid > 0) {
		close(n->ctl);	/* end of file: the link process ends */
		if (!n->link_ended[0]) {	/* else reaped */
			kill(n->link_pid, SIGTERM);
			while (waitpid(n->link_pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	n->link_pid = 0;
	n->ctl = -1;
	for (int i = 0; i < 2; i++) {
		const char *args[] = { "netns", "del", n->name[i], NULL };
		if (n->name[i][0] && iproute_run("ip", args, err, sizeof(err)) < 0)
			fprintf(stderr, "matrix: %s\n", err);
		n->name[i][0] = '\0';
	}
	n->on = 0;
}

const char *netns_of(const struct netns *n, const char *role)
{
	if (!n || !n->on)
		return NULL;
	return n->name[strcmp(role, "server") ? 1 : 0];
}

const char *netns_bind(const struct netns *n, const char *dflt)
{
	if (!n || !n->on)
		return dflt;
	return dflt && dflt[0] == '[' ? "[" NETNS_SERVER_ADDR6 "]:0" : NETNS_SERVER_ADDR ":0";
}

void netns_meta(const struct netns *n, struct meta *m)
{
	if (!n->on)
		return;
	meta_set(m, "topology", "%s", "netns");
	meta_set(m, "netns_server", "%s %s%s", n->name[0], NETNS_SERVER_ADDR,
		 n->no_ipv6[0] ? "" : " " NETNS_SERVER_ADDR6);
	meta_set(m, "netns_client", "%s %s%s", n->name[1], NETNS_CLIENT_ADDR,
		 n->no_ipv6[0] ? "" : " " NETNS_CLIENT_ADDR6);
	if (n->netem)
		meta_set(m, "link_emulator", "netem: tc netem on a veth pair %s between them",
			 NETNS_DEV);
	else
		meta_set(m, "link_emulator", "tun: the runner's link process (launch/link.h); "
			 "not netem: %s", n->no_netem);
}
