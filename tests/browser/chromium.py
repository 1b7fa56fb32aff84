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

"""Headless Chromium for the browser journeys and the README screenshots.

Debian's chromium and chromium-driver (installed by devcloud/install-system-packages.sh),
started with the flags that work as root in a container. Every page is laid out in a viewport
of exactly WIDTH x HEIGHT CSS pixels, so screenshots are WIDTH pixels wide.
"""

import shutil
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = '/usr/bin/chromium'
CHROMEDRIVER = '/usr/bin/chromedriver'
WIDTH = 1400
HEIGHT = 1000

_FLAGS = (
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-dev-shm-usage', '--hide-scrollbars', '--lang=en-US',
    f'--window-size={WIDTH},{HEIGHT}',
)


class Chromium:
    """One browser with its own fresh profile directory, removed when it quits."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix='hdd-chromium-')
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in _FLAGS:
            options.add_argument(flag)
        options.add_argument(f'--user-data-dir={self.profile}')
        # Every console message and uncaught error of the pages, for driver.get_log('browser')
        # (tests/browser/conftest.py fails a journey on a SEVERE one).
        options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
        try:
            self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        except Exception:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.driver.set_page_load_timeout(60)
        self.driver.set_script_timeout(30)
        self.set_viewport(WIDTH, HEIGHT)

    def set_viewport(self, width, height):
        """The page's viewport exactly, whatever the window's decorations take."""
        self.driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {
            'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False})

    def quit(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
