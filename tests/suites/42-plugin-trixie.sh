#!/usr/bin/env bash
# 42-plugin-trixie: tests/suites/40-plugin.sh against Wireshark 4.4 (Debian 13 trixie)'s tshark, the plugin built in that release's build root (tests/plugin/release.sh); in make check since stop 33 (cold: the root about 50 s, the plugin 5 s, the two suites about 130 s of wall time on 2 cores).
exec "$TOP/tests/plugin/release.sh" trixie 40-plugin
