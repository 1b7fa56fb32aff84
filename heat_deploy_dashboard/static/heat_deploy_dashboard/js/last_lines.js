/* An operation's page: the last line each of its running rows' runs has sent live, in the
   row's Last Line cell. The status poll's reply carries them ("lines": {id: line}), for the
   running rows shown whose runs send live output; a row the poll redraws gets its line back
   from the same reply. Text only, cut with an ellipsis (CSS) so that the table does not
   widen, the whole line in the cell's title. */
(function () {
  'use strict';

  // Compared as text: an id the reply names is never made into a selector.
  function rowOf($table, id) {
    return $table.find('tbody tr[data-object-id]').filter(function () {
      return this.getAttribute('data-object-id') === id;
    });
  }

  $(document).on('hdd:rows-replaced', 'table', function (event, reply) {
    var $table = $(this);
    $.each((reply && reply.lines) || {}, function (id, line) {
      rowOf($table, id).find('.hdd-last-line').text(line).attr('title', line);
    });
  });
}());
