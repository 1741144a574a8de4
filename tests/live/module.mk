# tests/live/module.mk - the live RDMA test bed (a qemu guest with Soft-RoCE,
# soft-iWARP and the kernel's NFS/RDMA); included by the top-level Makefile.
#
#   make check-live      image (cached) + smoke tests over rxe and siw, TAP
#   make live-image      build or reuse the cached guest image only
#   make live-captures   regenerate tests/captures/*.pcap in the guest
#   make live-shell CMD='...'   run one command in a fresh guest
#
# The image is cached in /var/cache/rpcrdma-tools/live/<key>/ (RPCRDMA_LIVE_CACHE).

BUILD ?= build
BIN ?= $(BUILD)/bin
LIVE_DIR := tests/live

.PHONY: check-live live-image live-captures live-shell

check-live:
	@BUILD=$(abspath $(BUILD)) BIN=$(abspath $(BIN)) bash $(LIVE_DIR)/smoke.sh

live-image:
	@bash $(LIVE_DIR)/build-image.sh

live-captures:
	@BUILD=$(abspath $(BUILD)) bash $(LIVE_DIR)/make-captures.sh

live-shell:
	@bash $(LIVE_DIR)/run-guest.sh --share $(abspath $(BUILD)) -- bash -c '$(CMD)'
