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

from urllib import parse

import pytest
from selenium.webdriver.common.by import By

from devcloud import credentials
import heat_deploy_runner as runner
from tests.browser import injection_corpus as inj
from tests.browser import pages
from tests.integration import waiting


@pytest.fixture(scope='module')
def corpus(heat, find_transport, demo_resources):
    made = inj.Corpus()
    try:
        made.script = heat.software_configs.create(
            name=inj.PAYLOAD, group='script', config=inj.SCRIPT_BODY,
            inputs=[{'name': 'p', 'type': 'String', 'default': inj.PAYLOAD,
                     'description': inj.PAYLOAD}],
            outputs=[{'name': 'result', 'type': 'String', 'error_output': True,
                      'description': inj.PAYLOAD},
                     {'name': inj.PAYLOAD, 'type': 'String', 'description': inj.PAYLOAD}],
            options={'note': inj.PAYLOAD})
        made.configs.append(made.script.id)
        made.component = heat.software_configs.create(
            name=inj.PAYLOAD, group='component',
            config={'configs': [{'actions': [inj.ACTION], 'tool': 'script',
                                 'config': inj.SCRIPT_BODY}]},
            inputs=[{'name': inj.PAYLOAD, 'type': 'String', 'default': inj.PAYLOAD,
                     'description': inj.PAYLOAD}],
            outputs=[{'name': inj.PAYLOAD, 'type': 'String', 'description': inj.PAYLOAD}])
        made.configs.append(made.component.id)

        # The component's action on made-up servers, with the payload as the input's value:
        # nothing runs them, so they stay running (and the poller keeps replacing their rows).
        fake = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=made.component.id, action=inj.ACTION, name=inj.RUN_PREFIX,
                server_ids=list(inj.FAKE_SERVERS), input_values={inj.PAYLOAD: inj.PAYLOAD},
                transport='TEMP_URL_SIGNAL'))
        made.deployments += [d.id for d in fake.created]
        assert fake.failures == []
        made.fake_runs = fake.created
        # The script on a demo server, echoing the payload given as its input.
        real = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=made.script.id, action=inj.ACTION, name=inj.RUN_PREFIX,
                server_ids=[demo_resources['db_server_2']], input_values={'p': inj.PAYLOAD},
                transport='TEMP_URL_SIGNAL'))
        made.deployments += [d.id for d in real.created]
        assert real.failures == []
        made.real_run = waiting.finished(heat, real.created[0].id)
        assert made.real_run.status == 'FAILED'
        assert inj.PAYLOAD in made.real_run.status_reason
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


def test_markup_and_angular_expressions_show_as_text_everywhere(demo_user, heat, corpus,
                                                                demo_resources):
    user = demo_user
    component, script, real = corpus.component, corpus.script, corpus.real_run
    run_name = f'{inj.RUN_PREFIX}-{inj.ACTION}'
    db_server = demo_resources['db_server_2']

    # Components: the list, a component's page (its inputs, outputs, actions and servers).
    inj.visit(user, '/project/components/', inj.PAYLOAD, inj.ACTION)
    user.require_scripts()
    assert inj.angular_evaluates(user)
    inj.visit(user, f'/project/components/{component.id}/', inj.PAYLOAD, inj.ACTION)
    # A server nothing in the project names is shown by its whole id, marked unknown.
    for server_id in inj.FAKE_SERVERS:
        inj.shows(user, server_id, "the component's servers", css='table#servers tbody')
    for tab in ('Actions', 'Servers'):
        user.click_tab(tab)
        inj.nothing_ran(user, f'the component\'s {tab} tab')

    # Run Action, as a page and in its modal (whose content Horizon compiles with Angular).
    inj.visit(user, f'/project/components/{component.id}/run/', inj.ACTION, *inj.FAKE_SERVERS,
              inj.PAYLOAD)
    user.open('/project/components/')
    user.find(f'table#components tbody tr[data-object-id="{component.id}"]').find_element(
        By.PARTIAL_LINK_TEXT, 'Run Action').click()
    modal = user.visible(pages.RunActionForm.MODAL + '.in')
    inj.nothing_ran(user, 'the Run Action modal')
    assert inj.neutralised(inj.SERVER_HTML) in modal.text or inj.SERVER_HTML in modal.text
    modal.find_element(By.CSS_SELECTOR, '.modal-footer .cancel').click()

    # Deployments: the list, where the poller replaces the running rows with rows the
    # dashboard renders; a run's page and its tabs; Run Again.
    inj.visit(user, '/project/deployments/', run_name, *inj.FAKE_SERVERS, inj.PAYLOAD)
    fake = corpus.fake_runs[0]
    # Rows come escaped by Django, so to see whether Angular compiles what the poller inserts,
    # an expression goes into the replies unescaped; from the poll after the one on its way.
    user.js(inj.UNESCAPED_IN_REPLIES, inj.RUN_PREFIX + '-', inj.RAW_IN_ROW)
    user.watch_status_polls()
    user.wait_for_next_poll()
    user.js('arguments[0].__hddOld = true;', user.find(pages.row_css(fake.id)))
    # A running row whose signal object is empty is shown again in Heat every 10 s.
    user.wait(30, poll=0.5).until(
        lambda d: d.execute_script('var row = document.querySelector(arguments[0]);'
                                   ' return !!row && !row.__hddOld;', pages.row_css(fake.id)),
        'the poller to replace a running row')
    inj.nothing_ran(user, 'the deployments list after the poller replaced rows')
    replaced = inj.text_content(user, pages.row_css(fake.id))
    assert inj.RAW_IN_ROW in replaced, f'the replaced row: {replaced}'
    inj.shows(user, inj.SERVER_HTML, 'a replaced row', css=pages.row_css(fake.id))

    inj.visit(user, f'/project/deployments/{real.id}/', inj.ACTION, inj.PAYLOAD, run_name)
    inj.shows(user, inj.PAYLOAD, 'the status reason', css='.hdd-status-reason')
    user.click_tab('Outputs')
    for output in ('deploy_stdout', 'deploy_stderr', 'result'):
        inj.shows(user, inj.PAYLOAD, f'output {output}', css=f'pre[data-output="{output}"]')
    inj.shows(user, inj.PAYLOAD, 'the outputs\' descriptions', css='.text-muted')
    inj.nothing_ran(user, 'the Outputs tab')
    user.click_tab('Derived Config')
    inj.shows(user, inj.PAYLOAD, 'the derived config', css='pre.hdd-output')
    inj.nothing_ran(user, 'the Derived Config tab')
    inj.visit(user, f'/project/deployments/{fake.id}/', inj.ACTION, inj.SERVER_HTML, run_name)
    user.wait(10, poll=0.25).until(
        lambda d: 'last checked' in d.find_element(By.CSS_SELECTOR, '.hdd-detail-poll').text,
        'the run\'s page to poll')
    inj.nothing_ran(user, 'a running run\'s page after a poll')
    inj.visit(user, f'/project/deployments/{fake.id}/rerun/', inj.ACTION, inj.SERVER_HTML,
              inj.PAYLOAD)
    inj.visit(user, f'/project/deployments/{corpus.fake_runs[-1].id}/', inj.SERVER_SCRIPT,
              run_name)

    # Servers: the list, each server's page with its timeline and its metadata.
    inj.visit(user, '/project/servers/', *inj.FAKE_SERVERS, run_name)
    for server_id in (inj.SERVER_HTML, inj.SERVER_NG, inj.SERVER_49):
        inj.visit(user, inj.server_path(server_id), server_id, run_name, inj.ACTION)
        inj.shows(user, run_name, 'the timeline', css='svg.hdd-timeline title')
    inj.visit(user, inj.server_path(db_server), run_name, inj.ACTION, inj.PAYLOAD)
    inj.shows(user, run_name, 'the timeline', css='svg.hdd-timeline title')
    user.click_tab('Metadata')
    metadata = user.visible('pre.hdd-metadata').text
    assert (inj.json_text(inj.PAYLOAD) in metadata
            or inj.neutralised(inj.json_text(inj.PAYLOAD)) in metadata)
    inj.nothing_ran(user, 'the Metadata tab')

    # Configs: the list, a config's page (and a derived one's), and its forms.
    inj.visit(user, '/project/configs/', inj.PAYLOAD, run_name)
    inj.visit(user, f'/project/configs/{script.id}/', inj.PAYLOAD)
    user.click_tab('Deployments')
    user.wait().until(lambda d: d.find_elements(By.CSS_SELECTOR,
                                                'table#config_deployments tbody tr'))
    inj.nothing_ran(user, 'the config\'s Deployments tab')
    # A component's body is its JSON.
    inj.visit(user, f'/project/configs/{component.id}/', inj.PAYLOAD, inj.json_text(inj.ACTION))
    inj.visit(user, f'/project/configs/{fake.config_id}/', run_name, inj.ACTION, inj.SERVER_HTML,
              inj.PAYLOAD)
    for form in ('deploy', 'copy', 'delete'):
        inj.visit(user, f'/project/configs/{script.id}/{form}/', inj.PAYLOAD)
    # Deleting a config a run uses says which run: its action and server.
    inj.visit(user, f'/project/configs/{fake.config_id}/delete/', run_name, inj.ACTION,
              inj.SERVER_HTML, css='.alert-warning, .modal-body, form')

    # The Deploy form, with the payload typed in as the action: Horizon's message says which.
    user.open(f'/project/configs/{script.id}/deploy/')
    user.find('input[name="server"]').send_keys(demo_resources['web_server'])
    action = user.find('input[name="action"]')
    action.clear()
    action.send_keys(inj.ACTION)
    page = user.find('html')
    started = []
    with pages.new_deployments(heat, started):
        user.find('.modal-footer input[type="submit"]').click()
        user.wait_until_replaced(page, 'the Deploy form to start the run')
        user.wait_loaded()
    corpus.deployments.extend(each.id for each in started)
    assert [each.action for each in started] == [inj.ACTION]
    inj.nothing_ran(user, 'the page the Deploy form went to')
    inj.shows(user, inj.ACTION, 'the message of the Deploy form', css='.messages')
    inj.shows(user, inj.ACTION, 'the run the Deploy form started')

    # The filters, with the payload typed in: the box holds it afterwards, and the rows it
    # finds show it. (The deployments panel compares an action with its spaces made
    # underscores, so an action with spaces finds nothing.)
    for path, table, field, text, found in (
            ('/project/deployments/', 'deployments', 'action', inj.ACTION, None),
            ('/project/deployments/', 'deployments', 'server', inj.SERVER_NG, inj.SERVER_NG),
            ('/project/configs/', 'configs', 'name', inj.PAYLOAD, inj.PAYLOAD)):
        user.open(path)
        pages.filter_table(user, table, field, text)
        try:
            inj.nothing_ran(user, f'{path} filtered by {field}')
            shown = user.find(f'input[name="{table}__filter__q"]').get_attribute('value')
            assert shown in (text, inj.neutralised(text)), (
                f'{path}: the filter box holds {shown!r}')
            if found:
                inj.shows(user, found, f'{path} filtered by {field}', css=f'table#{table} tbody')
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
    inj.nothing_ran(user, 'the confirm dialog')
    body = dialog.find_element(By.CSS_SELECTOR, '.modal-body').text
    assert inj.neutralised(inj.SERVER_HTML) in body or inj.SERVER_HTML in body
    dialog.find_element(By.CSS_SELECTOR, '.modal-footer .cancel').click()
    inj.nothing_ran(user, 'after the confirm dialog')


_FIELD_VALUES = """
return Array.prototype.map.call(document.querySelectorAll(
    'form input[type=text], form input[type=hidden], form textarea'),
  function (e) { return [e.name, e.value]; });
"""


def test_forms_keep_the_values_they_are_filled_in_with(demo_user, corpus):
    user = demo_user
    for path, name, value in (
            (f'/project/configs/{corpus.script.id}/deploy/', 'input__p', inj.PAYLOAD),
            (f'/project/configs/{corpus.script.id}/copy/', 'config', inj.SCRIPT_BODY),
            (f'/project/deployments/{corpus.fake_runs[0].id}/rerun/',
             'input__' + inj.PAYLOAD, inj.PAYLOAD)):
        user.open(path)
        inj.nothing_ran(user, path)
        fields = dict(user.js(_FIELD_VALUES))
        assert fields.get(name) == value, f'{path}: {name!r} holds {fields.get(name)!r}'


# Search terms made to break the highlighting: markup, Angular, entities, a pattern's
# metacharacters (the search is plain text), a NUL.
SEARCH_TERMS = (inj.NG_49, inj.SCRIPT, inj.IMG, inj.NG_CALL, '&lt;script&gt;', '.*[(|\\d+', 'x{$',
                '\x00xy')


def test_an_operations_results_show_outputs_and_search_terms_as_text(
        demo_user, heat, find_transport, corpus, demo_resources):
    user = demo_user
    operation = runner.Operation.new(credentials.DEMO_USER, corpus.script.id)
    # A long line: the search shows a window of it around the match.
    started = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=corpus.script.id, action=inj.ACTION, name=inj.RUN_PREFIX,
            server_ids=[demo_resources['db_server_2']],
            input_values={'p': 'y' * 3000 + inj.PAYLOAD}, transport='TEMP_URL_SIGNAL'),
        operation=operation)
    corpus.deployments += [d.id for d in started.created]
    run = waiting.finished(heat, started.created[0].id)
    path = f'/project/deployments/operations/{operation.id}/results/'

    inj.visit(user, path, inj.PAYLOAD)
    user.require_scripts()
    assert inj.angular_evaluates(user)
    for term in SEARCH_TERMS:
        inj.visit(user, path + '?' + parse.urlencode({'q': term}))
        box = user.find('input[name="q"]').get_attribute('value')
        # HTML reads a NUL as U+FFFD.
        assert box in (term, inj.neutralised(term), term.replace('\x00', '\ufffd')), (term, box)
        if term in inj.PAYLOAD:
            marked = inj.text_content(user, 'mark')
            assert term.lower() in marked.lower(), f'{term!r}: marked {marked!r}'
    # Each match links to its line on the run's page, which marks it.
    inj.visit(user, path + '?' + parse.urlencode({'q': inj.NG_49}))
    user.find('a.hdd-match-link').click()
    user.wait_loaded()
    inj.nothing_ran(user, "the run's page at a line")
    inj.shows(user, inj.NG_49, 'the marked line', css='mark.hdd-output-line')
    # Its output against the corpus's earlier run of the script.
    inj.visit(user, f'/project/deployments/{run.id}/diff/?other={corpus.real_run.id}', inj.PAYLOAD)


def test_a_line_the_server_sends_live_shows_as_text(demo_user, start_run):
    """The payload in a line a running script has written, sent live by demo-db-2's
    heat-deploy-script-hook: the run page's live box shows it as text, and none of it runs."""
    user = demo_user
    # BACKUP echoes its tables first, then pauses; the payload is no table, so it then fails.
    run, _config = start_run('mysql', 'BACKUP', 'db_server_2', live=True, tables=inj.PAYLOAD,
                             log_lines=0, pause_seconds=8)
    box = 'pre[data-stream="stdout"]'
    user.open(f'/project/deployments/{run.id}/?tab=deployment_details__outputs')
    user.require_scripts()
    assert inj.angular_evaluates(user)
    user.wait(60).until(lambda d: 'tables=' in inj.text_content(user, box),
                        "the payload's line to come live")
    assert user.find_all('.hdd-detail-poll'), 'the run ended before its line came live'
    inj.nothing_ran(user, 'the live output')
    inj.shows(user, inj.PAYLOAD, 'the live output', css=box)
