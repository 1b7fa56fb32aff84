"""The command line's clients (osc.plugin): the project's Compute servers, page by page as
Compute says, whatever its own largest page."""

from heat_deploy_runner.osc import plugin


class _Answer:
    def __init__(self, body):
        self.body = body

    def json(self):
        return self.body


class _Session:
    """keystoneauth's session, answering GET /servers from pages of two (Compute's
    max_limit below the plugin's page)."""

    def __init__(self, ids):
        self.ids = ids
        self.asked = []

    def get(self, url, params, endpoint_filter):
        self.asked.append(dict(params))
        start = self.ids.index(params['marker']) + 1 if 'marker' in params else 0
        page = self.ids[start:start + 2]
        more = start + 2 < len(self.ids)
        return _Answer({'servers': [{'id': each, 'name': f'name-{each}'} for each in page],
                        'servers_links': [{'rel': 'next', 'href': '...'}] if more else []})


def test_every_page_compute_announces_is_read():
    session = _Session(['a', 'b', 'c', 'd', 'e'])

    found = plugin.Clients(session, None, 'public')._compute_servers()

    assert [(each.id, each.name) for each in found] == [
        (each, f'name-{each}') for each in 'abcde']
    assert [each.get('marker') for each in session.asked] == [None, 'b', 'd']
