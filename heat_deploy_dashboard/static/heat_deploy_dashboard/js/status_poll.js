/* The one loop that follows running runs, for every page that does (a deployments table, a
   run's own page, the components map): one POST to the status poll for every id the page
   follows. A poll starts every POLL_MS (from start to start, so a result that lands while a
   reply is on its way waits one interval, not the reply's time plus one), and never less
   than MIN_PAUSE_MS after the last reply, so that a slow dashboard is not polled back to
   back; after a failure, again later and later, up to MAX_RETRY_MS. The pages call it from
   their init functions, when every script is loaded. */
(function () {
  'use strict';

  var POLL_MS = 1500;
  var MIN_PAUSE_MS = 500;
  var MAX_RETRY_MS = 15000;

  window.hdd = window.hdd || {};

  /* follow.url: the status poll's; follow.ids(): the ids to follow now (none: stop, after
     follow.idle()), sent as "id"; follow.data: more fields to send (an object, or a function
     that gives one, which may send "id" itself); follow.token: the CSRF token;
     follow.done(reply) and follow.failed(xhr, retryMs): false stops the loop; follow.later:
     the first poll waits one interval (the page was just drawn from Heat). */
  window.hdd.followRuns = function (follow) {
    var retryMs = POLL_MS;

    function poll() {
      var startedAt = Date.now();
      var ids = follow.ids();
      if (!ids.length) {
        if (follow.idle) {
          follow.idle();
        }
        return;
      }
      // POSTed: about 100 ids no longer fit in a request line (gunicorn refuses more than
      // 4094 bytes, Apache 8190), and a poll may record a result or a timeout in Heat.
      var data = typeof follow.data === 'function' ? follow.data() : follow.data;
      $.ajax({url: follow.url, type: 'POST', data: $.extend({id: ids}, data),
              traditional: true, dataType: 'json', timeout: 20000,
              headers: {'X-CSRFToken': follow.token}})
        .done(function (reply) {
          if (follow.done(reply) === false) {
            return;
          }
          retryMs = POLL_MS;
          setTimeout(poll, Math.max(MIN_PAUSE_MS, POLL_MS - (Date.now() - startedAt)));
        })
        .fail(function (xhr) {
          if (follow.failed(xhr, retryMs) !== false) {
            setTimeout(poll, retryMs);
            retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
          }
        });
    }
    setTimeout(poll, follow.later ? POLL_MS : 0);
  };
}());
