/* A link to one line of a run's output (the results pages link each matching line as
   ?output=NAME&line=NUMBER) marks that line and scrolls to it. The output box
   (pre.hdd-output[data-output]) holds the text only; the line is wrapped in a <mark> built
   from text nodes, never from HTML. A box that shows only the end of a long output says
   which line it starts with (data-first-line). */
(function () {
  'use strict';

  function markLine() {
    var asked = new URLSearchParams(window.location.search);
    var name = asked.get('output');
    var number = parseInt(asked.get('line') || '', 10);
    if (!name || !(number > 0)) {
      return;
    }
    var box = $('pre.hdd-output[data-output]').filter(function () {
      return $(this).attr('data-output') === name;
    }).first();
    if (!box.length || box.data('hddLineMarked')) {
      return;
    }
    var first = parseInt(box.attr('data-first-line') || '1', 10);
    var lines = box.text().split('\n');
    var index = number - first;
    if (index < 0 || index >= lines.length) {
      return;
    }
    var pre = box.get(0);
    var mark = document.createElement('mark');
    mark.className = 'hdd-output-line';
    mark.appendChild(document.createTextNode(lines[index]));
    pre.textContent = '';
    pre.appendChild(document.createTextNode(lines.slice(0, index).join('\n') +
                                            (index ? '\n' : '')));
    pre.appendChild(mark);
    pre.appendChild(document.createTextNode((index < lines.length - 1 ? '\n' : '') +
                                            lines.slice(index + 1).join('\n')));
    box.data('hddLineMarked', true);
    // Past output_end.js's scroll to the end.
    box.data('hddAtEnd', true);
    pre.scrollTop = mark.offsetTop - pre.offsetTop - pre.clientHeight / 3;
    mark.scrollIntoView({block: 'center'});
  }

  horizon.addInitFunction(markLine);
  $(document).on('shown.bs.tab', markLine);
}());
