/*
 * agent: `matrix agent`, a remote host's end of a run (remote.h): started
 * once per host and run over one ssh session
 *   ssh ... -- 'exec' 'matrix' 'agent'
 * it writes the host's hello line (workers/hello.h: its wire version and
 * facts) and `agent tmp=PATH` (its private folder there, for the paths of
 * path transports with both roles on this host; removed with all in it by
 * a guard of its own, spawn.h, once the agent ends), then reads records on stdin and writes records on stdout
 * (agent_rec.h): it starts a worker for each spawn record as the runner
 * starts a local one (launch/spawn.h: report pipe on fd 3, start byte on
 * fd 4, its stdout and stderr the log; its CPUs set before exec for a
 * `cpu:` placement), passes it the start byte, signals it, and sends back
 * its report and log bytes and its exit status, each tagged.
 *
 * Nothing outlives the session: the agent dies (SIGKILL) with its parent,
 * sshd's session process (as `--stdio` workers do); each worker dies with
 * the agent (PR_SET_PDEATHSIG); at end of file on stdin, a record that is
 * no record, or a write to stdout failing, the agent kills every worker,
 * reaps them and exits.
 */
#ifndef MATRIX_AGENT_H
#define MATRIX_AGENT_H

/* argv from "agent" on; the exit status (0 at the session's end, 2 for a
 * bad command line or a protocol error). */
int agent_main(int argc, char **argv);

#endif
