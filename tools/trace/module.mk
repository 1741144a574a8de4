# tools/trace: rpcrdma-trace (man/rpcrdma-trace.1), RPCs rebuilt from the
# kernel's rpcrdma trace events; no transport, no libpcap.  Its parser's unit
# tests (tests/kernel/test_trace.c) plain and under ASan+UBSan, and a
# libFuzzer target (tests/fuzz/fuzz_trace.c, with small tables):
# kernel_view_tool in tools/module.mk.
$(eval $(call kernel_view_tool,rpcrdma-trace,trace,test_trace,fuzz_trace,\
	-DTR_MAX_RPCS=64 -DTR_MAX_PENDING=16 -DTR_MAX_PIDS=16 -DTR_MAX_MRS=64))
