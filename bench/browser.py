"""One logged-in headless Chromium on the deployments page, from the browser tests' blocks."""

from devcloud import credentials
from tests.browser import chromium
from tests.browser import pages

DEPLOYMENTS = '/project/deployments/'


class Browser:
    def __init__(self, layout):
        self._chromium = chromium.Chromium()
        try:
            self.user = pages.User(self._chromium, layout.dashboard_url)
            self.user.login(credentials.DEMO_USER, credentials.DEMO_PASSWORD)
        except BaseException:
            self._chromium.quit()
            raise

    def open_deployments(self):
        self.user.open(DEPLOYMENTS)

    def js(self, script, *args):
        return self.user.js(script, *args)

    def quit(self):
        self._chromium.quit()
