# dissector: the Wireshark plugin rpcrdma.so, built only when pkg-config
# finds wireshark; libcodec's -fPIC objects are linked in statically.
ifeq ($(shell pkg-config --exists wireshark 2>/dev/null && echo yes),yes)
WS_CFLAGS := $(shell pkg-config --cflags wireshark)
WS_LIBS := $(shell pkg-config --libs wireshark)
WS_PLUGINDIR := $(shell pkg-config --variable=plugindir wireshark)
# the build tree mirrors <plugindir>: plugins/<major.minor>/epan/
WS_RELEASE := $(notdir $(WS_PLUGINDIR))
PLUGIN_SRCS := $(sort $(wildcard dissector/*.c))
PLUGIN_HDRS := $(wildcard dissector/*.h)
PLUGIN_OBJS := $(patsubst dissector/%.c,$(BUILD)/dissector/%.o,$(PLUGIN_SRCS))
PLUGIN_SO := $(BUILD)/plugins/$(WS_RELEASE)/epan/rpcrdma.so
# Wireshark's headers want GNU C (gnu11); -Wstrict-prototypes and
# -Wmissing-prototypes stay on for our code.  Wireshark headers trigger
# none of our warnings with gcc 12 / clang 14.
PLUGIN_CFLAGS := -std=gnu11 $(OPT) $(WARN) -fPIC -fvisibility=hidden $(CFLAGS) \
	-DRPCRDMA_PLUGIN_VERSION='"$(CODEC_VERSION)"'

# the same plugin under ASan+UBSan for the robustness test (tshark runs it
# with libasan preloaded); libcodec's sources are compiled in directly
PLUGIN_ASAN_SO := $(BUILD)/plugin-asan/$(WS_RELEASE)/epan/rpcrdma.so
# gcc's runtime is the one the test preloads (cc -print-file-name=libasan.so)
PLUGIN_ASAN_CC := $(shell command -v gcc 2>/dev/null || echo $(CC))

ALL_TARGETS += $(PLUGIN_SO)
CHECK_DEPS += $(PLUGIN_SO) $(PLUGIN_ASAN_SO) $(BUILD)/plugin-test/mkpcap
INSTALL_TARGETS += install-plugin

$(BUILD)/dissector/%.o: dissector/%.c $(PLUGIN_HDRS) $(CODEC_HDRS) | $(BUILD)/dissector/.dir
	$(CC) $(PLUGIN_CFLAGS) $(CODEC_CPPFLAGS) -Idissector $(WS_CFLAGS) $(CPPFLAGS) -c -o $@ $<

$(PLUGIN_SO): $(PLUGIN_OBJS) $(CODEC_OBJS) dissector/exports.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,--version-script=dissector/exports.map -Wl,-z,defs \
		$(LDFLAGS) -o $@ $(PLUGIN_OBJS) $(CODEC_OBJS) $(WS_LIBS)
	chmod 755 $@

$(PLUGIN_ASAN_SO): $(PLUGIN_SRCS) $(PLUGIN_HDRS) $(CODEC_SRCS) $(CODEC_HDRS) dissector/exports.map
	@mkdir -p $(@D)
	$(PLUGIN_ASAN_CC) -std=gnu11 -O1 -g $(WARN) -fPIC -fvisibility=hidden $(SAN_FLAGS) -shared \
		$(CODEC_CPPFLAGS) -Ilibcodec/src -Idissector $(WS_CFLAGS) \
		-Wl,--version-script=dissector/exports.map -Wl,-z,defs -o $@ \
		$(PLUGIN_SRCS) $(CODEC_SRCS) $(WS_LIBS)

# fixture writer for the plugin tests (RoCEv2 frames around rpcrdma_encode)
MKPCAP_SRCS := $(sort $(wildcard tests/plugin/*.c))
$(BUILD)/plugin-test/mkpcap: $(MKPCAP_SRCS) tests/plugin/roce.h $(CODEC_A) | $(BUILD)/plugin-test/.dir
	$(CC) $(ALL_CFLAGS) $(CODEC_CPPFLAGS) -o $@ $(MKPCAP_SRCS) $(CODEC_A)

# the plugin alone (and its ASan+UBSan twin): what the build roots of other
# Debian releases build (tests/suites/42-plugin-trixie.sh, scripts/buildroot.sh)
.PHONY: plugin
plugin: $(PLUGIN_SO) $(PLUGIN_ASAN_SO)

.PHONY: install-plugin uninstall-plugin
# the plugin alone, into the system's folder: the way that works as root
# (Wireshark run as root ignores WIRESHARK_PLUGIN_DIR and personal folders)
install-plugin: $(PLUGIN_SO)
	install -d $(DESTDIR)$(WS_PLUGINDIR)/epan
	install -m 755 $(PLUGIN_SO) $(DESTDIR)$(WS_PLUGINDIR)/epan/
uninstall-plugin:
	rm -f $(DESTDIR)$(WS_PLUGINDIR)/epan/rpcrdma.so
endif
