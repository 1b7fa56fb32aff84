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

"""Hiding secrets in what the dashboard shows: signal URLs, passwords, server metadata.

A TempURL is a bearer credential: whoever holds its signature may write the result. Server
metadata also carries the stack user's password for ZAQAR and HEAT signals. Shown values keep
their shape, so a user can still tell which container or endpoint is used.
"""

import re
from urllib import parse

MASK = '********'

# Keys whose whole value is a secret.
_SECRET_KEY = re.compile(r'(password|secret|token|private_key|signature)$', re.IGNORECASE)
# Query parameters that sign a URL: Swift TempURLs, Zaqar pre-signed URLs, AWS-style signing.
_SIGNING_PARAMS = {'temp_url_sig', 'signature', 'x-amz-signature', 'sig'}


def mask_url(url: str) -> str:
    """The URL with the values of its signing query parameters masked."""
    parts = parse.urlsplit(url)
    if not parts.query:
        return url
    query = [(key, MASK if key.lower() in _SIGNING_PARAMS else value)
             for key, value in parse.parse_qsl(parts.query, keep_blank_values=True)]
    # safe='*' keeps the mask readable instead of percent-encoded.
    return parts._replace(query=parse.urlencode(query, safe='*')).geturl()


def is_secret_name(key: str) -> bool:
    """Whether a value stored under this name is a secret as a whole."""
    return bool(_SECRET_KEY.search(key or ''))


def mask_value(key: str, value):
    """One value as it may be shown, knowing the name it is stored under."""
    if isinstance(value, str):
        if is_secret_name(key):
            return MASK if value else value
        if value.startswith(('http://', 'https://')):
            return mask_url(value)
    return mask_tree(value)


def mask_tree(data):
    """A copy of nested metadata (dicts, lists, Heat input lists) with secrets masked."""
    if isinstance(data, dict):
        # Heat's input lists hold {'name': ..., 'value': ...}: the name says what the value is.
        if 'name' in data and 'value' in data:
            return {**{k: mask_tree(v) for k, v in data.items() if k != 'value'},
                    'value': mask_value(str(data['name']), data['value'])}
        return {key: mask_value(str(key), value) for key, value in data.items()}
    if isinstance(data, list):
        return [mask_tree(each) for each in data]
    return data


def secrets_of(data, where=''):
    """[(where, value)] of each secret mask_tree masks, in the tree's order: where names it by
    the names that lead to it ("mysql-BACKUP: deploy_signal_id"), a Heat input or config by
    its 'name'."""
    if isinstance(data, dict):
        if 'name' in data and 'value' in data:
            return _secret(_joined(where, str(data['name'])), data['value'])
        inner = _joined(where, str(data['name'])) if isinstance(data.get('name'), str) \
            else where
        found = []
        for key, value in data.items():
            # A list (a config's inputs) is named by its items; a dict by its key.
            if isinstance(value, list):
                found += secrets_of(value, inner)
            elif isinstance(value, dict):
                found += secrets_of(value, _joined(inner, str(key)))
            elif key != 'name':
                found += _secret(_joined(inner, str(key)), value)
        return found
    if isinstance(data, list):
        return [each for value in data for each in secrets_of(value, where)]
    return []


def _secret(where, value):
    if isinstance(value, (dict, list)):
        return secrets_of(value, where)
    key = where.rsplit(': ', 1)[-1]
    return [(where, value)] if mask_value(key, value) != value else []


def _joined(where, name):
    return f'{where}: {name}' if where else name


# Shorter secrets are masked where they are kept, but not scrubbed from outputs: every "1" or
# "on" of a script's output would go with them.
SCRUBBED_LENGTH = 4


def secret_values(config) -> list[str]:
    """The values of a derived config's secrets (secrets_of) long enough to scrub, the
    longest first, so that a secret that holds another is scrubbed whole."""
    found = [str(value) for _where, value in secrets_of(config or {})]
    return sorted({value for value in found if len(value) >= SCRUBBED_LENGTH}, key=len,
                  reverse=True)


def scrubbed(data, secrets):
    """A copy of ``data`` (nested dicts, lists, text) with every one of ``secrets``
    (secret_values) in its text replaced by MASK: what a run's outputs may echo."""
    if isinstance(data, str):
        for secret in secrets:
            data = data.replace(secret, MASK)
        return data
    if isinstance(data, dict):
        return {key: scrubbed(value, secrets) for key, value in data.items()}
    if isinstance(data, list):
        return [scrubbed(value, secrets) for value in data]
    return data
