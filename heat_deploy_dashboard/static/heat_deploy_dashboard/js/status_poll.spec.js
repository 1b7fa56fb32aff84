(function () {
  'use strict';

  describe('status_poll.js: hdd.followRuns', function () {
    var calls;

    function follow(options) {
      var it = $.extend({
        url: '/project/deployments/status/',
        ids: function () { return ['r1', 'r2']; },
        token: 'the-token',
        done: jasmine.createSpy('done'),
        failed: jasmine.createSpy('failed')
      }, options);
      window.hdd.followRuns(it);
      return it;
    }

    beforeEach(function () {
      jasmine.clock().install();
      jasmine.clock().mockDate(new Date(Date.UTC(2024, 0, 1)));
      calls = hddSpec.fakeAjax();
    });

    afterEach(function () {
      jasmine.clock().uninstall();
    });

    it('polls at once, POSTing every id with the CSRF token', function () {
      follow();
      expect(calls.length).toBe(0);
      jasmine.clock().tick(0);
      expect(calls.length).toBe(1);
      var options = calls[0].options;
      expect(options.url).toBe('/project/deployments/status/');
      expect(options.type).toBe('POST');
      expect(options.data).toEqual({id: ['r1', 'r2']});
      // "id=r1&id=r2", as Django's request.POST.getlist reads it.
      expect(options.traditional).toBe(true);
      expect(options.headers).toEqual({'X-CSRFToken': 'the-token'});
      expect(options.dataType).toBe('json');
      expect(options.timeout).toBeGreaterThan(0);
    });

    it('waits one interval first on a page just drawn (later)', function () {
      follow({later: true});
      jasmine.clock().tick(1499);
      expect(calls.length).toBe(0);
      jasmine.clock().tick(1);
      expect(calls.length).toBe(1);
    });

    it('sends more fields, given as an object or by a function asked at each poll', function () {
      var table = 'first';
      follow({data: {table: 'ops'}});
      jasmine.clock().tick(0);
      expect(calls[0].options.data).toEqual({id: ['r1', 'r2'], table: 'ops'});

      follow({data: function () { return {table: table, id: ['mine']}; }});
      jasmine.clock().tick(0);
      expect(calls[1].options.data).toEqual({id: ['mine'], table: 'first'});
      calls[1].reply({});
      table = 'second';
      jasmine.clock().tick(1500);
      expect(calls[2].options.data.table).toBe('second');
    });

    it('hands the reply to done and asks for the ids again at the next poll', function () {
      var ids = ['r1', 'r2'];
      var it = follow({ids: function () { return ids; }});
      jasmine.clock().tick(0);
      calls[0].reply({running: ['r1']});
      expect(it.done).toHaveBeenCalledWith({running: ['r1']});
      ids = ['r1'];
      jasmine.clock().tick(1500);
      expect(calls.length).toBe(2);
      expect(calls[1].options.data.id).toEqual(['r1']);
    });

    it('starts a poll every 1.5 s from start to start when replies are quick', function () {
      follow();
      jasmine.clock().tick(0);
      jasmine.clock().tick(200);
      calls[0].reply({});
      jasmine.clock().tick(1299);
      expect(calls.length).toBe(1);
      jasmine.clock().tick(1);
      expect(calls.length).toBe(2);
    });

    it('pauses at least 0.5 s after a slow reply', function () {
      follow();
      jasmine.clock().tick(0);
      jasmine.clock().tick(1400);
      calls[0].reply({});
      jasmine.clock().tick(499);
      expect(calls.length).toBe(1);
      jasmine.clock().tick(1);
      expect(calls.length).toBe(2);

      jasmine.clock().tick(5000);
      calls[1].reply({});
      jasmine.clock().tick(499);
      expect(calls.length).toBe(2);
      jasmine.clock().tick(1);
      expect(calls.length).toBe(3);
    });

    it('stops when done says false', function () {
      follow({done: function () { return false; }});
      jasmine.clock().tick(0);
      calls[0].reply({});
      jasmine.clock().tick(60000);
      expect(calls.length).toBe(1);
    });

    it('says idle and stops when there is nothing to follow', function () {
      var idle = jasmine.createSpy('idle');
      follow({ids: function () { return []; }, idle: idle});
      jasmine.clock().tick(60000);
      expect(calls.length).toBe(0);
      expect(idle).toHaveBeenCalledTimes(1);
    });

    it('stops quietly with nothing to follow and no idle', function () {
      var it = follow({ids: function () { return []; }});
      expect(function () { jasmine.clock().tick(60000); }).not.toThrow();
      expect(calls.length).toBe(0);
      expect(it.done).not.toHaveBeenCalled();
    });

    it('stops after the last run ends', function () {
      var ids = ['r1'];
      var idle = jasmine.createSpy('idle');
      follow({ids: function () { return ids; }, idle: idle});
      jasmine.clock().tick(0);
      ids = [];
      calls[0].reply({});
      jasmine.clock().tick(1500);
      expect(idle).toHaveBeenCalledTimes(1);
      jasmine.clock().tick(60000);
      expect(calls.length).toBe(1);
    });

    it('retries a failed poll later and later, up to 15 s', function () {
      var it = follow({failed: jasmine.createSpy('failed').and.returnValue(true)});
      var waits = [];
      jasmine.clock().tick(0);
      for (var n = 0; n < 6; n += 1) {
        calls[n].fail(503, {error: 'Heat is down'});
        var waited = 0;
        while (calls.length === n + 1 && waited < 20000) {
          jasmine.clock().tick(100);
          waited += 100;
        }
        waits.push(waited);
      }
      expect(waits).toEqual([1500, 3000, 6000, 12000, 15000, 15000]);
      // failed hears how long until the next try, to say it.
      expect(it.failed.calls.allArgs().map(function (args) { return args[1]; }))
        .toEqual([1500, 3000, 6000, 12000, 15000, 15000]);
      expect(it.failed.calls.argsFor(0)[0].status).toBe(503);
    });

    it('goes back to the usual interval after a poll succeeds again', function () {
      var it = follow();
      jasmine.clock().tick(0);
      calls[0].fail(500);
      jasmine.clock().tick(1500);
      calls[1].fail(500);
      jasmine.clock().tick(3000);
      calls[2].reply({});
      jasmine.clock().tick(1500);
      calls[3].fail(500);
      expect(it.failed.calls.mostRecent().args[1]).toBe(1500);
      jasmine.clock().tick(1499);
      expect(calls.length).toBe(4);
      jasmine.clock().tick(1);
      expect(calls.length).toBe(5);
    });

    it('stops when failed says false (a lost session, 401)', function () {
      var it = follow({failed: function (xhr) { return xhr.status !== 401; }});
      jasmine.clock().tick(0);
      calls[0].fail(401);
      jasmine.clock().tick(60000);
      expect(calls.length).toBe(1);
      expect(it.done).not.toHaveBeenCalled();
    });
  });
}());
