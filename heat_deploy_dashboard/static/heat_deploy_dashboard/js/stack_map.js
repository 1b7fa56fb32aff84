/* A components map follows its running nodes live (hdd.followRuns): one POST to the
   deployments' status poll for all of them, until none runs. A node changes only its status
   class and words; its link already leads to the run. */
(function () {
  'use strict';

  function start($map) {
    var classes = JSON.parse($map.attr('data-status-classes'));
    var allClasses = $.map(classes, function (css) { return 'hdd-map-' + css; })
      .concat(['hdd-map-none']);

    function nodesOf(id) {
      // Compared as text: an id is never made into a selector.
      return $map.find('a.hdd-map-node[data-run-id]').filter(function () {
        return this.getAttribute('data-run-id') === id;
      });
    }

    function show(id, shown) {
      nodesOf(id).each(function () {
        var $node = $(this);
        var words = [shown.label, $node.attr('data-action')].filter(Boolean).join(' \u00b7 ');
        // SVG elements take classes through the attribute: jQuery 1.x cannot set them.
        var css = ($node.attr('class') || '').split(' ').filter(function (each) {
          return allClasses.indexOf(each) < 0;
        }).concat(['hdd-map-' + (classes[shown.status] || 'none')]).join(' ');
        $node.attr('class', css);
        $node.find('.hdd-map-status').text(words);
        // The label ends with the status the box was drawn with (data-label).
        $node.attr('aria-label', ($node.attr('aria-label') || '').replace(
          $node.attr('data-label'), shown.label));
        $node.attr('data-label', shown.label);
        if (shown.status !== 'IN_PROGRESS') {
          $node.removeAttr('data-run-id');
        }
      });
    }

    window.hdd.followRuns({
      url: $map.attr('data-status-url'),
      ids: function () {
        return $.unique($map.find('a.hdd-map-node[data-run-id]').map(function () {
          return this.getAttribute('data-run-id');
        }).get());
      },
      token: $map.find('input[name="csrfmiddlewaretoken"]').val(),
      later: true,
      done: function (reply) {
        $.each(reply.statuses, show);
        $.each(reply.gone, function (i, id) {
          nodesOf(id).removeAttr('data-run-id');
        });
      },
      // A lost session stops the poll; anything else is tried again, more slowly.
      failed: function (xhr) { return xhr.status !== 401; }
    });
  }

  horizon.addInitFunction(function () {
    $('.hdd-map[data-status-url]').each(function () { start($(this)); });
  });
}());
