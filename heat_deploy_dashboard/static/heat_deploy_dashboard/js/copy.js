/* Copy buttons (_copy_button.html): the text of the <pre> beside the button, in the nearest
   .hdd-copyable around it, to the clipboard. The clipboard API needs a secure page (HTTPS or
   localhost); elsewhere the browser's older copy command does it. */
(function () {
  'use strict';

  function copyBySelection(text) {
    var $area = $('<textarea readonly>').val(text)
      .css({position: 'fixed', top: 0, left: 0, opacity: 0}).appendTo('body');
    $area[0].select();
    var copied;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    $area.remove();
    return copied;
  }

  $(document).on('click', 'button.hdd-copy', function () {
    var $button = $(this);
    var text = $button.closest('.hdd-copyable').find('pre').first().text();

    function say(copied) {
      $button.text($button.attr(copied ? 'data-copied-text' : 'data-failed-text'));
      window.setTimeout(function () {
        $button.text($button.attr('data-copy-text'));
      }, 2000);
    }

    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { say(true); },
        function () { say(copyBySelection(text)); });
    } else {
      say(copyBySelection(text));
    }
  });
}());
