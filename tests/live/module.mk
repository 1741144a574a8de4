# tests/live/module.mk - the live RDMA test bed (a qemu guest with Soft-RoCE,
# soft-iWARP and the kernel's NFS/RDMA); included by the top-level Makefile.
# See tests/live/README.md.
#
#   make check-live      image (cached) + smoke tests over rxe and siw, as TAP,
#                        ending with "N passed, N failed[, N skipped]"
#   make live-image      build or reuse the cached guest image only
#   make live-captures   regenerate tests/captures/*.pcap in the guest
#                        (LIVE_SUITE=trixie: its *-6.12.pcap only)
#   make live-shell CMD='ibv_devices'   run one command in a fresh guest
#   make check-live-repeat N=5   the live suite N times: failures and retries
#                        per test (tests/live/repeat.sh)
#   make live-soak       rpcrdma-echo -s under 1000 connections in a loop, 200
#                        at once and a 10-minute soak (cases/soak.sh), per transport
#
# The image is cached in /var/cache/rpcrdma-tools/live/<key>/ (RPCRDMA_LIVE_CACHE).
# LIVE_SUITE=trixie (or RPCRDMA_LIVE_SUITE=trixie) makes and uses a Debian 13 guest
# instead of the default bookworm one (lib.sh; build-image-release.sh).  make check
# runs a subset of the cases on it (tests/suites/91-live-trixie.sh).

BUILD ?= build
BIN ?= $(BUILD)/bin
LIVE_DIR := tests/live

.PHONY: check-live check-live-repeat live-soak live-image live-captures live-shell

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

# N runs in a row (default 3), as check-live builds first
check-live-repeat: N ?= 3
check-live-repeat:
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) $(if $(DECODE_BIN),$(DECODE_BIN)) \
		$(LIVE_TOOL_BINS) $(LIVE_CHECK_DEPS) >/dev/null 2>&1 || echo "# make of the live tools failed: the runs use what is there"
	@BUILD=$(abspath $(BUILD)) BIN=$(abspath $(BIN)) bash $(LIVE_DIR)/repeat.sh $(N)

live-soak:
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) $(LIVE_TOOL_BINS) $(LIVE_CHECK_DEPS) >/dev/null 2>&1 || \
		echo "# make of the live tools failed: the soak uses what is there"
	@BUILD=$(abspath $(BUILD)) BIN=$(abspath $(BIN)) RPCRDMA_LIVE_CASES=soak RPCRDMA_LIVE_TIMEOUT=2400 \
		LIVE_SOAK_CONNS=$${LIVE_SOAK_CONNS:-1000} LIVE_SOAK_AT_ONCE=$${LIVE_SOAK_AT_ONCE:-200} \
		LIVE_SOAK_SECONDS=$${LIVE_SOAK_SECONDS:-600} bash $(LIVE_DIR)/smoke.sh

live-image:
	@bash -c '. $(LIVE_DIR)/lib.sh && exec bash "$$(live_image_builder)"'

live-captures:
	@BUILD=$(abspath $(BUILD)) bash $(LIVE_DIR)/make-captures.sh

live-shell:
	@bash $(LIVE_DIR)/run-guest.sh --share $(abspath $(BUILD)) -- bash -c $(call live_quote,$(CMD))

live_quote = '$(subst ','\'',$(1))'
