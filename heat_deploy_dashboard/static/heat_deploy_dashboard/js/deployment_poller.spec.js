(function () {
  'use strict';

  var STATE = '<span class="hdd-poll-state" data-url="/status/" data-table="deployments" ' +
    'data-elsewhere="" data-idle-text="Nothing runs." ' +
    'data-live-text="Live, checked at %(time)s." ' +
    'data-error-text="Could not check; again in %(seconds)s s." ' +
    'data-service-text="%(error)s; again in %(seconds)s s." ' +
    'data-login-text="Your session ended." data-login-link="Log in again"></span>';

  function row(id, status, cell) {
    return $('<tr>').attr({'data-object-id': id, 'data-status': status}).append(
      $('<td>').append('<input type="checkbox" class="table-row-multi-select">'),
      $('<td class="status">').text(cell || status),
      $('<td>').append('<div class="btn-group"><button class="btn">Actions</button></div>'))
      .prop('outerHTML');
  }

  function table(rows) {
    return '<form><input type="hidden" name="csrfmiddlewaretoken" value="tok-1">' +
      '<table id="deployments"><tbody>' + rows.join('') + '</tbody></table></form>';
  }

  function rowOf(id) {
    return $('#deployments tbody tr').filter(function () {
      return this.getAttribute('data-object-id') === id;
    });
  }

  function reply(fields) {
    return $.extend({rows: {}, gone: [], running: [], statuses: {},
                     checked_at: '2024-01-01T12:00:00Z'}, fields);
  }

  describe('deployment_poller.js', function () {
    var follow;

    beforeEach(function () {
      follow = null;
      spyOn(window.hdd, 'followRuns').and.callFake(function (options) { follow = options; });
    });

    describe('on a deployments table', function () {
      function start(rows, elsewhere) {
        hddSpec.fixture(table(rows) + STATE);
        $('.hdd-poll-state').attr('data-elsewhere', elsewhere || '');
        hddSpec.init('deployment_poller');
        expect(window.hdd.followRuns).toHaveBeenCalledTimes(1);
      }

      it('follows the running rows and the other pages\' running runs', function () {
        start([row('a', 'IN_PROGRESS'), row('b', 'COMPLETE'), row('c', 'IN_PROGRESS')], 'x y');
        expect(follow.url).toBe('/status/');
        expect(follow.token).toBe('tok-1');
        expect(follow.ids()).toEqual(['a', 'c', 'x', 'y']);
        expect(follow.data()).toEqual({table: 'deployments', elsewhere: ['x', 'y'],
                                       id: ['a', 'c']});
        expect(follow.later).toBeFalsy();
      });

      it('asks about 200 ids at most, the rows shown first', function () {
        var many = [];
        for (var n = 0; n < 250; n += 1) {
          many.push('e' + n);
        }
        start([row('a', 'IN_PROGRESS'), row('b', 'IN_PROGRESS')], many.join(' '));
        expect(follow.ids().length).toBe(200);
        expect(follow.ids().slice(0, 3)).toEqual(['a', 'b', 'e0']);
        expect(follow.data().elsewhere.length).toBe(198);
      });

      it('says so when nothing runs', function () {
        start([row('b', 'COMPLETE')]);
        expect(follow.ids()).toEqual([]);
        follow.idle();
        expect($('.hdd-poll-state').text()).toBe('Nothing runs.');
      });

      it('replaces a row with the one the reply renders, keeping its tick', function () {
        start([row('a', 'IN_PROGRESS'), row('c', 'IN_PROGRESS')]);
        rowOf('a').find('input').prop('checked', true);
        follow.done(reply({rows: {a: row('a', 'COMPLETE', 'Complete'),
                                  c: row('c', 'FAILED', 'Failed')},
                           running: []}));
        expect(rowOf('a').find('td.status').text()).toBe('Complete');
        expect(rowOf('a').attr('data-status')).toBe('COMPLETE');
        expect(rowOf('a').find('input').prop('checked')).toBe(true);
        expect(rowOf('c').find('td.status').text()).toBe('Failed');
        expect(rowOf('c').find('input').prop('checked')).toBe(false);
        expect($('#deployments tbody tr').length).toBe(2);
        expect(follow.ids()).toEqual([]);
      });

      it('never runs a script of a reply, and leaves its text as text', function () {
        window.hddInjected = false;
        start([row('a', 'IN_PROGRESS')]);
        var html = '<tr data-object-id="a" data-status="COMPLETE">' +
          '<td class="status">{$ 6 * 7 $} &lt;b&gt;bold&lt;/b&gt;' +
          '<script>window.hddInjected = true;</script></td></tr>';
        follow.done(reply({rows: {a: html}}));
        expect(window.hddInjected).toBe(false);
        expect(rowOf('a').find('script').length).toBe(0);
        expect(rowOf('a').find('b').length).toBe(0);
        expect(rowOf('a').find('td.status').text()).toBe('{$ 6 * 7 $} <b>bold</b>');
        delete window.hddInjected;
      });

      it('keeps a row whose action menu is open', function () {
        start([row('a', 'IN_PROGRESS'), row('c', 'IN_PROGRESS')]);
        var $open = rowOf('a');
        $open.find('.btn-group').addClass('open');
        follow.done(reply({rows: {a: row('a', 'COMPLETE'), c: row('c', 'COMPLETE')}}));
        expect(rowOf('a')[0]).toBe($open[0]);
        expect(rowOf('a').attr('data-status')).toBe('IN_PROGRESS');
        expect(rowOf('c').attr('data-status')).toBe('COMPLETE');
      });

      it('keeps every row while a dialog is open', function () {
        start([row('a', 'IN_PROGRESS')]);
        $('#hdd-fixture').append('<div id="modal_wrapper"><div class="modal in"></div></div>');
        var before = rowOf('a')[0];
        follow.done(reply({rows: {a: row('a', 'COMPLETE')}}));
        expect(rowOf('a')[0]).toBe(before);
        $('#modal_wrapper').remove();
        follow.done(reply({rows: {a: row('a', 'COMPLETE')}}));
        expect(rowOf('a').attr('data-status')).toBe('COMPLETE');
      });

      it('removes the rows that are gone, an id with quotes matched as text', function () {
        var odd = 'x"] , tr, [y=\'';
        start([row('a', 'IN_PROGRESS'), row(odd, 'IN_PROGRESS'), row('b', 'COMPLETE')]);
        follow.done(reply({gone: [odd], rows: {a: row('a', 'COMPLETE')}}));
        expect($('#deployments tbody tr').map(function () {
          return this.getAttribute('data-object-id');
        }).get()).toEqual(['a', 'b']);
      });

      it('stops asking after other pages\' runs that ended or are gone', function () {
        start([], 'e1 e2 e3 e4');
        follow.done(reply({running: ['e1'],
                           statuses: {e1: {status: 'IN_PROGRESS'}, e2: {status: 'COMPLETE'}},
                           gone: ['e3']}));
        // e4 was not answered for (the reply was cut short): asked again.
        expect(follow.ids()).toEqual(['e1', 'e4']);
      });

      it('tells the page its rows were replaced', function () {
        start([row('a', 'IN_PROGRESS')]);
        var heard = jasmine.createSpy('rows-replaced');
        $('#deployments').on('hdd:rows-replaced', function (event, got) { heard(got); });
        var answer = reply({rows: {a: row('a', 'COMPLETE')}});
        follow.done(answer);
        expect(heard).toHaveBeenCalledWith(answer);
      });

      it('says when it last checked, clearing a failure', function () {
        start([row('a', 'IN_PROGRESS')]);
        follow.failed({status: 500, getResponseHeader: function () { return null; }}, 3000);
        expect($('.hdd-poll-state').hasClass('text-danger')).toBe(true);
        follow.done(reply({checked_at: '2024-01-01T12:00:00Z'}));
        var time = new Date('2024-01-01T12:00:00Z').toLocaleTimeString();
        expect($('.hdd-poll-state').text()).toBe('Live, checked at ' + time + '.');
        expect($('.hdd-poll-state').hasClass('text-danger')).toBe(false);
      });

      it('says the dashboard did not answer, and when it tries again', function () {
        start([row('a', 'IN_PROGRESS')]);
        expect(follow.failed({status: 0}, 6000)).toBe(true);
        expect($('.hdd-poll-state').text()).toBe('Could not check; again in 6 s.');
        expect($('.hdd-poll-state').hasClass('text-danger')).toBe(true);
      });

      it('says what failed as the reply says it, as text', function () {
        start([row('a', 'IN_PROGRESS')]);
        var said = 'Heat <img src=x onerror="window.hddInjected=true"> is down';
        expect(follow.failed({status: 503, responseJSON: {error: said}}, 1500)).toBe(true);
        expect($('.hdd-poll-state').text()).toBe(said + '; again in 2 s.');
        expect($('.hdd-poll-state img').length).toBe(0);
      });

      it('says an error with dollar signs as it is', function () {
        start([row('a', 'IN_PROGRESS')]);
        var said = "rm /tmp/lock.$$ failed: $' $& $`";
        follow.failed({status: 503, responseJSON: {error: said}}, 1500);
        expect($('.hdd-poll-state').text()).toBe(said + '; again in 2 s.');
      });

      it('asks to log in again when the session is gone, and stops', function () {
        start([row('a', 'IN_PROGRESS')]);
        var xhr = {status: 401, getResponseHeader: function (name) {
          return name === 'X-Horizon-Location' ? '/auth/login/?next=/deployments/' : null;
        }};
        expect(follow.failed(xhr, 1500)).toBe(false);
        var $state = $('.hdd-poll-state');
        expect($state.text()).toBe('Your session ended. Log in again');
        expect($state.find('a').attr('href')).toBe('/auth/login/?next=/deployments/');
        expect($state.find('a').text()).toBe('Log in again');
      });

      it('polls through hdd.followRuns end to end', function () {
        window.hdd.followRuns.and.callThrough();
        jasmine.clock().install();
        try {
          var calls = hddSpec.fakeAjax();
          start([row('a', 'IN_PROGRESS')]);
          jasmine.clock().tick(0);
          expect(calls.length).toBe(1);
          expect(calls[0].options.headers['X-CSRFToken']).toBe('tok-1');
          calls[0].reply(reply({rows: {a: row('a', 'COMPLETE')}}));
          expect(rowOf('a').attr('data-status')).toBe('COMPLETE');
          jasmine.clock().tick(60000);
          expect(calls.length).toBe(1);
          expect($('.hdd-poll-state').text()).toBe('Nothing runs.');
        } finally {
          jasmine.clock().uninstall();
        }
      });
    });

    describe('on a running deployment\'s own page', function () {
      var source;
      var fakeWindow;

      beforeAll(function () {
        return hddSpec.source('deployment_poller').then(function (text) { source = text; });
      });

      // Its own window: it reloads the page when the run ends. ``more``: more of the page.
      function start(more) {
        fakeWindow = {
          hdd: {followRuns: function (options) { follow = options; }},
          location: {href: 'http://dashboard/deployments/d-1/',
                     reload: jasmine.createSpy('reload')}
        };
        hddSpec.fixture('<input name="csrfmiddlewaretoken" value="tok-2">' +
          '<input name="csrfmiddlewaretoken" value="other">' +
          '<p class="hdd-detail-poll" data-url="/status/" data-id="d-1" ' +
          'data-running-text="Running, checked at %(time)s." ' +
          'data-error-text="Could not check; again in %(seconds)s s." ' +
          'data-login-text="Your session ended." data-login-link="Log in again"></p>' +
          (more || ''));
        hddSpec.evaluate(source, fakeWindow).init();
      }

      it('follows that one run, from the next interval', function () {
        start();
        expect(follow.url).toBe('/status/');
        expect(follow.ids()).toEqual(['d-1']);
        expect(follow.token).toBe('tok-2');
        expect(follow.later).toBe(true);
      });

      it('says it still runs, as of the reply', function () {
        start();
        expect(follow.done(reply({running: ['d-1']}))).not.toBe(false);
        var time = new Date('2024-01-01T12:00:00Z').toLocaleTimeString();
        expect($('.hdd-detail-poll').text()).toBe('Running, checked at ' + time + '.');
        expect(fakeWindow.location.reload).not.toHaveBeenCalled();
      });

      it('reloads once to show the result when the run ended, and stops', function () {
        start();
        expect(follow.done(reply({running: ['d-2']}))).toBe(false);
        expect(fakeWindow.location.reload).toHaveBeenCalledTimes(1);
      });

      it('asks for nothing more where the page shows no live output', function () {
        start();
        expect(follow.data()).toEqual({});
      });

      it('asks for what is new beyond the live output it shows, and hands it over',
         function () {
           start('<div class="hdd-live" data-live-for="d-2"></div>' +
                 '<div class="hdd-live" data-live-for="d-1" data-stdout-bytes="12" ' +
                 'data-stderr-bytes="0"></div>');
           var handed = jasmine.createSpy('live output');
           $('.hdd-live[data-live-for="d-1"]').on('hdd:live-output', function (event, got) {
             handed(got);
           });
           expect(follow.data()).toEqual({live: 'd-1', stdout_bytes: '12', stderr_bytes: '0'});
           follow.done(reply({running: ['d-1'], live: {seq: 2, stdout: 'more\n'}}));
           expect(handed).toHaveBeenCalledWith({seq: 2, stdout: 'more\n'});
           // The run ended: the page reloads, the live text goes with it.
           handed.calls.reset();
           follow.done(reply({running: []}));
           expect(handed).not.toHaveBeenCalled();
         });

      it('links to this page to log in again when Horizon names no other', function () {
        start();
        expect(follow.failed({status: 401, getResponseHeader: function () { return null; }},
                             1500)).toBe(false);
        expect($('.hdd-detail-poll a').attr('href')).toBe('http://dashboard/deployments/d-1/');
        expect(follow.failed({status: 502}, 12000)).toBe(true);
        expect($('.hdd-detail-poll').text()).toBe('Could not check; again in 12 s.');
      });
    });
  });
}());
