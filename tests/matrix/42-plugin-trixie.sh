#!/usr/bin/env bash
# 42-plugin-trixie: tests/suites/40-plugin.sh against Wireshark 4.4 (Debian 13 trixie)'s tshark, the plugin built in that release's build root (tests/plugin/release.sh).
exec "$TOP/tests/plugin/release.sh" trixie 40-plugin
