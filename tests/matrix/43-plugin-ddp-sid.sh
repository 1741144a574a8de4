#!/usr/bin/env bash
# 43-plugin-ddp-sid: tests/suites/41-plugin-ddp.sh against Wireshark 4.6 (Debian unstable, sid)'s tshark, the plugin built in that release's build root (tests/plugin/release.sh); make check-matrix.
exec "$TOP/tests/plugin/release.sh" sid 41-plugin-ddp
