# tests/transport: the transport's unit tests over the in-process fake verbs
# (fake_verbs.[ch]), plain and under ASan+UBSan; run by
# tests/suites/12-transport.sh.  Tools that test over the fake link
# $(FAKE_VERBS_SRCS) with $(FAKE_VERBS_CPPFLAGS) and libxprt.
# (FAKE_VERBS_SRCS and FAKE_VERBS_CPPFLAGS: mk/config.mk, read before the tools)
XPRT_TEST_SRCS := $(sort $(wildcard tests/transport/test_*.c))
XPRT_TEST_COMMON := $(FAKE_VERBS_SRCS) $(filter-out tests/transport/test_%.c tests/transport/xprt_live.c $(FAKE_VERBS_SRCS),$(wildcard tests/transport/*.c)) tests/unit/tap.c
XPRT_TEST_HDRS := $(wildcard tests/transport/*.h) $(TOOLS_HDRS) $(CODEC_HDRS) tests/unit/tap.h
XPRT_TEST_CPPFLAGS = $(TOOLS_CPPFLAGS) $(FAKE_VERBS_CPPFLAGS) -Itests/unit
XPRT_TEST_BINS := $(patsubst tests/transport/%.c,$(BUILD)/transport/%,$(XPRT_TEST_SRCS))
XPRT_TEST_ASAN := $(patsubst tests/transport/%.c,$(BUILD)/asan-transport/%,$(XPRT_TEST_SRCS))
CHECK_DEPS += $(XPRT_TEST_BINS) $(XPRT_TEST_ASAN)

$(BUILD)/transport/%: tests/transport/%.c $(XPRT_TEST_COMMON) $(XPRT_TEST_HDRS) $(XPRT_A) $(CODEC_A) | $(BUILD)/transport/.dir
	$(CC) $(ALL_CFLAGS) $(XPRT_TEST_CPPFLAGS) -o $@ $< $(XPRT_TEST_COMMON) $(XPRT_A) $(CODEC_A) $(XPRT_LIBS)

# sanitized: the transport's and the codec's sources compiled in (once: an
# object set, tests/module.mk)
XPRT_ASAN_CC = $(CC) $(STD) -O1 -g $(WARN) $(SAN_FLAGS) $(XPRT_TEST_CPPFLAGS) -Ilibcodec/src
$(eval $(call objset,xprtasan,$(XPRT_TEST_COMMON) $(XPRT_SRCS) $(CODEC_SRCS),$$(XPRT_ASAN_CC),$$(XPRT_TEST_HDRS)))
$(BUILD)/asan-transport/%: tests/transport/%.c $(xprtasan_OBJS) $(XPRT_TEST_HDRS) | $(BUILD)/asan-transport/.dir
	$(XPRT_ASAN_CC) -o $@ $< $(xprtasan_OBJS) $(XPRT_LIBS)

# the transport's live driver (real rdma-core), for tests/live/cases/transport.sh
XPRT_LIVE := $(BUILD)/transport/xprt-live
ALL_TARGETS += $(XPRT_LIVE)
# make check-live and check-live-repeat build it too: without it a fresh
# clone's live runs skipped the seven xprt-* cases per transport
LIVE_CHECK_DEPS += $(XPRT_LIVE)
$(XPRT_LIVE): tests/transport/xprt_live.c $(XPRT_A) $(CODEC_A) $(TOOLS_HDRS) $(CODEC_HDRS) | $(BUILD)/transport/.dir
	$(CC) $(ALL_CFLAGS) $(TOOLS_CPPFLAGS) -o $@ $< $(XPRT_A) $(CODEC_A) $(XPRT_LIBS)

# the transport's cost of a NULL round trip over the fake (make bench,
# scripts/bench-xprt.sh): built as the tools are (-O2)
BENCH_DEPS += $(BUILD)/bench/bench_xprt
$(BUILD)/bench/bench_xprt: tests/bench/bench_xprt.c $(FAKE_VERBS_SRCS) $(XPRT_TEST_HDRS) $(XPRT_A) $(CODEC_A) | $(BUILD)/bench/.dir
	$(CC) $(ALL_CFLAGS) $(XPRT_TEST_CPPFLAGS) -o $@ $< $(FAKE_VERBS_SRCS) $(XPRT_A) $(CODEC_A) $(XPRT_LIBS)
