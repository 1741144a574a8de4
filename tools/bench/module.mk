# tools/bench: rpcrdma-bench (man/rpcrdma-bench.1), perftest for the
# RPC-over-RDMA layer, over the transport (tools/transport) and the echo ULB.
# It is built once the transport defines its API (it lands in stages: a
# source defining xprt_call()); its pure parts (statistics, tables, JSON,
# gnuplot script) are unit-tested either way (tests/unit/test_bench.c).
BENCH_XPRT_READY := $(shell grep -ls '^int xprt_call\>' tools/transport/*.c 2>/dev/null)
ifneq ($(BENCH_XPRT_READY),)
$(eval $(call live_tool,rpcrdma-bench,bench))
# and the part of the shell that calls the transport (tools/common/live.h)
rpcrdma-bench_OBJS += $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOLS_LIVE_SRCS))
$(rpcrdma-bench_BIN): $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOLS_LIVE_SRCS))
BENCH_BIN := $(rpcrdma-bench_BIN)
endif

BENCH_PURE_SRCS := tools/bench/bench_stats.c tools/bench/bench_report.c \
	tools/bench/bench_plot.c tools/common/json.c tools/common/outbuf.c \
	tools/common/gnuplot.c tools/common/live.c
BENCH_TEST_DEPS := tests/unit/test_bench.c tests/unit/tap.c tests/unit/tap.h \
	$(BENCH_PURE_SRCS) tools/bench/bench.h tools/common/json.h tools/common/outbuf.h \
	tools/common/gnuplot.h tools/common/live.h

# explicit rules: the unit tests' pattern rules link libcodec only
$(BUILD)/unit/test_bench: $(BENCH_TEST_DEPS) | $(BUILD)/unit/.dir
	$(CC) $(ALL_CFLAGS) $(TOOLS_CPPFLAGS) -Itools/bench -Itests/unit -o $@ \
		tests/unit/test_bench.c tests/unit/tap.c $(BENCH_PURE_SRCS) -lm
$(BUILD)/asan/test_bench: $(BENCH_TEST_DEPS) | $(BUILD)/asan/.dir
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(TOOLS_CPPFLAGS) -Itools/bench -Itests/unit -o $@ \
		tests/unit/test_bench.c tests/unit/tap.c $(BENCH_PURE_SRCS) -lm

# bench_run.c over the transport and the in-process fake verbs, against an
# ECHO responder in the same loop (tests/unit/test_bench_run.c); a skipping
# stand-in until the transport is in the tree
BENCH_RUN_TEST_SRCS := tests/unit/test_bench_run.c tests/unit/tap.c tools/bench/bench_run.c \
	$(BENCH_PURE_SRCS) $(TOOLS_LIVE_SRCS) tests/transport/fake_verbs.c tests/transport/fake_verbs_qp.c
ifneq ($(BENCH_XPRT_READY),)
$(eval $(call xprt_test,$(BUILD)/unit/test_bench_run,$(BUILD)/asan/test_bench_run,$(BENCH_RUN_TEST_SRCS),-lm))
else
$(BUILD)/unit/test_bench_run $(BUILD)/asan/test_bench_run: | $(BUILD)/unit/.dir $(BUILD)/asan/.dir
	printf '#!/bin/sh\necho "1..0 # SKIP the transport is not in the tree yet"\n' > $@
	chmod +x $@
endif

# make bench-live: perftest, rpcrdma-bench and the kernel NFS server on one
# Soft-RoCE link in one guest, and the ratio table (scripts/bench-live.sh);
# one live guest at a time on this machine (the lock every live run takes)
.PHONY: bench-live
bench-live: all
	@BUILD=$(abspath $(BUILD)) BIN=$(abspath $(BIN)) \
		flock /tmp/rpcrdma-live.lock bash scripts/bench-live.sh
