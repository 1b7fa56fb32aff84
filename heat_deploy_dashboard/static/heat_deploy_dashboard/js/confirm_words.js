/* A confirm dialog that reads as the choice it is. Horizon's dialog for a table action is
   dismissed with "Cancel": beside "Cancel Run", that reads as the action itself. A table
   action with data-dismiss-label names the dismiss button so ("Keep running"); one with
   data-confirm-body says that instead of listing the ticked rows (it needs none ticked). */
(function () {
  'use strict';

  $(document).on('click', 'button[data-dismiss-label]', function () {
    var label = $(this).attr('data-dismiss-label');
    var body = $(this).attr('data-confirm-body');
    // Horizon builds the dialog in a click handler of its own, which may run after this one.
    window.setTimeout(function () {
      var $dialog = $('#modal_wrapper .modal').last();
      $dialog.find('.modal-footer .cancel').text(label);
      if (body) {
        $dialog.find('.modal-body').text(body);
      }
    }, 0);
  });
}());
