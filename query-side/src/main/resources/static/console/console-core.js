// Herald operator console, shared parts: the API client, the session and the rendering helpers.
// No framework: the page is small, and an operator's browser may have no internet access.
(function () {
  'use strict';

  var KEY_STORAGE = 'herald.apiKey';
  var body = document.body;
  var params = new URLSearchParams(location.search);
  var H = window.HeraldConsole = {
    state: {
      ws: body.dataset.workspace || '',
      selected: params.get('pub') || null,
      renderedFormFor: null,
      timer: null,
      busy: false
    },
    refreshMs: Math.max(2, parseInt(body.dataset.refreshSeconds, 10) || 4) * 1000,
    // what each part of the page last rendered: a part whose data did not change is left alone, so
    // the periodic refresh moves nothing and takes no keyboard focus away
    rendered: {}
  };

  H.$ = function (id) { return document.getElementById(id); };

  H.apiKey = function () { return sessionStorage.getItem(KEY_STORAGE); };
  H.setApiKey = function (key) {
    if (key === null) { sessionStorage.removeItem(KEY_STORAGE); } else { sessionStorage.setItem(KEY_STORAGE, key); }
  };

  function Unauthorized() { this.message = 'unauthenticated'; }
  H.Unauthorized = Unauthorized;

  /** Calls Herald's JSON API; a problem answer becomes an Error with its code, detail and status. */
  H.api = function (path, options) {
    options = options || {};
    var headers = { 'Accept': 'application/json' };
    var key = H.apiKey();
    if (key) { headers['Authorization'] = 'Bearer ' + key; }
    if (options.body) { headers['Content-Type'] = 'application/json'; }
    return fetch(path, { method: options.method || 'GET', headers: headers, body: options.body, cache: 'no-store' })
      .then(function (response) {
        if (response.status === 401) {
          H.setApiKey(null);
          H.onUnauthorized('Your API key was not accepted (401). Sign in again.');
          throw new Unauthorized();
        }
        return response.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (ignored) { data = null; }
          if (!response.ok) {
            var problem = data || {};
            var error = new Error(problem.detail || ('HTTP ' + response.status));
            error.code = problem.code;
            error.status = response.status;
            throw error;
          }
          return data;
        });
      });
  };

  /** The bytes of an answer (a media thumbnail), with the same key. */
  H.apiBlob = function (path) {
    var headers = {};
    var key = H.apiKey();
    if (key) { headers['Authorization'] = 'Bearer ' + key; }
    return fetch(path, { headers: headers, cache: 'force-cache' }).then(function (response) {
      if (!response.ok) { throw new Error('HTTP ' + response.status); }
      return response.blob();
    });
  };

  H.wsPath = function (suffix) { return '/api/v1/workspaces/' + encodeURIComponent(H.state.ws) + suffix; };

  /** Renders a part only when what it shows changed since the last time. */
  H.renderIfChanged = function (part, data, render) {
    var text = JSON.stringify(data);
    if (H.rendered[part] === text) { return; }
    H.rendered[part] = text;
    render(data);
  };

  H.el = function (tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) { return; }
      if (name === 'text') { node.textContent = value; }
      else if (name === 'className') { node.className = value; }
      else if (name.indexOf('data-') === 0 || name.indexOf('aria-') === 0 || name === 'title' || name === 'type'
        || name === 'scope' || name === 'for' || name === 'role') {
        node.setAttribute(name, value);
      } else if (name === 'href') {
        // the one place a link target is set: anything but http(s) is dropped here as well
        var href = H.webUrl(value);
        if (href) { node.setAttribute('href', href); }
      } else { node[name] = value; }
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) { return; }
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  };

  H.time = function (iso) {
    if (!iso) { return '—'; }
    var d = new Date(iso);
    if (isNaN(d.getTime())) { return String(iso); }
    return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z').replace(/Z$/, ' UTC');
  };

  // A provider's (or an operator's) URL becomes a link only when it is http(s): a javascript: or
  // data: URL in a link would run in the console's origin with the operator's key at hand.
  H.webUrl = function (value) {
    if (typeof value !== 'string' || !value) { return null; }
    try {
      var url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch (notAUrl) {
      return null;
    }
  };

  H.postLink = function (url, fallback) {
    var href = H.webUrl(url);
    if (href) { return H.el('a', { href: href, rel: 'noopener noreferrer', text: url }); }
    return H.el('span', { className: 'unlinked', title: 'not an http(s) address, so shown as text',
      text: url || fallback || '—' });
  };

  H.dash = function (value) { return value === null || value === undefined || value === '' ? '—' : String(value); };

  H.words = function (status) { return String(status).replace(/_/g, ' '); };

  /** A status as a coloured badge that also says the status in words. */
  H.badge = function (status) {
    return H.el('span', { className: 'badge s-' + String(status).toLowerCase(), text: H.words(status) });
  };

  H.replaceRows = function (tbody, rows, emptyText, columns) {
    tbody.textContent = '';
    if (!rows.length) {
      tbody.appendChild(H.el('tr', {}, [H.el('td', { colSpan: columns, className: 'muted', text: emptyText })]));
      return;
    }
    rows.forEach(function (row) { tbody.appendChild(row); });
  };

  /** A link within the console: same page, other query parameters. */
  H.consoleHref = function (query) {
    var url = new URL('/console', location.href);
    url.searchParams.set('ws', H.state.ws);
    Object.keys(query).forEach(function (k) { if (query[k]) { url.searchParams.set(k, query[k]); } });
    return url.href;
  };

  H.problemText = function (error) {
    return (error.code ? error.code + ': ' : '') + error.message;
  };
})();
