# rpcrdma-tools: top-level Makefile.  Components add themselves through the
# make fragments included below; see docs/architecture.md.
#
#   make            library, tools and (when Wireshark's headers are here) plugin
#   make deps       install what is missing (Debian 12, apt-get, as root)
#   make run        the main job on the bundled sample
#   make check      every test; ends with "N passed, N failed[, N skipped]"
#   make check-live the live RDMA suite in a qemu guest (tests/live)
#   make fuzz       libFuzzer targets, FUZZ_SECONDS each (default 60), or
#                   FUZZ_RUNS inputs each; FUZZ_JOBS processes a target,
#                   FUZZ_ONLY="fuzz_x ...", FUZZ_MAX_LEN, FUZZ_CORPUS=DIR
#   make bench      performance tables (never part of check)
#   make bench-live RPC-over-RDMA against perftest and the kernel in the guest (tools/bench)
#   make install    PREFIX=/usr/local DESTDIR=

.DEFAULT_GOAL := all
include mk/config.mk
include libcodec/module.mk
-include tools/module.mk
include tests/module.mk
-include tests/capgen/module.mk
-include dissector/module.mk
-include tests/live/module.mk

.PHONY: all deps run check check-build fuzz bench install clean
all: $(ALL_TARGETS)

deps:
	@scripts/deps.sh

run: all
	@scripts/run-default.sh

check: all $(CHECK_DEPS)
	@BUILD=$(abspath $(BUILD)) tests/run-all.sh

# the matrix beyond make check (issue 24): the suites in tests/matrix/, against
# Debian unstable's Wireshark (4.6) in its build root, the packages built and
# installed on all three releases, and the live suite in a Debian unstable guest
# (92-live-sid: its kernel, 7.2 on 2026-11-28, rxe and siw; tests/live/README.md);
# unstable moves daily, so it stays out of make check and .ci/run
.PHONY: check-matrix
check-matrix: all $(CHECK_DEPS)
	@BUILD=$(abspath $(BUILD)) RPCRDMA_SUITES_DIR=$(abspath tests/matrix) tests/run-all.sh

# Debian packages (debian/, dpkg-buildpackage -b, lintian): on the host, or
# DEB_RELEASE=trixie|sid inside that release's build root; into $(BUILD)/deb/
.PHONY: deb
deb:
	@BUILD=$(abspath $(BUILD)) scripts/buildroot-deb.sh $(DEB_RELEASE)

# what make check builds, without running it (RPCRDMA_CHECK_ONLY=... and
# tests/run-all.sh after it: a few suites on a tree built for all of them)
check-build: all $(CHECK_DEPS)

fuzz: $(FUZZ_TARGETS)
	@BUILD=$(abspath $(BUILD)) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) \
		$(if $(FUZZ_CORPUS),FUZZ_CORPUS=$(abspath $(FUZZ_CORPUS))) \
		tests/fuzz/run.sh $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),$(FUZZ_SECONDS)) $(FUZZ_ONLY)

bench: all $(BENCH_DEPS)
	@BUILD=$(abspath $(BUILD)) scripts/bench.sh

install: all $(INSTALL_TARGETS)

clean:
	rm -rf $(BUILD)
