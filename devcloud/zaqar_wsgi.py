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
