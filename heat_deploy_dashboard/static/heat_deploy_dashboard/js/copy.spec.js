(function () {
  'use strict';

  var TEXT = 'line 1\n<b>not bold</b> & "quoted"';

  describe('copy.js', function () {
    var $button;

    beforeEach(function () {
      jasmine.clock().install();
      var $fixture = hddSpec.fixture('<div class="hdd-copyable"><div>' +
        '<button type="button" class="hdd-copy" data-copy-text="Copy" data-copied-text="Copied"' +
        ' data-failed-text="Press Ctrl+C">Copy</button></div><pre></pre><pre>second</pre></div>' +
        '<div class="hdd-copyable"><pre>elsewhere</pre></div>');
      $fixture.find('pre').first().text(TEXT);
      $button = $fixture.find('button.hdd-copy');
    });

    afterEach(function () {
      jasmine.clock().uninstall();
    });

    // The clipboard API's promise settles in a microtask.
    function settled() {
      return new Promise(function (resolve) { window.queueMicrotask(resolve); })
        .then(function () { return Promise.resolve(); });
    }

    describe('with the clipboard API', function () {
      beforeEach(function () {
        spyOnProperty(window, 'isSecureContext', 'get').and.returnValue(true);
      });

      it('copies the text of its box\'s first <pre>, and says so for a while', async function () {
        spyOn(navigator.clipboard, 'writeText').and.returnValue(Promise.resolve());
        $button.trigger('click');
        await settled();
        expect(navigator.clipboard.writeText).toHaveBeenCalledWith(TEXT);
        expect($button.text()).toBe('Copied');
        jasmine.clock().tick(1999);
        expect($button.text()).toBe('Copied');
        jasmine.clock().tick(1);
        expect($button.text()).toBe('Copy');
      });

      it('falls back on the copy command when the browser refuses', async function () {
        spyOn(navigator.clipboard, 'writeText').and.returnValue(Promise.reject(new Error('no')));
        var copied = null;
        spyOn(document, 'execCommand').and.callFake(function () {
          copied = document.activeElement.value;
          return true;
        });
        $button.trigger('click');
        await settled();
        await settled();
        expect(document.execCommand).toHaveBeenCalledWith('copy');
        expect(copied).toBe(TEXT);
        expect($button.text()).toBe('Copied');
      });
    });

    describe('without the clipboard API (a page not served over HTTPS)', function () {
      beforeEach(function () {
        spyOnProperty(navigator, 'clipboard', 'get').and.returnValue(undefined);
      });

      it('copies the selected text of a textarea it then removes', function () {
        var area = null;
        spyOn(document, 'execCommand').and.callFake(function () {
          area = document.activeElement;
          return true;
        });
        $button.trigger('click');
        expect(area.tagName).toBe('TEXTAREA');
        expect(area.value).toBe(TEXT);
        expect(area.selectionStart).toBe(0);
        expect(area.selectionEnd).toBe(TEXT.length);
        expect(document.body.contains(area)).toBe(false);
        expect($button.text()).toBe('Copied');
      });

      it('says to copy by hand when the command fails', function () {
        spyOn(document, 'execCommand').and.returnValue(false);
        $button.trigger('click');
        expect($button.text()).toBe('Press Ctrl+C');
        expect($('textarea').length).toBe(0);
        jasmine.clock().tick(2000);
        expect($button.text()).toBe('Copy');
      });

      it('says to copy by hand when the command throws', function () {
        spyOn(document, 'execCommand').and.throwError('not allowed');
        $button.trigger('click');
        expect($button.text()).toBe('Press Ctrl+C');
        expect($('textarea').length).toBe(0);
      });
    });
  });
}());
