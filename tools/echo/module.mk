# tools/echo: rpcrdma-echo, client and server of the ECHO program
# (docs/echo-ulb.md) over tools/transport; man/rpcrdma-echo.1.
$(eval $(call live_tool,rpcrdma-echo,echo))
# and the part of the shell that calls the transport (tools/common/live.h)
rpcrdma-echo_OBJS += $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOLS_LIVE_SRCS))
$(rpcrdma-echo_BIN): $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOLS_LIVE_SRCS))

# The same tool under ASan+UBSan for the live robustness test
# (tests/live/cases/echo.sh): the sanitizer runtimes are linked statically,
# since the guest image has no libasan.  Built by make check (and
# check-live), not by make.
ECHO_ASAN := $(BUILD)/asan/rpcrdma-echo
ECHO_ASAN_SRCS = $(sort $(wildcard tools/echo/*.c)) $(TOOLS_COMMON_SRCS) $(TOOLS_LIVE_SRCS) \
	$(XPRT_SRCS) $(CODEC_SRCS)
CHECK_DEPS += $(ECHO_ASAN)
LIVE_CHECK_DEPS += $(ECHO_ASAN)
$(ECHO_ASAN): $(call os_objs,toolsasan,$(sort $(ECHO_ASAN_SRCS))) | $(BUILD)/asan/.dir
	$(TOOLS_ASAN_CC) -static-libasan -static-libubsan -o $@ $^ $(XPRT_LIBS) -lm

# The misbehaving client of the robustness test (tests/live/echo_raw.c):
# the codec's malformed test vectors over a real connection, and a credit
# overrun.
ECHO_RAW := $(BUILD)/live/echo-raw
CHECK_DEPS += $(ECHO_RAW)
LIVE_CHECK_DEPS += $(ECHO_RAW)
$(ECHO_RAW): tests/live/echo_raw.c tests/unit/vectors.c tests/unit/vectors.h $(XPRT_A) $(CODEC_A) | $(BUILD)/live/.dir
	$(CC) $(ALL_CFLAGS) $(TOOLS_CPPFLAGS) -Itests/unit -o $@ tests/live/echo_raw.c tests/unit/vectors.c $(XPRT_A) $(CODEC_A) $(XPRT_LIBS)

# The client against the server in one process over the fake verbs
# (tests/unit/test_echo_run.c), plain and under ASan+UBSan, in the unit suites
ECHO_RUN_TEST_SRCS := tests/unit/test_echo_run.c tests/unit/tap.c \
	$(filter-out tools/echo/main.c,$(sort $(wildcard tools/echo/*.c))) $(TOOLS_COMMON_SRCS) \
	$(TOOLS_LIVE_SRCS) \
	tests/transport/fake_verbs.c tests/transport/fake_verbs_qp.c
$(eval $(call xprt_test,$(BUILD)/unit/test_echo_run,$(BUILD)/asan/test_echo_run,$(ECHO_RUN_TEST_SRCS),-lm))
