/* A running run's live output on its page (_live_output.html): the lines the server has sent
   while the script runs, each stream in a box of fixed height. The page's one status poll
   (deployment_poller.js) sends the byte totals the boxes show and hands what is new to this
   script (the "hdd:live-output" event); the poll reloads the page when the run ends, and the
   final output takes the place of the live text. Text goes in as text nodes: the server's
   text is never read as HTML or, in Horizon's AngularJS, as a template. "Follow" keeps the
   newest lines in view: scrolling up in a box stops it, scrolling back to the end or ticking
   it starts it again. */
(function () {
  'use strict';

  // The most text a box keeps; once past it, the oldest half goes: a chatty script's hour of
  // 64 KiB a poll would otherwise take the browser's memory.
  var MAX_CHARS = 1000000;
  // How far from its end a box still counts as at its end (a rounding of the layout).
  var END_SLACK_PX = 4;

  function atEnd(box) {
    return box.scrollTop + box.clientHeight >= box.scrollHeight - END_SLACK_PX;
  }

  function start($live) {
    var shownAt = Date.now();
    var silentAfterMs = Number($live.attr('data-silent-after')) * 1000;
    var $follow = $live.find('.hdd-live-follow input');
    var $boxes = $live.find('pre[data-stream]');
    var $state = $live.find('.hdd-live-state');
    var $silent = $live.find('.hdd-live-silent');

    function note(className, text) {
      return $('<span>').addClass(className).text(text + '\n')[0];
    }

    // The oldest text goes (half of what is kept), noted once at the top.
    function trim(box) {
      var extra = box.textContent.length - MAX_CHARS;
      if (extra <= 0) {
        return;
      }
      extra += MAX_CHARS / 2;
      while (extra > 0) {
        var first = box.firstChild;
        var length = first.textContent.length;
        if (length <= extra) {
          box.removeChild(first);
          extra -= length;
        } else {
          first.textContent = first.textContent.slice(extra);
          extra = 0;
        }
      }
      box.insertBefore(note('hdd-live-dropped', $live.attr('data-dropped-text')),
                       box.firstChild);
    }

    function append(box, stream, got) {
      var notShown = got[stream + '_not_shown'];
      if (notShown > 0) {
        if (box.textContent && box.textContent.slice(-1) !== '\n') {
          box.appendChild(document.createTextNode('\n'));
        }
        // Put in by a function: a string would have its $$, $& and $' read as patterns.
        box.appendChild(note('hdd-live-gap', $live.attr('data-not-shown-text').replace(
          '%(bytes)s', function () { return notShown.toLocaleString(); })));
      }
      if (got[stream]) {
        box.appendChild(document.createTextNode(got[stream]));
      }
      trim(box);
      $live.attr('data-' + stream + '-bytes', got[stream + '_bytes']);
    }

    function toEnd() {
      $boxes.each(function () { this.scrollTop = this.scrollHeight; });
    }

    $live.on('hdd:live-output', function (event, got) {
      if (got === undefined) {
        // The poll could not tell of it this time (it knew no config of the run).
        return;
      }
      if (got && got.error) {
        $state.text(got.error).addClass('text-danger');
        return;
      }
      if (!got) {
        // Nothing sent yet: after the agent's interval and a margin, say why it may be so.
        $silent.toggleClass('hidden', Date.now() - shownAt < silentAfterMs);
        return;
      }
      $silent.addClass('hidden');
      $state.text($live.attr('data-live-text')).removeClass('text-danger');
      $boxes.each(function () {
        append(this, this.getAttribute('data-stream'), got);
      });
      if ($follow.prop('checked')) {
        toEnd();
      }
    });
    $boxes.on('scroll', function () {
      $follow.prop('checked', atEnd(this));
    });
    $follow.on('change', function () {
      if (this.checked) {
        toEnd();
      }
    });
  }

  horizon.addInitFunction(function () {
    $('.hdd-live[data-live-for]').each(function () { start($(this)); });
  });
}());
