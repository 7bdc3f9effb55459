// A classic script (not a module): opened as a file (file://), a browser refuses the page's
// modules and its policy worker, so src/app.js never runs and the page would wait forever at
// "Loading the policy…". This script still runs there, and says at once what to do instead.
'use strict';
if (location.protocol === 'file:') {
  document.addEventListener('DOMContentLoaded', () => {
    const banner = document.getElementById('error');
    banner.textContent = 'This page must be served over HTTP: opened as a file, the browser will not load its modules ' +
      'or run the policy. Run `npm run serve` in examples/browser and open http://127.0.0.1:8080/, ' +
      'or run `kenning serve` and open the address it prints.';
    banner.hidden = false;
    document.getElementById('policy-status').textContent = 'The policy cannot load from a file.';
  });
}
