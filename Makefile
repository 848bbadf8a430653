# matrix: GNU make.  `make` builds ./matrix; `make run` installs what is
# missing, builds and runs the default matrix; `make test` installs, builds
# and runs every test, plain and under ASan+UBSan.
#
#   make SANITIZE=1        build into build/asan with -fsanitize=address,undefined
#   make PREFIX=/usr/local DESTDIR=... install   (and uninstall; make man:
#                          the man pages alone, into build/man)

MATRIX      ?= matrices/af_unix_vs_inet.yaml
PREFIX      ?= /usr/local
CC          ?= cc
VERSION     := 0.1.0
GIT_REV     := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null; [ $$? -eq 1 ] && echo -dirty)

# What the build and `make run` need; libjansson-dev: the JSON documents
# (--export-json, plan --json); libmd4c-html0-dev: report.html's
# Markdown, summary.md as HTML (md4c's CommonMark/GFM renderer);
# liburing-dev: `poll: uring`'s io_uring path (transports/fdio.c).
DEPS_DEB    := libyaml-dev libcsv-dev libpcre2-dev gnuplot-nox libzmq3-dev libcmocka-dev pkg-config socat procps iproute2 python3 strace \
               libjansson-dev libmd4c-html0-dev liburing-dev
# What only `make test` needs besides: clang (the fuzz targets; libFuzzer
# ships with it), valgrind (the memcheck run), jq (the README's dashboard
# conversions, run by the tests), chromium (test_html.sh loads report.html
# in a real headless browser; some 350 MB, so never installed by `make run`),
# openssh-server and openssh-client (test_ssh.sh runs a two-host matrix
# through an sshd of its own; `hosts:` needs ssh only when a matrix has
# a remote host), iproute2 (its network namespace; test_netns.sh's too:
# topology: netns runs need it and say so when it is missing, so it is in
# DEPS_DEB as well), man-db, scdoc and zsh (test_install.sh builds the
# man pages, installs them and renders each with man -l, and checks the
# zsh completion's syntax; `make install` installs scdoc itself when it
# is missing).
TEST_DEB    := redis-server clang valgrind jq chromium openssh-server openssh-client iproute2 \
               man-db scdoc zsh
# What only `make test-fleet` needs: a Slurm of one node that
# tests/fleet/ starts on this machine (slurmctld, slurmd, the sbatch and
# squeue of slurm-client) and munge, the credentials Slurm's daemons trust.
FLEET_DEB   := slurmctld slurmd slurm-client munge
# What only `make seeds` needs: the source experiments' programs
# (matrices/seeds/) are Go (built by gc and by gccgo), Java (javac; JeroMQ,
# ZeroMQ in pure Java) and Python over pyzmq (Debian's /usr/bin/python3).
SEEDS_DEB   := golang-go gccgo default-jdk-headless libjeromq-java python3-zmq

ifeq ($(SANITIZE),1)
BUILD       := build/asan
SANFLAGS    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT         := -O1 -g
else
BUILD       := build/release
SANFLAGS    :=
OPT         := -O2 -g
endif

# libzmq: its header only; transports/zmqlib.c loads the library with
# dlopen when a zmq cell runs (16 libraries fewer at every worker exec)
PKGS        := yaml-0.1 jansson libpcre2-8 md4c-html liburing
# The folders, bottom layer first: each includes only those before it
# (tests/e2e/test_layout.sh checks it; README "Where things live").
LAYERS      := base transports workers plan launch cell runner reports gate cli
CPPFLAGS    += -D_GNU_SOURCE $(LAYERS:%=-iquote %) -iquote $(BUILD)
CFLAGS      += -std=c11 $(OPT) -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
               -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral $(SANFLAGS) \
               $(shell pkg-config --cflags $(PKGS) libzmq 2>/dev/null) -MMD -MP
LDFLAGS     += $(SANFLAGS) -pthread
# -lrt: the mq transport's mq_open and friends (in libc itself since glibc 2.34)
LDLIBS      += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lyaml -ljansson -lpcre2-8 -lmd4c-html -lmd4c -luring) -lcsv -lm -ldl -lrt

LIB_SRC     := $(filter-out cli/main.c,$(foreach d,$(LAYERS),$(wildcard $(d)/*.c)))
LIB_OBJ     := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ    := $(BUILD)/cli/main.o
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BIN    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC    := $(wildcard tests/tools/*.c)
TOOL_BIN    := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tests/%)

# make bench's own programs (bench/): the floor loop and the table; built
# with the tests' tools too, since tests/e2e/test_bench.sh runs them.
BENCH_BIN   := $(BUILD)/bench/floor $(BUILD)/bench/table

FIXTURES    := pass fail skip killed quits leak overflow ubsan noplan exit1

# libFuzzer targets, tests/fuzz/fuzz_*.c, over the layers below plan/ and
# reports/ (the loader and the wire parser need nothing above workers/,
# the run-folder reader nothing but base/ and reports/).
FUZZ_CC      ?= clang
FUZZ_BUILD   := build/fuzz
FUZZ_SECONDS ?= 120
FUZZ_FLAGS   := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer
FUZZ_LIB_OBJ := $(foreach d,base transports workers reports,$(patsubst %.c,$(FUZZ_BUILD)/%.o,$(wildcard $(d)/*.c)))
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: all run seeds test test-fleet test-build test-build-release test-build-asan test-build-other mutate bench bench-instructions bench-gate readme-examples deps test-deps unit fixtures fuzz fuzz-build man install uninstall clean FORCE
# The plain build is ./matrix; a sanitized build stays in its own folder
# (make SANITIZE=1 builds build/asan/matrix, and no ./matrix).
ifeq ($(SANITIZE),1)
all: $(BUILD)/matrix
else
all: matrix
matrix: $(BUILD)/matrix
	cp $< $@.tmp && mv -f $@.tmp $@
endif

$(BUILD)/matrix: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# version.h changes only when the version or the git revision does, so a
# commit rebuilds the two files that print it and nothing else.
$(BUILD)/version.h: FORCE
	@mkdir -p $(BUILD)
	@printf '#define MATRIX_VERSION "%s"\n#define MATRIX_GIT_REV "%s"\n' '$(VERSION)' '$(GIT_REV)' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@
FORCE:

$(BUILD)/cli/main.o $(BUILD)/plan/meta.o: $(BUILD)/version.h

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Every unit test links the helpers they share (tests/unit/unit.h).
$(BUILD)/tests/test_%: $(BUILD)/tests/unit/test_%.o $(BUILD)/tests/unit/unit.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

$(BUILD)/tests/%: $(BUILD)/tests/tools/%.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

unit: $(UNIT_BIN) $(TOOL_BIN) $(BENCH_BIN)

# The floor is the smallest loop: -O2 whatever the build (its asan build is
# for the tests alone); the table links the base layer only (csvfile.c).
$(BUILD)/bench/floor: bench/floor.c bench/floor_ipc.c bench/floor.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -O2 $(LDFLAGS) -o $@ $(filter %.c,$^) -lrt

$(BUILD)/bench/table: $(BUILD)/bench/table.o $(filter $(BUILD)/base/%,$(LIB_OBJ))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The driver's own tests run these: one program, always sanitized, that
# passes, fails, crashes, leaks or skips by the name it runs under.
fixtures: build/fixtures/fixture
	@for n in $(FIXTURES); do ln -sf fixture build/fixtures/test_$$n; done

build/fixtures/fixture: tests/driver/fixture.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O0 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=undefined -fno-omit-frame-pointer -o $@ $< -lcmocka

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -pthread -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_BIN)

# Each fuzz target for FUZZ_SECONDS (a few minutes in all), its corpus kept
# in build/fuzz/corpus/ between runs and seeded from matrices/, tests/bad/,
# tests/fuzz/seeds/ and the run folders of tests/data/; a crash fails with
# the input saved (tests/fuzz/run.sh).
fuzz: test-deps
	$(MAKE) fuzz-build
	@for t in $(FUZZ_BIN); do sh tests/fuzz/run.sh $$t $(FUZZ_SECONDS) || exit 1; done

# Installs the Debian packages the build needs (deps) and those the tests
# need as well (test-deps), when missing.
deps:
	@sh tests/deps.sh $(DEPS_DEB)

test-deps:
	@sh tests/deps.sh $(DEPS_DEB) $(TEST_DEB)

run: deps
	$(MAKE) matrix
	./matrix run $(MATRIX)

# The three source experiments rerun with programs like theirs
# (matrices/seeds/, README "Source experiments, rerun"): their setup: steps
# build the programs; every matrix runs even when one fails, and the status
# is the worst.  002 runs the source's 500,000 messages per cell
# (SEEDS_ECHO_COUNT=100000 runs a fifth of them).  Not part of `make test`.
SEEDS_ECHO_COUNT ?= 500000
seeds:
	@sh tests/deps.sh $(DEPS_DEB) $(SEEDS_DEB)
	$(MAKE) matrix
	@rc=0; for m in 000_go_rtt.yaml 001_zmq_push_pull.yaml "002_af_echo.yaml --set count=$(SEEDS_ECHO_COUNT)"; do \
		echo "./matrix run matrices/seeds/$$m"; \
		./matrix run matrices/seeds/$$m; s=$$?; [ $$s -le $$rc ] || rc=$$s; \
	done; exit $$rc

# Every test, plain and sanitized; the last line is "N passed, N failed".
# The three builds at once (TEST_BUILD_JOBS compilers in all), then the
# driver (tests/run.sh: two tests at a time), which prints the time since
# make test began (TEST_STARTED) before that last line.
TEST_BUILD_JOBS ?= 3
test:
	@start=$$(date +%s.%N); \
	$(MAKE) --no-print-directory test-deps && \
	$(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) test-build && \
	TEST_STARTED=$$start bash tests/run.sh build/release build/asan

# docs/across-machines.md's Slurm recipe, run as written on a Slurm of
# one node that the tests start and stop (tests/fleet/); not part of
# `make test`.  The driver's --units/--e2e form runs tests/fleet/ alone
# (no unit binary has that name); its last line is "N passed, N failed".
test-fleet:
	@sh tests/deps.sh $(DEPS_DEB) $(FLEET_DEB)
	+@$(MAKE) --no-print-directory matrix unit
	@bash tests/run.sh --units 'tests/fleet/no-unit-tests' --e2e 'tests/fleet/test_*.sh' build/release

# What make test runs: the plain build, the sanitized one, the driver's
# fixtures and the fuzz targets, each a make of its own (SANITIZE picks the
# build), run side by side under make -j.
test-build: test-build-release test-build-asan test-build-other
test-build-release:
	+@$(MAKE) --no-print-directory matrix unit
test-build-asan:
	+@$(MAKE) --no-print-directory SANITIZE=1 build/asan/matrix unit
test-build-other:
	+@$(MAKE) --no-print-directory fixtures fuzz-build

# One-line mutations of the code, each on a copy of the tree, and whether
# the tests that should notice do; not part of `make test` (a few minutes).
mutate: test-deps
	python3 tests/mutate.py

# matrix beside a bare loop of our own (bench/floor.c), sockperf, qperf,
# iperf3 and a Go echo pair, interleaved rounds on loopback: bench/run.sh
# (it installs what is missing and builds what it runs; its header lists
# the knobs: ROUNDS, CELLS, TOOLS, PLACEMENTS, QUICK).  Not part of
# `make test`; about half an hour here with every cell.  Then
# bench/remote_overhead.sh: the runner's cost per repetition against a
# remote host (an sshd in a network namespace of its own, as the ssh tests
# start one), with `matrix agent` and with MATRIX_NO_AGENT=1 side by side
# (its ROUNDS: REMOTE_ROUNDS, default 3; about a minute); it needs
# openssh-server and openssh-client.
REMOTE_ROUNDS ?= 3
bench: deps
	bash bench/run.sh
	@sh tests/deps.sh openssh-server openssh-client
	ROUNDS=$(REMOTE_ROUNDS) bash bench/remote_overhead.sh
	@$(MAKE) --no-print-directory bench-instructions

# User-space instructions per round trip, matrix's client + server against
# the floor's, counted by callgrind (unix pingpong 16 B and 1 KiB, block):
# bench/instructions.sh, about a minute; make bench prints it after the table.
bench-instructions: matrix $(BUILD)/bench/floor
	@bash bench/instructions.sh

# How often the regression gate cries wolf (A/A pairs) and how often it
# catches a 10% slowdown (injected with the `spin` key), in-run and across
# two runs: bench/gate.sh.  Not part of `make test`; about 15 minutes here.
bench-gate: deps
	$(MAKE) matrix
	bash bench/gate.sh

# The example blocks of the README and docs/*.md, from fresh runs (tests/tools/readme_examples.sh;
# about a minute); test_readme.sh checks that they have the shape it makes.
readme-examples: deps
	$(MAKE) matrix
	MATRIX_BIN=$(CURDIR)/build/release/matrix bash tests/tools/readme_examples.sh README.md docs/*.md

# The man pages: docs/man/*.scd turned into roff by scdoc (installed
# through tests/deps.sh when missing) into build/man/; never committed.
MAN_SRC     := $(wildcard docs/man/*.scd)
MAN_OUT     := $(MAN_SRC:docs/man/%.scd=build/man/%)
man: $(MAN_OUT)
build/man/%: docs/man/%.scd
	@command -v scdoc >/dev/null || sh tests/deps.sh scdoc
	@mkdir -p $(dir $@)
	scdoc <$< >$@.tmp && mv -f $@.tmp $@

# make install: the binary, the man pages, the example matrices, the
# nightly recipe and the bash and zsh completions, under
# $(DESTDIR)$(PREFIX); make uninstall removes exactly those files (the
# list is INSTALLED) and the folders of ours left empty.
BINDIR      := $(PREFIX)/bin
MANDIR      := $(PREFIX)/share/man
SHAREDIR    := $(PREFIX)/share/matrix
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  := $(PREFIX)/share/zsh/site-functions
EXAMPLES    := $(wildcard matrices/*.yaml) $(wildcard matrices/programs/*)
INSTALLED   := $(BINDIR)/matrix \
               $(foreach m,$(MAN_OUT),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))) \
               $(EXAMPLES:%=$(SHAREDIR)/%) $(SHAREDIR)/nightly.sh \
               $(BASHCOMPDIR)/matrix $(ZSHCOMPDIR)/_matrix

# INSTALL_BIN: the binary installed (tests/e2e/test_install.sh installs
# the build it tests, and builds nothing).
INSTALL_BIN ?= matrix
install: $(INSTALL_BIN) man
	install -D -m 0755 $(INSTALL_BIN) $(DESTDIR)$(BINDIR)/matrix
	@for m in $(MAN_OUT); do \
		s=$${m##*.}; echo "install $$m $(DESTDIR)$(MANDIR)/man$$s/"; \
		install -D -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/$${m##*/} || exit 1; \
	done
	@for f in $(EXAMPLES); do \
		mode=0644; [ -x $$f ] && mode=0755; \
		install -D -m $$mode $$f $(DESTDIR)$(SHAREDIR)/$$f || exit 1; \
	done
	install -D -m 0755 matrices/nightly.sh $(DESTDIR)$(SHAREDIR)/nightly.sh
	install -D -m 0644 completion/matrix.bash $(DESTDIR)$(BASHCOMPDIR)/matrix
	install -D -m 0644 completion/_matrix $(DESTDIR)$(ZSHCOMPDIR)/_matrix

# The folders removed are our own (share/matrix/...) and the standard ones
# only when empty (rmdir never removes a folder with a file in it).
uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	-@rmdir $(DESTDIR)$(SHAREDIR)/matrices/programs $(DESTDIR)$(SHAREDIR)/matrices \
		$(DESTDIR)$(SHAREDIR) 2>/dev/null; true

clean:
	rm -rf build matrix

.SECONDARY:

-include $(shell find build -name '*.d' 2>/dev/null)
