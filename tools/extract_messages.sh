#!/bin/sh
# Extract the sentences marked for translation into the message catalogue templates, the
# OpenStack way (Horizon's plugins, heat-dashboard's babel-*.cfg): make messages.
#
#   tools/extract_messages.sh [--no-location] [OUTPUT_DIR]
#
# django.pot: the plugin's Python and templates (babel-django.cfg), and the runner's
# gettext_noop sentences, which the dashboard translates when it shows them.
# djangojs.pot: the plugin's browser scripts (babel-djangojs.cfg), which Horizon's JavaScript
# catalog serves in the heat_deploy_dashboard domain.
# OUTPUT_DIR defaults to heat_deploy_dashboard/locale. Locations (#: file:line) are written as
# Horizon's catalogues carry them; --no-location leaves them out (tests/unit/
# test_pseudo_translation.py extracts so to compare).
set -eu

cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-.venv/bin/pybabel}
[ -x "$PYBABEL" ] || PYBABEL=pybabel

location=
if [ "${1:-}" = "--no-location" ]; then
    location=--no-location
    shift
fi
out=${1:-heat_deploy_dashboard/locale}
mkdir -p "$out"

# Horizon's keywords (on top of pybabel's own: _ gettext ngettext pgettext npgettext ...).
set -- -k gettext_noop -k gettext_lazy -k ngettext_lazy:1,2 -k pgettext_lazy:1c,2 \
    -k npgettext:1c,2,3 -k npgettext_lazy:1c,2,3 -k ugettext_noop -k ugettext_lazy \
    -k ungettext_lazy:1,2

extract() {
    domain=$1
    shift
    # shellcheck disable=SC2086
    "$PYBABEL" -q extract $location --sort-by-file -F "babel-$domain.cfg" \
        "$@" --add-comments=Translators: \
        --project=heat-deploy-dashboard --version="$version" \
        --copyright-holder="heat-deploy-dashboard's authors" \
        -o "$out/$domain.pot" $dirs
}

version=$(sed -n 's/^version *= *//p' setup.cfg)
dirs="heat_deploy_dashboard runner/heat_deploy_runner"
extract django "$@"
dirs=heat_deploy_dashboard
extract djangojs "$@"
