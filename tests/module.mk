# tests: C unit tests (plain and under ASan+UBSan), Bats suites, fuzz smoke.
# Every suite is a script in tests/suites/ that prints TAP; tests/run-all.sh
# runs them in order and prints the one summary line.
# Object sets ($(call objset,...)): mk/config.mk.

# UNIT_SRCS, UNIT_COMMON, UNIT_HDRS: mk/config.mk
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRCS))
ASAN_BINS := $(patsubst tests/unit/%.c,$(BUILD)/asan/%,$(UNIT_SRCS))
CHECK_DEPS += $(UNIT_BINS) $(ASAN_BINS)

$(BUILD)/unit/%: tests/unit/%.c $(UNIT_COMMON) $(UNIT_HDRS) $(CODEC_A) | $(BUILD)/unit/.dir
	$(CC) $(ALL_CFLAGS) $(CODEC_CPPFLAGS) -Itests/unit -o $@ $< $(UNIT_COMMON) $(CODEC_A)

# the library's sources are compiled into the sanitized tests (once: an
# object set)
UNIT_ASAN_CC = $(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(CODEC_CPPFLAGS) -Ilibcodec/src -Itests/unit
$(eval $(call objset,unitasan,$(CODEC_SRCS) $(UNIT_COMMON),$$(UNIT_ASAN_CC),$$(CODEC_HDRS) $$(UNIT_HDRS)))
$(BUILD)/asan/%: tests/unit/%.c $(unitasan_OBJS) $(UNIT_HDRS) $(CODEC_HDRS) | $(BUILD)/asan/.dir
	$(UNIT_ASAN_CC) -o $@ $< $(unitasan_OBJS)

# libFuzzer targets (clang): one per parser
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))
FUZZ_TARGETS += $(FUZZ_BINS)
CHECK_DEPS += $(FUZZ_BINS)

# the libraries' objects instrumented for coverage (fuzzer-no-link), once per set
FUZZ_CODEC_CC = $(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all $(CODEC_CPPFLAGS) -Ilibcodec/src
$(eval $(call objset,fuzzcodec,$(CODEC_SRCS),$$(FUZZ_CODEC_CC),$$(CODEC_HDRS)))
$(BUILD)/fuzz/fuzz_codec_%: tests/fuzz/fuzz_codec_%.c $(fuzzcodec_OBJS) $(CODEC_HDRS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(CODEC_CPPFLAGS) -Ilibcodec/src -o $@ $< $(fuzzcodec_OBJS)

# the capture pipeline (tools/capture + tools/common), without main(); small
# tables so that each input sets up fast and the limits are reached
FUZZ_CAPTURE_SRCS = $(CODEC_SRCS) $(TOOLS_COMMON_SRCS) $(sort $(wildcard tools/capture/*.c))
# and CRCs that pass unless their field is all ones (-DCAP_FUZZ_CRC), so that
# inputs get past the VCRC, ICRC and MPA CRC
FUZZ_CAP_FLAGS := -DCAP_FUZZ_CRC -DCAP_MAX_CONVS=16u -DCAP_MAX_CALLS=256u -DCAP_MAX_SEGS=256u \
	-DCAP_OOO_MAX=16u -DCAP_MAX_BUFFERED=1048576u
FUZZ_CAP_CC = $(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all $(FUZZ_CAP_FLAGS) $(TOOLS_CPPFLAGS) -Ilibcodec/src
$(eval $(call objset,fuzzcap,$(FUZZ_CAPTURE_SRCS),$$(FUZZ_CAP_CC),$$(CODEC_HDRS) $$(TOOLS_HDRS)))
$(BUILD)/fuzz/fuzz_capture: tests/fuzz/fuzz_capture.c $(fuzzcap_OBJS) $(CODEC_HDRS) $(TOOLS_HDRS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(FUZZ_CAP_FLAGS) \
		$(TOOLS_CPPFLAGS) -Ilibcodec/src -o $@ $< $(fuzzcap_OBJS) -lpcap -lz -lm

# per-layer capture targets: frames from the link layer up, one TCP
# connection's segments, InfiniBand transport packets (tests/fuzz/fuzz_cap_*.c)
$(BUILD)/fuzz/fuzz_cap_%: tests/fuzz/fuzz_cap_%.c tests/fuzz/fuzz_cap.h $(fuzzcap_OBJS) $(CODEC_HDRS) $(TOOLS_HDRS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(FUZZ_CAP_FLAGS) $(TOOLS_CPPFLAGS) -Ilibcodec/src -o $@ $< $(fuzzcap_OBJS) -lpcap -lz -lm

# the NFS result walkers of --redact (cap_redact_rpc.c), message by message
$(BUILD)/fuzz/fuzz_redact_nfs: tests/fuzz/fuzz_redact_nfs.c $(fuzzcap_OBJS) $(CODEC_HDRS) $(TOOLS_HDRS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(FUZZ_CAP_FLAGS) $(TOOLS_CPPFLAGS) -Ilibcodec/src -o $@ $< $(fuzzcap_OBJS) -lpcap -lz -lm

# the NFSv4 COMPOUND operation reader of the printers
$(BUILD)/fuzz/fuzz_nfs4_ops: tests/fuzz/fuzz_nfs4_ops.c tools/common/nfs4_ops.c tools/common/nfs4_ops.h | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-Itools/common -o $@ $< tools/common/nfs4_ops.c

# the NFS reply readers of rpcrdma-conform's NFS target (what the server
# under test answers)
$(BUILD)/fuzz/fuzz_conform_nfs: tests/fuzz/fuzz_conform_nfs.c tools/conform/target_nfs.c tools/conform/target.h tools/common/xdrcur.h $(fuzzcodec_OBJS) $(CODEC_HDRS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(CODEC_CPPFLAGS) -Ilibcodec/src -Itools/conform -Itools/common -o $@ $< tools/conform/target_nfs.c $(fuzzcodec_OBJS)

# codec micro-benchmark (make bench)
BENCH_DEPS += $(BUILD)/bench/bench_codec
$(BUILD)/bench/bench_codec: tests/bench/bench_codec.c $(CODEC_A) | $(BUILD)/bench/.dir
	$(CC) $(STD) -O2 -g $(WARN) $(CODEC_CPPFLAGS) -o $@ $< $(CODEC_A)

# the ECHO program's ULB (tools/ulb/echo_ulb.c) is tested like the codec: its
# source is compiled into the test, plain and sanitized
ECHO_ULB_SRCS := tools/ulb/echo_ulb.c
$(BUILD)/unit/test_echo_ulb: tests/unit/test_echo_ulb.c $(ECHO_ULB_SRCS) tools/ulb/echo_ulb.h tools/common/be.h $(UNIT_COMMON) $(UNIT_HDRS) $(CODEC_A) | $(BUILD)/unit/.dir
	$(CC) $(ALL_CFLAGS) $(CODEC_CPPFLAGS) -Itests/unit -Itools/ulb -Itools/common -o $@ $< $(ECHO_ULB_SRCS) $(UNIT_COMMON) $(CODEC_A)
$(BUILD)/asan/test_echo_ulb: tests/unit/test_echo_ulb.c $(ECHO_ULB_SRCS) tools/ulb/echo_ulb.h tools/common/be.h $(unitasan_OBJS) $(UNIT_HDRS) $(CODEC_HDRS) | $(BUILD)/asan/.dir
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(CODEC_CPPFLAGS) -Ilibcodec/src -Itests/unit -Itools/ulb -Itools/common -o $@ $< $(ECHO_ULB_SRCS) $(unitasan_OBJS)
$(BUILD)/fuzz/fuzz_echo_ulb: tests/fuzz/fuzz_echo_ulb.c $(ECHO_ULB_SRCS) tools/ulb/echo_ulb.h tools/common/be.h $(fuzzcodec_OBJS) $(CODEC_HDRS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(CODEC_CPPFLAGS) -Ilibcodec/src -Itools/ulb -Itools/common -o $@ $< $(ECHO_ULB_SRCS) $(fuzzcodec_OBJS)

# NFSv3 and MOUNT v3 (tools/ulb/nfs3_*.c: XDR, the computed tree, the
# read-only responder of rpcrdma-conform --requester), like the ECHO ULB
NFS3_ULB_SRCS := tools/ulb/nfs3_xdr.c tools/ulb/nfs3_tree.c tools/ulb/nfs3_serve.c
NFS3_ULB_HDRS := $(NFS3_ULB_SRCS:.c=.h) tools/common/xdrcur.h tools/common/be.h
$(BUILD)/unit/test_nfs3_xdr: tests/unit/test_nfs3_xdr.c $(NFS3_ULB_SRCS) $(NFS3_ULB_HDRS) $(UNIT_COMMON) $(UNIT_HDRS) $(CODEC_A) | $(BUILD)/unit/.dir
	$(CC) $(ALL_CFLAGS) $(CODEC_CPPFLAGS) -Itests/unit -Itools/ulb -Itools/common -o $@ $< $(NFS3_ULB_SRCS) $(UNIT_COMMON) $(CODEC_A)
$(BUILD)/asan/test_nfs3_xdr: tests/unit/test_nfs3_xdr.c $(NFS3_ULB_SRCS) $(NFS3_ULB_HDRS) $(unitasan_OBJS) $(UNIT_HDRS) $(CODEC_HDRS) | $(BUILD)/asan/.dir
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(CODEC_CPPFLAGS) -Ilibcodec/src -Itests/unit -Itools/ulb -Itools/common -o $@ $< $(NFS3_ULB_SRCS) $(unitasan_OBJS)

$(BUILD)/fuzz/fuzz_nfs3_serve: tests/fuzz/fuzz_nfs3_serve.c $(NFS3_ULB_SRCS) $(NFS3_ULB_HDRS) $(fuzzcodec_OBJS) $(CODEC_HDRS) | $(BUILD)/fuzz/.dir
	$(CLANG) $(STD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(CODEC_CPPFLAGS) -Ilibcodec/src -Itools/ulb -Itools/common -o $@ $< $(NFS3_ULB_SRCS) $(fuzzcodec_OBJS)

-include tests/transport/module.mk

# unit tests of the capture pipeline (tests/capunit): TCP reassembly, MPA
# framing, PSN windows, buffer budgets, the cursor, CRCs, time stamps;
# linked with every tools/capture source, plain and under ASan+UBSan
CAPUNIT_SRCS := $(sort $(wildcard tests/capunit/test_*.c))
CAPUNIT_COMMON := $(filter-out $(CAPUNIT_SRCS),$(wildcard tests/capunit/*.c)) tests/unit/tap.c
CAPUNIT_LIBSRCS = $(CODEC_SRCS) $(TOOLS_COMMON_SRCS) $(sort $(wildcard tools/capture/*.c))
CAPUNIT_BINS := $(patsubst tests/capunit/%.c,$(BUILD)/capunit/%,$(CAPUNIT_SRCS))
CAPUNIT_ASAN := $(patsubst tests/capunit/%.c,$(BUILD)/capunit-asan/%,$(CAPUNIT_SRCS))
CHECK_DEPS += $(CAPUNIT_BINS) $(CAPUNIT_ASAN)
# without tools/decode: the pipeline has its own options (struct cap_opts) and
# must build without the decode tool's headers (docs/architecture.md)
CAPUNIT_FLAGS = $(filter-out -Itools/decode,$(TOOLS_CPPFLAGS)) -Ilibcodec/src -Itests/unit -Itests/capunit
CAPUNIT_CC = $(CC) $(ALL_CFLAGS) $(CAPUNIT_FLAGS)
CAPUNIT_ASAN_CC = $(CC) $(STD) -O1 -g $(WARN) $(SAN_FLAGS) $(CAPUNIT_FLAGS)
$(eval $(call objset,capunit,$(CAPUNIT_COMMON) $(CAPUNIT_LIBSRCS),$$(CAPUNIT_CC),tests/capunit/capunit.h $$(TOOLS_HDRS) $$(CODEC_HDRS)))
$(eval $(call objset,capunitasan,$(CAPUNIT_COMMON) $(CAPUNIT_LIBSRCS),$$(CAPUNIT_ASAN_CC),tests/capunit/capunit.h $$(TOOLS_HDRS) $$(CODEC_HDRS)))
$(BUILD)/capunit/%: tests/capunit/%.c $(capunit_OBJS) tests/capunit/capunit.h $(TOOLS_HDRS) $(CODEC_HDRS) | $(BUILD)/capunit/.dir
	$(CAPUNIT_CC) -o $@ $< $(capunit_OBJS) -lpcap -lz -lm
$(BUILD)/capunit-asan/%: tests/capunit/%.c $(capunitasan_OBJS) tests/capunit/capunit.h $(TOOLS_HDRS) $(CODEC_HDRS) | $(BUILD)/capunit-asan/.dir
	$(CAPUNIT_ASAN_CC) -o $@ $< $(capunitasan_OBJS) -lpcap -lz -lm

# make mutate: the hand-written mutants of tests/mutate/ (tests/mutate/README),
# each planted alone in a copy of the tree ($(BUILD)/mutate); every one must
# make the suites it names fail.  MUTANTS="name ..." runs those alone.
.PHONY: mutate
mutate: all
	@BUILD=$(abspath $(BUILD)) tests/mutate/run.sh $(MUTANTS)
