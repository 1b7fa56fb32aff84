/* A running run's duration ticks while its page is open, and its time left (data-count="down")
   counts down to zero. Each counts from the figure the server measured when it drew the row
   (data-seconds), not from the browser's clock, which may differ from the cloud's. A row the
   poller replaces starts again from its new figure. */
(function () {
  'use strict';

  // Horizon's JavaScript catalog translates (its heat_deploy_dashboard domain); a page
  // without it reads English.
  var gettext = window.gettext || function (text) { return text; };

  function filled(format, figures) {
    return format.replace(/%\((\w+)\)s/g, function (all, name) { return figures[name]; });
  }

  // As content/times.duration writes it: "1h 02m 03s", "2m 05s", "4s", translated.
  function formatted(total) {
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    function twoDigits(number) {
      return (number < 10 ? '0' : '') + number;
    }
    if (hours) {
      return filled(gettext('%(hours)sh %(minutes)sm %(seconds)ss'),
                    {hours: hours, minutes: twoDigits(minutes), seconds: twoDigits(seconds)});
    }
    if (minutes) {
      return filled(gettext('%(minutes)sm %(seconds)ss'),
                    {minutes: minutes, seconds: twoDigits(seconds)});
    }
    return filled(gettext('%(seconds)ss'), {seconds: seconds});
  }

  function tick() {
    var now = Date.now();
    $('.hdd-elapsed[data-seconds]').each(function () {
      var $cell = $(this);
      var shownAt = $cell.data('hddShownAt');
      if (shownAt === undefined) {
        shownAt = now;
        $cell.data('hddShownAt', shownAt);
      }
      var base = parseInt($cell.attr('data-seconds'), 10) || 0;
      var passed = Math.floor((now - shownAt) / 1000);
      $cell.text(formatted($cell.attr('data-count') === 'down' ? Math.max(0, base - passed)
        : base + passed));
    });
  }

  window.setInterval(tick, 1000);
}());
