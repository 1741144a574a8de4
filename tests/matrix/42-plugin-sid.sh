#!/usr/bin/env bash
# 42-plugin-sid: tests/suites/40-plugin.sh against Wireshark 4.6 (Debian unstable, sid)'s tshark, the plugin built in that release's build root (tests/plugin/release.sh); make check-matrix.
exec "$TOP/tests/plugin/release.sh" sid 40-plugin
