# autoswappiness: plain GNU make. `make run` and `make check` are the README's
# two commands; each installs first what it lacks (scripts/deps.sh): `run` the
# build dependencies only (deps), `check` those of the tests (deps-test), and
# `bench` those of the benchmark (deps-bench).

VERSION    := 0.1.0
PREFIX     ?= /usr/local
SBINDIR    ?= $(PREFIX)/sbin
MANDIR     ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
RUNSTATEDIR ?= /run
UNITDIR    ?= $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /lib/systemd/system)
DESTDIR    ?=

BUILD ?= build
CC    ?= cc
PKGS  := libproc2 inih libsystemd

WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wconversion -Werror
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 $(WARNINGS) -Iinclude
CPPFLAGS += -DVERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' -DRUNSTATEDIR='"$(RUNSTATEDIR)"'
ifeq ($(SANITIZE),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
BUILD   := build/sanitize
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

# Pure modules: no I/O, linked into the unit tests as they are.
PURE_SRCS := src/parse.c src/policy.c src/regulator.c src/config.c src/status.c src/owner.c src/decide.c src/explain.c src/coexist.c
IO_SRCS   := src/config_file.c src/sample.c src/knob.c src/journal.c src/daemon.c src/once.c src/explain_run.c src/notify.c src/ownership.c src/publish.c src/wakeup.c src/writer.c src/fileio.c src/cgroup.c src/coexist_scan.c
SRCS      := $(PURE_SRCS) $(IO_SRCS) src/main.c
OBJS      := $(SRCS:src/%.c=$(BUILD)/%.o)
BIN       := $(BUILD)/autoswappiness

UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

.PHONY: all deps deps-test deps-bench run check check-unit check-integration check-docs check-systemd check-vm \
	check-sanitize check-valgrind check-bench-report check-func-length check-deps update-golden install uninstall clean format

all: $(BIN)

deps:
	@./scripts/deps.sh build
deps-test:
	@./scripts/deps.sh test
deps-bench:
	@./scripts/deps.sh bench

$(BUILD)/%.o: src/%.c $(wildcard include/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(BIN): $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(PKG_LIBS)

$(BUILD) $(BUILD)/tests:
	mkdir -p $@

# Each unit test links the pure modules plus config_file.c (the ini reader)
# and fileio.c, which tests/unit/test_config.c and test_fileio.c need; the
# rest ignore them.
UNIT_IO_SRCS := src/config_file.c src/fileio.c
$(BUILD)/tests/%: tests/unit/%.c $(PURE_SRCS) $(UNIT_IO_SRCS) $(wildcard include/*.h) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(PURE_SRCS) $(UNIT_IO_SRCS) $(LDFLAGS) $(CMOCKA_LIBS) $(PKG_LIBS)

# From a copy that the user running it owns: the daemon reads no config file
# that another user owns or may write, and this tree may be someone else's.
run: deps $(BIN)
	install -m 0644 conf/autoswappiness.conf $(BUILD)/run.conf
	$(BIN) --foreground -c $(BUILD)/run.conf $(ARGS)

check-unit: $(UNIT_TESTS)
	@set -e; for t in $(UNIT_TESTS); do echo "== $$t"; $$t; done

check-integration: $(BIN)
	BIN=$(BIN) tests/integration/run.sh

# No C function in src/ over 80 lines (tests/func-length.sh).
check-func-length:
	tests/func-length.sh

# The man pages, README and shipped config against the code (tests/docs.sh).
check-docs:
	tests/docs.sh

# scripts/deps.sh's groups against what the targets use (tests/deps.sh).
check-deps:
	tests/deps.sh

# Rewrites tests/data/config/*.expected from what the loader reports now.
update-golden: $(BUILD)/tests/test_config
	UPDATE_GOLDEN=1 $(BUILD)/tests/test_config
	git diff --stat -- tests/data/config

check-systemd:
	tests/unit-security.sh

# bench/report.py on synthetic results (the benchmark itself is `make bench`).
check-bench-report:
	tests/bench-report.sh

check-vm: $(BIN)
	BUILD_DIR=$(BUILD) tests/vm/e2e.sh

check-sanitize:
	$(MAKE) SANITIZE=1 check-unit check-integration

check-valgrind: $(UNIT_TESTS) $(BIN)
	VALGRIND=1 BIN=$(BIN) tests/valgrind.sh $(UNIT_TESTS)

# Everything that can run here; the VM test fails loudly without qemu.
check: deps-test all check-func-length check-deps check-unit check-integration check-docs check-systemd check-bench-report check-sanitize check-valgrind \
	check-fuzz check-vm

include fuzz/fuzz.mk
include tests/replay/replay.mk

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/autoswappiness
	install -D -m 0644 man/autoswappiness.8 $(DESTDIR)$(MANDIR)/man8/autoswappiness.8
	install -D -m 0644 man/autoswappiness.conf.5 $(DESTDIR)$(MANDIR)/man5/autoswappiness.conf.5
	install -d $(DESTDIR)$(UNITDIR)
	sed -e 's|/usr/sbin/autoswappiness|$(SBINDIR)/autoswappiness|g' \
	    -e 's|/etc/autoswappiness.conf|$(SYSCONFDIR)/autoswappiness.conf|g' \
	    systemd/autoswappiness.service >$(DESTDIR)$(UNITDIR)/autoswappiness.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/autoswappiness.service
	@# Never overwrite an administrator's configuration.
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf ]; then \
		echo "keeping existing $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf"; \
	else \
		install -D -m 0644 conf/autoswappiness.conf $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf; \
	fi

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/autoswappiness $(DESTDIR)$(MANDIR)/man8/autoswappiness.8 \
	      $(DESTDIR)$(MANDIR)/man5/autoswappiness.conf.5 $(DESTDIR)$(UNITDIR)/autoswappiness.service
	@echo "left $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf in place"

format:
	clang-format -i src/*.c include/*.h tests/unit/*.c

clean:
	rm -rf build/autoswappiness build/*.o build/tests build/sanitize build/it

# Benchmarks in the VM (issues 4 and 12), not part of `make check`: about 2 1/4 hours here under
# TCG, disk and zram swap (BENCH_QUICK=1: a short try-out; BENCH_RESUME=1 goes on with a run
# whose raw results are in bench/results). Knobs: see bench/run.sh. Writes bench/RESULTS.md.
.PHONY: bench
bench: deps-bench $(BIN)
	BIN=$(BIN) BUILD_DIR=$(BUILD) bench/run.sh
