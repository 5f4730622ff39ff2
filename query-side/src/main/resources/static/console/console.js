// Herald operator console: signs in, then refreshes every part of the page from Herald's JSON API.
(function () {
  'use strict';
  var H = window.HeraldConsole;
  var $ = H.$;
  var el = H.el;
  var state = H.state;
  var ticks = 0;

  // ---- session ----------------------------------------------------------------------------
  function showLogin(message) {
    stopPolling();
    $('app').hidden = true;
    $('login').hidden = false;
    $('sign-out').hidden = true;
    $('login-error').textContent = message || '';
    $('live').textContent = 'signed out';
    $('api-key').focus();
  }
  H.onUnauthorized = showLogin;

  function showApp() {
    $('login').hidden = true;
    $('app').hidden = false;
    $('sign-out').hidden = !H.apiKey();
    startPolling();
  }

  $('login-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var key = $('api-key').value.trim();
    if (!key) {
      $('login-error').textContent = 'Enter an API key, or continue without one.';
      return;
    }
    H.setApiKey(key);
    $('api-key').value = '';
    showApp();
  });
  $('no-key').addEventListener('click', function () {
    H.setApiKey('');
    showApp();
  });
  $('sign-out').addEventListener('click', function () {
    H.setApiKey(null);
    H.rendered = {};
    showLogin('Signed out.');
  });

  // ---- counts and the decision queue --------------------------------------------------------
  var COUNTED = ['REQUESTED', 'ATTEMPTING', 'RETRY_SCHEDULED', 'HELD', 'OUTCOME_UNKNOWN', 'NOT_EXECUTED', 'FAILED',
    'SUCCEEDED', 'ABANDONED', 'SUPERSEDED'];

  function renderCounts(counts) {
    var box = $('counts');
    box.textContent = '';
    box.appendChild(el('div', { className: 'tile wait' }, [el('strong', { text: String(counts.needsDecision) }),
      el('span', { text: 'need a decision' })]));
    box.appendChild(el('div', { className: 'tile' }, [el('strong', { text: String(counts.total) }),
      el('span', { text: 'publications' })]));
    COUNTED.forEach(function (status) {
      var n = (counts.byStatus || {})[status];
      if (n === undefined && status === 'HELD') { return; }
      n = n || 0;
      box.appendChild(el('div', { className: 'tile s-' + status.toLowerCase() + (n ? '' : ' zero') },
        [el('strong', { text: String(n) }), el('span', { text: status.replace(/_/g, ' ').toLowerCase() })]));
    });
  }

  H.select = function (id) {
    state.selected = id;
    state.step = null;
    state.events = [];
    var url = new URL(location.href);
    url.searchParams.set('ws', state.ws);
    url.searchParams.set('pub', id);
    history.replaceState(null, '', url);
    H.refresh().then(function () { $('case').focus(); });
  };

  // ---- stepping through a case: the view as it stood after each event (asOf) -----------------
  state.step = null;
  state.events = [];

  function stepEvent() {
    return state.step === null ? null : state.events[state.step] || null;
  }

  function markStep() {
    var items = $('timeline').children;
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle('current', state.step === i);
      items[i].classList.toggle('later', state.step !== null && i > state.step);
    }
    var step = stepEvent();
    $('step-label').textContent = step
      ? 'The case as it stood after #' + step.sequence + ' (' + H.time(step.timestamp) + '); decisions act on it as it is now.'
      : 'The case as it is now.';
    $('step-forward').disabled = state.step === null;
    $('step-now').disabled = state.step === null;
    $('step-back').disabled = state.events.length < 2 || state.step === 0;
  }

  function stepTo(index) {
    var last = state.events.length - 1;
    state.step = index === null || index >= last ? null : Math.max(0, index);
    markStep();
    H.refresh();
  }

  $('step-back').addEventListener('click', function () {
    stepTo(state.step === null ? state.events.length - 2 : state.step - 1);
  });
  $('step-forward').addEventListener('click', function () {
    if (state.step !== null) { stepTo(state.step + 1); }
  });
  $('step-now').addEventListener('click', function () { stepTo(null); });

  // ---- polling ------------------------------------------------------------------------------
  H.refresh = function () {
    if (!state.ws) {
      $('no-workspace').hidden = false;
      $('live').textContent = 'no workspace chosen';
      return Promise.resolve();
    }
    $('no-workspace').hidden = true;
    var calls = [
      H.api(H.wsPath('/counts')).then(function (counts) { H.renderIfChanged('counts', counts, renderCounts); }),
      H.api(H.wsPath('/decisions?limit=100')).then(function (page) {
        H.renderIfChanged('queue', { page: page, selected: state.selected }, function () {
          $('queue-size').textContent = String(page.items.length) + (page.nextCursor ? '+' : '');
          H.renderList($('queue'), page.items, 'Nothing waits for a decision.', true);
        });
      }),
      H.refreshFind(),
      H.refreshChannels(),
      H.refreshOverview()
    ];
    // deliveries change slowly: every third refresh is soon enough
    if (ticks++ % 3 === 0) { calls.push(H.refreshWebhooks()); }
    if (state.selected) {
      var step = stepEvent();
      var casePath = '/publications/' + encodeURIComponent(state.selected)
        + (step ? '?asOf=' + encodeURIComponent(step.timestamp) : '');
      calls.push(H.api(H.wsPath(casePath)).then(function (view) {
        H.renderIfChanged('case', { view: view, busy: state.busy, step: state.step }, function () {
          H.renderCase(view);
          $('case-body').classList.toggle('as-of', !!step);
        });
      }));
      calls.push(H.api(H.wsPath('/publications/' + encodeURIComponent(state.selected) + '/events')).then(function (events) {
        state.events = events;
        H.renderIfChanged('timeline', { events: events, step: state.step }, function () {
          H.renderTimeline(events);
          markStep();
        });
      }, function (error) {
        // the history is the auditor's: an operator-only key still sees everything else
        if (error.status !== 403) { throw error; }
        H.renderIfChanged('timeline', 'forbidden', function () {
          var list = $('timeline');
          list.textContent = '';
          list.appendChild(el('li', { className: 'muted', text: 'The timeline needs a key with the auditor role.' }));
          state.events = [];
          state.step = null;
          markStep();
        });
      }));
    }
    return Promise.all(calls).then(function () {
      $('live').textContent = 'live · updated ' + new Date().toLocaleTimeString();
      $('live').className = 'live';
    }).catch(function (error) {
      if (error instanceof H.Unauthorized) { return; }
      $('live').textContent = 'could not refresh: ' + error.message;
      $('live').className = 'live error';
    });
  };

  function startPolling() {
    stopPolling();
    ticks = 0;
    H.refresh();
    state.timer = setInterval(function () { if (!document.hidden) { H.refresh(); } }, H.refreshMs);
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
    H.rendered = {};
    $('case-body').hidden = true;
    $('case-empty').hidden = false;
    $('case-title').textContent = 'No case selected';
    history.replaceState(null, '', '/console?ws=' + encodeURIComponent(ws));
    H.startFind();
    startPolling();
  });

  H.startFind();
  if (H.apiKey() === null) { showLogin(''); } else { showApp(); }
})();
