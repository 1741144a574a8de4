#!/usr/bin/env bash
# deps.sh: install, with apt-get, the Debian 12 packages rpcrdma-tools needs
# to build, run and test.  Idempotent and quick when everything is present:
# only missing packages are installed, and the package lists are refreshed
# only when something must be installed.  Run as root (or with sudo).
#   scripts/deps.sh            everything (build, tools, plugin, tests)
#   scripts/deps.sh --list     print the package list and exit
set -eu

packages=(
	# build
	make gcc libc6-dev pkg-config clang libclang-rt-14-dev
	libpcap-dev zlib1g-dev libibverbs-dev librdmacm-dev
	# Wireshark plugin and the tshark oracle
	libwireshark-dev libglib2.0-dev tshark wireshark-common
	# build roots of other Debian releases (scripts/buildroot.sh: the plugin
	# against their Wireshark, the packages installed there); make deb
	debootstrap debhelper dpkg-dev fakeroot lintian
	# tests
	bats bats-assert bats-support jq xxd python3 man-db groff-base
	# rpcrdma-stat --prom is checked with promtool check metrics
	prometheus
	# make bench; rpcrdma-bench --plot
	valgrind time gnuplot-nox
)

if [ "${1:-}" = --list ]; then
	printf '%s\n' "${packages[@]}"
	exit 0
fi

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#packages[@]} packages present"
	exit 0
fi

sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "deps: run as root to install: ${missing[*]}" >&2; exit 1; }
	sudo=sudo
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
