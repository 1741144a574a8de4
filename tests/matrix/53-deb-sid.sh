#!/usr/bin/env bash
# 53-deb-sid: the Debian packages on sid: built (dpkg-buildpackage -b, lintian without error), installed with apt into a clean sid build root, used there (tests/deb/release.sh).
exec "$TOP/tests/deb/release.sh" sid
