(function () {
  'use strict';

  function group(help, field) {
    return '<div class="form-group"><label>Field</label>' + help + (field || '<input>') + '</div>';
  }

  describe('visible_help.js', function () {
    it('shows each field\'s help under it, as text, read out with the field', function () {
      var tip = 'Runs <b>once</b> & then "stops"';
      var $fixture = hddSpec.fixture('<div id="run_action_modal">' +
        group('<span class="help-icon" title="The plain title"></span>') +
        group('<span class="help-icon" title="">?</span>', '<textarea></textarea><input>') +
        '</div>');
      $fixture.find('.help-icon').eq(1).attr('data-original-title', tip);
      hddSpec.init('visible_help');

      var $groups = $fixture.find('.form-group');
      var $first = $groups.eq(0).find('.hdd-help');
      var $second = $groups.eq(1).find('.hdd-help');
      expect($first.text()).toBe('The plain title');
      expect($second.text()).toBe(tip);
      expect($second.find('b').length).toBe(0);
      expect($second.hasClass('help-block')).toBe(true);
      expect($groups.eq(0).find('input').attr('aria-describedby')).toBe($first.attr('id'));
      expect($groups.eq(1).find('textarea').attr('aria-describedby')).toBe($second.attr('id'));
      expect($groups.eq(1).find('input').attr('aria-describedby')).toBeUndefined();
      expect($first.attr('id')).not.toBe($second.attr('id'));
      expect($fixture.find('.help-icon.hidden').length).toBe(2);
    });

    it('leaves a field without help text, and the forms of other plugins, alone', function () {
      var $fixture = hddSpec.fixture('<div id="deploy_config_modal">' +
        group('<span class="help-icon"></span>') + '</div><div id="create_stack_modal">' +
        group('<span class="help-icon" title="Not ours"></span>') + '</div>');
      hddSpec.init('visible_help');
      expect($fixture.find('.hdd-help').length).toBe(0);
      expect($fixture.find('.help-icon.hidden').length).toBe(0);
      expect($fixture.find('[aria-describedby]').length).toBe(0);
    });

    it('shows it once when run again', function () {
      var $fixture = hddSpec.fixture('<div id="create_config_modal">' +
        group('<span class="help-icon" title="Once"></span>') + '</div>');
      hddSpec.init('visible_help');
      hddSpec.init('visible_help');
      expect($fixture.find('.hdd-help').length).toBe(1);
    });

    it('works on the form a modal loads, given as its root', function () {
      var $fixture = hddSpec.fixture('<div id="run_action_modal">' +
        group('<span class="help-icon" title="In a modal"></span>') + '</div>');
      hddSpec.modalInit('visible_help', $fixture.find('#run_action_modal')[0]);
      expect($fixture.find('.hdd-help').text()).toBe('In a modal');
    });
  });
}());
