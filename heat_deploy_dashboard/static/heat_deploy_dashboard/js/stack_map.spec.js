(function () {
  'use strict';

  var CLASSES = {IN_PROGRESS: 'running', COMPLETE: 'complete', FAILED: 'failed'};

  function node(id, action, label) {
    return '<a class="hdd-map-node hdd-map-running" href="/runs/' + id + '/" data-run-id="' + id +
      '" data-action="' + action + '" data-label="' + label + '" aria-label="web-1: ' + label +
      '"><text class="hdd-map-status">' + label + ' \u00b7 ' + action + '</text></a>';
  }

  describe('stack_map.js', function () {
    var follow;

    beforeEach(function () {
      follow = null;
      spyOn(window.hdd, 'followRuns').and.callFake(function (options) { follow = options; });
      hddSpec.fixture('<div class="hdd-map" data-status-url="/status/"' +
        ' data-status-classes=\'' + JSON.stringify(CLASSES) + '\'>' +
        '<input type="hidden" name="csrfmiddlewaretoken" value="tok-3"><svg>' +
        node('r1', 'CREATE', 'In progress') + node('r1', 'CREATE', 'In progress') +
        node('r2', '', 'In progress') +
        '<a class="hdd-map-node hdd-map-complete" href="/runs/old/">' +
        '<text class="hdd-map-status">Complete</text></a></svg></div>');
      hddSpec.init('stack_map');
    });

    function nodes(href) {
      return $('.hdd-map a.hdd-map-node').filter(function () {
        return this.getAttribute('href') === href;
      });
    }

    it('follows each running node once, from the next interval', function () {
      expect(window.hdd.followRuns).toHaveBeenCalledTimes(1);
      expect(follow.url).toBe('/status/');
      expect(follow.token).toBe('tok-3');
      expect(follow.later).toBe(true);
      expect(follow.ids().sort()).toEqual(['r1', 'r2']);
    });

    it('shows a run that ended: its status class and words, and stops following it', function () {
      follow.done({statuses: {r1: {status: 'COMPLETE', label: 'Complete'}}, gone: []});
      var $done = nodes('/runs/r1/');
      expect($done.length).toBe(2);
      $done.each(function () {
        expect(this.getAttribute('class')).toBe('hdd-map-node hdd-map-complete');
        expect($(this).find('.hdd-map-status').text()).toBe('Complete \u00b7 CREATE');
        expect(this.getAttribute('aria-label')).toBe('web-1: Complete');
        expect(this.getAttribute('data-label')).toBe('Complete');
        expect(this.hasAttribute('data-run-id')).toBe(false);
      });
      expect(follow.ids()).toEqual(['r2']);
    });

    it('keeps following a run still running, and names it without an action', function () {
      follow.done({statuses: {r2: {status: 'IN_PROGRESS', label: 'Still running'}}, gone: []});
      var $running = nodes('/runs/r2/');
      expect($running.attr('class')).toBe('hdd-map-node hdd-map-running');
      expect($running.find('.hdd-map-status').text()).toBe('Still running');
      expect($running.attr('aria-label')).toBe('web-1: Still running');
      expect(follow.ids().sort()).toEqual(['r1', 'r2']);
    });

    it('marks a status it has no class for as none', function () {
      follow.done({statuses: {r2: {status: 'SOMETHING_NEW', label: 'New'}}, gone: []});
      expect(nodes('/runs/r2/').attr('class')).toBe('hdd-map-node hdd-map-none');
    });

    it('puts a label in as text', function () {
      var label = '<img src=x onerror="window.hddInjected=true">';
      follow.done({statuses: {r2: {status: 'FAILED', label: label}}, gone: []});
      var $node = nodes('/runs/r2/');
      expect($node.find('img').length).toBe(0);
      expect($node.find('.hdd-map-status').text()).toBe(label);
    });

    it('stops following a run that is gone, leaving how it was drawn', function () {
      follow.done({statuses: {}, gone: ['r1']});
      expect(follow.ids()).toEqual(['r2']);
      expect(nodes('/runs/r1/').attr('class')).toBe('hdd-map-node hdd-map-running');
    });

    it('matches an id as text, never as a selector', function () {
      expect(function () {
        follow.done({statuses: {'x"]': {status: 'FAILED', label: 'Failed'}}, gone: ['a\'b']});
      }).not.toThrow();
      expect(follow.ids().sort()).toEqual(['r1', 'r2']);
    });

    it('stops on a lost session, and tries again after any other failure', function () {
      expect(follow.failed({status: 401})).toBe(false);
      expect(follow.failed({status: 503})).toBe(true);
      expect(follow.failed({status: 0})).toBe(true);
    });
  });
}());
