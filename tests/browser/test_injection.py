"""An injection corpus: script markup, a javascript: URL and AngularJS expressions in every text
a user controls (names, descriptions, defaults, input values, actions, server ids, run names,
outputs, status reasons, filters) shows as text on every page and form that shows it, and none
of it runs.

Horizon's pages run AngularJS over the whole body with {$ $} as its interpolation symbols, and
Horizon's escaping (which Django's autoescaping uses) turns them into {% %}: so where a text
is escaped, an Angular payload shows as {%7*7%}; inside an ng-non-bindable element it may show
as typed. Either is text; 49 is not.

One set of objects for the whole module, made with heatclient as the demo user (one script
config, one component config, their runs on made-up servers and on a demo server), then many
pages; all of it is deleted afterwards.
"""

import dataclasses
import json
from urllib import parse

import pytest
from selenium.webdriver.common.by import By

from devcloud import credentials
import heat_deploy_runner as runner
from tests.browser import pages
from tests.integration import waiting

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


def _json(text):
    """The text as a JSON string holds it, without the quotes."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _text_content(user, css='body'):
    """Everything the elements hold as text, shown or in a tab not opened yet."""
    return user.js('return Array.prototype.map.call(document.querySelectorAll(arguments[0]),'
                   ' function (e) { return e.textContent; }).join("\\n");', css)


# What the poller's replies get instead of RUN_PREFIX- in the journey: an Angular expression
# that is not escaped, as no reply of the dashboard holds one.
RAW_IN_ROW = f'{RUN_PREFIX}-{NG_49}-'
_UNESCAPED_IN_REPLIES = """
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


def _angular_evaluates(user):
    """Whether Angular, as Horizon set it up on this page, evaluates {$ $} in what it
    compiles: so that finding no 49 means something."""
    return user.js(_CANARY, NG_49) == EVALUATED_49


def _nothing_ran(user, where):
    found = user.js(_NOTHING_RAN)
    assert found == [], f'{where}: {found}'
    assert EVALUATED_49 not in user.driver.page_source, f'{where}: an Angular expression ran'


def _shows(user, text, where, css='body'):
    """The text is on the page (in the elements css selects) as typed, or as Horizon's
    escaping shows it."""
    shown = _text_content(user, css)
    assert text in shown or neutralised(text) in shown, f'{where}: {text!r} not shown'


def _visit(user, path, *texts, css='body'):
    user.open(path)
    assert user.http_status() == 200, path
    _nothing_ran(user, path)
    for text in texts:
        _shows(user, text, path, css)


@dataclasses.dataclass
class Corpus:
    script: object = None  # the script config
    component: object = None  # the component config
    fake_runs: list = dataclasses.field(default_factory=list)  # on made-up servers, running
    real_run: object = None  # the script config's run on a demo server, failed
    deployments: list = dataclasses.field(default_factory=list)  # every deployment made
    configs: list = dataclasses.field(default_factory=list)  # every config made


@pytest.fixture(scope='module')
def corpus(heat, find_transport, demo_resources):
    made = Corpus()
    try:
        made.script = heat.software_configs.create(
            name=PAYLOAD, group='script', config=SCRIPT_BODY,
            inputs=[{'name': 'p', 'type': 'String', 'default': PAYLOAD,
                     'description': PAYLOAD}],
            outputs=[{'name': 'result', 'type': 'String', 'error_output': True,
                      'description': PAYLOAD},
                     {'name': PAYLOAD, 'type': 'String', 'description': PAYLOAD}],
            options={'note': PAYLOAD})
        made.configs.append(made.script.id)
        made.component = heat.software_configs.create(
            name=PAYLOAD, group='component',
            config={'configs': [{'actions': [ACTION], 'tool': 'script',
                                 'config': SCRIPT_BODY}]},
            inputs=[{'name': PAYLOAD, 'type': 'String', 'default': PAYLOAD,
                     'description': PAYLOAD}],
            outputs=[{'name': PAYLOAD, 'type': 'String', 'description': PAYLOAD}])
        made.configs.append(made.component.id)

        # The component's action on made-up servers, with the payload as the input's value:
        # nothing runs them, so they stay running (and the poller keeps replacing their rows).
        fake = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=made.component.id, action=ACTION, name=RUN_PREFIX,
                server_ids=list(FAKE_SERVERS), input_values={PAYLOAD: PAYLOAD},
                transport='TEMP_URL_SIGNAL'))
        made.deployments += [d.id for d in fake.created]
        assert fake.failures == []
        made.fake_runs = fake.created
        # The script on a demo server, echoing the payload given as its input.
        real = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=made.script.id, action=ACTION, name=RUN_PREFIX,
                server_ids=[demo_resources['db_server_2']], input_values={'p': PAYLOAD},
                transport='TEMP_URL_SIGNAL'))
        made.deployments += [d.id for d in real.created]
        assert real.failures == []
        made.real_run = waiting.finished(heat, real.created[0].id)
        assert made.real_run.status == 'FAILED'
        assert PAYLOAD in made.real_run.status_reason
        yield made
    finally:
        for deployment_id in made.deployments:
            try:
                runner.delete(heat, deployment_id, find_transport)
            except Exception:  # noqa: S110 - already gone
                pass
        for config_id in made.configs:
            try:
                heat.software_configs.delete(config_id)
            except Exception:  # noqa: S110 - already gone
                pass


def _server_path(server_id):
    return '/project/servers/' + parse.quote(server_id, safe='') + '/'


def test_markup_and_angular_expressions_show_as_text_everywhere(demo_user, heat, corpus,
                                                                demo_resources):
    user = demo_user
    component, script, real = corpus.component, corpus.script, corpus.real_run
    run_name = f'{RUN_PREFIX}-{ACTION}'
    db_server = demo_resources['db_server_2']

    # Components: the list, a component's page (its inputs, outputs, actions and servers).
    _visit(user, '/project/components/', PAYLOAD, ACTION)
    user.require_scripts()
    assert _angular_evaluates(user)
    _visit(user, f'/project/components/{component.id}/', PAYLOAD, ACTION)
    # A server nothing in the project names is shown by its whole id, marked unknown.
    for server_id in FAKE_SERVERS:
        _shows(user, server_id, "the component's servers", css='table#servers tbody')
    for tab in ('Actions', 'Servers'):
        user.click_tab(tab)
        _nothing_ran(user, f'the component\'s {tab} tab')

    # Run Action, as a page and in its modal (whose content Horizon compiles with Angular).
    _visit(user, f'/project/components/{component.id}/run/', ACTION, *FAKE_SERVERS, PAYLOAD)
    user.open('/project/components/')
    user.find(f'table#components tbody tr[data-object-id="{component.id}"]').find_element(
        By.PARTIAL_LINK_TEXT, 'Run Action').click()
    modal = user.visible(pages.RunActionForm.MODAL + '.in')
    _nothing_ran(user, 'the Run Action modal')
    assert neutralised(SERVER_HTML) in modal.text or SERVER_HTML in modal.text
    modal.find_element(By.CSS_SELECTOR, '.modal-footer .cancel').click()

    # Deployments: the list, where the poller replaces the running rows with rows the
    # dashboard renders; a run's page and its tabs; Run Again.
    _visit(user, '/project/deployments/', run_name, *FAKE_SERVERS, PAYLOAD)
    fake = corpus.fake_runs[0]
    # Rows come escaped by Django, so to see whether Angular compiles what the poller inserts,
    # an expression goes into the replies unescaped; from the poll after the one on its way.
    user.js(_UNESCAPED_IN_REPLIES, RUN_PREFIX + '-', RAW_IN_ROW)
    user.watch_status_polls()
    user.wait_for_next_poll()
    user.js('arguments[0].__hddOld = true;', user.find(pages.row_css(fake.id)))
    # A running row whose signal object is empty is shown again in Heat every 10 s.
    user.wait(30, poll=0.5).until(
        lambda d: d.execute_script('var row = document.querySelector(arguments[0]);'
                                   ' return !!row && !row.__hddOld;', pages.row_css(fake.id)),
        'the poller to replace a running row')
    _nothing_ran(user, 'the deployments list after the poller replaced rows')
    replaced = _text_content(user, pages.row_css(fake.id))
    assert RAW_IN_ROW in replaced, f'the replaced row: {replaced}'
    _shows(user, SERVER_HTML, 'a replaced row', css=pages.row_css(fake.id))

    _visit(user, f'/project/deployments/{real.id}/', ACTION, PAYLOAD, run_name)
    _shows(user, PAYLOAD, 'the status reason', css='.hdd-status-reason')
    user.click_tab('Outputs')
    for output in ('deploy_stdout', 'deploy_stderr', 'result'):
        _shows(user, PAYLOAD, f'output {output}', css=f'pre[data-output="{output}"]')
    _shows(user, PAYLOAD, 'the outputs\' descriptions', css='.text-muted')
    _nothing_ran(user, 'the Outputs tab')
    user.click_tab('Derived Config')
    _shows(user, PAYLOAD, 'the derived config', css='pre.hdd-output')
    _nothing_ran(user, 'the Derived Config tab')
    _visit(user, f'/project/deployments/{fake.id}/', ACTION, SERVER_HTML, run_name)
    user.wait(10, poll=0.25).until(
        lambda d: 'last checked' in d.find_element(By.CSS_SELECTOR, '.hdd-detail-poll').text,
        'the run\'s page to poll')
    _nothing_ran(user, 'a running run\'s page after a poll')
    _visit(user, f'/project/deployments/{fake.id}/rerun/', ACTION, SERVER_HTML, PAYLOAD)
    _visit(user, f'/project/deployments/{corpus.fake_runs[-1].id}/', SERVER_SCRIPT, run_name)

    # Servers: the list, each server's page with its timeline and its metadata.
    _visit(user, '/project/servers/', *FAKE_SERVERS, run_name)
    for server_id in (SERVER_HTML, SERVER_NG, SERVER_49):
        _visit(user, _server_path(server_id), server_id, run_name, ACTION)
        _shows(user, run_name, 'the timeline', css='svg.hdd-timeline title')
    _visit(user, _server_path(db_server), run_name, ACTION, PAYLOAD)
    _shows(user, run_name, 'the timeline', css='svg.hdd-timeline title')
    user.click_tab('Metadata')
    metadata = user.visible('pre.hdd-metadata').text
    assert _json(PAYLOAD) in metadata or neutralised(_json(PAYLOAD)) in metadata
    _nothing_ran(user, 'the Metadata tab')

    # Configs: the list, a config's page (and a derived one's), and its forms.
    _visit(user, '/project/configs/', PAYLOAD, run_name)
    _visit(user, f'/project/configs/{script.id}/', PAYLOAD)
    user.click_tab('Deployments')
    user.wait().until(lambda d: d.find_elements(By.CSS_SELECTOR,
                                                'table#config_deployments tbody tr'))
    _nothing_ran(user, 'the config\'s Deployments tab')
    # A component's body is its JSON.
    _visit(user, f'/project/configs/{component.id}/', PAYLOAD, _json(ACTION))
    _visit(user, f'/project/configs/{fake.config_id}/', run_name, ACTION, SERVER_HTML, PAYLOAD)
    for form in ('deploy', 'copy', 'delete'):
        _visit(user, f'/project/configs/{script.id}/{form}/', PAYLOAD)
    # Deleting a config a run uses says which run: its action and server.
    _visit(user, f'/project/configs/{fake.config_id}/delete/', run_name, ACTION, SERVER_HTML,
           css='.alert-warning, .modal-body, form')

    # The Deploy form, with the payload typed in as the action: Horizon's message says which.
    user.open(f'/project/configs/{script.id}/deploy/')
    user.find('input[name="server"]').send_keys(demo_resources['web_server'])
    action = user.find('input[name="action"]')
    action.clear()
    action.send_keys(ACTION)
    page = user.find('html')
    started = []
    with pages.new_deployments(heat, started):
        user.find('.modal-footer input[type="submit"]').click()
        user.wait_until_replaced(page, 'the Deploy form to start the run')
        user.wait_loaded()
    corpus.deployments.extend(each.id for each in started)
    assert [each.action for each in started] == [ACTION]
    _nothing_ran(user, 'the page the Deploy form went to')
    _shows(user, ACTION, 'the message of the Deploy form', css='.messages')
    _shows(user, ACTION, 'the run the Deploy form started')

    # The filters, with the payload typed in: the box holds it afterwards, and the rows it
    # finds show it. (The deployments panel compares an action with its spaces made
    # underscores, so an action with spaces finds nothing.)
    for path, table, field, text, found in (
            ('/project/deployments/', 'deployments', 'action', ACTION, None),
            ('/project/deployments/', 'deployments', 'server', SERVER_NG, SERVER_NG),
            ('/project/configs/', 'configs', 'name', PAYLOAD, PAYLOAD)):
        user.open(path)
        pages.filter_table(user, table, field, text)
        try:
            _nothing_ran(user, f'{path} filtered by {field}')
            shown = user.find(f'input[name="{table}__filter__q"]').get_attribute('value')
            assert shown in (text, neutralised(text)), f'{path}: the filter box holds {shown!r}'
            if found:
                _shows(user, found, f'{path} filtered by {field}', css=f'table#{table} tbody')
        finally:
            # Horizon keeps a table's filter in the session: empty it for the next journeys.
            pages.filter_table(user, table, field, '')


def test_a_confirm_dialog_names_a_run_as_text(demo_user, corpus):
    """Horizon's confirm dialog (Cancel, Delete) puts the row's name in its body."""
    user = demo_user
    fake = corpus.fake_runs[0]
    user.open('/project/deployments/')
    user.require_scripts()
    row = user.find(pages.row_css(fake.id))
    row.find_element(By.CSS_SELECTOR, '.dropdown-toggle').click()
    row.find_element(By.CSS_SELECTOR,
                     f'button[value="deployments__delete__{fake.id}"]').click()
    dialog = user.visible('#modal_wrapper .modal')
    _nothing_ran(user, 'the confirm dialog')
    body = dialog.find_element(By.CSS_SELECTOR, '.modal-body').text
    assert neutralised(SERVER_HTML) in body or SERVER_HTML in body
    dialog.find_element(By.CSS_SELECTOR, '.modal-footer .cancel').click()
    _nothing_ran(user, 'after the confirm dialog')


_FIELD_VALUES = """
return Array.prototype.map.call(document.querySelectorAll(
    'form input[type=text], form input[type=hidden], form textarea'),
  function (e) { return [e.name, e.value]; });
"""


def test_forms_keep_the_values_they_are_filled_in_with(demo_user, corpus):
    user = demo_user
    for path, name, value in (
            (f'/project/configs/{corpus.script.id}/deploy/', 'input__p', PAYLOAD),
            (f'/project/configs/{corpus.script.id}/copy/', 'config', SCRIPT_BODY),
            (f'/project/deployments/{corpus.fake_runs[0].id}/rerun/',
             'input__' + PAYLOAD, PAYLOAD)):
        user.open(path)
        _nothing_ran(user, path)
        fields = dict(user.js(_FIELD_VALUES))
        assert fields.get(name) == value, f'{path}: {name!r} holds {fields.get(name)!r}'


# Search terms made to break the highlighting: markup, Angular, entities, a pattern's
# metacharacters (the search is plain text), a NUL.
SEARCH_TERMS = (NG_49, SCRIPT, IMG, NG_CALL, '&lt;script&gt;', '.*[(|\\d+', 'x{$', '\x00xy')


def test_an_operations_results_show_outputs_and_search_terms_as_text(
        demo_user, heat, find_transport, corpus, demo_resources):
    user = demo_user
    operation = runner.Operation.new(credentials.DEMO_USER, corpus.script.id)
    # A long line: the search shows a window of it around the match.
    started = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=corpus.script.id, action=ACTION, name=RUN_PREFIX,
            server_ids=[demo_resources['db_server_2']],
            input_values={'p': 'y' * 3000 + PAYLOAD}, transport='TEMP_URL_SIGNAL'),
        operation=operation)
    corpus.deployments += [d.id for d in started.created]
    run = waiting.finished(heat, started.created[0].id)
    path = f'/project/deployments/operations/{operation.id}/results/'

    _visit(user, path, PAYLOAD)
    user.require_scripts()
    assert _angular_evaluates(user)
    for term in SEARCH_TERMS:
        _visit(user, path + '?' + parse.urlencode({'q': term}))
        box = user.find('input[name="q"]').get_attribute('value')
        # HTML reads a NUL as U+FFFD.
        assert box in (term, neutralised(term), term.replace('\x00', '\ufffd')), (term, box)
        if term in PAYLOAD:
            marked = _text_content(user, 'mark')
            assert term.lower() in marked.lower(), f'{term!r}: marked {marked!r}'
    # Each match links to its line on the run's page, which marks it.
    _visit(user, path + '?' + parse.urlencode({'q': NG_49}))
    user.find('a.hdd-match-link').click()
    user.wait_loaded()
    _nothing_ran(user, "the run's page at a line")
    _shows(user, NG_49, 'the marked line', css='mark.hdd-output-line')
    # Its output against the corpus's earlier run of the script.
    _visit(user, f'/project/deployments/{run.id}/diff/?other={corpus.real_run.id}', PAYLOAD)
