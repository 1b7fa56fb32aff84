(function () {
  'use strict';

  var LINES = ['first line', 'second <b>line</b> & <script>window.hddInjected=1</script>',
               'third line', 'last line'];

  describe('output_line.js', function () {
    var here;
    var $fixture;

    beforeEach(function () {
      here = window.location.href;
      $fixture = hddSpec.fixture();
      spyOn(Element.prototype, 'scrollIntoView');
    });

    afterEach(function () {
      window.history.replaceState(null, '', here);
    });

    // The page as a results page links it: ?output=NAME&line=NUMBER.
    function visit(query) {
      window.history.replaceState(null, '', window.location.pathname + query);
    }

    function box(name, lines, firstLine) {
      var $pre = $('<pre class="hdd-output">').attr('data-output', name).text(lines.join('\n'));
      if (firstLine) {
        $pre.attr('data-first-line', firstLine);
      }
      return $pre.appendTo($fixture);
    }

    it('marks the linked line with text only, keeping the output as it was', function () {
      var $pre = box('deploy_stdout', LINES);
      visit('?output=deploy_stdout&line=2');
      hddSpec.init('output_line');
      var $mark = $pre.find('mark.hdd-output-line');
      expect($mark.length).toBe(1);
      expect($mark.text()).toBe(LINES[1]);
      expect($mark.children().length).toBe(0);
      expect($pre.find('b, script').length).toBe(0);
      expect($pre.text()).toBe(LINES.join('\n'));
      expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
      // output_end.js leaves a marked box where this put it.
      expect($pre.data('hddAtEnd')).toBe(true);
    });

    it('marks the first and the last line', function () {
      var $pre = box('out', LINES);
      visit('?output=out&line=1');
      hddSpec.init('output_line');
      expect($pre.find('mark').text()).toBe('first line');
      expect($pre.text()).toBe(LINES.join('\n'));

      var $other = box('other', LINES);
      visit('?output=other&line=4');
      hddSpec.init('output_line');
      expect($other.find('mark').text()).toBe('last line');
      expect($other.text()).toBe(LINES.join('\n'));
    });

    it('counts from the first line a shortened box shows', function () {
      var $pre = box('out', LINES, '101');
      visit('?output=out&line=103');
      hddSpec.init('output_line');
      expect($pre.find('mark').text()).toBe('third line');
    });

    it('marks nothing for a line the box does not show', function () {
      ['?output=out&line=0', '?output=out&line=5', '?output=out&line=x', '?output=out',
       '?line=2', '?output=other&line=2', '?output=out&line=100'].forEach(function (query) {
        var $pre = box('out', LINES, query === '?output=out&line=100' ? '101' : null);
        visit(query);
        hddSpec.init('output_line');
        expect($pre.find('mark').length).withContext(query).toBe(0);
        expect($pre.text()).toBe(LINES.join('\n'));
      });
    });

    it('finds the box by its name as text, never as a selector', function () {
      var name = 'out"] , pre, [x=\'';
      var $plain = box('out', LINES);
      var $odd = box(name, LINES);
      visit('?' + $.param({output: name, line: 3}));
      hddSpec.init('output_line');
      expect($odd.find('mark').text()).toBe('third line');
      expect($plain.find('mark').length).toBe(0);
    });

    it('marks it once, also when a tab with it is shown later', function () {
      var $pre = box('out', LINES);
      visit('?output=out&line=2');
      $(document).trigger('shown.bs.tab');
      expect($pre.find('mark').length).toBe(1);
      $(document).trigger('shown.bs.tab');
      hddSpec.init('output_line');
      expect($pre.find('mark').length).toBe(1);
      expect($pre.text()).toBe(LINES.join('\n'));
    });
  });
}());
