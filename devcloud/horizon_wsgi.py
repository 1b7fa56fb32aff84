"""Horizon's WSGI application with its static files served beside it.

Production Horizon leaves /static/ to Apache or nginx; this cloud has no web server in front of
gunicorn, so WhiteNoise serves the collected, offline-compressed files from the same workers.
"""

from django.conf import settings
from openstack_dashboard.wsgi import application as horizon_application
from whitenoise import WhiteNoise

application = WhiteNoise(horizon_application, root=settings.STATIC_ROOT,
                         prefix=settings.STATIC_URL)
