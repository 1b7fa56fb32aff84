# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

"""Horizon's WSGI application with its static files served beside it.

Production Horizon leaves /static/ to Apache or nginx; this cloud has no web server in front of
gunicorn, so WhiteNoise serves the collected, offline-compressed files from the same workers.
"""

from django.conf import settings
from openstack_dashboard.wsgi import application as horizon_application
from whitenoise import WhiteNoise

application = WhiteNoise(horizon_application, root=settings.STATIC_ROOT,
                         prefix=settings.STATIC_URL)
