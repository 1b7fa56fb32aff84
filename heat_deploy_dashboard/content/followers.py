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

"""Following an operation to its end with no page open: a Mistral execution of its id
(heat_deploy_runner.following.followers), made right after its runs start (api.deploy.start_runs),
or the rolling execution that runs it in batches.

What a notice tells beyond the runs goes with it: the servers' names, and the address of the
operation's page on this dashboard, so that a notice links back to it.
"""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from heat_deploy_dashboard.content import server_names

# Stands for the operation's id in the link a notice carries (notices.notice fills it in).
OPERATION = '{operation}'
_SAMPLE_ID = '00000000-0000-0000-0000-000000000000'

NOT_FOLLOWED = _("The workflow service did not take this operation to follow: its runs' "
                 "time-outs and Zaqar results are recorded only while its page is open, and "
                 "no notice is sent.")


def operation_link(request):
    """The absolute address of an operation's page, OPERATION in place of its id."""
    url = reverse('horizon:project:deployments:operation', args=[_SAMPLE_ID])
    return request.build_absolute_uri(url).replace(_SAMPLE_ID, OPERATION)


def notice_context(request, server_ids):
    """{server_names, link}: what a follower or rolling run needs to word its notices."""
    names = server_names.names(request)
    return {'server_names': {each: names[each] for each in server_ids if each in names},
            'link': operation_link(request)}
