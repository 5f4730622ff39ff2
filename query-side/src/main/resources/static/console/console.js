// Herald operator console: reads and decides through Herald's own JSON API (same origin).
// No framework: the page is small, and an operator's browser may have no internet access.
(function () {
  'use strict';

  var KEY_STORAGE = 'herald.apiKey';
  var body = document.body;
  var state = {
    ws: body.dataset.workspace || '',
    selected: new URLSearchParams(location.search).get('pub') || null,
    renderedFormFor: null,
    timer: null,
    busy: false
  };
  var refreshMs = Math.max(2, parseInt(body.dataset.refreshSeconds, 10) || 4) * 1000;

  var $ = function (id) { return document.getElementById(id); };

  // ---- session --------------------------------------------------------------------------
  function apiKey() { return sessionStorage.getItem(KEY_STORAGE); }

  function showLogin(message) {
    stopPolling();
    $('app').hidden = true;
    $('login').hidden = false;
    $('sign-out').hidden = true;
    $('login-error').textContent = message || '';
    $('live').textContent = 'signed out';
    $('api-key').focus();
  }

  function showApp() {
    $('login').hidden = true;
    $('app').hidden = false;
    $('sign-out').hidden = !apiKey();
    startPolling();
  }

  $('login-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var key = $('api-key').value.trim();
    if (!key) {
      $('login-error').textContent = 'Enter an API key, or continue without one.';
      return;
    }
    sessionStorage.setItem(KEY_STORAGE, key);
    $('api-key').value = '';
    showApp();
  });
  $('no-key').addEventListener('click', function () {
    sessionStorage.setItem(KEY_STORAGE, '');
    showApp();
  });
  $('sign-out').addEventListener('click', function () {
    sessionStorage.removeItem(KEY_STORAGE);
    showLogin('Signed out.');
  });

  // ---- API ------------------------------------------------------------------------------
  function Unauthorized() { this.message = 'unauthenticated'; }

  function api(path, options) {
    options = options || {};
    var headers = { 'Accept': 'application/json' };
    var key = apiKey();
    if (key) { headers['Authorization'] = 'Bearer ' + key; }
    if (options.body) { headers['Content-Type'] = 'application/json'; }
    return fetch(path, { method: options.method || 'GET', headers: headers, body: options.body, cache: 'no-store' })
      .then(function (response) {
        if (response.status === 401) {
          sessionStorage.removeItem(KEY_STORAGE);
          showLogin('Your API key was not accepted (401). Sign in again.');
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
  }

  function wsPath(suffix) { return '/api/v1/workspaces/' + encodeURIComponent(state.ws) + suffix; }

  // ---- rendering helpers ------------------------------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) { return; }
      if (name === 'text') { node.textContent = value; }
      else if (name === 'className') { node.className = value; }
      else if (name.indexOf('data-') === 0 || name.indexOf('aria-') === 0 || name === 'title' || name === 'type') {
        node.setAttribute(name, value);
      } else if (name === 'href') {
        // the one place a link target is set: anything but http(s) is dropped here as well
        var href = webUrl(value);
        if (href) { node.setAttribute('href', href); }
      } else { node[name] = value; }
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) { return; }
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function time(iso) {
    if (!iso) { return '—'; }
    var d = new Date(iso);
    if (isNaN(d.getTime())) { return String(iso); }
    return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z').replace(/Z$/, ' UTC');
  }

  // A provider's (or an operator's) URL becomes a link only when it is http(s): a javascript: or
  // data: URL in a link would run in the console's origin with the operator's key at hand.
  function webUrl(value) {
    if (typeof value !== 'string' || !value) { return null; }
    try {
      var url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch (notAUrl) {
      return null;
    }
  }

  function postLink(url, fallback) {
    var href = webUrl(url);
    if (href) { return el('a', { href: href, rel: 'noopener noreferrer', text: url }); }
    return el('span', { className: 'unlinked', title: 'not an http(s) address, so shown as text', text: url || fallback || '—' });
  }

  function dash(value) { return value === null || value === undefined || value === '' ? '—' : String(value); }

  function badge(status) {
    return el('span', { className: 'badge s-' + String(status).toLowerCase(), text: String(status).replace(/_/g, ' ') });
  }

  function replaceRows(tbody, rows, emptyText, columns) {
    tbody.textContent = '';
    if (!rows.length) {
      tbody.appendChild(el('tr', {}, [el('td', { colSpan: columns, className: 'muted', text: emptyText })]));
      return;
    }
    rows.forEach(function (row) { tbody.appendChild(row); });
  }

  // ---- counts, queue, recent, channels ----------------------------------------------------
  var COUNTED = ['REQUESTED', 'ATTEMPTING', 'RETRY_SCHEDULED', 'OUTCOME_UNKNOWN', 'NOT_EXECUTED', 'FAILED',
    'SUCCEEDED', 'ABANDONED'];

  function renderCounts(counts) {
    var box = $('counts');
    box.textContent = '';
    box.appendChild(el('div', { className: 'tile wait' }, [el('strong', { text: String(counts.needsDecision) }),
      el('span', { text: 'need a decision' })]));
    box.appendChild(el('div', { className: 'tile' }, [el('strong', { text: String(counts.total) }),
      el('span', { text: 'publications' })]));
    COUNTED.forEach(function (status) {
      var n = (counts.byStatus || {})[status] || 0;
      box.appendChild(el('div', { className: 'tile s-' + status.toLowerCase() + (n ? '' : ' zero') },
        [el('strong', { text: String(n) }), el('span', { text: status.replace(/_/g, ' ').toLowerCase() })]));
    });
  }

  function caseItem(view, withReason) {
    var button = el('button', {
      type: 'button', className: 'case-item' + (view.publicationId === state.selected ? ' selected' : ''),
      'data-publication-id': view.publicationId, 'data-status': view.status,
      'aria-pressed': view.publicationId === state.selected ? 'true' : 'false'
    }, [
      badge(view.status),
      el('span', { className: 'what', text: view.channelId + ' (' + view.channelType + ') · ' + view.action }),
      el('span', { className: 'entry', text: view.calendarEntryId + ' v' + view.contentVersion }),
      el('span', { className: 'muted when', text: 'since ' + time(view.updatedAt) }),
      withReason && view.decisionReason ? el('span', { className: 'why', text: view.decisionReason }) : null
    ]);
    button.addEventListener('click', function () { select(view.publicationId); });
    return el('li', {}, [button]);
  }

  function renderList(list, items, emptyText, withReason) {
    list.textContent = '';
    if (!items.length) {
      list.appendChild(el('li', { className: 'muted empty', text: emptyText }));
      return;
    }
    items.forEach(function (view) { list.appendChild(caseItem(view, withReason)); });
  }

  function capability(cap) {
    if (!cap) { return el('td', { text: '—' }); }
    return el('td', {}, [
      el('span', { className: cap.available ? 'ok' : 'no', text: cap.available ? 'available' : 'unavailable' }),
      cap.reason ? el('span', { className: 'reason-small', text: ' — ' + cap.reason }) : null
    ]);
  }

  function renderChannels(channels) {
    var rows = channels.map(function (c) {
      var caps = c.capabilities || {};
      return el('tr', { 'data-channel-id': c.channelId }, [
        el('th', { scope: 'row', text: c.channelId + ' (' + c.type + ')' }),
        capability(caps.publish), capability(caps.reconcile)
      ]);
    });
    replaceRows($('channels').tBodies[0], rows, 'No channel connections in this workspace.', 3);
  }

  // ---- the selected case --------------------------------------------------------------------
  var ALLOWED = {
    confirm_published: ['OUTCOME_UNKNOWN', 'NOT_EXECUTED', 'FAILED'],
    confirm_not_published: ['OUTCOME_UNKNOWN'],
    reattempt: ['NOT_EXECUTED', 'FAILED'],
    abandon: ['REQUESTED', 'RETRY_SCHEDULED', 'FAILED', 'OUTCOME_UNKNOWN', 'NOT_EXECUTED']
  };

  function fact(list, term, value) {
    list.appendChild(el('dt', { text: term }));
    list.appendChild(el('dd', {}, [value instanceof Node ? value : document.createTextNode(dash(value))]));
  }

  function renderCase(view) {
    $('case-empty').hidden = true;
    $('case-body').hidden = false;
    $('case-title').textContent = view.calendarEntryId + ' v' + view.contentVersion + ' → ' + view.channelId;
    var status = $('case-status');
    status.className = 'badge s-' + view.status.toLowerCase();
    status.textContent = view.status.replace(/_/g, ' ');
    status.dataset.status = view.status;
    $('case-updated').textContent = 'updated ' + time(view.updatedAt);
    var reason = $('decision-reason');
    reason.hidden = !view.decisionReason;
    reason.textContent = view.decisionReason ? 'Needs a decision: ' + view.decisionReason : '';

    var facts = $('case-facts');
    facts.textContent = '';
    fact(facts, 'Publication', el('code', { text: view.publicationId }));
    fact(facts, 'Workspace', view.workspaceId);
    fact(facts, 'Calendar entry', view.calendarEntryId);
    fact(facts, 'Version', view.contentVersion);
    fact(facts, 'Channel', view.channelId + ' (' + view.channelType + ')');
    fact(facts, 'Action', view.action);
    fact(facts, 'Requested', time(view.requestedAt));
    if (view.scheduledAt) { fact(facts, 'Scheduled for', time(view.scheduledAt)); }
    if (view.providerRef) {
      var ref = view.providerRef;
      fact(facts, 'Post at provider', ref.url ? postLink(ref.url, ref.id) : ref.id);
    }
    fact(facts, 'Content hash', el('code', { text: view.contentHash || '—' }));

    var attemptRows = [];
    (view.attempts || []).forEach(function (a) {
      var answer;
      if (a.outcome === 'IN_FLIGHT') { answer = 'In flight: no result yet.'; }
      else if (a.responseReceived === false) {
        answer = 'No answer came back' + (a.unknownCause ? ' (' + a.unknownCause + ')' : '')
          + (a.detail ? ': ' + a.detail : '.');
      } else {
        answer = (a.detail || (a.outcome === 'SUCCEEDED' ? 'The provider confirmed the post.' : '—'))
          + (a.failureKind ? ' [' + a.failureKind + ']' : '')
          + (a.unknownCause ? ' (' + a.unknownCause + ')' : '');
      }
      if (a.retryAt) { answer += ' Retry at ' + time(a.retryAt) + '.'; }
      attemptRows.push(el('tr', { 'data-attempt': a.attemptNo, className: 'attempt' }, [
        el('td', { text: String(a.attemptNo) }), el('td', { text: dash(a.trigger).replace(/_/g, ' ').toLowerCase() }),
        el('td', { className: 'time', text: time(a.startedAt) }), el('td', {}, [badge(a.outcome)]),
        el('td', { text: dash(a.httpStatus) }), el('td', { text: dash(a.providerCode) }),
        el('td', {}, [el('code', { text: dash(a.providerTraceId) })]),
        el('td', {}, [el('code', { title: a.requestFingerprint || '', text: a.requestFingerprint
          ? a.requestFingerprint.substring(0, 12) + '…' : '—' })])
      ]));
      // what came back gets the table's whole width: it is the part an operator reads
      attemptRows.push(el('tr', { className: 'answer-row' }, [el('td', {}, []),
        el('td', { colSpan: 7, className: 'answer' }, [el('span', { className: 'label', text: 'What came back: ' }),
          answer])]));
    });
    replaceRows($('attempts').tBodies[0], attemptRows, 'No attempt yet.', 8);

    replaceRows($('reconciliations').tBodies[0], (view.reconciliations || []).map(function (r) {
      var by = [r.decidedBy, r.note].filter(Boolean).join(' — ');
      if (r.providerRef) { by = (by ? by + ' · ' : '') + 'post ' + (r.providerRef.url || r.providerRef.id); }
      return el('tr', {}, [
        el('td', { className: 'time', text: time(r.at) }), el('td', { text: String(r.attemptNo) }),
        el('td', {}, [badge(r.result)]),
        el('td', { text: dash(r.source) }), el('td', { className: 'answer', text: dash(r.detail) }),
        el('td', { className: 'by', text: dash(by) })
      ]);
    }), 'No reconciliation yet.', 6);

    if (state.renderedFormFor !== view.publicationId) {
      // a new case: clear what was typed for the previous one, but never while typing for this one
      $('decision-note').value = '';
      $('post-id').value = '';
      $('post-url').value = '';
      $('decision-message').textContent = '';
      state.renderedFormFor = view.publicationId;
    }
    var allowedAny = false;
    Array.prototype.forEach.call(document.querySelectorAll('[data-decision]'), function (button) {
      var allowed = ALLOWED[button.dataset.decision].indexOf(view.status) >= 0;
      allowedAny = allowedAny || allowed;
      button.disabled = !allowed || state.busy;
    });
    $('decision-fields').hidden = !allowedAny;
    $('decision-help').textContent = allowedAny
      ? (view.status === 'OUTCOME_UNKNOWN'
        ? 'The outcome is unknown: check at the provider, then confirm published or not published. '
          + 'Re-attempt becomes possible only after “confirm not published”.'
        : '')
      : 'No decision is possible while the publication is ' + view.status.replace(/_/g, ' ').toLowerCase() + '.';
  }

  function renderTimeline(events) {
    var list = $('timeline');
    list.textContent = '';
    events.forEach(function (e) {
      var p = e.payload || {};
      var facts = [];
      ['attemptNo', 'trigger', 'result', 'source', 'cause', 'kind', 'errorCode', 'detail', 'note'].forEach(function (k) {
        if (p[k] !== null && p[k] !== undefined && p[k] !== '') { facts.push(k + ': ' + p[k]); }
      });
      // who decided, where the event says so; otherwise who started the chain that led to it
      var decider = p.decidedBy || p.abandonedBy || p.requestedBy;
      var origin = (e.metadata || {}).actor;
      var who = decider ? ' · by ' + decider : (origin ? ' · in a chain started by ' + origin : '');
      list.appendChild(el('li', { 'data-type': e.type }, [
        el('span', { className: 'seq', text: '#' + e.sequence }),
        el('strong', { text: e.type.replace(/^Publication/, '').replace(/Event$/, '') }),
        el('span', { className: 'muted', text: ' ' + time(e.timestamp) + who }),
        facts.length ? el('div', { className: 'facts-line', text: facts.join(' · ') }) : null
      ]));
    });
  }

  function select(id) {
    state.selected = id;
    var url = new URL(location.href);
    url.searchParams.set('ws', state.ws);
    url.searchParams.set('pub', id);
    history.replaceState(null, '', url);
    refresh().then(function () { $('case').focus(); });
  }

  function decide(decision) {
    var payload = { decision: decision, note: $('decision-note').value.trim() || null };
    if (decision === 'confirm_published') {
      var id = $('post-id').value.trim();
      var url = $('post-url').value.trim();
      if (!id && !url) {
        $('decision-message').className = 'error';
        $('decision-message').textContent = 'Confirm published needs the post id or URL.';
        $('post-id').focus();
        return;
      }
      payload.providerRef = { id: id || null, url: url || null };
    }
    if (decision === 'abandon' && !window.confirm('Abandon this publication? It will never be published by Herald.')) {
      return;
    }
    state.busy = true;
    $('decision-message').className = '';
    $('decision-message').textContent = 'Sending…';
    api(wsPath('/publications/' + encodeURIComponent(state.selected) + '/decisions'),
      { method: 'POST', body: JSON.stringify(payload) })
      .then(function (view) {
        $('decision-message').className = 'ok';
        $('decision-message').textContent = 'Recorded “' + decision.replace(/_/g, ' ') + '” at '
          + new Date().toLocaleTimeString() + '; the status then was ' + view.status.replace(/_/g, ' ') + '.';
        $('decision-note').value = '';
      })
      .catch(function (error) {
        if (error instanceof Unauthorized) { return; }
        $('decision-message').className = 'error';
        $('decision-message').textContent = 'Refused' + (error.code ? ' (' + error.code + ')' : '') + ': '
          + error.message;
      })
      .then(function () { state.busy = false; return refresh(); });
  }

  Array.prototype.forEach.call(document.querySelectorAll('[data-decision]'), function (button) {
    button.addEventListener('click', function () { decide(button.dataset.decision); });
  });

  // ---- polling ------------------------------------------------------------------------------
  function refresh() {
    if (!state.ws) {
      $('no-workspace').hidden = false;
      $('live').textContent = 'no workspace chosen';
      return Promise.resolve();
    }
    $('no-workspace').hidden = true;
    var calls = [
      api(wsPath('/counts')).then(renderCounts),
      api(wsPath('/decisions?limit=100')).then(function (page) {
        $('queue-size').textContent = String(page.items.length) + (page.nextCursor ? '+' : '');
        renderList($('queue'), page.items, 'Nothing waits for a decision.', true);
      }),
      api(wsPath('/publications?limit=15')).then(function (page) {
        renderList($('recent'), page.items, 'No publications yet.', false);
      }),
      api(wsPath('/channels')).then(renderChannels)
    ];
    if (state.selected) {
      calls.push(api(wsPath('/publications/' + encodeURIComponent(state.selected))).then(renderCase));
      calls.push(api(wsPath('/publications/' + encodeURIComponent(state.selected) + '/events')).then(renderTimeline,
        function (error) {
          // the history is the auditor's: an operator-only key still sees everything else
          if (error.status !== 403) { throw error; }
          var list = $('timeline');
          list.textContent = '';
          list.appendChild(el('li', { className: 'muted', text: 'The timeline needs a key with the auditor role.' }));
        }));
    }
    return Promise.all(calls).then(function () {
      $('live').textContent = 'live · updated ' + new Date().toLocaleTimeString();
      $('live').className = 'live';
    }).catch(function (error) {
      if (error instanceof Unauthorized) { return; }
      $('live').textContent = 'could not refresh: ' + error.message;
      $('live').className = 'live error';
    });
  }

  function startPolling() {
    stopPolling();
    refresh();
    state.timer = setInterval(function () { if (!document.hidden) { refresh(); } }, refreshMs);
  }

  function stopPolling() {
    if (state.timer) { clearInterval(state.timer); state.timer = null; }
  }

  $('workspace-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var ws = $('workspace-input').value.trim();
    if (!ws) { return; }
    state.ws = ws;
    state.selected = null;
    state.renderedFormFor = null;
    $('case-body').hidden = true;
    $('case-empty').hidden = false;
    $('case-title').textContent = 'No case selected';
    history.replaceState(null, '', '/console?ws=' + encodeURIComponent(ws));
    startPolling();
  });

  if (apiKey() === null) { showLogin(''); } else { showApp(); }
})();
