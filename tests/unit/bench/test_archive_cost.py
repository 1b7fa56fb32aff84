"""The archive cost's views: the four views of a scale taken in turn, not one after another."""

import pytest

from bench import archive_cost


class _Horizon:
    def __init__(self):
        self.viewed = []

    def view(self, path):
        self.viewed.append(path)
        return {'status': 200, 'seconds': 0.1 * len(self.viewed), 'calls': {'swift_proxy': 1}}


def test_the_views_are_taken_in_turn_after_one_of_each(monkeypatch):
    monkeypatch.setattr(archive_cost, 'VIEWS', 3)
    horizon = _Horizon()

    found = archive_cost._views(horizon, {'tab': '/t', 'list': '/l'})

    assert horizon.viewed == ['/t', '/l'] * 4
    assert found['tab']['samples'] == [0.3, 0.5, 0.7]
    assert found['list']['median_seconds'] == pytest.approx(0.6)
    assert found['tab']['status'] == [200] and found['tab']['calls'] == {'swift_proxy': 1}
