#!/bin/sh
# Debian packages the local cloud and the browser tests need; installs only what is missing.
set -eu
PACKAGES="postgresql rabbitmq-server memcached redis-server chromium chromium-driver"
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
