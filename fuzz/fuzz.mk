# libFuzzer targets (clang, ASan + UBSan), included by the Makefile.
#
#   make fuzz [FUZZ_SECONDS=60]   each target for FUZZ_SECONDS; the corpus grows in
#                                 build/fuzz/corpus/<target>/, seeded from fuzz/corpus/
#   make check-fuzz               each target for FUZZ_CHECK_SECONDS from the
#                                 committed seeds only (part of `make check`)
#   make fuzz-<target>, check-fuzz-<target>   one of them
#
# The committed corpus in fuzz/corpus/<target>/ is only ever read: libFuzzer
# writes new inputs into the first directory it is given, which is a scratch copy.
# A crash leaves its input in build/fuzz/artifacts/<target>/ and the full report in
# build/fuzz/{corpus,check}/<target>.log; replay it with build/fuzz/fuzz_<target> FILE.

FUZZ_CC            ?= clang
FUZZ_SECONDS       ?= 60
FUZZ_CHECK_SECONDS ?= 5
FUZZ_BUILD         := build/fuzz
FUZZ_TARGETS       := parse_psi parse_keyed parse_swaps parse_long config policy status coexist

FUZZ_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer $(WARNINGS) -Iinclude \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# Every input runs in microseconds; 10 s means a hang.
FUZZ_RUNFLAGS := -timeout=10 -print_final_stats=1
FUZZ_ENV := ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

# Only the pure sources each target needs; the config target reads a file
# through inih, as the daemon does.
FUZZ_SRCS_parse_psi   := src/parse.c
FUZZ_SRCS_parse_keyed := src/parse.c
FUZZ_SRCS_parse_swaps := src/parse.c
FUZZ_SRCS_parse_long  := src/parse.c
FUZZ_SRCS_config      := src/parse.c src/policy.c src/config.c src/config_file.c
FUZZ_SRCS_policy      := src/policy.c src/regulator.c
FUZZ_SRCS_status      := src/status.c src/textbuf.c
FUZZ_SRCS_coexist     := src/coexist.c
FUZZ_PKG_config       := inih

FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

.PHONY: fuzz check-fuzz clean-fuzz $(FUZZ_TARGETS:%=fuzz-%) $(FUZZ_TARGETS:%=check-fuzz-%)

fuzz: $(FUZZ_TARGETS:%=fuzz-%)
check-fuzz: $(FUZZ_TARGETS:%=check-fuzz-%)

# $(call fuzz_run,target,seconds,scratch corpus dir,fresh?)
# Seeds the scratch dir from fuzz/corpus/<target>/, runs, prints one summary line;
# on a crash prints the end of the log and the saved input, and fails.
define fuzz_run
	@set -e; t=$(1); dir=$(3); log=$(3).log; art=$(FUZZ_BUILD)/artifacts/$$t/; \
	if [ "$(4)" = fresh ]; then rm -rf $$dir; fi; \
	mkdir -p $$dir $$art; cp -f fuzz/corpus/$$t/* $$dir/; \
	seeds=$$(ls fuzz/corpus/$$t | wc -l); \
	if $(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_$$t $(FUZZ_RUNFLAGS) -max_total_time=$(2) \
		-artifact_prefix=$$art $$dir >$$log 2>&1; then \
		cov=$$(grep -E '^#[0-9]+' $$log | tail -n 1 | sed -n 's/.*\(cov: [0-9]* ft: [0-9]* corp: [^ ]*\).*/\1/p'); \
		execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log); \
		echo "fuzz_$$t: ok, $$execs execs in $(2) s from $$seeds seeds; $$cov"; \
	else \
		echo "fuzz_$$t: FAILED (log $$log)" >&2; \
		sed -n '/ERROR\|runtime error/,/^SUMMARY/p' $$log | grep . >&2 || tail -n 40 $$log >&2; \
		for f in $$art*; do [ -e "$$f" ] && { echo "input $$f:" >&2; od -A x -t x1z -v "$$f" | head -n 32 >&2; }; done; \
		exit 1; \
	fi
endef

define fuzz_target
$(FUZZ_BUILD)/fuzz_$(1): fuzz/fuzz_$(1).c $(FUZZ_SRCS_$(1)) $(wildcard include/*.h) fuzz/fuzz.mk
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(if $(FUZZ_PKG_$(1)),$$(shell pkg-config --cflags $(FUZZ_PKG_$(1)))) \
		-o $$@ fuzz/fuzz_$(1).c $(FUZZ_SRCS_$(1)) \
		$(if $(FUZZ_PKG_$(1)),$$(shell pkg-config --libs $(FUZZ_PKG_$(1))))

fuzz-$(1): $(FUZZ_BUILD)/fuzz_$(1)
	$$(call fuzz_run,$(1),$$(FUZZ_SECONDS),$(FUZZ_BUILD)/corpus/$(1),keep)

check-fuzz-$(1): $(FUZZ_BUILD)/fuzz_$(1)
	$$(call fuzz_run,$(1),$$(FUZZ_CHECK_SECONDS),$(FUZZ_BUILD)/check/$(1),fresh)
endef

$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_target,$(t))))

clean-fuzz:
	rm -rf $(FUZZ_BUILD)

clean: clean-fuzz
