/* Run Action's "Repeat (cron, UTC)" field: the next five times the pattern fires, in the
   user's time zone, under the field as it is typed (asked of the dashboard, which reads the
   pattern as Mistral will). */
(function () {
  'use strict';

  var WAIT_MS = 300;

  function previewOf($field) {
    var $list = $field.siblings('ul.hdd-schedule-preview');
    if (!$list.length) {
      $list = $('<ul class="hdd-schedule-preview list-unstyled help-block" aria-live="polite">')
        .insertAfter($field);
    }
    return $list;
  }

  function show($field) {
    var pattern = $.trim($field.val());
    var $list = previewOf($field);
    if (!pattern) {
      $list.empty();
      return;
    }
    $.ajax({url: $field.attr('data-hdd-preview-url'), data: {pattern: pattern},
            dataType: 'json', timeout: 10000})
      .done(function (reply) {
        // The pattern may have changed while the reply was on its way.
        if ($.trim($field.val()) !== pattern) {
          return;
        }
        $list.empty();
        if (reply.error) {
          $list.append($('<li class="text-danger">').text(reply.error));
          return;
        }
        $.each(reply.times, function (i, time) {
          $list.append($('<li>').text(time));
        });
      });
  }

  var timer = null;
  $(document).on('input', 'input[data-hdd-preview-url]', function () {
    var $field = $(this);
    clearTimeout(timer);
    timer = setTimeout(function () { show($field); }, WAIT_MS);
  });
}());
