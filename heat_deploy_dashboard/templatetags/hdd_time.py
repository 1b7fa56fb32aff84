"""{{ value|since }}: a moment as every page of the plugin shows it (content/times.py)."""

from django import template

from heat_deploy_dashboard.content import times

register = template.Library()
register.filter('since', times.since)
