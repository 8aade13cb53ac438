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
# systemd reads units from /usr/local/lib/systemd/system and /usr/lib/systemd/system, the
# catalog from /usr/local/lib/systemd/catalog and /usr/lib/systemd/catalog, and bash-completion
# from $XDG_DATA_DIRS (/usr/local/share:/usr/share): all follow PREFIX. The Debian package sets
# UNITDIR=/lib/systemd/system, where bookworm's lintian wants units.
UNITDIR    ?= $(PREFIX)/lib/systemd/system
CATALOGDIR ?= $(PREFIX)/lib/systemd/catalog
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
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
PURE_SRCS := src/parse.c src/policy.c src/regulator.c src/config.c src/status.c src/owner.c src/decide.c src/explain.c src/coexist.c src/textbuf.c src/lru.c
IO_SRCS   := src/config_file.c src/sample.c src/knob.c src/journal.c src/daemon.c src/daemon_poll.c src/once.c src/explain_run.c src/notify.c src/ownership.c src/publish.c src/wakeup.c src/writer.c src/fileio.c src/cgroup.c src/coexist_scan.c src/lru_watch.c
SRCS      := $(PURE_SRCS) $(IO_SRCS) src/main.c
OBJS      := $(SRCS:src/%.c=$(BUILD)/%.o)
BIN       := $(BUILD)/autoswappiness

UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

.PHONY: all deps deps-test deps-bench run check check-unit check-integration check-docs check-systemd check-vm \
	check-vm-trixie check-vm-bookworm \
	check-sanitize check-valgrind check-bench-report check-func-length check-deps update-golden install uninstall clean format \
	check-completion check-install check-deb deb

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

# Each unit test links the pure modules plus config_file.c (the ini reader),
# fileio.c, journal.c and notify.c, which tests/unit/test_config.c,
# test_fileio.c, test_journal.c and test_notify.c need; the rest ignore them.
UNIT_IO_SRCS := src/config_file.c src/fileio.c src/journal.c src/notify.c
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

# The bash completion against --help (tests/completion.sh).
check-completion: $(BIN)
	BIN=$(BIN) tests/completion.sh

# make install / uninstall into a temporary DESTDIR (tests/install.sh).
check-install: $(BIN)
	BUILD=$(BUILD) tests/install.sh

# The Debian package: make deb, lintian, its files and maintainer scripts (tests/deb.sh).
check-deb: deb
	DEB=$(DEB) tests/deb.sh

# bench/report.py on synthetic results (the benchmark itself is `make bench`).
check-bench-report:
	tests/bench-report.sh

# The guest installs the Debian package (build/deb/), as a user would: Debian 13 (kernel 6.12,
# the multi-gen LRU) and Debian 12 (kernel 6.1, the classic LRU), one boot each.
check-vm: check-vm-trixie check-vm-bookworm
check-vm-trixie check-vm-bookworm: check-vm-%: deb
	BUILD_DIR=$(BUILD) DEB=$(DEB) VM_SUITE=$* tests/vm/e2e.sh

check-sanitize:
	$(MAKE) SANITIZE=1 check-unit check-integration

check-valgrind: $(UNIT_TESTS) $(BIN)
	VALGRIND=1 BIN=$(BIN) tests/valgrind.sh $(UNIT_TESTS)

# Everything that can run here; the VM test fails loudly without qemu.
check: deps-test all check-func-length check-deps check-unit check-integration check-docs check-systemd check-bench-report check-sanitize check-valgrind \
	check-fuzz check-completion check-install check-deb check-vm

include fuzz/fuzz.mk
include tests/replay/replay.mk

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/autoswappiness
	install -D -m 0644 man/autoswappiness.8 $(DESTDIR)$(MANDIR)/man8/autoswappiness.8
	install -D -m 0644 man/autoswappiness.conf.5 $(DESTDIR)$(MANDIR)/man5/autoswappiness.conf.5
	install -D -m 0644 man/autoswappiness.7 $(DESTDIR)$(MANDIR)/man7/autoswappiness.7
	install -d $(DESTDIR)$(UNITDIR)
	sed -e 's|/usr/sbin/autoswappiness|$(SBINDIR)/autoswappiness|g' \
	    -e 's|/etc/autoswappiness.conf|$(SYSCONFDIR)/autoswappiness.conf|g' \
	    systemd/autoswappiness.service >$(DESTDIR)$(UNITDIR)/autoswappiness.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/autoswappiness.service
	install -D -m 0644 systemd/autoswappiness.catalog $(DESTDIR)$(CATALOGDIR)/autoswappiness.catalog
	install -D -m 0644 completion/autoswappiness.bash $(DESTDIR)$(BASHCOMPDIR)/autoswappiness
	@# Never overwrite an administrator's configuration.
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf ]; then \
		echo "keeping existing $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf"; \
	else \
		install -D -m 0644 conf/autoswappiness.conf $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf; \
	fi
	@# journalctl -x reads the catalog from a database (packages get it by a dpkg trigger).
	@if [ -z "$(DESTDIR)" ] && command -v journalctl >/dev/null; then journalctl --update-catalog; fi

# A running daemon is stopped first (it restores the original swappiness) and disabled, so no
# enable link is left pointing at a removed unit: only on this machine's own systemd (no
# DESTDIR, systemd is PID 1, the unit is installed).
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null && \
	    [ -e $(UNITDIR)/autoswappiness.service ]; then \
		echo "systemctl disable --now autoswappiness"; \
		systemctl disable --now autoswappiness; \
	fi
	rm -f $(DESTDIR)$(SBINDIR)/autoswappiness $(DESTDIR)$(MANDIR)/man8/autoswappiness.8 \
	      $(DESTDIR)$(MANDIR)/man5/autoswappiness.conf.5 $(DESTDIR)$(MANDIR)/man7/autoswappiness.7 \
	      $(DESTDIR)$(UNITDIR)/autoswappiness.service \
	      $(DESTDIR)$(CATALOGDIR)/autoswappiness.catalog $(DESTDIR)$(BASHCOMPDIR)/autoswappiness
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then \
		systemctl daemon-reload; \
	fi
	@if [ -z "$(DESTDIR)" ] && command -v journalctl >/dev/null; then journalctl --update-catalog; fi
	@echo "left $(DESTDIR)$(SYSCONFDIR)/autoswappiness.conf in place"

# The Debian package, built in build/deb/src from a clean export of the source tree (the files
# git tracks or would track, as they are now: no build/, nothing ignored), so the tree itself
# stays clean: build/deb/autoswappiness_$(VERSION)-1_amd64.deb, the log in build/deb/build.log.
DEB_VERSION = $(shell dpkg-parsechangelog -l debian/changelog -S Version)
DEB_ARCH    = $(shell dpkg --print-architecture)
DEB         = build/deb/autoswappiness_$(DEB_VERSION)_$(DEB_ARCH).deb
# Its tools (debhelper, dpkg-dev, fakeroot, lintian) are in the test group: check-deb and the VM test build it.
deb: deps-test
	rm -rf build/deb
	mkdir -p build/deb/src
	git ls-files -z --cached --others --exclude-standard | \
		tar --null -T - --ignore-failed-read -cf - | tar -C build/deb/src -xf -
	cd build/deb/src && dpkg-buildpackage -us -uc -b -j2 >../build.log 2>&1 || { tail -n 40 ../build.log; exit 1; }
	test -f $(DEB)
	@echo "built $(DEB)"

format:
	clang-format -i src/*.c include/*.h tests/unit/*.c

clean:
	rm -rf build/autoswappiness build/*.o build/tests build/sanitize build/it build/deb

# Benchmarks in the VM (issues 4 and 12), not part of `make check`: about 2 1/4 hours here under
# TCG, disk and zram swap (BENCH_QUICK=1: a short try-out; BENCH_RESUME=1 goes on with a run
# whose raw results are in bench/results). Knobs: see bench/run.sh. Writes bench/RESULTS.md.
.PHONY: bench
bench: deps-bench $(BIN)
	BIN=$(BIN) BUILD_DIR=$(BUILD) bench/run.sh
