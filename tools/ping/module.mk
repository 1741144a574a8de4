# tools/ping: rpcrdma-ping (man/rpcrdma-ping.1) over the transport, and the
# unit tests of its pure parts (options, statistics, RPC verdicts, output,
# the inline-threshold search), plain and under ASan+UBSan, which need no
# transport.  The tool itself is built once the transport's core (the file
# that defines xprt_connect) is in the tree.
PING_PURE_SRCS := $(addprefix tools/ping/,ping_args.c ping_stats.c ping_rpc.c ping_out.c ping_search.c ping_nfs41_xdr.c)
PING_TEST_DEPS := tests/ping/test_ping.c tests/unit/tap.c $(PING_PURE_SRCS) \
	$(TOOLS_COMMON_SRCS) $(TOOLS_HDRS) $(CODEC_HDRS)
PING_UNIT := $(BUILD)/ping-unit/test_ping
PING_ASAN := $(BUILD)/ping-asan/test_ping
CHECK_DEPS += $(PING_UNIT) $(PING_ASAN)

# (the error names are the transport's, xprt_errcode_name(): the pure
# parts link its library, the sanitized build its sources)
PING_T_SRCS := tests/ping/test_ping.c tests/unit/tap.c $(PING_PURE_SRCS) $(TOOLS_COMMON_SRCS) \
	$(TOOLS_LIVE_SRCS)
$(eval $(call xprt_test,$(PING_UNIT),$(PING_ASAN),$(PING_T_SRCS),-lm))

PING_XPRT_CORE := $(shell grep -l 'xprt_connect.struct xprt_loop' tools/transport/*.c 2>/dev/null)
ifneq ($(PING_XPRT_CORE),)
$(eval $(call live_tool,rpcrdma-ping,ping))
# and the part of the shell that calls the transport (tools/common/live.h)
rpcrdma-ping_OBJS += $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOLS_LIVE_SRCS))
$(rpcrdma-ping_BIN): $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOLS_LIVE_SRCS))
endif

# the runs (ping, --probe, --probe-inline) over the transport and the
# in-process fake verbs, against an ECHO responder in the same loop
# (tests/ping/test_ping_run.c); a skipping stand-in until the transport is
# in the tree
PING_RUN_SRCS := tests/ping/test_ping_run.c tests/unit/tap.c \
	$(filter-out tools/ping/main.c,$(sort $(wildcard tools/ping/*.c))) \
	$(TOOLS_COMMON_SRCS) $(TOOLS_LIVE_SRCS) tests/transport/fake_verbs.c \
	tests/transport/fake_verbs_qp.c
CHECK_DEPS += $(BUILD)/ping-unit/test_ping_run $(BUILD)/ping-asan/test_ping_run
ifneq ($(PING_XPRT_CORE),)
$(eval $(call xprt_test,$(BUILD)/ping-unit/test_ping_run,$(BUILD)/ping-asan/test_ping_run,$(PING_RUN_SRCS),-lm))
else
$(BUILD)/ping-unit/test_ping_run $(BUILD)/ping-asan/test_ping_run: | $(BUILD)/ping-unit/.dir $(BUILD)/ping-asan/.dir
	printf '#!/bin/sh\necho "1..0 # SKIP the transport is not in the tree yet"\n' > $@
	chmod +x $@
endif
