#!/usr/bin/env bash
# 52-deb-bookworm (make check-matrix): the Debian packages on bookworm: built (dpkg-buildpackage -b, lintian without error), installed with apt into a clean bookworm build root, used there (tests/deb/release.sh).
exec "$TOP/tests/deb/release.sh" bookworm
