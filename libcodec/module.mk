# libcodec: librpcrdma, static and shared (soname librpcrdma.so.0)
CODEC_VERSION := 0.1.0
CODEC_SOMAJOR := 0
CODEC_SRCS := $(sort $(wildcard libcodec/src/*.c))
CODEC_HDRS := $(wildcard libcodec/include/rpcrdma/*.h) $(wildcard libcodec/src/*.h)
CODEC_OBJS := $(patsubst libcodec/src/%.c,$(BUILD)/codec/%.o,$(CODEC_SRCS))
CODEC_CPPFLAGS := -Ilibcodec/include
CODEC_A := $(LIBDIR_B)/librpcrdma.a
CODEC_SO := $(LIBDIR_B)/librpcrdma.so.$(CODEC_VERSION)
CODEC_PC := $(LIBDIR_B)/librpcrdma.pc

ALL_TARGETS += $(CODEC_A) $(CODEC_SO) $(CODEC_PC)

$(BUILD)/codec/%.o: libcodec/src/%.c $(CODEC_HDRS) | $(BUILD)/codec/.dir
	$(CC) $(ALL_CFLAGS) -fPIC -fno-semantic-interposition $(CODEC_CPPFLAGS) $(CPPFLAGS) -c -o $@ $<

$(CODEC_A): $(CODEC_OBJS) | $(LIBDIR_B)/.dir
	rm -f $@ && ar rcs $@ $^

# only the public API is exported (libcodec/librpcrdma.map, docs/abi.md)
CODEC_MAP := libcodec/librpcrdma.map
$(CODEC_SO): $(CODEC_OBJS) $(CODEC_MAP) | $(LIBDIR_B)/.dir
	$(CC) -shared -Wl,-soname,librpcrdma.so.$(CODEC_SOMAJOR) -Wl,-z,defs \
		-Wl,--version-script=$(CODEC_MAP) $(LDFLAGS) -o $@ $(CODEC_OBJS)
	ln -sf librpcrdma.so.$(CODEC_VERSION) $(LIBDIR_B)/librpcrdma.so.$(CODEC_SOMAJOR)
	ln -sf librpcrdma.so.$(CODEC_SOMAJOR) $(LIBDIR_B)/librpcrdma.so

$(CODEC_PC): libcodec/librpcrdma.pc.in libcodec/module.mk | $(LIBDIR_B)/.dir
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(CODEC_VERSION)|' $< > $@

.PHONY: install-codec
INSTALL_TARGETS += install-codec
install-codec: $(CODEC_A) $(CODEC_SO) $(CODEC_PC)
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/rpcrdma $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 $(CODEC_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(CODEC_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf librpcrdma.so.$(CODEC_VERSION) $(DESTDIR)$(LIBDIR)/librpcrdma.so.$(CODEC_SOMAJOR)
	ln -sf librpcrdma.so.$(CODEC_SOMAJOR) $(DESTDIR)$(LIBDIR)/librpcrdma.so
	install -m 644 libcodec/include/rpcrdma/*.h $(DESTDIR)$(INCLUDEDIR)/rpcrdma/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(CODEC_VERSION)|' \
	    libcodec/librpcrdma.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/librpcrdma.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/librpcrdma.pc
