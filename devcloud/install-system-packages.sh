#!/bin/sh
# The Debian packages of bindep.txt (the local cloud's and the browser tests'), those missing
# installed with apt. --list prints them, one per line, and installs nothing.
set -eu
cd "$(dirname "$0")/.."
# bindep.txt's dpkg lines: the package, then its profiles in brackets.
PACKAGES=$(sed -e 's/#.*//' bindep.txt | awk 'NF && /platform:dpkg/ {print $1}')
if [ "${1:-}" = "--list" ]; then
    printf '%s\n' $PACKAGES
    exit 0
fi
missing=""
for package in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
echo "Installing system packages:$missing"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $missing
