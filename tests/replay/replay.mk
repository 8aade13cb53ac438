# The replay tests (included by the Makefile, as fuzz/fuzz.mk is).
#
# test_replay is one of UNIT_TESTS (tests/unit/test_*.c) and runs in check-unit; it also
# links the trace reader and the replay loop (tests/replay/: test code, with I/O).
REPLAY_SRCS := tests/replay/trace.c tests/replay/replay.c
$(BUILD)/tests/test_replay: tests/unit/test_replay.c $(REPLAY_SRCS) $(PURE_SRCS) $(wildcard include/*.h tests/replay/*.h) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/replay $(PKG_CFLAGS) -o $@ $< $(REPLAY_SRCS) $(PURE_SRCS) $(LDFLAGS) $(CMOCKA_LIBS)

# tests/replay/ts2trace.py (bench time series -> replay trace) on made-up results; part of check.
.PHONY: check-replay-convert
check: check-replay-convert
check-replay-convert: $(BUILD)/tests/test_replay
	TEST_REPLAY=$(BUILD)/tests/test_replay tests/replay/ts2trace-test.sh
