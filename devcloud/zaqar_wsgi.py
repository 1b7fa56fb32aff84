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

"""Zaqar's WSGI application, configured from the file named on the command line.

Zaqar's own zaqar.transport.wsgi.app reads configuration only from default places (~/.zaqar,
/etc/zaqar); this is the same bootstrap with the local cloud's file, which the gunicorn
configuration passes in sys.argv as it does for every other service.
"""

import sys

from oslo_config import cfg
from oslo_log import log
from zaqar import bootstrap

CONF = cfg.CONF
log.register_options(CONF)
CONF(sys.argv[1:], project='zaqar', prog='zaqar-queues')
log.setup(CONF, 'zaqar')

application = bootstrap.Bootstrap(CONF).transport.app
