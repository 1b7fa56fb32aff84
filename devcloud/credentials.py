"""Fixed names and passwords of the local cloud: it listens on 127.0.0.1 only, for development."""

REGION = 'RegionOne'
ADMIN_PASSWORD = 'devcloud-admin'
SERVICE_PASSWORD = 'devcloud-service'
DB_USER = 'openstack'
DB_PASSWORD = 'devcloud-db'

DEMO_PROJECT = 'demo'
DEMO_USER = 'demo'
DEMO_PASSWORD = 'demo-password'

# A second project, so tests can show one project never sees another's data.
OTHER_PROJECT = 'other'
OTHER_USER = 'other'
OTHER_PASSWORD = 'other-password'

HEAT_DOMAIN = 'heat'
HEAT_DOMAIN_ADMIN = 'heat_domain_admin'
