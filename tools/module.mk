# tools: rpcrdma-decode (hex and captures) here; every other tool and the
# transport add themselves with a tools/<dir>/module.mk of their own (included
# at the end).  Sources are globbed: add files, not rules.  tools/common is
# shared by every tool.
TOOLS_CPPFLAGS := $(CODEC_CPPFLAGS) -Itools/common -Itools/decode -Itools/capture \
	-Itools/transport -Itools/ulb \
	-DRPCRDMA_TOOLS_VERSION='"$(CODEC_VERSION)"'
# tools/common/live_xprt.c is the part of the live tools' shell that calls
# the transport (tools/common/live.h): linked by the live tools alone
TOOLS_LIVE_SRCS := tools/common/live_xprt.c
TOOLS_COMMON_SRCS := $(filter-out $(TOOLS_LIVE_SRCS),$(sort $(wildcard tools/common/*.c)))
TOOLS_HDRS := $(wildcard tools/*/*.h)
DECODE_SRCS := $(sort $(wildcard tools/decode/*.c tools/capture/*.c))
# The tools' test binaries (over the fake verbs, the sanitized tools): their
# sources compiled once per flavour (object sets, mk/config.mk), toolsunit
# plain and toolsasan under ASan+UBSan, with every tool's directory on the
# include path (no two headers of tools/ and tests/ share a name); each test
# links the objects it names: $(call os_objs,toolsasan,SOURCES)
TOOLS_T_CPPFLAGS = $(TOOLS_CPPFLAGS) $(patsubst %/,-I%,$(sort $(dir $(wildcard tools/*/*.h)))) \
	-Itests/unit $(FAKE_VERBS_CPPFLAGS) -Itests/conform
TOOLS_T_HDRS = $(TOOLS_HDRS) $(CODEC_HDRS) $(UNIT_HDRS) $(wildcard tests/transport/*.h tests/conform/*.h)
TOOLS_UNIT_CC = $(CC) $(ALL_CFLAGS) $(TOOLS_T_CPPFLAGS)
TOOLS_ASAN_CC = $(CC) $(STD) -O1 -g $(WARN) $(SAN_FLAGS) $(TOOLS_T_CPPFLAGS) -Ilibcodec/src
$(eval $(call objset,toolsunit,,$$(TOOLS_UNIT_CC),$$(TOOLS_T_HDRS)))
$(eval $(call objset,toolsasan,,$$(TOOLS_ASAN_CC),$$(TOOLS_T_HDRS)))
DECODE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOLS_COMMON_SRCS) $(DECODE_SRCS))
DECODE_BIN := $(BIN)/rpcrdma-decode
ALL_TARGETS += $(DECODE_BIN)

$(BUILD)/obj/%.o: %.c $(TOOLS_HDRS) $(CODEC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TOOLS_CPPFLAGS) $(CPPFLAGS) -c -o $@ $<

$(DECODE_BIN): $(DECODE_OBJS) $(CODEC_A) | $(BIN)/.dir
	$(CC) $(LDFLAGS) -o $@ $(DECODE_OBJS) $(CODEC_A) -lpcap -lz -lm

# $(call kernel_view_tool,NAME,DIR,UNIT,FUZZ[,FUZZ_FLAGS]): a tool of the
# kernel's own view (rpcrdma-stat, rpcrdma-trace: tools/stat/module.mk,
# tools/trace/module.mk): $(BIN)/NAME from tools/DIR/*.c over tools/common
# and libcodec, no transport, no libpcap; its parser (every file but main.c)
# under its unit test tests/kernel/UNIT.c, plain and under ASan+UBSan, and
# under its libFuzzer target tests/fuzz/FUZZ.c (built with FUZZ_FLAGS).
define kernel_view_tool
$(1)_SRCS := $$(sort $$(wildcard tools/$(2)/*.c))
$(1)_LIB_SRCS := $$(filter-out tools/$(2)/main.c,$$($(1)_SRCS)) $$(TOOLS_COMMON_SRCS)
$(1)_HDRS := $$(wildcard tools/$(2)/*.h)
$(1)_OBJS := $$(patsubst %.c,$$(BUILD)/obj/%.o,$$($(1)_SRCS) $$(TOOLS_COMMON_SRCS))
$(1)_BIN := $$(BIN)/$(1)
ALL_TARGETS += $$($(1)_BIN)
LIVE_TOOL_BINS += $$($(1)_BIN)
$$($(1)_BIN): $$($(1)_OBJS) $$(CODEC_A) | $$(BIN)/.dir
	$$(CC) $$(LDFLAGS) -o $$@ $$($(1)_OBJS) $$(CODEC_A) -lm

CHECK_DEPS += $$(BUILD)/kernel-unit/$(3) $$(BUILD)/kernel-asan/$(3)
$$(BUILD)/kernel-unit/$(3): $$(call os_objs,toolsunit,tests/kernel/$(3).c $$($(1)_LIB_SRCS) tests/unit/tap.c) \
		$$(CODEC_A) | $$(BUILD)/kernel-unit/.dir
	$$(TOOLS_UNIT_CC) -o $$@ $$^ -lm
$$(BUILD)/kernel-asan/$(3): $$(call os_objs,toolsasan,tests/kernel/$(3).c $$($(1)_LIB_SRCS) tests/unit/tap.c \
		$$(CODEC_SRCS)) | $$(BUILD)/kernel-asan/.dir
	$$(TOOLS_ASAN_CC) -o $$@ $$^ -lm
$$(BUILD)/fuzz/$(4): tests/fuzz/$(4).c $$($(1)_LIB_SRCS) $$($(1)_HDRS) $$(call os_objs,fuzzcodec,$$(CODEC_SRCS)) \
		| $$(BUILD)/fuzz/.dir
	$$(CLANG) $$(STD) -O1 -g $$(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(5) $$(TOOLS_CPPFLAGS) -Itools/$(2) -Ilibcodec/src -o $$@ $$< $$($(1)_LIB_SRCS) \
		$$(call os_objs,fuzzcodec,$$(CODEC_SRCS)) -lm
endef

# the transport and ULBs first (tools/transport/module.mk defines live_tool),
# then each live tool's own fragment
LIVE_TOOL_BINS :=
-include tools/transport/module.mk
-include $(filter-out tools/transport/module.mk,$(sort $(wildcard tools/*/module.mk)))

.PHONY: install-tools
INSTALL_TARGETS += install-tools
install-tools: $(DECODE_BIN) $(LIVE_TOOL_BINS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(DECODE_BIN) $(LIVE_TOOL_BINS) $(DESTDIR)$(BINDIR)/
	for m in man/*.1; do [ -e "$$m" ] && install -m 644 "$$m" $(DESTDIR)$(MANDIR)/man1/; done; true
	for c in completion/*; do [ -e "$$c" ] && install -m 644 "$$c" $(DESTDIR)$(COMPLETIONDIR)/; done; true

# rpcrdma-decode under ASan+UBSan, for the hostile-capture tests
# (tests/cli/crafted.bats) and capture.bats's robustness test; of the
# toolsasan objects, like the sanitized unit tests
DECODE_ASAN := $(BUILD)/asan/rpcrdma-decode
CHECK_DEPS += $(DECODE_ASAN)
$(DECODE_ASAN): $(call os_objs,toolsasan,$(TOOLS_COMMON_SRCS) $(DECODE_SRCS) $(CODEC_SRCS)) | $(BUILD)/asan/.dir
	$(TOOLS_ASAN_CC) -o $@ $^ -lpcap -lz -lm

# the same with every table small (docs/capture.md, "Bounded memory"), so
# that tests/cli/limits.bats fills each with a few frames
DECODE_SMALL := $(BUILD)/asan/rpcrdma-decode-small
CAP_SMALL_FLAGS := -DCAP_MAX_CONVS=16u -DCAP_MAX_CALLS=64u -DCAP_MAX_SEGS=64u \
	-DCAP_OOO_MAX=8u -DCAP_MAX_BUFFERED=262144u -DCAP_LAT_SAMPLES=64u
CHECK_DEPS += $(DECODE_SMALL)
$(DECODE_SMALL): $(TOOLS_COMMON_SRCS) $(DECODE_SRCS) $(CODEC_SRCS) $(TOOLS_HDRS) $(CODEC_HDRS) | $(BUILD)/asan/.dir
	$(CC) $(STD) -O1 -g $(WARN) $(SAN_FLAGS) $(CAP_SMALL_FLAGS) $(TOOLS_CPPFLAGS) \
		-Ilibcodec/src -o $@ $(TOOLS_COMMON_SRCS) $(DECODE_SRCS) $(CODEC_SRCS) -lpcap -lz -lm
