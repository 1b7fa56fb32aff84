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

"""The injection corpus of tests/browser/test_injection.py: the payloads (script markup, a
javascript: URL, AngularJS expressions), the objects made with them, and the checks that a page
shows them as text and runs none of them."""

import dataclasses
import json
from urllib import parse

# What must never happen: each sets a flag, or leaves 49 between the x's.
NG_49 = 'x{$7*7$}x'
EVALUATED_49 = 'x49x'
NG_CALL = "{$constructor.constructor('window.__hdd_ng=1')()$}"
SCRIPT = '<script>window.__hdd_xss=1</script>'
IMG = '<img src=x onerror="window.__hdd_xss=2">'
JS_URL = 'javascript:window.__hdd_xss=3'
PAYLOAD = ' '.join((NG_49, NG_CALL, SCRIPT, IMG, JS_URL))
# Shorter ones for where Heat keeps less: a server id holds 36 characters.
SERVER_HTML = '<img src=x onerror=__hdd_xss=4>'
SERVER_NG = "{$$on.constructor('__hdd_ng=2')()$}"
SERVER_49 = f'{NG_49} javascript:__hdd_xss=5'
# A slash would end the server page's path segment: this one has no server page, but the
# lists and the run's page show it.
SERVER_SCRIPT = SCRIPT
FAKE_SERVERS = (SERVER_HTML, SERVER_NG, SERVER_49, SERVER_SCRIPT)
# A component's custom action; the run's name is "hdd-inj-<action>".
ACTION = f'{NG_49}{IMG}'
RUN_PREFIX = 'hdd-inj'

# A script that echoes its input p on stdout and stderr and as its error output "result":
# the run fails with the payload as its reason.
SCRIPT_BODY = f"""#!/bin/sh
# {PAYLOAD}
printf '%s\\n' "$p"
printf '%s\\n' "$p" >&2
printf '%s' "$p" > "$heat_outputs_path.result"
"""

_NOTHING_RAN = r"""
var found = [];
if (typeof window.__hdd_xss !== 'undefined') { found.push('__hdd_xss=' + window.__hdd_xss); }
if (typeof window.__hdd_ng !== 'undefined') { found.push('__hdd_ng=' + window.__hdd_ng); }
Array.prototype.forEach.call(document.querySelectorAll('*'), function (el) {
  if (el.tagName === 'SCRIPT' && el.text.indexOf('__hdd_') >= 0) {
    found.push('a script element: ' + el.text);
  }
  if (el.tagName === 'IMG' && el.getAttribute('src') === 'x') { found.push('an img src=x'); }
  Array.prototype.forEach.call(el.attributes, function (a) {
    if (a.value.indexOf('__hdd_') < 0) { return; }
    if (/^on/i.test(a.name) || (/^(href|src|action|formaction|xlink:href)$/i.test(a.name)
                                && /^\s*javascript:/i.test(a.value))) {
      found.push(el.tagName + ' ' + a.name + '="' + a.value + '"');
    }
  });
});
return found;
"""


def neutralised(text):
    """The text as Horizon's escaping shows it: AngularJS's {$ $} made {% %}."""
    return text.replace('{$', '{%').replace('$}', '%}')


def json_text(text):
    """The text as a JSON string holds it, without the quotes."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def text_content(user, css='body'):
    """Everything the elements hold as text, shown or in a tab not opened yet."""
    return user.js('return Array.prototype.map.call(document.querySelectorAll(arguments[0]),'
                   ' function (e) { return e.textContent; }).join("\\n");', css)


# What the poller's replies get instead of RUN_PREFIX- in the journey: an Angular expression
# that is not escaped, as no reply of the dashboard holds one.
RAW_IN_ROW = f'{RUN_PREFIX}-{NG_49}-'
UNESCAPED_IN_REPLIES = """
var from = arguments[0], to = arguments[1];
jQuery.ajaxSetup({dataFilter: function (data, type) {
  return type === 'json' ? data.split(from).join(to) : data;
}});
"""

_CANARY = """
var canary = angular.element('<span>' + arguments[0] + '</span>');
angular.element(document.body).append(canary);
angular.element(document.body).injector().invoke(['$compile', '$rootScope',
  function ($compile, $rootScope) { $compile(canary)($rootScope); $rootScope.$digest(); }]);
var text = canary.text();
canary.remove();
return text;
"""


def angular_evaluates(user):
    """Whether Angular, as Horizon set it up on this page, evaluates {$ $} in what it
    compiles: so that finding no 49 means something."""
    return user.js(_CANARY, NG_49) == EVALUATED_49


def nothing_ran(user, where):
    found = user.js(_NOTHING_RAN)
    assert found == [], f'{where}: {found}'
    assert EVALUATED_49 not in user.driver.page_source, f'{where}: an Angular expression ran'


def shows(user, text, where, css='body'):
    """The text is on the page (in the elements css selects) as typed, or as Horizon's
    escaping shows it."""
    shown = text_content(user, css)
    assert text in shown or neutralised(text) in shown, f'{where}: {text!r} not shown'


def visit(user, path, *texts, css='body'):
    user.open(path)
    assert user.http_status() == 200, path
    nothing_ran(user, path)
    for text in texts:
        shows(user, text, path, css)


@dataclasses.dataclass
class Corpus:
    script: object = None  # the script config
    component: object = None  # the component config
    fake_runs: list = dataclasses.field(default_factory=list)  # on made-up servers, running
    real_run: object = None  # the script config's run on a demo server, failed
    deployments: list = dataclasses.field(default_factory=list)  # every deployment made
    configs: list = dataclasses.field(default_factory=list)  # every config made


def server_path(server_id):
    return '/project/servers/' + parse.quote(server_id, safe='') + '/'
