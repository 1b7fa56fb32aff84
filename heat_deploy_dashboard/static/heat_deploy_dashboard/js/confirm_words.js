/* A confirm dialog that reads as the choice it is. Horizon's dialog for a table action is
   dismissed with "Cancel": beside "Cancel Run", that reads as the action itself. A table
   action with data-dismiss-label names the dismiss button so ("Keep running"). */
(function () {
  'use strict';

  $(document).on('click', 'button[data-dismiss-label]', function () {
    var label = $(this).attr('data-dismiss-label');
    // Horizon builds the dialog in a click handler of its own, which may run after this one.
    window.setTimeout(function () {
      $('#modal_wrapper .modal').last().find('.modal-footer .cancel').text(label);
    }, 0);
  });
}());
