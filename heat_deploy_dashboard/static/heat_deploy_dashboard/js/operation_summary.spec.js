(function () {
  'use strict';

  var STATUSES = ['IN_PROGRESS', 'COMPLETE', 'FAILED', 'CANCELLED'];

  function page(options) {
    var counts = STATUSES.map(function (status) {
      return '<li class="hidden" data-count-of="' + status + '">' + status +
        ': <span class="hdd-count-number">?</span></li>';
    }).join('');
    var rows = (options.rows || []).map(function (status) {
      return '<tr data-shown-status="' + status + '"><td>' + status + '</td></tr>';
    }).join('');
    var $fixture = hddSpec.fixture('<ul class="hdd-operation-counts">' + counts + '</ul>' +
      '<span class="hdd-poll-state" data-table="operation" data-url="/status/" ' +
      'data-live-text="Checked at %(time)s"></span>' +
      (options.rolling ? '<div class="hdd-rolling" data-refresh-seconds="5"></div>' : '') +
      '<table id="operation"><thead><tr><th class="table_actions">' +
      '<a id="operation__action_cancel_all" class="btn">Cancel All Running</a>' +
      '<a id="operation__action_rerun_failed" class="btn">Run Again on Failed</a>' +
      '</th></tr></thead><tbody>' + rows + '</tbody></table>');
    $fixture.find('.hdd-poll-state').attr('data-elsewhere', (options.elsewhere || []).join(' '));
    if (options.counts) {
      // As Django's json_script writes it.
      $('<script type="application/json" id="hdd-elsewhere-counts">')
        .text(JSON.stringify(options.counts)).appendTo($fixture);
    }
    hddSpec.init('operation_summary');
    return $fixture;
  }

  function shownCounts() {
    var shown = {};
    $('.hdd-operation-counts [data-count-of]').not('.hidden').each(function () {
      shown[this.getAttribute('data-count-of')] = Number($(this).find('.hdd-count-number').text());
    });
    return shown;
  }

  function visible(id) {
    return !$('#' + id).hasClass('hidden');
  }

  function replaced(reply) {
    $('#operation').trigger('hdd:rows-replaced', reply ? [reply] : []);
  }

  describe('operation_summary.js', function () {
    it('counts this page\'s rows with the other pages\' runs', function () {
      page({rows: ['IN_PROGRESS', 'COMPLETE', 'COMPLETE'],
            counts: {COMPLETE: 10, FAILED: 2}});
      replaced();
      expect(shownCounts()).toEqual({IN_PROGRESS: 1, COMPLETE: 12, FAILED: 2});
      expect(visible('operation__action_cancel_all')).toBe(true);
      expect(visible('operation__action_rerun_failed')).toBe(true);
    });

    it('offers neither button when nothing runs and nothing failed', function () {
      page({rows: ['COMPLETE']});
      replaced();
      expect(shownCounts()).toEqual({COMPLETE: 1});
      expect(visible('operation__action_cancel_all')).toBe(false);
      expect(visible('operation__action_rerun_failed')).toBe(false);
    });

    it('offers Run Again on Failed for a cancelled run too', function () {
      page({rows: ['CANCELLED']});
      replaced();
      expect(visible('operation__action_rerun_failed')).toBe(true);
    });

    it('follows the rows the poller replaced', function () {
      page({rows: ['IN_PROGRESS', 'IN_PROGRESS']});
      replaced();
      expect(shownCounts()).toEqual({IN_PROGRESS: 2});
      $('#operation tbody tr').first().attr('data-shown-status', 'FAILED');
      $('#operation tbody tr').last().attr('data-shown-status', 'COMPLETE');
      replaced({statuses: {}, gone: []});
      expect(shownCounts()).toEqual({FAILED: 1, COMPLETE: 1});
      expect(visible('operation__action_cancel_all')).toBe(false);
    });

    it('moves the other pages\' runs that ended to their new status, once', function () {
      page({rows: ['COMPLETE'], elsewhere: ['e1', 'e2', 'e3'],
            counts: {IN_PROGRESS: 3, COMPLETE: 4}});
      replaced({statuses: {e1: {status: 'FAILED'}, e2: {status: 'IN_PROGRESS'}}, gone: []});
      expect(shownCounts()).toEqual({IN_PROGRESS: 2, COMPLETE: 5, FAILED: 1});
      // e1 is no longer followed: saying it again changes nothing.
      replaced({statuses: {e1: {status: 'FAILED'}, e3: {status: 'COMPLETE'}}, gone: []});
      expect(shownCounts()).toEqual({IN_PROGRESS: 1, COMPLETE: 6, FAILED: 1});
    });

    it('takes a run that is gone off the running count only', function () {
      page({elsewhere: ['e1', 'e2'], counts: {IN_PROGRESS: 2}});
      replaced({statuses: {}, gone: ['e1', 'unknown']});
      expect(shownCounts()).toEqual({IN_PROGRESS: 1});
      replaced({statuses: {}, gone: ['e2']});
      expect(shownCounts()).toEqual({});
      expect(visible('operation__action_cancel_all')).toBe(false);
    });

    it('moves a run of another page the server did not count yet', function () {
      page({rows: [], elsewhere: ['e1']});
      replaced({statuses: {e1: {status: 'COMPLETE'}}, gone: []});
      expect(shownCounts()).toEqual({COMPLETE: 1});
    });

    it('keeps Cancel All Running while a rolling run goes on between batches', function () {
      page({rows: ['COMPLETE'], rolling: true});
      replaced();
      expect(visible('operation__action_cancel_all')).toBe(true);
    });

    it('is used by the deployments poller\'s replies end to end', function () {
      var follow = null;
      spyOn(window.hdd, 'followRuns').and.callFake(function (options) { follow = options; });
      page({rows: [], elsewhere: ['e1'], counts: {IN_PROGRESS: 1}});
      hddSpec.init('deployment_poller');
      follow.done({rows: {}, gone: [], running: [], statuses: {e1: {status: 'COMPLETE'}},
                   checked_at: '2024-01-01T00:00:00Z'});
      expect(shownCounts()).toEqual({COMPLETE: 1});
      expect(visible('operation__action_cancel_all')).toBe(false);
    });

    it('does nothing on a page without an operation\'s table', function () {
      hddSpec.fixture('<ul class="hdd-operation-counts"><li class="hidden" ' +
        'data-count-of="COMPLETE"><span class="hdd-count-number">3</span></li></ul>' +
        '<table id="deployments"><tbody><tr data-shown-status="COMPLETE"></tr></tbody></table>');
      hddSpec.init('operation_summary');
      $('#deployments').trigger('hdd:rows-replaced');
      expect($('[data-count-of]').hasClass('hidden')).toBe(true);
      expect($('.hdd-count-number').text()).toBe('3');
    });
  });
}());
