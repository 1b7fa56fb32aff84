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

"""Swift URLs of an account: its storage URL, and PUT TempURLs of its objects."""

from urllib import parse

from swiftclient import utils as swift_utils


def storage_url(swift) -> str:
    """The account's storage URL of a swiftclient Connection.

    ``url`` is the preauthurl or the URL of the last authentication; after a
    401 swiftclient clears it, but keeps a preauthurl in os_options.
    """
    url = swift.url or swift.os_options.get('object_storage_url')
    if not url:
        url, _token = swift.get_auth()
    return url


def signed_put_url(storage: str, container: str, object_name: str,
                   seconds: int, key: str) -> str:
    """Absolute PUT TempURL of one object.

    Swift's tempurl middleware checks the signature against the path it
    sees, "/v1/<account>/<container>/<object>". A storage URL may carry a
    prefix before that (a proxy path such as "/swift/v1/AUTH_x"); the prefix
    belongs in the URL the server calls but not in what is signed.
    """
    parsed = parse.urlparse(storage)
    prefix, version, account = parsed.path.rstrip('/').rsplit('/', 2)
    signed = swift_utils.generate_temp_url(
        f'/{version}/{account}/{container}/{object_name}', seconds, key,
        'PUT')
    return f'{parsed.scheme}://{parsed.netloc}{prefix}{signed}'
