/* Live status of the running rows of a deployments table: one request per poll for all of
   them (hdd.followRuns), a visible "last checked" time, and, instead of going silent, what
   failed and when it retries, or a link to log in again when the session is gone. Stops when
   nothing runs. */
(function () {
  'use strict';

  function runningIds($table) {
    return $table.find('tbody tr[data-status="IN_PROGRESS"]').map(function () {
      return $(this).attr('data-object-id');
    }).get();
  }

  // The row of a deployment id, compared as text: an id the reply echoes back is never
  // made into a selector, where a quote in it would throw and stop the poller.
  function rowOf($table, id) {
    return $table.find('tbody tr[data-object-id]').filter(function () {
      return this.getAttribute('data-object-id') === id;
    });
  }

  // A failed poll says what its reply says: a lost session (Horizon answers a request of an
  // expired session with 401) asks to log in again and stops polling; a reply with its own
  // sentence (the status view names the service that failed) shows it; anything else means
  // the dashboard itself did not answer. Returns whether to poll again.
  function sayFailure($state, xhr, retryMs) {
    $state.empty().addClass('text-danger');
    if (xhr.status === 401) {
      $state.text($state.attr('data-login-text') + ' ').append(
        $('<a>').attr('href', xhr.getResponseHeader('X-Horizon-Location') ||
                              window.location.href)
          .text($state.attr('data-login-link')));
      return false;
    }
    var said = xhr.responseJSON && xhr.responseJSON.error;
    // Put in by a function: a string would have its $$, $& and $' read as patterns.
    var text = said ? $state.attr('data-service-text').replace('%(error)s',
                                                               function () { return said; })
      : $state.attr('data-error-text');
    $state.text(text.replace('%(seconds)s', Math.round(retryMs / 1000)));
    return true;
  }

  // A poll asks about this many ids at most (the status view's MAX_IDS).
  var MAX_IDS = 200;

  function start($state) {
    var $table = $('table#' + $state.attr('data-table'));
    // The running runs of the table's other pages (an operation's), until they end.
    var elsewhere = ($state.attr('data-elsewhere') || '').split(' ').filter(Boolean);

    function say(text) {
      $state.text(text).removeClass('text-danger');
    }

    function elsewhereAsked() {
      return elsewhere.slice(0, Math.max(0, MAX_IDS - runningIds($table).length));
    }

    window.hdd.followRuns({
      url: $state.attr('data-url'),
      ids: function () { return runningIds($table).concat(elsewhereAsked()); },
      data: function () {
        return {table: $state.attr('data-table'), elsewhere: elsewhereAsked(),
                id: runningIds($table)};
      },
      // The token Horizon put in the table's form.
      token: $table.closest('form').find('input[name="csrfmiddlewaretoken"]').val(),
      idle: function () { say($state.attr('data-idle-text')); },
      done: function (reply) {
        var dialogOpen = $('#modal_wrapper .modal.in, .modal.in').length > 0;
        $.each(reply.rows, function (id, html) {
          var $row = rowOf($table, id);
          // A row a person is working with stays as it is until the next poll: replacing
          // it would detach the button an open confirm dialog submits through, close its
          // action menu, or untick it.
          if (dialogOpen || $row.find('.btn-group.open').length) {
            return;
          }
          var ticked = $row.find('input.table-row-multi-select').is(':checked');
          // Rendered and escaped by Django; parsed without running any script in it, and
          // not compiled by Angular (jQuery inserts it), so {$ $} in it stays text.
          var $fresh = $($.parseHTML(html, document, false)).filter('tr');
          $fresh.find('input.table-row-multi-select').prop('checked', ticked);
          $row.replaceWith($fresh);
        });
        $.each(reply.gone, function (i, id) {
          rowOf($table, id).remove();
        });
        elsewhere = elsewhere.filter(function (id) { return reply.running.indexOf(id) >= 0 ||
          (!Object.prototype.hasOwnProperty.call(reply.statuses, id) &&
           reply.gone.indexOf(id) < 0); });
        $table.trigger('hdd:rows-replaced', [reply]);
        var checked = new Date(reply.checked_at).toLocaleTimeString();
        say($state.attr('data-live-text').replace('%(time)s', checked));
      },
      failed: function (xhr, retryMs) { return sayFailure($state, xhr, retryMs); }
    });
  }

  /* A running deployment's own page: poll it alone, and show its result by reloading once
     when the server has reported. Where the page shows the run's live output
     (live_output.js), the same poll asks for what is new beyond the byte totals it shows. */
  function watchDetail($state) {
    var id = $state.attr('data-id');
    var $live = $('.hdd-live[data-live-for]').filter(function () {
      return this.getAttribute('data-live-for') === id;
    });
    window.hdd.followRuns({
      url: $state.attr('data-url'),
      ids: function () { return [id]; },
      data: function () {
        return $live.length ? {live: id, stdout_bytes: $live.attr('data-stdout-bytes'),
                               stderr_bytes: $live.attr('data-stderr-bytes')} : {};
      },
      token: $('input[name="csrfmiddlewaretoken"]').first().val(),
      later: true,
      done: function (reply) {
        if (reply.running.indexOf(id) < 0) {
          window.location.reload();
          return false;
        }
        $live.trigger('hdd:live-output', [reply.live]);
        var checked = new Date(reply.checked_at).toLocaleTimeString();
        $state.text($state.attr('data-running-text').replace('%(time)s', checked))
          .removeClass('text-danger');
      },
      failed: function (xhr, retryMs) { return sayFailure($state, xhr, retryMs); }
    });
  }

  horizon.addInitFunction(function () {
    $('.hdd-poll-state[data-url]').each(function () { start($(this)); });
    $('.hdd-detail-poll[data-url]').each(function () { watchDetail($(this)); });
  });
}());
