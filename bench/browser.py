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

"""One logged-in headless Chromium on the deployments page, from the browser tests' blocks."""

from devcloud import credentials
from tests.browser import chromium
from tests.browser import pages

DEPLOYMENTS = '/project/deployments/'
# Items Per Page, as a user sets it on Horizon's Settings page (which keeps it in this cookie):
# every run the figures watch is then on the one page (the status poll takes up to 200 ids).
PAGE_SIZE = 200
# Horizon's own API_RESULT_PAGE_SIZE, a person's until they change it.
HORIZON_PAGE_SIZE = 20


class Browser:
    def __init__(self, layout):
        self._chromium = chromium.Chromium()
        try:
            self.user = pages.User(self._chromium, layout.dashboard_url)
            self.user.login(credentials.DEMO_USER, credentials.DEMO_PASSWORD)
            self.page_size(PAGE_SIZE)
        except BaseException:
            self._chromium.quit()
            raise

    def page_size(self, size):
        """Items Per Page from now on."""
        self.user.driver.add_cookie({'name': 'API_RESULT_PAGE_SIZE', 'value': str(size)})

    def open_deployments(self):
        self.user.open(DEPLOYMENTS)

    def open(self, path):
        self.user.open(path)

    def js(self, script, *args):
        return self.user.js(script, *args)

    def quit(self):
        self._chromium.quit()
