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

"""A user's HTTP session with the local cloud's Horizon: the real login form, real CSRF."""

import re

import requests

from devcloud import credentials


class Dashboard:
    def __init__(self, base_url):
        self.base = base_url.rstrip('/')
        self.http = requests.Session()

    def url(self, path):
        return self.base + path

    def login(self, username=credentials.DEMO_USER, password=credentials.DEMO_PASSWORD):
        self.get('/auth/login/')
        response = self.post('/auth/login/', {'username': username, 'password': password,
                                              'region': 'default'})
        assert '/auth/login/' not in response.url, 'the login was refused'
        return response

    def get(self, path, **kwargs):
        return self.http.get(self.url(path), timeout=60, **kwargs)

    def post(self, path, data, **kwargs):
        data = dict(data, csrfmiddlewaretoken=self.http.cookies['csrftoken'])
        return self.http.post(self.url(path), data=data, timeout=60,
                              headers={'Referer': self.url(path)}, **kwargs)


def messages(page):
    """The texts of Horizon's toast messages on a page, without their "Success: " label."""
    found = re.findall(r'<div class="alert alert-[a-z]+ alert-dismissable[^"]*"[^>]*>(.*?)</div>',
                       page, re.S)
    texts = [re.sub(r'<[^>]+>|\s+', ' ', each).strip() for each in found]
    return [re.sub(r'^\w+:\s+', '', text) for text in texts if '{{' not in text]


def row_status(page, deployment_id):
    """The status a deployments table row of the page carries for its poller, or None."""
    row = re.search(rf'<tr[^>]*data-object-id="{deployment_id}"[^>]*>', page)
    status = row and re.search(r'data-status="([A-Z_]+)"', row.group(0))
    return status and status.group(1)
