/* global window, document */
// Theme before first paint: stored choice, else the system preference. Loaded from index.html
// as a blocking classic script; a file rather than inline so the CSP needs no 'unsafe-inline'.
(function () {
  var t = null;
  try {
    t = localStorage.getItem('aabify-theme');
  } catch {
    // storage blocked (private mode, policy): follow the system
  }
  if (t !== 'light' && t !== 'dark') t = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-bs-theme', t);
})();
