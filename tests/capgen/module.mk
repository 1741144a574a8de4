# tests/capgen: the test-capture generator (tests/capgen/SCENARIOS.md).
#   make captures   every scenario into $(BUILD)/captures/ (part of check)
#   make bench      adds $(BUILD)/bench/bench-1m.pcap (1,000,000 frames)
CAPGEN_SRCS := $(sort $(wildcard tests/capgen/*.c))
CAPGEN_HDRS := $(wildcard tests/capgen/*.h)
CAPGEN := $(BUILD)/capgen/capgen

$(CAPGEN): $(CAPGEN_SRCS) $(CAPGEN_HDRS) $(CODEC_A) | $(BUILD)/capgen/.dir
	$(CC) $(ALL_CFLAGS) $(CODEC_CPPFLAGS) $(CPPFLAGS) -o $@ $(CAPGEN_SRCS) $(CODEC_A) $(LDFLAGS)

.PHONY: captures
captures: $(BUILD)/captures/.stamp
$(BUILD)/captures/.stamp: $(CAPGEN) | $(BUILD)/captures/.dir
	$(CAPGEN) --all $(BUILD)/captures
	@touch $@

CHECK_DEPS += captures

BENCH_DEPS += $(BUILD)/bench/bench-1m.pcap
$(BUILD)/bench/bench-1m.pcap: $(CAPGEN) | $(BUILD)/bench/.dir
	$(CAPGEN) --bench $@ 1000000
