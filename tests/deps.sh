#!/bin/sh
# Installs the Debian packages named as arguments that are not installed yet.
# As root: one apt-get update and install.  Not root: prints the one
# `apt-get install` line that would do it, and fails.
missing=""
for p in "$@"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "matrix: missing Debian packages; run as root:" >&2
	echo "  apt-get install -y$missing" >&2
	exit 1
fi
echo "matrix: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq --no-install-recommends$missing >/dev/null || {
	echo "matrix: apt-get install$missing failed" >&2
	exit 1
}
