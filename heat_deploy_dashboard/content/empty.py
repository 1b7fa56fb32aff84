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

"""What an empty list says: that a filter left nothing, or why there is nothing yet and the
next step to take."""

from django.urls import NoReverseMatch
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from heat_deploy_dashboard.content import own_actions

# Instead of claiming there is nothing at all.
NO_MATCH = _("Nothing matches the filter. Clear the filter box and press Filter to see them "
             "all again.")


class ExplainingTable(own_actions.OwnActionsTable):
    """A table that says why it shows no rows: its view or filter sets ``empty_reason`` (a
    filter matched nothing, a listing failed); else its Meta's no_data_message, followed by a
    link to ``next_step`` (URL name, words) where that page exists (another plugin's may
    not)."""

    empty_reason = None
    next_step = None

    def get_empty_message(self):
        if self.empty_reason is not None:
            return self.empty_reason
        message = super().get_empty_message()
        if self.next_step is None:
            return message
        url_name, step = self.next_step
        try:
            url = reverse(url_name)
        except NoReverseMatch:
            return message
        return format_html('{} <a href="{}">{}</a>', message, url, step)
