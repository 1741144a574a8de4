#!/usr/bin/env bash
# 53-deb-trixie (make check-matrix): the Debian packages on trixie: built (dpkg-buildpackage -b, lintian without error), installed with apt into a clean trixie build root, used there (tests/deb/release.sh).
exec "$TOP/tests/deb/release.sh" trixie
