# tools/trace: rpcrdma-trace (man/rpcrdma-trace.1), RPCs rebuilt from the
# kernel's rpcrdma trace events; no transport, no libpcap.  Its parser's unit
# tests (tests/kernel/test_trace.c) plain and under ASan+UBSan, and a
# libFuzzer target (tests/fuzz/fuzz_trace.c, with small tables).
TRACE_SRCS := $(sort $(wildcard tools/trace/*.c))
TRACE_LIB_SRCS := $(filter-out tools/trace/main.c,$(TRACE_SRCS))
TRACE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(TRACE_SRCS) $(TOOLS_COMMON_SRCS))
TRACE_BIN := $(BIN)/rpcrdma-trace
ALL_TARGETS += $(TRACE_BIN)
LIVE_TOOL_BINS += $(TRACE_BIN)
$(TRACE_BIN): $(TRACE_OBJS) $(CODEC_A) | $(BIN)/.dir
	$(CC) $(LDFLAGS) -o $@ $(TRACE_OBJS) $(CODEC_A) -lm

TRACE_TEST_FLAGS = $(TOOLS_CPPFLAGS) -Itools/trace -Itests/unit
CHECK_DEPS += $(BUILD)/kernel-unit/test_trace $(BUILD)/kernel-asan/test_trace
$(BUILD)/kernel-unit/test_trace: tests/kernel/test_trace.c $(TRACE_LIB_SRCS) $(wildcard tools/trace/*.h) \
		$(TOOLS_COMMON_SRCS) tests/unit/tap.c $(CODEC_A) | $(BUILD)/kernel-unit/.dir
	$(CC) $(ALL_CFLAGS) $(TRACE_TEST_FLAGS) -o $@ $< $(TRACE_LIB_SRCS) $(TOOLS_COMMON_SRCS) \
		tests/unit/tap.c $(CODEC_A) -lm
$(BUILD)/kernel-asan/test_trace: tests/kernel/test_trace.c $(TRACE_LIB_SRCS) $(wildcard tools/trace/*.h) \
		$(TOOLS_COMMON_SRCS) tests/unit/tap.c $(CODEC_SRCS) | $(BUILD)/kernel-asan/.dir
	$(CC) $(STD) -O1 -g $(WARN) $(SAN_FLAGS) $(TRACE_TEST_FLAGS) -Ilibcodec/src -o $@ $< \
		$(TRACE_LIB_SRCS) $(TOOLS_COMMON_SRCS) tests/unit/tap.c $(CODEC_SRCS) -lm

$(BUILD)/fuzz/fuzz_trace: tests/fuzz/fuzz_trace.c $(TRACE_LIB_SRCS) $(wildcard tools/trace/*.h) \
		$(TOOLS_COMMON_SRCS) $(CODEC_SRCS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-DTR_MAX_RPCS=64 -DTR_MAX_PENDING=16 -DTR_MAX_PIDS=16 -DTR_MAX_MRS=64 \
		$(TOOLS_CPPFLAGS) -Itools/trace -Ilibcodec/src -o $@ $< $(TRACE_LIB_SRCS) \
		$(TOOLS_COMMON_SRCS) $(CODEC_SRCS) -lm
