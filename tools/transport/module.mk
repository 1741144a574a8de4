# tools/transport: the RPC-over-RDMA transport on rdma-core, as a static
# library every live tool links (build/lib/libxprt.a), with the ULBs of
# tools/ulb.  The verbs are behind struct xprt_verbs (xprt_verbs.h), so the
# unit tests link the same library with an in-process fake instead of
# rdma-core's providers.
XPRT_SRCS := $(sort $(wildcard tools/transport/*.c tools/ulb/*.c))
XPRT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(XPRT_SRCS))
XPRT_A := $(LIBDIR_B)/libxprt.a
XPRT_LIBS := -lrdmacm -libverbs
ALL_TARGETS += $(XPRT_A)

$(XPRT_A): $(XPRT_OBJS) | $(LIBDIR_B)/.dir
	rm -f $@ && ar rcs $@ $^

# $(call live_tool,NAME,DIR): $(BIN)/NAME from tools/DIR/*.c over the
# transport, tools/common and libcodec; installed with its man page and
# completion by install-tools (man/ and completion/ are installed whole).
define live_tool
$(1)_OBJS := $$(patsubst %.c,$$(BUILD)/obj/%.o,$$(sort $$(wildcard tools/$(2)/*.c)) $$(TOOLS_COMMON_SRCS))
$(1)_BIN := $$(BIN)/$(1)
ALL_TARGETS += $$($(1)_BIN)
LIVE_TOOL_BINS += $$($(1)_BIN)
$$($(1)_BIN): $$($(1)_OBJS) $$(XPRT_A) $$(CODEC_A) | $$(BIN)/.dir
	$$(CC) $$(LDFLAGS) -o $$@ $$($(1)_OBJS) $$(XPRT_A) $$(CODEC_A) $$(XPRT_LIBS) -lm
endef
