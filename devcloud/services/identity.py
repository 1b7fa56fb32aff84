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

"""Projects, users, roles, the Heat stack-user domain and the service catalog."""

from keystoneauth1.identity import v3
from keystoneauth1 import session as ks_session
from keystoneclient.v3 import client as ks_client

from devcloud import credentials

SERVICE_ROLES = ('service', 'member', 'reader', 'heat_stack_owner', 'heat_stack_user',
                 'swiftoperator')
PROJECT_MEMBER_ROLES = ('member', 'reader', 'heat_stack_owner', 'swiftoperator')


def admin_session(layout):
    auth = v3.Password(auth_url=layout.keystone_url, username='admin',
                       password=credentials.ADMIN_PASSWORD, project_name='admin',
                       user_domain_id='default', project_domain_id='default')
    return ks_session.Session(auth=auth, timeout=30)


def user_session(layout, username=credentials.DEMO_USER, password=credentials.DEMO_PASSWORD,
                 project=credentials.DEMO_PROJECT):
    auth = v3.Password(auth_url=layout.keystone_url, username=username, password=password,
                       project_name=project, user_domain_id='default',
                       project_domain_id='default')
    return ks_session.Session(auth=auth, timeout=30)


def cli_environment(layout, username=credentials.DEMO_USER,
                    password=credentials.DEMO_PASSWORD, project=credentials.DEMO_PROJECT):
    """The OS_* variables the `openstack` command line logs in with, as this user."""
    return {'OS_AUTH_URL': layout.keystone_url, 'OS_USERNAME': username,
            'OS_PASSWORD': password, 'OS_PROJECT_NAME': project,
            'OS_USER_DOMAIN_ID': 'default', 'OS_PROJECT_DOMAIN_ID': 'default',
            'OS_REGION_NAME': credentials.REGION, 'OS_IDENTITY_API_VERSION': '3'}


class _Ensure:
    """Idempotent creation, so a warm restart and a first start run the same code."""

    def __init__(self, client):
        self.ks = client

    def role(self, name):
        found = self.ks.roles.list(name=name)
        return found[0] if found else self.ks.roles.create(name)

    def domain(self, name):
        found = self.ks.domains.list(name=name)
        return found[0] if found else self.ks.domains.create(name)

    def project(self, name, domain='default'):
        found = self.ks.projects.list(name=name, domain=domain)
        return found[0] if found else self.ks.projects.create(name, domain)

    def user(self, name, password, domain='default', project=None):
        found = self.ks.users.list(name=name, domain=domain)
        if found:
            return found[0]
        return self.ks.users.create(name, domain=domain, password=password,
                                    default_project=project)

    def grant(self, role, user, project=None, domain=None):
        self.ks.roles.grant(self.role(role), user=user, project=project, domain=domain)

    def endpoint(self, name, service_type, url, region):
        services = self.ks.services.list(type=service_type)
        service = services[0] if services else self.ks.services.create(name, service_type)
        for interface in ('public', 'internal', 'admin'):
            if not self.ks.endpoints.list(service=service, interface=interface):
                self.ks.endpoints.create(service, url, interface=interface, region=region)


def ensure_identity(layout):
    ensure = _Ensure(ks_client.Client(session=admin_session(layout)))
    for role in SERVICE_ROLES:
        ensure.role(role)
    service = ensure.project('service')
    for name in ('heat', 'swift', 'zaqar', 'mistral'):
        user = ensure.user(name, credentials.SERVICE_PASSWORD, project=service)
        ensure.grant('admin', user, project=service)
        ensure.grant('service', user, project=service)

    heat_domain = ensure.domain(credentials.HEAT_DOMAIN)
    domain_admin = ensure.user(credentials.HEAT_DOMAIN_ADMIN, credentials.SERVICE_PASSWORD,
                               domain=heat_domain)
    ensure.grant('admin', domain_admin, domain=heat_domain)

    for project_name, user_name, password in (
            (credentials.DEMO_PROJECT, credentials.DEMO_USER, credentials.DEMO_PASSWORD),
            (credentials.OTHER_PROJECT, credentials.OTHER_USER, credentials.OTHER_PASSWORD)):
        project = ensure.project(project_name)
        user = ensure.user(user_name, password, project=project)
        for role in PROJECT_MEMBER_ROLES:
            ensure.grant(role, user, project=project)

    ensure.endpoint('heat', 'orchestration',
                    layout.url('heat_api', '/v1/%(tenant_id)s'), credentials.REGION)
    ensure.endpoint('swift', 'object-store',
                    layout.url('swift_proxy', '/v1/AUTH_%(tenant_id)s'), credentials.REGION)
    ensure.endpoint('zaqar', 'messaging', layout.url('zaqar'), credentials.REGION)
    ensure.endpoint('mistral', 'workflowv2', layout.url('mistral', '/v2'), credentials.REGION)
