# tools/stat: rpcrdma-stat (man/rpcrdma-stat.1), the kernel's RPC-over-RDMA
# counters from mountstats and svc_rdma; no transport, no libpcap.  Its
# parser's unit tests (tests/kernel/test_mstat.c) plain and under ASan+UBSan,
# and a libFuzzer target (tests/fuzz/fuzz_mountstats.c): kernel_view_tool in
# tools/module.mk.
$(eval $(call kernel_view_tool,rpcrdma-stat,stat,test_mstat,fuzz_mountstats))
