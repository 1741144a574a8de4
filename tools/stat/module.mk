# tools/stat: rpcrdma-stat (man/rpcrdma-stat.1), the kernel's RPC-over-RDMA
# counters from mountstats and svc_rdma; no transport, no libpcap: its
# sources, tools/common and libcodec.  Its parser's unit tests (tests/kernel/
# test_mstat.c) plain and under ASan+UBSan, and a libFuzzer target
# (tests/fuzz/fuzz_mountstats.c).
STAT_SRCS := $(sort $(wildcard tools/stat/*.c))
STAT_LIB_SRCS := $(filter-out tools/stat/main.c,$(STAT_SRCS))
STAT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(STAT_SRCS) $(TOOLS_COMMON_SRCS))
STAT_BIN := $(BIN)/rpcrdma-stat
ALL_TARGETS += $(STAT_BIN)
LIVE_TOOL_BINS += $(STAT_BIN)
$(STAT_BIN): $(STAT_OBJS) $(CODEC_A) | $(BIN)/.dir
	$(CC) $(LDFLAGS) -o $@ $(STAT_OBJS) $(CODEC_A) -lm

STAT_TEST_FLAGS = $(TOOLS_CPPFLAGS) -Itools/stat -Itests/unit
CHECK_DEPS += $(BUILD)/kernel-unit/test_mstat $(BUILD)/kernel-asan/test_mstat
$(BUILD)/kernel-unit/test_mstat: tests/kernel/test_mstat.c $(STAT_LIB_SRCS) tools/stat/mstat.h \
		$(TOOLS_COMMON_SRCS) tests/unit/tap.c $(CODEC_A) | $(BUILD)/kernel-unit/.dir
	$(CC) $(ALL_CFLAGS) $(STAT_TEST_FLAGS) -o $@ $< $(STAT_LIB_SRCS) $(TOOLS_COMMON_SRCS) \
		tests/unit/tap.c $(CODEC_A) -lm
$(BUILD)/kernel-asan/test_mstat: tests/kernel/test_mstat.c $(STAT_LIB_SRCS) tools/stat/mstat.h \
		$(TOOLS_COMMON_SRCS) tests/unit/tap.c $(CODEC_SRCS) | $(BUILD)/kernel-asan/.dir
	$(CC) $(STD) -O1 -g $(WARN) $(SAN_FLAGS) $(STAT_TEST_FLAGS) -Ilibcodec/src -o $@ $< \
		$(STAT_LIB_SRCS) $(TOOLS_COMMON_SRCS) tests/unit/tap.c $(CODEC_SRCS) -lm

$(BUILD)/fuzz/fuzz_mountstats: tests/fuzz/fuzz_mountstats.c $(STAT_LIB_SRCS) tools/stat/mstat.h \
		$(TOOLS_COMMON_SRCS) $(CODEC_SRCS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(TOOLS_CPPFLAGS) -Itools/stat -Ilibcodec/src -o $@ $< $(STAT_LIB_SRCS) \
		$(TOOLS_COMMON_SRCS) $(CODEC_SRCS) -lm
