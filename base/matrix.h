/*
 * matrix: a matrix file (YAML, read with libyaml) as a `struct matrix`.
 *
 * The schema is the project's contract; later features extend it, never
 * rename it:
 *
 *   name: af_unix_vs_inet        required, [A-Za-z0-9_.-]+
 *   description: text            optional
 *   repeat: 7                    repetitions per cell (default 7), or auto
 *   warmup: 100                  messages per connection before timing (default 100, 0 allowed,
 *                                at most 100M)
 *   timeout: 60s                 per cell repetition (default 60s)
 *   matrix:                      mapping; each value a scalar or a flow/block list
 *     pattern: echo              echo | pingpong | stream
 *     transport: [unix, tcp]     a transport's name (vocab.h, transports/transport.h)
 *     size: [10, 1KiB]           bytes, K/KiB/M/MiB (units.h)
 *     response_size: 1KiB        pingpong only; default: size
 *     concurrency: [1, 4]        client workers (default 1)
 *     count: 500000              messages per cell, split across the clients
 *     duration: 5s               instead of count
 *     inflight: 1                outstanding requests per connection (default 1)
 *     nodelay: true              TCP_NODELAY (default true)
 *     interval: 1s               timeline interval (default: the receiver picks one)
 *     allow_loss: false          lossy transports: a cell with loss may be ok
 *     loss_timeout: 100ms        lossy transports: a reply later than this is lost
 *     endpoint: tcp              zmq: tcp (127.0.0.1) or ipc (private directory)
 *     rate: 20k/s                requests (stream: messages) per second per
 *                                connection, on a fixed schedule; /s, k/s, M/s,
 *                                or unpaced (the default; 0 in results.csv)
 *     record: full               full | totals: totals keeps no histogram and
 *                                no timeline, only counts, sums, min, max
 *     poll: block                block (default) | busy: our workers spin on
 *                                non-blocking descriptors instead of sleeping
 *     busy_poll: 0us             SO_BUSY_POLL on every connection's socket, whole
 *                                microseconds; 0us (default) sets nothing
 *     wake: futex                shm, poll: block: a sleeping worker waits on a
 *                                futex (default) or an eventfd
 *     spin: 0us                  a test aid: the server busy-waits this long per
 *                                request (pingpong, echo) or received message
 *                                (stream); default 0, the one duration that may be 0;
 *                                at most 1s
 *     sndbuf: [auto, 64KiB]      socket options, auto (default) sets nothing:
 *     rcvbuf: auto               SO_SNDBUF, SO_RCVBUF; tcp, tcp6: TCP_CONGESTION,
 *     congestion: [cubic, reno]  TCP_MAXSEG, on every connection's socket before
 *     mss: 1000                  listen and connect (knobs.h)
 *     cpu: [none, same, split]   where the workers run: none (default), same (all on
 *                                the first allowed CPU), split (server on it, clients
 *                                on the others), or {server: [0], clients: [1, 2]}
 *                                (also written server=0;clients=1,2) (placement.h)
 *   exclude:                     list of mappings of dimension key -> value
 *     - {transport: unix, size: 1KiB}
 *   programs:                    optional, the user's own servers and clients
 *     NAME:                      [A-Za-z0-9_.-]+, not "builtin"
 *       server: [./srv, -p, "{port}"]   argv, or one string split into words
 *       client: [./cli, "{host}", "{port}", -n, "{count}"]
 *       server: {unix: [./srv, "{path}"], tcp: [./srv, -p, "{port}"]}   per transport
 *       ready: 'listening'       regex on the server's output (default: its
 *                                port accepts a connection)
 *       result:                  figures it prints, a regex each: of the client,
 *                                or of the server when it has no client:
 *         rtt_mean_us: {regex: 'avg rtt ([0-9.]+) ms', unit: ms}
 *         messages: 'sent ([0-9]+)'      a count of messages (no unit)
 *         seconds: {regex: 'in ([0-9.]+) ms', unit: ms}   a time (ns us ms s)
 *       result:                  or per role, for a program with both:
 *         server: {messages: 'received ([0-9]+)', seconds: 'in ([0-9.]+) s'}
 *         client: {sent_msgs_per_s: '([0-9]+) msg/s'}
 *       setup: [go, build, -o, "{tmp}/srv", srv.go]   once, before the first
 *                                cell that uses it; or a list of such steps
 *       teardown: [rm, -f, lock]  once, at the end of the run; likewise
 *       timeline:                the server's per-interval lines (stream cells)
 *         regex: '^\[(?<time>[0-9]+)s\] window=(?<messages>[0-9]+) msgs'
 *         time: s                unit of (?<time>): ns us ms s (default s)
 *         rate: /s               unit of (?<rate>): /s k/s M/s (default /s)
 *         interval: 1s           each interval's length, needed with (?<index>)
 *     placeholders: {host} {port} {path} {size} {response_size} {count}
 *     {concurrency} {duration_s} {endpoint} {tmp} and any key of matrix: by
 *     name; setup: and teardown: only {tmp}; {{ and }} are literal braces
 *   matrix: server: [builtin, NAME], client: [builtin, NAME] are dimensions
 *   topology:                    optional (matrix_topology.c; README "Emulated links")
 *     netns: true                server and client in two network namespaces the
 *                                runner makes, joined by an emulated link: a
 *                                TUN device in each and the runner's link
 *                                process (launch/netns.h, launch/link.h)
 *     link: {delay: 1ms, jitter: 0.1ms, rate: 1gbit, loss: 0.1%}
 *                                each way, as netem would (link.h), every key
 *                                optional; each value a scalar or a list: the
 *                                dimensions link_delay, link_jitter (durations,
 *                                0 allowed), link_rate (bit/s: bit kbit mbit gbit)
 *                                and link_loss (a percentage, 0% allowed), kept in
 *                                dims after the keys of matrix: (--only, exclude:,
 *                                labels as for any dimension; results.csv writes
 *                                their columns last: results.h)
 *   report:                      optional, how reports read the run
 *     noisy_cv: 10%              a cell whose CV is above this is marked noisy
 *     sweep: size                charts: size (or concurrency) on a numeric axis
 *     ratios:                    default: every transport against the first
 *       - name: AF_UNIX/AF_INET  default: NUMERATOR/DENOMINATOR
 *         dimension: transport   a dimension of matrix:
 *         numerator: unix        values of that dimension
 *         denominator: tcp
 *         metric: msgs_per_s     one of matrix_metrics (default msgs_per_s)
 *         reference:             optional: published ratios to set beside ours
 *           label: source        how reports name them (default reference)
 *           ratios:              each a ratio and the cells it is for:
 *             - {client: go, ratio: 5.7}   dimensions but the ratio's own
 *
 * Every key of `matrix:` is a dimension, scalar or list; the cartesian
 * product of their values, in the order the keys are written, minus the
 * exclude rules, is the plan (plan.h).  A key missing from the file takes its
 * default at plan time and is not a dimension (no column in results.csv).
 *
 * Errors: matrix_load() returns -1 and writes one line to err, always
 * "FILE:LINE:COLUMN: message" (1-based line and column of the offending
 * node), with "; did you mean 'x'?" when a misspelt key or value is close to
 * a known one.  It stops at the first error.
 */
#ifndef MATRIX_MATRIX_H
#define MATRIX_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "percentile.h"
#include "vocab.h"

enum value_kind {
	VK_PATTERN,	/* one of patterns below, num = enum pattern */
	VK_TRANSPORT,	/* a transport name, num = index into transport_names */
	VK_SIZE,	/* bytes, num; zero refused */
	VK_COUNT,	/* positive integer, num */
	VK_DURATION,	/* nanoseconds, num; zero parses, and the loader refuses it
			 * for every key but spin and busy_poll */
	VK_BOOL,	/* num = 0 or 1 */
	VK_ENDPOINT,	/* zmq endpoint kind, num = index into endpoint_names */
	VK_PROGRAM,	/* "builtin" (num 0) or a name of programs: (num: a hash of it) */
	VK_RATE,	/* per second, num (units_parse_rate: 20000/s, 20k/s, 1M/s);
			 * "unpaced" is 0, a written zero is refused */
	VK_RECORD,	/* num = enum record: full, totals */
	VK_POLL,	/* block | busy, num = enum poll_mode */
	VK_WAKE,	/* futex | eventfd, num = enum wake_mode */
	VK_CPU,		/* a placement (placement.h): text as placement_format writes it
			 * ("split", "server=0;clients=1-3"), num none 0, same 1, split 2,
			 * a mapping a hash of its text with the top bit set */
	VK_BITRATE,	/* bits per second, num (units_parse_bitrate: 1gbit, 100mbit) */
	VK_PERCENT,	/* millionths of a percent, num (units_parse_percent: 0.5%);
			 * 0% is allowed */
	VK_DIRECTION,	/* one | bidir, num = enum direction */
	VK_AUTOSIZE,	/* bytes as VK_SIZE, or "auto" (num 0): the kernel's own
			 * (sndbuf, rcvbuf, mss) */
	VK_NAME,	/* a name of [A-Za-z0-9_-], at most 15 characters (a kernel's
			 * TCP_CA_NAME_MAX less one), num a hash of it (congestion) */
};

/* A position in the matrix file, 1-based. */
struct srcpos {
	int line, col;
};

/* One value as written (text) and as understood (num). */
struct mvalue {
	char *text;		/* the scalar exactly as written (a cpu: value as
				 * placement_format writes it) */
	uint64_t num;		/* per the dimension's kind */
	struct srcpos pos;
};

/* One key of `matrix:`. */
struct dimension {
	char *key;		/* "transport" */
	enum value_kind kind;
	int is_list;		/* written as a list (even of one) */
	struct mvalue *values;
	size_t nvalues;		/* >= 1; duplicates are an error */
	struct srcpos pos;	/* of the key */
};

/* One `exclude:` entry: a cell is dropped when every term matches. */
struct exclude_term {
	size_t dim;		/* index into matrix.dims */
	struct mvalue value;	/* compared by num (text for nothing: all kinds have num) */
};
struct exclude_rule {
	struct exclude_term *terms;
	size_t nterms;
	struct srcpos pos;	/* of the mapping */
};

/* One value of a ratio's `reference:`: a published ratio to set beside
 * the measured one, for the pairs whose cells match every term (no terms:
 * every pair). */
struct ratio_ref {
	struct exclude_term *terms;	/* dimensions but the ratio's own */
	size_t nterms;
	double ratio;			/* > 0 */
	struct srcpos pos;
};

/* One `report: ratios:` entry. */
struct ratio_spec {
	char *name;
	size_t dim;			/* index into matrix.dims */
	struct mvalue numerator, denominator;
	const char *metric;		/* one of matrix_metrics */
	struct srcpos pos;
	char *ref_label;		/* reference: label (default "reference"); NULL: none */
	struct ratio_ref *refs;
	size_t nrefs;
};

/* One `programs:` entry: a server and/or client the user brings. */
/* The figures a program may print: every metric of matrix_metrics (0 ..
 * MATRIX_NMETRICS - 1), then a count of messages and a time in seconds.
 * A server (a stream's receiver) prints messages, seconds, msgs_per_s or
 * mib_per_s only; seconds come with messages, and a client's messages
 * with seconds. */
#define PROGRAM_MESSAGES MATRIX_NMETRICS
#define PROGRAM_SECONDS (MATRIX_NMETRICS + 1)
#define PROGRAM_NFIGURES (MATRIX_NMETRICS + 2)
/* "messages", "seconds", or the metric's name. */
const char *program_figure_name(int figure);

struct program_result {
	int metric;			/* a figure: index into matrix_metrics, or
					 * PROGRAM_MESSAGES, PROGRAM_SECONDS */
	char *regex;			/* PCRE2: group (?<value>...), else its one group */
	double scale;			/* figure * scale = the metric's unit */
	struct srcpos pos;
};

/* One setup: or teardown: step: an argv template, {tmp} its only placeholder. */
struct program_step {
	char **argv;
	size_t argc;
	struct srcpos pos;
};

/* `timeline:` of a program: its server's per-interval lines (README
 * "Bring your own programs", Timelines).  The regex's named captures
 * (?<time>..) or (?<index>..), and (?<messages>..) or (?<rate>..), stay
 * as they are in `regex` (PCRE2); the *_group fields are their numbers
 * (1-based), 0 for a capture the regex does not have. */
struct program_timeline {
	char *regex;			/* NULL: the program has no timeline: */
	int time_group, index_group;	/* exactly one is set */
	int messages_group, rate_group;	/* exactly one is set */
	double time_scale;		/* (?<time>) * time_scale = seconds (time:) */
	double rate_scale;		/* (?<rate>) * rate_scale = messages/s (rate:) */
	uint64_t interval_ns;		/* interval:, 0 when not given (needed with index) */
	struct srcpos pos;		/* of the timeline: key */
};

struct program_command;		/* matrix_command.h */

struct program {
	char *name;
	char **server, **client;	/* argv templates; NULL if none; a mapping's first */
	size_t nserver, nclient;
	struct program_command *server_by, *client_by;	/* the mapping form; NULL: a list */
	size_t nserver_by, nclient_by;
	struct srcpos server_pos, client_pos, pos;
	char *ready;			/* regex on the server's output; NULL: port accepts */
	struct program_result *results;	/* the client's figures */
	size_t nresults;
	struct program_step *setup, *teardown;	/* run once per run (runner/setup.h) */
	size_t nsetup, nteardown;
	struct program_result *server_results;	/* the server's: `result: server:`,
						 * or `result:` without a client: */
	size_t nserver_results;
	struct program_timeline timeline;
};

/* `report: compare:`, an in-run A/B along one dimension. */
struct compare_spec {
	int set;			/* 0: none asked for */
	size_t dim;			/* index into matrix.dims */
	struct mvalue baseline, candidate;
	double threshold;		/* fraction; 0 when not given (the default) */
	struct srcpos pos;
};

struct report_spec {
	double noisy_cv;		/* fraction; default 0.10 */
	/* `sweep: size` (or concurrency): the charts draw that dimension on a
	 * numeric axis, its values as points on a line; NULL (default): as
	 * categories, no line between them.  Points into dims[].key. */
	const char *sweep;
	struct ratio_spec *ratios;
	size_t nratios;			/* 0: the default ratios */
	struct compare_spec compare;
};

#define MATRIX_DEFAULT_NOISY_CV 0.10

/* hosts: where the server and the clients run (matrix_hosts.c): a role
 * is local unless its url is set, with its parts as written (user "" and
 * port 0 when not written).  url is "ssh://[user@]host[:port]" made
 * canonical, so that two roles on one host have the same url (what
 * meta.csv's server_host and client_host record, and launch/remote.c
 * compares): the host lower-cased (DNS names have no case), port 22
 * dropped (ssh's default) unless the ssh: words choose a port; the user
 * stays (it picks the account, and ssh_config may name another). */
struct host_url {
	char *url, *user, *host;	/* NULL: local */
	unsigned port;
	struct srcpos pos;
};

/* Do two meta.csv host values (server_host, client_host: a URL or
 * local), of this run's folder or an older one's (which kept the URL as
 * written), name one host?  Equal text, or the same canonical URL (port
 * 22 always dropped: meta.csv does not keep the ssh: words); text that is
 * no ssh:// URL only equals itself. */
int host_url_same(const char *a, const char *b);

struct matrix_hosts {
	int set;			/* hosts: was written */
	struct srcpos pos;		/* of the hosts: key */
	struct host_url server, client;
	char *server_address;		/* NULL: the server's ssh host name */
	char *matrix;			/* the remote binary; NULL: `matrix` */
	char **ssh;			/* extra ssh options, nssh of them */
	size_t nssh;
};

struct matrix {
	char *path;		/* as given to matrix_load */
	char *name;
	char *description;	/* "" when absent */
	unsigned repeat;	/* default 7; with repeat: auto, the most */
	unsigned repeat_min;	/* repeat: auto: the fewest; 0 = a fixed repeat */
	double repeat_width;	/* repeat: auto: stop once the median's interval of
				 * msgs_per_s is this narrow, relative to the median */
	uint64_t warmup;	/* default 100 */
	uint64_t timeout_ns;	/* default 60 s */
	struct srcpos repeat_pos, warmup_pos, timeout_pos;	/* {0,0} when defaulted */

	struct dimension *dims;
	size_t ndims;
	struct exclude_rule *excludes;
	size_t nexcludes;
	struct report_spec report;
	struct program *programs;
	size_t nprograms;
	struct matrix_hosts hosts;	/* hosts: (ssh) */
	/* topology: (matrix_topology.c); its link: values are dims link_* */
	struct topology {
		int netns;		/* netns: true */
		struct srcpos pos;	/* of the topology: key; {0,0} when absent */
	} topology;
	/* percentiles: (matrix_percentiles.c, percentile.h): the round-trip
	 * percentiles the tables, charts and JSON show, increasing, in
	 * (0, 100); npercentiles 0 when absent (each shows its own set) */
	double percentiles[PERCENTILE_MAX];
	char percentile_cols[PERCENTILE_MAX][PERCENTILE_COL_MAX];	/* rtt_p9999_us */
	size_t npercentiles;
	struct srcpos percentiles_pos;	/* {0,0} when absent */
};

/* 1 for a dimension of topology: link: (link_delay, link_jitter, link_rate,
 * link_loss), whose results.csv column comes after every other column. */
int matrix_dim_is_link(const struct dimension *d);

/* The program a server/client dimension value names, NULL for builtin. */
const struct program *matrix_program(const struct matrix *m, const char *name);

/* A program word's next placeholder from p on: its name into name (""
 * when there is none left: {{ and }} are literal braces, not one), and
 * where to look on from; NULL for a '{' without a name and '}' (or a name
 * of len bytes or more). */
const char *matrix_word_placeholder(const char *p, char *name, size_t len);
/* 1 when word has the placeholder {name}. */
int matrix_word_uses(const char *word, const char *name);
/* A timeline: regex re (PCRE2, matrix_regex.h) compiled, its named
 * captures' group numbers into tl->time_group (as PCRE2 numbers groups),
 * likewise index, messages and rate.  Returns a copy of re (malloc'd), or
 * NULL with the reason in why and its place in re (0-based) in *at: what
 * does not compile (at PCRE2's offset), a named capture of another name
 * (at its name), both or neither of time and index, both or neither of
 * messages and rate (*at = strlen(re) for one missing); out of memory is
 * "out of memory" at 0. */
char *matrix_timeline_regex(const char *re, struct program_timeline *tl, size_t *at, char *why,
			    size_t whylen);

/* The longest cpu: value, as placement_format writes it, plus one. */
#define MATRIX_MAX_PLACEMENT 512
#define MATRIX_DEFAULT_REPEAT 7	/* the fewest whose median and ratio intervals reach 95% */
/* repeat: auto without its own figures: 7 to 30 repetitions, until the
 * interval of the median is within 10% of the median */
/* The largest matrix file read, in bytes (a matrix is a page or two). */
#define MATRIX_MAX_FILE (1 << 20)
/* The deepest nesting of lists and mappings read (the schema needs 5). */
#define MATRIX_MAX_DEPTH 32
/* The most entries of exclude:, programs: and report: ratios: (each is
 * looked at for every cell). */
#define MATRIX_MAX_ENTRIES 1000
#define MATRIX_MAX_STEPS 100	/* a program's setup: (and teardown:) steps */
#define MATRIX_AUTO_MIN 7
#define MATRIX_MAX_REPEAT 100000	/* repeat: N, repeat: {max}, --repeat */
#define MATRIX_AUTO_MAX 30
#define MATRIX_AUTO_WIDTH 0.10
#define MATRIX_DEFAULT_WARMUP 100
#define MATRIX_MAX_WARMUP 100000000u	/* warmup: messages per connection (100M) */
#define MATRIX_MAX_SPIN_NS 1000000000ull	/* spin: per request or message (1s) */
#define MATRIX_DEFAULT_TIMEOUT_NS (60ull * 1000000000ull)

/* Load and validate path.  On success returns 0 and m owns its memory
 * (release with matrix_release).  On error returns -1, m is left released,
 * and err holds "FILE:LINE:COL: message". */
int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen);

/* Same, from a buffer; `path` is only used in messages. */
int matrix_load_buffer(struct matrix *m, const char *path, const char *buf,
		       size_t len, char *err, size_t errlen);

void matrix_release(struct matrix *m);

/* The host a cell's server (client 0) or clients (1) run on; NULL: this
 * machine (hosts:, matrix_hosts.c). */
const struct host_url *matrix_remote_host(const struct matrix *m, int client);

/* Dimension by key, or NULL. */
const struct dimension *matrix_dim(const struct matrix *m, const char *key);

/* The kind of a known `matrix:` key, or -1 for an unknown key. */
int matrix_key_kind(const char *key);

/* Parse `text` as a value of `kind` into v->num (and copy the text); used
 * for YAML scalars and for `--only KEY=VALUE`.  Returns 0, or -1 with the
 * reason (no position) in why, including a did-you-mean for names.  Zero
 * is refused for every kind but booleans and durations (spin: 0us; the
 * loader refuses a zero duration for the other keys). */
int matrix_parse_value(enum value_kind kind, const char *text,
		       struct mvalue *v, char *why, size_t whylen);

/* A value as results.csv writes it (and as reports read it back): sizes,
 * counts and rates (per second) in plain numbers, durations in seconds,
 * booleans true/false, names as the vocabulary spells them. */
void matrix_format_value(const struct dimension *d, const struct mvalue *v, char *buf,
			 size_t len);

#endif
