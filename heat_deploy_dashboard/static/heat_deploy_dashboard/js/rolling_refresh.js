/* A rolling run's operation page while its batches go on: reloaded every few seconds, so that
   the runs of each new batch appear (deployment_poller.js follows only the rows shown). Not
   while a dialog is open or a row is ticked, which a reload would lose. */
(function () {
  'use strict';

  function busy() {
    return $('.modal.in').length > 0 ||
      $('table#operation input.table-row-multi-select:checked').length > 0;
  }

  horizon.addInitFunction(function () {
    var $rolling = $('.hdd-rolling[data-refresh-seconds]');
    if (!$rolling.length) {
      return;
    }
    var ms = 1000 * Number($rolling.attr('data-refresh-seconds'));
    (function later() {
      setTimeout(function () {
        if (busy()) {
          later();
        } else {
          window.location.reload();
        }
      }, ms);
    }());
  });
}());
