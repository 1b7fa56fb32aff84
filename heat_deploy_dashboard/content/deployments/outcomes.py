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

"""What an operation's page shows of the Mistral execution that follows it (a rolling run's, or
a follower's: heat_deploy_runner.following.followers) and of the outcome it recorded
(heat_deploy_runner.following.outcome), or that nothing follows it."""

from django.utils.translation import gettext_lazy as _

FOLLOWING = _("Followed by the workflow service (Mistral): it records each run's end, "
              "time-out and result in Heat with no page open, then the outcome.")
NOT_FOLLOWED = _("Nothing follows this operation while no page is open: its runs' time-outs "
                 "and Zaqar results are recorded while a page shows them, and no notice is "
                 "sent. (The workflow service, Mistral, follows operations where it is in "
                 "the catalog.)")
FOLLOW_STOPPED = _("The workflow service stopped following this operation before its end "
                   "(its execution %(id)s says why): pages record its runs' ends.")


def failed_rows(outcome, names):
    """[{server, status, exit_code, reason, tries}] of the servers the outcome tells failed."""
    return [{'server': names.get(each['server_id']) or each['server_id'],
             'status': each.get('status'), 'exit_code': each.get('exit_code'),
             'reason': each.get('reason') or '', 'tries': each.get('tries') or 1}
            for each in outcome.get('failed') or []]


def summary(operation, execution, names):
    """{following, note, outcome, ended_at, failed, refused, notified, notice_failed} for the
    page; ``operation`` the runner.Operation, ``execution`` its api.mistral.Execution or
    None."""
    if execution is None:
        return {'following': False,
                'note': NOT_FOLLOWED if not operation.followed else None}
    found = execution.outcome
    shown = {'following': execution.running, 'note': FOLLOWING if execution.running else None}
    if found is None:
        if not execution.running and not execution.rolling:
            # The workflow's own sentence, when it says why (its starter lost their role).
            stop = execution.output.get('stop')
            shown['note'] = (stop if isinstance(stop, str) and stop
                             else FOLLOW_STOPPED % {'id': execution.id})
        return shown
    shown.update({
        'outcome': found,
        'ended_at': found.get('ended_at'),
        'failed': failed_rows(found, names),
        'refused': [names.get(server) or server for server, _why in found.get('refused', [])],
        'notified': len(found.get('notified') or []),
        'notice_failed': bool(found.get('notice_failed')),
    })
    return shown
