/* global window, document */
// Before first paint: the theme (stored choice, else the system preference) and whether a
// session is stored. Loaded from index.html as a blocking classic script; a file rather than
// inline so the CSP needs no 'unsafe-inline'.
(function () {
  var t = null;
  try {
    t = localStorage.getItem('aabify-theme');
  } catch {
    // storage blocked (private mode, policy): follow the system
  }
  if (t !== 'light' && t !== 'dark') t = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-bs-theme', t);
  // A stored session: a landing route's prerendered screen shows until the app renders
  // (build.mjs, styles.css); without one, the loading line (the app may go to /login).
  try {
    if (localStorage.getItem('aabify-token')) document.documentElement.setAttribute('data-stored-session', '');
  } catch {
    // storage blocked: no session either
  }
})();
