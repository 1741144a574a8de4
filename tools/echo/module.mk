# tools/echo: rpcrdma-echo, client and server of the ECHO program
# (docs/echo-ulb.md) over tools/transport; man/rpcrdma-echo.1.
$(eval $(call live_tool,rpcrdma-echo,echo))

# The same tool under ASan+UBSan for the live robustness test
# (tests/live/cases/echo.sh): the sanitizer runtimes are linked statically,
# since the guest image has no libasan.  Built by make check (and
# check-live), not by make.
ECHO_ASAN := $(BUILD)/asan/rpcrdma-echo
ECHO_ASAN_SRCS = $(sort $(wildcard tools/echo/*.c)) $(TOOLS_COMMON_SRCS) $(XPRT_SRCS) $(CODEC_SRCS)
CHECK_DEPS += $(ECHO_ASAN)
LIVE_CHECK_DEPS += $(ECHO_ASAN)
$(ECHO_ASAN): $(ECHO_ASAN_SRCS) $(TOOLS_HDRS) $(CODEC_HDRS) | $(BUILD)/asan/.dir
	$(CC) $(STD) -O1 -g $(WARN) $(SAN_FLAGS) -static-libasan -static-libubsan \
		$(TOOLS_CPPFLAGS) -Ilibcodec/src -o $@ $(ECHO_ASAN_SRCS) $(XPRT_LIBS) -lm

# The misbehaving client of the robustness test (tests/live/echo_raw.c):
# the codec's malformed test vectors over a real connection, and a credit
# overrun.
ECHO_RAW := $(BUILD)/live/echo-raw
CHECK_DEPS += $(ECHO_RAW)
LIVE_CHECK_DEPS += $(ECHO_RAW)
$(ECHO_RAW): tests/live/echo_raw.c tests/unit/vectors.c tests/unit/vectors.h $(XPRT_A) $(CODEC_A) | $(BUILD)/live/.dir
	$(CC) $(ALL_CFLAGS) $(TOOLS_CPPFLAGS) -Itests/unit -o $@ tests/live/echo_raw.c tests/unit/vectors.c $(XPRT_A) $(CODEC_A) $(XPRT_LIBS)
