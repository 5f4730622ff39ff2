// The selected case: facts, steps, attempts, reconciliations, the timeline, and the decisions,
// each asked to be confirmed with the words of what it will do.
(function () {
  'use strict';
  var H = window.HeraldConsole;
  var $ = H.$;
  var el = H.el;
  var state = H.state;

  /**
   * Whether the server accepts this decision now: the view lists them (allowedDecisions, from the rule the
   * publication itself enforces, for the post or for the step decisionStep names). The console never guesses.
   */
  function allows(view, decision) { return (view.allowedDecisions || []).indexOf(decision) >= 0; }

  /**
   * Which words the case gets (never which buttons): VANISHED while a post gone after success waits for a
   * decision; COMMENT_WAITS while a step after the post, never run, waits for the post to be confirmed
   * readably; OUTCOME_UNKNOWN while the post's or that step's outcome is unknown; else the status.
   */
  function caseKind(view) {
    if (view.vanishedAt && view.needsDecision) { return 'VANISHED'; }
    var entry = view.needsDecision && view.decisionStep ? decisionEntry(view) : null;
    if (entry && entry.stepRole === 'FOLLOWS_POST' && entry.status === 'PENDING') { return 'COMMENT_WAITS'; }
    if (entry && entry.stepRole === 'FOLLOWS_POST' && entry.status === 'OUTCOME_UNKNOWN') { return 'OUTCOME_UNKNOWN'; }
    return view.status;
  }
  var current = null;
  var pending = null;

  /** How people read a step's kind: its label from the view (older views have none). */
  function stepLabel(entry) { return entry.stepLabel || entry.step.replace(/_/g, ' '); }

  /** The view's entry of the step a decision is about, or null. */
  function decisionEntry(view) {
    return (view.steps || []).filter(function (s) { return s.step === view.decisionStep; })[0] || null;
  }

  /** What a decision will do, in the words the confirmation shows. */
  function effectOf(decision, view, ref) {
    var latest = (view.attempts || []).reduce(function (n, a) { return Math.max(n, a.attemptNo); }, 0);
    var entry = view.decisionStep ? decisionEntry(view) || { step: view.decisionStep } : null;
    var step = entry ? ' (step ' + stepLabel(entry) + ')' : '';
    // a step after the post (its first comment) is decided on its own: the post stands either way
    var what = entry && entry.stepRole === 'FOLLOWS_POST' ? 'the ' + stepLabel(entry) + ' under the post' : 'the post';
    switch (decision) {
      case 'confirm_published':
        if (caseKind(view) === 'COMMENT_WAITS') {
          return 'Confirm published again: Herald reads the post at ' + view.channelId
            + (ref.url || ref.id ? ' (' + (ref.url || ref.id) + ')' : '') + ' back; once it can, '
            + 'the ' + stepLabel(entry) + ' is posted under it.';
        }
        return 'Confirm published' + step + ': Herald records that ' + what + ' exists at ' + view.channelId
          + (ref.url || ref.id ? ' (' + (ref.url || ref.id) + ')' : '') + '; no further attempt will be made.';
      case 'confirm_not_published':
        return 'Confirm not published' + step + ': Herald records that attempt ' + latest + ' created '
          + (what === 'the post' ? 'no post' : 'nothing') + '; '
          + 'nothing is sent now, and the publication can then be re-attempted or abandoned.';
      case 'confirm_removed':
        return 'Confirm removed: Herald records that the post is gone from ' + view.channelId
          + ' and stays so; nothing is sent.';
      case 'republish':
        return 'Republish: Herald records that the post is to be published again; the calendar sends version '
          + (view.contentVersion + 1) + ' of the entry for it. Nothing is sent now.';
      case 'reattempt':
        return 'Re-attempt: Herald calls ' + view.channelType + ' again now (attempt ' + (latest + 1)
          + ') with the same content.';
      default:
        return what === 'the post' ? 'Abandon: Herald will never publish this; no further attempt will be made.'
          : 'Abandon' + step + ': Herald skips ' + what + '; the post stays published.';
    }
  }

  function fact(list, term, value) {
    list.appendChild(el('dt', { text: term }));
    list.appendChild(el('dd', {}, [value instanceof Node ? value : document.createTextNode(H.dash(value))]));
  }

  function refText(ref) { return ref ? (ref.url ? H.postLink(ref.url, ref.id) : el('code', { text: ref.id })) : '—'; }

  // thumbnails are drawn from the bytes (fetched with the key) onto a canvas: no blob: or data: URL
  var thumbnails = {};
  function thumbnail(mediaId) {
    var canvas = el('canvas', { className: 'thumb', width: 64, height: 64, role: 'img', 'aria-label': 'image ' + mediaId });
    var drawn = thumbnails[mediaId] || (thumbnails[mediaId] = H.apiBlob(H.wsPath('/media/' + encodeURIComponent(mediaId)
      + '/content')).then(function (blob) { return window.createImageBitmap(blob); }));
    drawn.then(function (bitmap) {
      var scale = Math.min(64 / bitmap.width, 64 / bitmap.height);
      var w = bitmap.width * scale;
      var h = bitmap.height * scale;
      canvas.getContext('2d').drawImage(bitmap, (64 - w) / 2, (64 - h) / 2, w, h);
      canvas.dataset.drawn = 'true';
    }, function () { canvas.setAttribute('aria-label', 'image ' + mediaId + ' (could not be loaded)'); });
    return canvas;
  }

  function renderSteps(view) {
    var steps = view.steps || [];
    $('steps-box').hidden = !steps.length;
    H.replaceRows($('steps').tBodies[0], steps.map(function (s) {
      var needs = view.decisionStep && view.decisionStep === s.step && s.status !== 'SUCCEEDED';
      return el('tr', { 'data-step': s.step, className: needs ? 'needs' : null }, [
        el('th', { scope: 'row', 'data-label': 'Step', text: stepLabel(s) + (needs ? ' — needs a decision' : '') }),
        el('td', { 'data-label': 'Status' }, [H.badge(s.status)]),
        el('td', { 'data-label': 'Attempts', text: H.dash(s.attempts) }),
        el('td', { 'data-label': 'At provider' }, [refText(s.providerRef)]),
        el('td', { 'data-label': 'Detail', className: 'answer', text: H.dash(s.detail) }),
        el('td', { 'data-label': 'Image' }, [s.mediaId ? thumbnail(s.mediaId) : document.createTextNode('—')])
      ]);
    }), 'No steps.', 6);
  }

  function answerOf(a) {
    var answer;
    if (a.outcome === 'IN_FLIGHT') { answer = 'In flight: no result yet.'; }
    else if (a.responseReceived === false) {
      answer = 'No answer came back' + (a.unknownCause ? ' (' + a.unknownCause + ')' : '') + (a.detail ? ': ' + a.detail : '.');
    } else {
      answer = (a.detail || (a.outcome === 'SUCCEEDED' ? 'The provider confirmed the post.' : '—'))
        + (a.failureKind ? ' [' + a.failureKind + ']' : '') + (a.unknownCause ? ' (' + a.unknownCause + ')' : '');
    }
    return a.retryAt ? answer + ' Retry at ' + H.time(a.retryAt) + '.' : answer;
  }

  function renderAttempts(view) {
    var rows = [];
    (view.attempts || []).forEach(function (a) {
      rows.push(el('tr', { 'data-attempt': a.attemptNo, className: 'attempt' }, [
        el('td', { text: String(a.attemptNo) }), el('td', { text: H.dash(a.trigger).replace(/_/g, ' ').toLowerCase() }),
        el('td', { className: 'time', text: H.time(a.startedAt) }), el('td', {}, [H.badge(a.outcome)]),
        el('td', { text: H.dash(a.httpStatus) }), el('td', { text: H.dash(a.providerCode) }),
        el('td', {}, [el('code', { text: H.dash(a.providerTraceId) })]),
        el('td', {}, [el('code', { title: a.requestFingerprint || '',
          text: a.requestFingerprint ? a.requestFingerprint.substring(0, 12) + '…' : '—' })])
      ]));
      // what came back gets the table's whole width: it is the part an operator reads
      rows.push(el('tr', { className: 'answer-row' }, [el('td', {}, []), el('td', { colSpan: 7, className: 'answer' },
        [el('span', { className: 'label', text: 'What came back: ' }), answerOf(a)])]));
    });
    H.replaceRows($('attempts').tBodies[0], rows, 'No attempt yet.', 8);
    H.replaceRows($('reconciliations').tBodies[0], (view.reconciliations || []).map(function (r) {
      var by = [r.decidedBy, r.note].filter(Boolean).join(' — ');
      if (r.providerRef) { by = (by ? by + ' · ' : '') + 'post ' + (r.providerRef.url || r.providerRef.id); }
      return el('tr', {}, [el('td', { className: 'time', text: H.time(r.at) }), el('td', { text: String(r.attemptNo) }),
        el('td', {}, [H.badge(r.result)]), el('td', { text: H.dash(r.source) + (r.step ? ' · ' + r.step : '') }),
        el('td', { className: 'answer', text: H.dash(r.detail) }), el('td', { className: 'by', text: H.dash(by) })]);
    }), 'No reconciliation yet.', 6);
  }

  H.renderCase = function (view) {
    current = view;
    $('case-empty').hidden = true;
    $('case-body').hidden = false;
    $('case-title').textContent = view.calendarEntryId + ' v' + view.contentVersion + ' → ' + view.channelId;
    var status = $('case-status');
    status.className = 'badge s-' + view.status.toLowerCase();
    status.textContent = H.words(view.status);
    status.dataset.status = view.status;
    $('case-updated').textContent = 'updated ' + H.time(view.updatedAt);
    var why = view.decisionReason ? 'Needs a decision: ' + view.decisionReason
      : (view.heldReason ? 'Held: ' + view.heldReason : '');
    $('decision-reason').hidden = !why;
    $('decision-reason').textContent = why;

    var facts = $('case-facts');
    facts.textContent = '';
    fact(facts, 'Publication', el('code', { text: view.publicationId }));
    fact(facts, 'Link to this case', el('a', { href: H.consoleHref({ pub: view.publicationId }), text: 'shareable link' }));
    fact(facts, 'Calendar entry', view.calendarEntryId);
    fact(facts, 'Version', view.contentVersion);
    fact(facts, 'Channel', view.channelId + ' (' + view.channelType + ')');
    fact(facts, 'Action', view.action);
    fact(facts, 'Requested', H.time(view.requestedAt));
    if (view.scheduledAt) { fact(facts, 'Scheduled for', H.time(view.scheduledAt)); }
    if (view.providerRef) { fact(facts, 'Post at provider', view.providerRef.url ? H.postLink(view.providerRef.url,
      view.providerRef.id) : view.providerRef.id); }
    if (view.targetRef) { fact(facts, 'Acts on post', refText(view.targetRef)); }
    if (view.verifiedAt) { fact(facts, 'Verified after success', 'still there at ' + H.time(view.verifiedAt)); }
    if (view.vanishedAt) { fact(facts, 'Vanished after success', 'gone at ' + H.time(view.vanishedAt)); }
    if (view.decisionStep) { fact(facts, 'Decision concerns', view.decisionStep.replace(/_/g, ' ')); }
    fact(facts, 'Content hash', el('code', { text: view.contentHash || '—' }));
    renderSteps(view);
    renderAttempts(view);
    renderDecisions(view);
  };

  function renderDecisions(view) {
    if (state.renderedFormFor !== view.publicationId) {
      // a new case: clear what was typed for the previous one, but never while typing for this one
      $('decision-note').value = '';
      $('post-id').value = '';
      $('post-url').value = '';
      $('decision-message').textContent = '';
      cancelConfirmation();
      state.renderedFormFor = view.publicationId;
    }
    var allowedAny = false;
    Array.prototype.forEach.call(document.querySelectorAll('[data-decision]'), function (button) {
      var allowed = allows(view, button.dataset.decision);
      allowedAny = allowedAny || allowed;
      button.disabled = !allowed || state.busy;
    });
    if (pending && !allows(view, pending)) { cancelConfirmation(); }
    $('decision-fields').hidden = !allowedAny;
    $('decision-help').textContent = allowedAny
      ? (caseKind(view) === 'OUTCOME_UNKNOWN'
        ? 'The outcome is unknown: check at the provider, then confirm published or not published. '
          + 'Re-attempt becomes possible only after “confirm not published”.'
        : (caseKind(view) === 'VANISHED' ? 'The post was published, then removed at the provider: confirm it '
          + 'removed, or republish it as the entry\'s next version.'
          : (caseKind(view) === 'COMMENT_WAITS' ? 'The post was confirmed without being read back: abandon the '
            + 'comment (the post stays), or confirm published again with a reference the channel can read.' : '')))
      : 'No decision is possible while the publication is ' + H.words(view.status).toLowerCase() + '.';
  }

  function postRef() {
    return { id: $('post-id').value.trim() || null, url: $('post-url').value.trim() || null };
  }

  /** First step of a decision: say what it will do, and wait for the operator to confirm it. */
  function ask(decision) {
    if (decision === 'confirm_published') {
      var ref = postRef();
      if (!ref.id && !ref.url) {
        $('decision-message').className = 'error';
        $('decision-message').textContent = 'Confirm published needs the post id or URL.';
        $('post-id').focus();
        return;
      }
    }
    pending = decision;
    $('confirm-text').textContent = effectOf(decision, current, postRef());
    $('confirm-yes').textContent = 'Yes, ' + decision.replace(/_/g, ' ');
    $('confirm-box').hidden = false;
    $('confirm-yes').focus();
  }

  function cancelConfirmation() {
    pending = null;
    $('confirm-box').hidden = true;
  }

  function decide(decision) {
    var payload = { decision: decision, note: $('decision-note').value.trim() || null };
    if (decision === 'confirm_published') { payload.providerRef = postRef(); }
    cancelConfirmation();
    state.busy = true;
    $('decision-message').className = '';
    $('decision-message').textContent = 'Sending…';
    H.api(H.wsPath('/publications/' + encodeURIComponent(state.selected) + '/decisions'),
      { method: 'POST', body: JSON.stringify(payload) })
      .then(function (view) {
        $('decision-message').className = 'ok';
        $('decision-message').textContent = 'Recorded “' + decision.replace(/_/g, ' ') + '” at '
          + new Date().toLocaleTimeString() + '; the status then was ' + H.words(view.status) + '.';
        $('decision-note').value = '';
      })
      .catch(function (error) {
        if (error instanceof H.Unauthorized) { return; }
        $('decision-message').className = 'error';
        $('decision-message').textContent = 'Refused (' + (error.code || 'HTTP ' + error.status) + '): ' + error.message;
      })
      .then(function () { state.busy = false; $('decision-message').focus(); return H.refresh(); });
  }

  Array.prototype.forEach.call(document.querySelectorAll('[data-decision]'), function (button) {
    button.addEventListener('click', function () { ask(button.dataset.decision); });
  });
  $('confirm-yes').addEventListener('click', function () { if (pending) { decide(pending); } });
  $('confirm-no').addEventListener('click', function () {
    var back = pending;
    cancelConfirmation();
    var button = back && document.querySelector('[data-decision="' + back + '"]');
    if (button) { button.focus(); }
  });

  H.renderTimeline = function (events) {
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
        el('span', { className: 'muted', text: ' ' + H.time(e.timestamp) + who }),
        facts.length ? el('div', { className: 'facts-line', text: facts.join(' · ') }) : null
      ]));
    });
  };
})();
