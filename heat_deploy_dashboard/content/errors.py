"""How the list pages report that Heat could not give them their data."""

from horizon import exceptions


def list_failed(view, message, no_data_message):
    """One sentence the user can act on, and an empty table that does not claim there is
    nothing to show. details='' keeps the client's raw error text (URLs, tracebacks from
    Heat) out of the page; Horizon still logs it."""
    exceptions.handle(view.request, message, details='')
    view.table._no_data_message = no_data_message
    return []
