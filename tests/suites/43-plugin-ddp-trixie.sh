#!/usr/bin/env bash
# 43-plugin-ddp-trixie: tests/suites/41-plugin-ddp.sh against Wireshark 4.4 (Debian 13 trixie)'s tshark, the plugin built in that release's build root (tests/plugin/release.sh); in make check (42-plugin-trixie.sh says its cost).
exec "$TOP/tests/plugin/release.sh" trixie 41-plugin-ddp
