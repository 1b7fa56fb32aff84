"""What an empty list says: that a filter left nothing, or why there is nothing yet and the
next step to take."""

from django.urls import NoReverseMatch
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

# Instead of claiming there is nothing at all.
NO_MATCH = _("Nothing matches the filter. Clear the filter box and press Filter to see them "
             "all again.")


def with_next_step(table, url_name, step):
    """The table's empty message, with a link to the next step when the list is simply empty
    (not failed, not filtered) and the page to go to exists (another plugin's may not)."""
    message = table._no_data_message
    if message is not table._meta.no_data_message:
        return message
    try:
        url = reverse(url_name)
    except NoReverseMatch:
        return message
    return format_html('{} <a href="{}">{}</a>', message, url, step)
