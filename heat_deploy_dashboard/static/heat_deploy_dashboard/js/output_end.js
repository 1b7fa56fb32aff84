/* An output shows its end first: errors are at the end. Each output box (pre.hdd-output with
   data-end-first) is scrolled to its bottom once, when it is first seen (a box on a tab not
   shown yet has no height to scroll). */
(function () {
  'use strict';

  function toEnd() {
    $('pre.hdd-output[data-end-first]:visible').each(function () {
      if (!$(this).data('hddAtEnd')) {
        this.scrollTop = this.scrollHeight;
        $(this).data('hddAtEnd', true);
      }
    });
  }

  horizon.addInitFunction(toEnd);
  $(document).on('shown.bs.tab', toEnd);
}());
