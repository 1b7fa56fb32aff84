/* An operation's page as its rows change (deployment_poller.js replaces them): its counts by
   status, Cancel All Running while anything runs, Run Again on Failed once a run failed. */
(function () {
  'use strict';

  function recount($table) {
    var shown = {};
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
    $table.on('hdd:rows-replaced', function () { recount($table); });
  });
}());
