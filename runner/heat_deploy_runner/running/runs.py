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

"""What one run (a deployment and its derived config) looks like to a person: the inputs it
used, its duration, its outputs. Pure, shared by every page that shows runs."""

import datetime
import json

from heat_deploy_runner.configs import derived
from heat_deploy_runner.configs import inputs
from heat_deploy_runner import masking
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.times import parse_time

# Inputs Heat or a trigger adds to tell the server how to run and report; not the run's inputs.
_DEPLOY_INPUT_PREFIX = 'deploy_'
# Keys Heat always puts in output_values, besides the config's declared outputs.
STANDARD_OUTPUTS = ('deploy_stdout', 'deploy_stderr', 'deploy_status_code')
# Beyond this many characters an output shows its end only (errors are at the end), with the
# whole text downloadable.
DISPLAY_LIMIT = 100 * 1024
# A run's summary shows this many last lines of each output.
TAIL_LINES = 20


def duration(run, now: datetime.datetime | None = None) -> datetime.timedelta | None:
    """How long the run (a Run) took, or has been running. None when Heat gave no times.

    Heat has no end time: a finished run's last update is when its result was applied.
    """
    started = parse_time(run.creation_time)
    if started is None:
        return None
    if run.status == 'IN_PROGRESS':
        ended = now or datetime.datetime.now(datetime.timezone.utc)
    else:
        ended = parse_time(run.updated_time) or started
    return max(ended - started, datetime.timedelta(0))


# How long, in the three sizes format_duration writes; marked for the dashboard, which
# translates them (content/times.duration; elapsed.js counts on in the same words).
# Translators: a duration, as 1h 02m 03s (hours, minutes, seconds).
HOURS = gettext_noop('%(hours)sh %(minutes)sm %(seconds)ss')
# Translators: a duration, as 2m 05s (minutes, seconds).
MINUTES = gettext_noop('%(minutes)sm %(seconds)ss')
# Translators: a duration, as 4s (seconds).
SECONDS = gettext_noop('%(seconds)ss')


def format_duration(delta: datetime.timedelta | None, translate=str) -> str:
    """'1h 02m 03s', '2m 05s', '4s' (each format through ``translate``); '' when unknown."""
    if delta is None:
        return ''
    seconds = int(delta.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return translate(HOURS) % {'hours': hours, 'minutes': f'{minutes:02d}',
                                   'seconds': f'{seconds:02d}'}
    if minutes:
        return translate(MINUTES) % {'minutes': minutes, 'seconds': f'{seconds:02d}'}
    return translate(SECONDS) % {'seconds': seconds}


def display_text(input_type: str | None, value) -> str:
    """A value on one line, as a person reads it: lists of a CommaDelimitedList comma-separated,
    other lists and JSON as JSON, booleans as true/false."""
    if isinstance(value, (dict, list)) and input_type != inputs.COMMA_DELIMITED_LIST:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return inputs.as_text(input_type, value) or ''


def run_inputs(config) -> list[dict]:
    """The inputs this run used (name, type, value as text), secrets masked."""
    return [{'name': each['name'], 'type': each.get('type', 'String'),
             'value': display_text(each.get('type'),
                                   masking.mask_value(each['name'], each.get('value')))}
            for each in derived.as_dict(config).get('inputs') or []
            if not each['name'].startswith(_DEPLOY_INPUT_PREFIX)]


def rerun_inputs(config) -> dict:
    """{name: text as typed in a form} of the inputs a past run used, to run it again.

    Secrets are left out: they would travel in a URL, so the user types them again.
    """
    return {each['name']: inputs.as_text(each.get('type'), each.get('value'))
            for each in derived.as_dict(config).get('inputs') or []
            if not each['name'].startswith(_DEPLOY_INPUT_PREFIX)
            and not masking.is_secret_name(each['name'])
            and each.get('value') is not None}


def signal_details(config) -> dict:
    """The run's signal transport and target, secrets masked, for display.

    ``target`` says where the server sends its result: the TempURL, the URL a Zaqar
    pre-signed POST goes to, or the queue of Heat's own ZAQAR_SIGNAL.
    """
    values = derived.derived_input_values(config)
    shown = {name: masking.mask_value(name, value) for name, value in values.items()
             if name.startswith(('deploy_signal', 'deploy_zaqar_'))
             or name == 'deploy_queue_id'}
    if shown.get('deploy_signal_id'):
        shown['target'] = shown['deploy_signal_id']
    elif shown.get('deploy_zaqar_endpoint'):
        shown['target'] = (shown['deploy_zaqar_endpoint'].rstrip('/')
                           + (shown.get('deploy_zaqar_paths') or ''))
    elif shown.get('deploy_queue_id'):
        shown['target'] = shown['deploy_queue_id']
    return shown


def exit_code(run):
    """The status code the server reported for the run, None before it reported one."""
    return run.output_values.get('deploy_status_code')


def output_text(value) -> str:
    if value is None:
        return ''
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, sort_keys=True)


def outputs(run) -> list[dict]:
    """The run's outputs in display order: stdout, stderr, the declared outputs, then any
    other value the server sent (as `openstack software deployment output show --all` lists
    every one).

    Each is {name, text (its last DISPLAY_LIMIT characters), truncated, first_line (the
    number of text's first line in the whole output), size (in characters), size_kb, tail
    (its last TAIL_LINES lines), tail_cut (whether the tail leaves lines out), error_output,
    description}.
    """
    values = run.output_values
    declared = [o for o in (run.config or {}).get('outputs') or []
                if o.get('name') not in STANDARD_OUTPUTS]
    named = set(STANDARD_OUTPUTS).union(o.get('name') for o in declared)
    shown = ([{'name': name} for name in STANDARD_OUTPUTS[:2]] + declared
             + [{'name': name} for name in sorted(values) if name not in named])
    result = []
    for output in shown:
        text = output_text(values.get(output['name']))
        lines = text.rstrip('\n').split('\n')
        result.append({
            'name': output['name'],
            'text': text[-DISPLAY_LIMIT:],
            'truncated': len(text) > DISPLAY_LIMIT,
            'first_line': text[:-DISPLAY_LIMIT].count('\n') + 1 if len(text) > DISPLAY_LIMIT
            else 1,
            'size': len(text),
            'size_kb': -(-len(text) // 1024),
            'tail': '\n'.join(lines[-TAIL_LINES:]),
            'tail_cut': len(lines) > TAIL_LINES,
            'error_output': bool(output.get('error_output')),
            'description': output.get('description') or '',
        })
    return result
