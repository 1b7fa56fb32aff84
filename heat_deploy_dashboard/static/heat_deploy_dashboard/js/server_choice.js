/* Run Action's choosers above its server list (run_action/_servers_field.html): the name,
 * stack and last-run filters show only the servers that match, and the buttons tick exactly
 * those shown, all, or none. The last run is of the action the form has chosen
 * (data-hdd-last on each checkbox: {action: status}; never run: NEVER). Without this script
 * the choosers stay hidden and every checkbox shows. */
(function () {
  'use strict';

  function boxes(choosers) {
    return $(choosers).next('.hdd-server-boxes').find('input[type="checkbox"]');
  }

  function lastStatus(box, action) {
    // Written by the server with json.dumps: {action: status}.
    var last = JSON.parse(box.getAttribute('data-hdd-last') || '{}');
    return Object.prototype.hasOwnProperty.call(last, action) ? last[action] : 'NEVER';
  }

  function matches(box, wanted) {
    var label = $(box).closest('.themable-radio').text().toLowerCase();
    var stacks = (box.getAttribute('data-hdd-stacks') || '').split(' ');
    return (!wanted.name || label.indexOf(wanted.name) !== -1) &&
      (!wanted.stack || stacks.indexOf(wanted.stack) !== -1) &&
      (!wanted.last || lastStatus(box, wanted.action) === wanted.last);
  }

  function say(choosers, all) {
    var shown = all.filter(function () { return !$(this).closest('.themable-radio').prop('hidden'); });
    var chosen = all.filter(':checked');
    var hidden = chosen.length - shown.filter(':checked').length;
    var count = $(choosers).find('.hdd-choose-count');
    var text = count.attr(hidden ? 'data-hidden-chosen' : 'data-counted');
    count.text(text.replace('%(shown)s', shown.length).replace('%(all)s', all.length)
      .replace('%(chosen)s', chosen.length).replace('%(hidden)s', hidden));
  }

  function update(choosers) {
    var form = $(choosers).closest('form');
    var wanted = {
      name: String($(choosers).find('.hdd-choose-name').val() || '').trim().toLowerCase(),
      stack: $(choosers).find('.hdd-choose-stack').val() || '',
      last: $(choosers).find('.hdd-choose-last').val() || '',
      action: form.find('select[name="action"]').val()
    };
    var all = boxes(choosers);
    all.each(function () {
      $(this).closest('.themable-radio').prop('hidden', !matches(this, wanted));
    });
    say(choosers, all);
  }

  function choose(button) {
    var choosers = $(button).closest('.hdd-server-choosers');
    var which = button.getAttribute('data-hdd-choose');
    var all = boxes(choosers);
    all.each(function () {
      var shown = !$(this).closest('.themable-radio').prop('hidden');
      this.checked = which === 'all' || (which === 'shown' && shown);
    });
    say(choosers, all);
  }

  function start(root) {
    $(root).find('.hdd-server-choosers').each(function () {
      this.hidden = false;
      update(this);
    });
  }

  $(document).on('input change', '.hdd-server-choosers input, .hdd-server-choosers select',
    function () { update($(this).closest('.hdd-server-choosers')); });
  $(document).on('click', '.hdd-server-choosers [data-hdd-choose]', function () {
    choose(this);
  });
  $(document).on('change', 'select[name="action"]', function () {
    $(this.form).find('.hdd-server-choosers').each(function () { update(this); });
  });
  $(document).on('change', '.hdd-server-boxes input[type="checkbox"]', function () {
    var choosers = $(this).closest('.hdd-server-boxes').prev('.hdd-server-choosers');
    if (choosers.length) {
      say(choosers, boxes(choosers));
    }
  });
  horizon.modals.addModalInitFunction(start);
  horizon.addInitFunction(function () { start(document); });
})();
