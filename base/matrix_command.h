/*
 * matrix_command: a program's command per transport (server: and client:
 * given as a mapping by transport name), and which one a cell runs.
 */
#ifndef MATRIX_COMMAND_H
#define MATRIX_COMMAND_H

#include "matrix.h"

/* One transport's command of a role given as a mapping by transport
 * name (server: {unix: [...], tcp: [...]}). */
struct program_command {
	char *transport;		/* a name of transport_names (vocab.h) */
	char **argv;			/* argv template with {placeholders} */
	size_t argc;
	struct srcpos pos;		/* of the transport's key */
};

/* Program pr's command template for its server (client 0) or its client
 * (client 1) in a cell of transport `transport`, its word count in *argc:
 * the list, or the mapping's entry for that transport; NULL (and *argc 0)
 * when the role has no command or its mapping no such transport. */
char **matrix_program_command(const struct program *pr, int client, const char *transport,
			      size_t *argc);

/* "unix, tcp": the transports a role's mapping names, into buf. */
void matrix_program_transports(const struct program *pr, int client, char *buf, size_t len);

#endif
