/* An operation's page as its rows change (deployment_poller.js replaces them): its counts by
   status, Cancel All Running while anything runs, Run Again on Failed once a run failed. The
   counts are this page's rows plus the runs of the other pages: counted by the server
   (#hdd-elsewhere-counts), their running ones moved to the status the poll gives them. */
(function () {
  'use strict';

  function readElsewhere() {
    var counted = document.getElementById('hdd-elsewhere-counts');
    var running = {};
    ($('.hdd-poll-state[data-table="operation"]').attr('data-elsewhere') || '').split(' ')
      .filter(Boolean).forEach(function (id) { running[id] = true; });
    return {counts: counted ? JSON.parse(counted.textContent) : {}, running: running};
  }

  // A running run of another page that ended (or is gone) leaves IN_PROGRESS.
  function moveElsewhere(elsewhere, reply) {
    Object.keys(elsewhere.running).forEach(function (id) {
      var said = reply.statuses[id];
      var ended = said && said.status !== 'IN_PROGRESS';
      if (!ended && reply.gone.indexOf(id) < 0) {
        return;
      }
      delete elsewhere.running[id];
      elsewhere.counts.IN_PROGRESS = (elsewhere.counts.IN_PROGRESS || 1) - 1;
      if (ended) {
        elsewhere.counts[said.status] = (elsewhere.counts[said.status] || 0) + 1;
      }
    });
  }

  function recount($table, elsewhere) {
    var shown = $.extend({}, elsewhere.counts);
    $table.find('tbody tr[data-shown-status]').each(function () {
      var status = this.getAttribute('data-shown-status');
      shown[status] = (shown[status] || 0) + 1;
    });
    $('.hdd-operation-counts [data-count-of]').each(function () {
      var count = shown[this.getAttribute('data-count-of')] || 0;
      $(this).toggleClass('hidden', !count).find('.hdd-count-number').text(count);
    });
    // A rolling run still going on can be stopped between its batches too.
    var rollingOn = $('.hdd-rolling[data-refresh-seconds]').length > 0;
    $table.find('.table_actions [id$="__action_cancel_all"]')
      .toggleClass('hidden', !(shown.IN_PROGRESS || rollingOn));
    $table.find('.table_actions [id$="__action_rerun_failed"]')
      .toggleClass('hidden', !(shown.FAILED || shown.CANCELLED));
  }

  horizon.addInitFunction(function () {
    var $table = $('table#operation');
    if (!$table.length) {
      return;
    }
    var elsewhere = readElsewhere();
    $table.on('hdd:rows-replaced', function (event, reply) {
      if (reply) {
        moveElsewhere(elsewhere, reply);
      }
      recount($table, elsewhere);
    });
  });
}());
