# tests/live/module.mk - the live RDMA test bed (a qemu guest with Soft-RoCE,
# soft-iWARP and the kernel's NFS/RDMA); included by the top-level Makefile.
# See tests/live/README.md.
#
#   make check-live      image (cached) + smoke tests over rxe and siw, as TAP,
#                        ending with "N passed, N failed[, N skipped]"
#   make live-image      build or reuse the cached guest image only
#   make live-captures   regenerate tests/captures/*.pcap in the guest
#   make live-shell CMD='ibv_devices'   run one command in a fresh guest
#
# The image is cached in /var/cache/rpcrdma-tools/live/<key>/ (RPCRDMA_LIVE_CACHE).

BUILD ?= build
BIN ?= $(BUILD)/bin
LIVE_DIR := tests/live

.PHONY: check-live live-image live-captures live-shell

# rpcrdma-decode is brought up to date when the tools fragment defines it; if it
# does not build, the live suite still runs and its decode tests say why.  So
# are the live tools (LIVE_TOOL_BINS) and what their live tests need besides
# (LIVE_CHECK_DEPS: the ASan build of rpcrdma-echo, its raw client).
check-live:
	@$(if $(DECODE_BIN),$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) $(DECODE_BIN) \
		>/dev/null 2>&1 || echo "# make $(DECODE_BIN) failed: the decode agreement tests use what is there";)
	@$(if $(strip $(LIVE_TOOL_BINS) $(LIVE_CHECK_DEPS)),$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) \
		$(LIVE_TOOL_BINS) $(LIVE_CHECK_DEPS) >/dev/null 2>&1 || echo "# make of the live tools failed: their live tests use what is there";)
	@BUILD=$(abspath $(BUILD)) BIN=$(abspath $(BIN)) bash $(LIVE_DIR)/smoke.sh

live-image:
	@bash $(LIVE_DIR)/build-image.sh

live-captures:
	@BUILD=$(abspath $(BUILD)) bash $(LIVE_DIR)/make-captures.sh

live-shell:
	@bash $(LIVE_DIR)/run-guest.sh --share $(abspath $(BUILD)) -- bash -c $(call live_quote,$(CMD))

live_quote = '$(subst ','\'',$(1))'
