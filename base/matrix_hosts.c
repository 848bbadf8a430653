/* hosts: of a matrix file, where the server and the clients run: see
 * matrix.h (struct matrix_hosts) and launch/remote.h. */
#include "matrix_yaml.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A user or host name as ssh takes it on its command line: letters,
 * digits and . _ - (and : inside an IPv6 literal), never a leading '-'
 * (ssh would read an option). */
static int name_ok(const char *s, size_t len, const char *extra)
{
	if (!len || s[0] == '-')
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", s[i]) &&
		    !(extra && strchr(extra, s[i])))
			return 0;
	return 1;
}

/* "ssh://[user@]host[:port]" into u; -1 with why. */
static int parse_url(const char *text, struct host_url *u, char *why, size_t whylen)
{
	const char *p = text + 6, *at, *host, *end, *colon;

	if (strncmp(text, "ssh://", 6))
		return ml_failf(why, whylen, "'%s' is neither local nor ssh://[user@]host[:port]",
				text);
	at = strchr(p, '@');
	host = at ? at + 1 : p;
	if (at && !name_ok(p, (size_t)(at - p), NULL))
		return ml_failf(why, whylen, "'%s': the user name must be letters, digits, . _ - "
				"(not starting with -)", text);
	if (*host == '[') {	/* [IPv6] */
		end = strchr(host, ']');
		if (!end || !name_ok(host + 1, (size_t)(end - host - 1), ":"))
			return ml_failf(why, whylen, "'%s': a bracketed host must be an IPv6 address",
					text);
		colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] && !colon)
			return ml_failf(why, whylen, "'%s': only :port may follow the host", text);
		u->host = strndup(host + 1, (size_t)(end - host - 1));
	} else {
		colon = strchr(host, ':');
		size_t len = colon ? (size_t)(colon - host) : strlen(host);
		if (!name_ok(host, len, NULL))
			return ml_failf(why, whylen, "'%s': the host must be a name or address (letters, "
					"digits, . _ -, not starting with -), with nothing after "
					"but :port", text);
		u->host = strndup(host, len);
	}
	if (colon) {
		char *e;
		unsigned long port = strtoul(colon + 1, &e, 10);
		/* digits only: strtoul takes a sign and spaces ("+22", " 22",
		 * and "-18446744073709551615" is 1) */
		if (strspn(colon + 1, "0123456789") != strlen(colon + 1) || !colon[1] || *e ||
		    port < 1 || port > 65535)
			return ml_failf(why, whylen, "'%s': the port must be 1 to 65535", text);
		u->port = (unsigned)port;
	}
	u->user = at ? strndup(p, (size_t)(at - p)) : strdup("");
	if (!u->host || !u->user)
		return ml_failf(why, whylen, "out of memory");
	return 0;
}

/* u's canonical URL (matrix.h, struct host_url), malloc'd (NULL: out of
 * memory); port 22 dropped unless fold_22 is 0. */
static char *canon_url(const struct host_url *u, int fold_22)
{
	int v6 = strchr(u->host, ':') != NULL;
	char port[16] = "", *s;

	if (u->port && !(fold_22 && u->port == 22))
		snprintf(port, sizeof(port), ":%u", u->port);
	if (asprintf(&s, "ssh://%s%s%s%s%s%s", u->user, *u->user ? "@" : "", v6 ? "[" : "",
		     u->host, v6 ? "]" : "", port) < 0)
		return NULL;
	/* the host (and the port's digits): DNS names have no case */
	for (char *c = s + strlen("ssh://") + strlen(u->user) + !!*u->user; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return s;
}

/* A meta.csv host value's canonical URL, malloc'd; NULL when it is no
 * ssh:// URL (local, "") or memory ran out. */
static char *value_key(const char *text)
{
	struct host_url u = { 0 };
	char why[256], *key = NULL;

	if (parse_url(text, &u, why, sizeof(why)) == 0)
		key = canon_url(&u, 1);
	free(u.user);
	free(u.host);
	return key;
}

int host_url_same(const char *a, const char *b)
{
	char *ka, *kb;
	int same;

	if (!strcmp(a, b))
		return 1;
	ka = value_key(a);
	kb = value_key(b);
	same = ka && kb && !strcmp(ka, kb);
	free(ka);
	free(kb);
	return same;
}

/* Do the hosts: ssh: words choose the port (-p N, -pN, -o Port=N, -oPort=N,
 * -o "Port N")?  Then a URL without a port is not port 22. */
static int ssh_sets_port(const struct matrix_hosts *h)
{
	for (size_t i = 0; i < h->nssh; i++) {
		const char *w = h->ssh[i];
		if (!strncmp(w, "-p", 2))
			return 1;
		if (!strncmp(w, "-o", 2)) {
			const char *o = w[2] ? w + 2 : i + 1 < h->nssh ? h->ssh[i + 1] : "";
			if (!strncasecmp(o, "port", 4) && strchr("= \t", o[4]) && o[4])
				return 1;
		}
	}
	return 0;
}

/* Each remote role's url, canonical, once the ssh: words are known. */
static int canon_urls(struct loader *L, const yaml_node_t *key)
{
	struct matrix_hosts *h = &L->m->hosts;
	struct host_url *u[] = { &h->server, &h->client };

	for (size_t i = 0; i < ARRAY_SIZE(u); i++)
		if (u[i]->host && !(u[i]->url = canon_url(u[i], !ssh_sets_port(h))))
			return ml_oom(L, key);
	return 0;
}

static int load_url(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
		    struct host_url *u)
{
	char why[512];

	if (ml_want_scalar(L, key, val))
		return -1;
	u->pos = ml_node_pos(val);
	if (!strcmp(scalar(val), "local"))
		return 0;
	if (parse_url(scalar(val), u, why, sizeof(why)) < 0)
		return error_node(L, at(key, val), "hosts: %s: %s", scalar(key), why);
	return 0;
}

/* ssh: a list of words, each one argument of ssh's. */
static int load_ssh(struct loader *L, const yaml_node_t *key, const yaml_node_t *val)
{
	struct matrix_hosts *h = &L->m->hosts;

	if (val->type != YAML_SEQUENCE_NODE)
		return error_node(L, at(key, val), "hosts: ssh: expected a list of ssh's arguments, "
				  "e.g. [-F, /etc/matrix/ssh_config]");
	if (!(h->ssh = calloc(nitems(val) + 1, sizeof(*h->ssh))))
		return ml_oom(L, val);
	for (size_t i = 0; i < nitems(val); i++) {
		const yaml_node_t *w = item(L, val, i);
		if (w->type != YAML_SCALAR_NODE || !*scalar(w))
			return error_node(L, w, "hosts: ssh: each argument is a non-empty word");
		if (!(h->ssh[h->nssh++] = strdup(scalar(w))))
			return ml_oom(L, w);
	}
	return 0;
}

static int load_word(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
		     char **out)
{
	if (ml_want_scalar(L, key, val))
		return -1;
	if (!*scalar(val) || strpbrk(scalar(val), "\n\r"))
		return error_node(L, at(key, val), "hosts: %s: expected one line of text",
				  scalar(key));
	if (!strcmp(scalar(key), "server_address") &&
	    !name_ok(scalar(val), strlen(scalar(val)), ":"))
		return error_node(L, val, "hosts: server_address: '%s' is not a host name or address",
				  scalar(val));
	if (!(*out = strdup(scalar(val))))
		return ml_oom(L, val);
	return 0;
}

int ml_load_hosts(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	static const char *const keys[] = { "server", "client", "server_address", "matrix", "ssh" };
	struct matrix_hosts *h = &L->m->hosts;

	h->set = 1;
	h->pos = ml_node_pos(key);
	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, at(key, val), "hosts: expected a mapping with server: and client: "
				  "(each local or ssh://[user@]host[:port])");
	if (ml_check_keys(L, val))
		return -1;
	for (size_t i = 0; i < npairs(val); i++) {
		const yaml_node_t *k = pair_key(L, val, i), *v = pair_val(L, val, i);
		const char *name = scalar(k);
		int rc;
		if (!strcmp(name, "server"))
			rc = load_url(L, k, v, &h->server);
		else if (!strcmp(name, "client"))
			rc = load_url(L, k, v, &h->client);
		else if (!strcmp(name, "server_address"))
			rc = load_word(L, k, v, &h->server_address);
		else if (!strcmp(name, "matrix"))
			rc = load_word(L, k, v, &h->matrix);
		else if (!strcmp(name, "ssh"))
			rc = load_ssh(L, k, v);
		else
			rc = ml_unknown_key(L, k, "hosts: ", "key", keys, ARRAY_SIZE(keys));
		if (rc)
			return -1;
	}
	if (canon_urls(L, key))
		return -1;
	if (h->client.url && !h->server.url && !h->server_address)
		return error_node(L, key, "hosts: a remote client needs server_address: the address "
				  "of this machine it is to connect to (the server is local)");
	return 0;
}

static void url_release(struct host_url *u)
{
	free(u->url);
	free(u->user);
	free(u->host);
}

void matrix_hosts_release(struct matrix_hosts *h)
{
	url_release(&h->server);
	url_release(&h->client);
	free(h->server_address);
	free(h->matrix);
	for (size_t i = 0; i < h->nssh; i++)
		free(h->ssh[i]);
	free(h->ssh);
	memset(h, 0, sizeof(*h));
}

const struct host_url *matrix_remote_host(const struct matrix *m, int client)
{
	const struct host_url *u = client ? &m->hosts.client : &m->hosts.server;

	return u->url ? u : NULL;
}
