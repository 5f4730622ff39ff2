// Connections that need attention (banners), the channels table, and the webhook deliveries.
(function () {
  'use strict';
  var H = window.HeraldConsole;
  var $ = H.$;
  var el = H.el;
  var EXPIRING_SOON_MS = 7 * 24 * 3600 * 1000;

  function daysUntil(iso) { return Math.ceil((Date.parse(iso) - Date.now()) / (24 * 3600 * 1000)); }

  function expiringSoon(c) {
    return !!c.tokenExpiresAt && Date.parse(c.tokenExpiresAt) - Date.now() < EXPIRING_SOON_MS;
  }

  // the provider API version: nearing its sunset, retired, or one whose sunset Herald does not know
  function versionNeedsAttention(c) {
    var v = c.apiVersion;
    return !!v && (v.state === 'EXPIRING' || v.state === 'RETIRED' || v.state === 'UNKNOWN');
  }

  function versionText(v) {
    if (v.state === 'RETIRED') { return 'speaks API version ' + v.version + ', which the provider retired'; }
    if (v.state === 'UNKNOWN') { return 'speaks API version ' + v.version + ' (sunset unknown)'; }
    var days = daysUntil(v.sunsetAt);
    return 'speaks API version ' + v.version + ', retired ' + (days <= 0 ? 'now' : 'in ' + days + (days === 1 ? ' day' : ' days'));
  }

  function renderBanners(channels) {
    var box = $('attention');
    box.textContent = '';
    var needing = channels.filter(function (c) {
      return c.status === 'NEEDS_REAUTH' || expiringSoon(c) || versionNeedsAttention(c) || (c.heldPublications || 0) > 0;
    });
    box.hidden = !needing.length;
    needing.forEach(function (c) {
      var held = c.heldPublications || 0;
      var what;
      if (c.status === 'NEEDS_REAUTH') { what = 'needs new credentials'; }
      else if (expiringSoon(c)) {
        var days = daysUntil(c.tokenExpiresAt);
        what = days <= 0 ? 'has an expired token' : 'has a token that expires in ' + days + (days === 1 ? ' day' : ' days');
      } else if (versionNeedsAttention(c)) { what = versionText(c.apiVersion); }
      else { what = 'holds publications'; }
      var bad = c.status === 'NEEDS_REAUTH' || (c.apiVersion && c.apiVersion.state === 'RETIRED');
      box.appendChild(el('div', { className: 'banner' + (bad ? ' bad' : ''), 'data-api-version-state': c.apiVersion ? c.apiVersion.state : '',
        'data-channel-id': c.channelId }, [
        el('p', {}, [el('strong', { className: 'banner-title', text: c.channelId + ' (' + typeLabel(c.type) + ') ' + what + '.' }),
          c.statusReason ? ' ' + c.statusReason : null,
          c.tokenExpiresAt ? ' Token expires ' + H.time(c.tokenExpiresAt) + '.' : null,
          versionNeedsAttention(c) && c.apiVersion.sunsetAt ? ' Sunset ' + H.time(c.apiVersion.sunsetAt) + '.' : null]),
        el('p', {}, [el('span', { className: 'held-count', text: held + (held === 1 ? ' publication' : ' publications')
          + ' held' }), held ? ' · ' : null,
          held ? el('a', { href: H.consoleHref({ status: 'HELD', channelId: c.channelId }),
            text: 'Show the held publications of ' + c.channelId }) : null,
          c.status === 'NEEDS_REAUTH' ? reconnectButton(c)
            : versionNeedsAttention(c)
              ? el('span', { className: 'muted', text: ' An operator configures a current API version and restarts Herald.' })
              : null])
      ]));
    });
  }

  // ---- the channel types, as the server describes them -----------------------------------------
  // by wire name: label, icon, connect ('oauth' or 'form'), available, unavailableReason, startFields,
  // fields, secretGuide. The console names no type itself: what it shows comes from this answer.
  var types = {};
  var typesLoading = null;
  var typesTried = false;
  var afterTypes = [];

  function whenTypes(fn) { if (typesTried) { fn(); } else { afterTypes.push(fn); } }

  function typesSettled() {
    typesTried = true;
    afterTypes.splice(0).forEach(function (fn) { fn(); });
  }

  function loadTypes() {
    if (!typesLoading) {
      typesLoading = H.api(H.wsPath('/channel-types')).then(function (list) {
        types = {};
        list.forEach(function (t) { types[t.type] = t; });
        renderConnectButtons(list);
        H.rendered.channels = null;
        typesSettled();
      }, function (error) {
        typesLoading = null;
        if (error instanceof H.Unauthorized) { throw error; }
        $('connect-buttons').textContent = '';
        say(error.status === 403 ? 'Connecting a channel needs a key with the admin role.'
          : 'Could not load the channel types: ' + H.problemText(error), 'error');
        typesSettled();
      });
    }
    return typesLoading;
  }

  function typeLabel(type) { return (types[type] || { label: type }).label; }

  function channelType(type) {
    var known = types[type];
    return el('span', { className: 'channel-type', 'data-channel-type': type, title: type }, [
      el('span', { className: 'channel-icon', 'aria-hidden': 'true',
        text: known && known.icon ? known.icon : String(type).charAt(0).toUpperCase() }),
      el('span', { text: typeLabel(type) })]);
  }

  // ---- connecting a channel ---------------------------------------------------------------------
  function say(text, className) {
    var result = $('connect-result');
    result.className = 'connect-result ' + (className || '');
    result.textContent = text;
  }

  function fieldId(prefix, type, name) { return prefix + '-' + type + '-' + name; }

  // a label and an input for one field the server describes
  function fieldInputs(prefix, type, field, value) {
    var id = fieldId(prefix, type, field.name);
    var input = el('input', { id: id, name: field.name, autocomplete: field.secret ? 'new-password' : 'off',
      'data-field': field.name });
    input.type = field.secret ? 'password' : 'text';
    if (field.placeholder) { input.placeholder = field.placeholder; }
    if (field.required) { input.required = true; }
    if (value) { input.value = value; }
    return [el('label', { 'for': id, text: field.label + (field.required ? '' : ' (optional)') }), input];
  }

  function needChannelId() {
    var channelId = $('connect-channel-id').value.trim();
    if (!channelId) { say('Type the channel id first.', 'error'); $('connect-channel-id').focus(); }
    return channelId;
  }

  // starts a connect through the provider: the browser goes there and comes back to /console#connect=…
  function startConnect(type, channelId, values) {
    if (!channelId) { return; }
    var body = { type: type };
    var missing = [];
    ((types[type] || {}).startFields || []).forEach(function (field) {
      var value = (values[field.name] || '').trim();
      if (value) { body[field.name] = value; } else if (field.required) { missing.push(field.label); }
    });
    if (missing.length) { say(typeLabel(type) + ' needs ' + missing.join(', ') + '.', 'error'); return; }
    say('Starting…');
    H.api(H.wsPath('/channels/' + encodeURIComponent(channelId) + '/connect'),
      { method: 'POST', body: JSON.stringify(body) })
      .then(function (started) { location.assign(started.authorizeUrl); }, function (error) {
        if (error instanceof H.Unauthorized) { return; }
        say(typeLabel(type) + ': ' + H.problemText(error), 'error');
      });
  }

  function reconnectButton(c) {
    var button = el('button', { type: 'button', className: 'small', 'data-reconnect': c.channelId,
      text: 'Reconnect', 'aria-label': 'Reconnect ' + c.channelId });
    button.addEventListener('click', function () {
      var known = types[c.type];
      if (known && known.connect === 'form') {
        $('connect-channel-id').value = c.channelId;
        showForm(known, c.settings || {});
      } else {
        startConnect(c.type, c.channelId, c.settings || {});
      }
    });
    return button;
  }

  // one group per channel type: an OAuth type's start fields and its button (disabled, with the
  // reason, where this server has no app for it), or a form type's button that opens its form
  function typeGroup(t) {
    var group = el('div', { className: 'connect-type', 'data-type-group': t.type });
    var inputs = {};
    if (t.connect === 'oauth') {
      (t.startFields || []).forEach(function (field) {
        var parts = fieldInputs('connect-start', t.type, field);
        inputs[field.name] = parts[1];
        group.appendChild(el('span', { className: 'connect-start' }, parts));
      });
      var button = el('button', { type: 'button', className: 'secondary', 'data-connect-type': t.type,
        'aria-label': 'Connect through ' + t.label }, [channelType(t.type)]);
      if (!t.available) {
        button.disabled = true;
        var reasonId = fieldId('connect-reason', t.type, 'oauth');
        button.setAttribute('aria-describedby', reasonId);
        group.appendChild(button);
        group.appendChild(el('span', { id: reasonId, className: 'reason-small', 'data-unavailable-reason': t.type,
          text: t.unavailableReason || 'not available on this server' }));
        return group;
      }
      button.addEventListener('click', function () {
        var values = {};
        Object.keys(inputs).forEach(function (name) { values[name] = inputs[name].value; });
        startConnect(t.type, needChannelId(), values);
      });
      group.appendChild(button);
    } else {
      var open = el('button', { type: 'button', className: 'secondary', 'data-form-type': t.type,
        'aria-label': 'Connect ' + t.label + ' with its form', 'aria-controls': 'connect-form' },
        [channelType(t.type), el('span', { className: 'reason-small', text: ' form' })]);
      open.addEventListener('click', function () { showForm(t, {}); });
      group.appendChild(open);
    }
    return group;
  }

  function renderConnectButtons(list) {
    var box = $('connect-buttons');
    box.textContent = '';
    list.forEach(function (t) { box.appendChild(typeGroup(t)); });
  }

  // where the form's secret is made: {field} stands for that field's value
  function guideText(t, form) {
    var missing = false;
    var text = t.secretGuide.replace(/\{([A-Za-z0-9_]+)\}/g, function (all, name) {
      var input = form.querySelector('[data-field="' + name + '"]');
      var value = input ? input.value.trim().replace(/\/+$/, '') : '';
      if (!value) { missing = true; return all; }
      return value;
    });
    return { text: text, complete: !missing };
  }

  // the form of a type that connects with the PUT of its fields
  function showForm(t, settings) {
    var form = $('connect-form');
    form.textContent = '';
    form.setAttribute('data-form-for', t.type);
    var fields = el('div', { className: 'connect-fields' });
    (t.fields || []).forEach(function (field) {
      fieldInputs('connect-form', t.type, field, field.secret ? null : settings[field.name])
        .forEach(function (part) { fields.appendChild(part); });
    });
    var guide = el('p', { className: 'hint connect-guide' });
    var submit = el('button', { type: 'submit', 'data-form-submit': t.type, text: 'Connect ' + t.label });
    var cancel = el('button', { type: 'button', className: 'secondary', text: 'Cancel' });
    cancel.addEventListener('click', function () { form.hidden = true; form.textContent = ''; });
    form.appendChild(el('h4', { text: 'Connect a ' + t.label + ' channel' }));
    form.appendChild(fields);
    if (t.secretGuide) { form.appendChild(guide); }
    form.appendChild(el('div', { className: 'connect-buttons' }, [submit, cancel]));
    var showGuide = function () {
      if (!t.secretGuide) { return; }
      var shown = guideText(t, form);
      var secret = (t.fields || []).filter(function (f) { return f.secret; }).map(function (f) { return f.label; });
      guide.textContent = '';
      guide.appendChild(document.createTextNode('Make the ' + (secret.join(', ') || 'secret').toLowerCase() + ' at '));
      guide.appendChild(shown.complete && H.webUrl(shown.text)
        ? el('a', { href: shown.text, rel: 'noopener noreferrer', target: '_blank', text: shown.text })
        : el('code', { text: shown.text }));
      guide.appendChild(document.createTextNode('.'));
    };
    form.oninput = showGuide;
    form.onsubmit = function (e) {
      e.preventDefault();
      var channelId = needChannelId();
      if (!channelId) { return; }
      var body = { type: t.type };
      (t.fields || []).forEach(function (field) {
        var value = form.querySelector('[data-field="' + field.name + '"]').value.trim();
        if (value) { body[field.name] = value; }
      });
      submit.disabled = true;
      say('Connecting ' + channelId + '…');
      H.api(H.wsPath('/channels/' + encodeURIComponent(channelId)), { method: 'PUT', body: JSON.stringify(body) })
        .then(function () {
          form.hidden = true;
          form.textContent = '';
          say(channelId + ' is connected (' + t.label + ').', 'ok');
          H.rendered.channels = null;
          H.refreshChannels();
        }, function (error) {
          submit.disabled = false;
          if (error instanceof H.Unauthorized) { return; }
          say(t.label + ': ' + H.problemText(error), 'error');
        });
    };
    showGuide();
    form.hidden = false;
    var first = form.querySelector('input');
    if (first) { first.focus(); }
  }

  function choose(result, choice, button) {
    button.disabled = true;
    say('Connecting ' + choice.name + '…');
    H.api(H.wsPath('/channels/' + encodeURIComponent(result.channelId) + '/connect/choice'),
      { method: 'POST', body: JSON.stringify({ state: result.state, id: choice.id }) })
      .then(function () {
        $('connect-choices').hidden = true;
        say(result.channelId + ' is connected to ' + choice.name + '.', 'ok');
        H.rendered.channels = null;
        H.refreshChannels();
      }, function (error) {
        if (error instanceof H.Unauthorized) { return; }
        button.disabled = false;
        say('Not connected: ' + H.problemText(error), 'error');
      });
  }

  // what the provider's return said, passed in the fragment (never sent to a server)
  function showReturn() {
    var match = /^#connect=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!match) { return; }
    history.replaceState(null, '', location.pathname + location.search);
    var result;
    try {
      result = JSON.parse(decodeURIComponent(escape(atob(match[1].replace(/-/g, '+').replace(/_/g, '/')))));
    } catch (ignored) { return; }
    // said with the type's label: once the types are known
    whenTypes(function () { sayReturn(result); });
  }

  function sayReturn(result) {
    if (result.error) {
      say(typeLabel(result.type) + ' was not connected: ' + result.detail, 'error');
    } else if (result.connected) {
      say(result.channelId + ' is connected (' + typeLabel(result.type) + ').', 'ok');
    } else if (result.choices) {
      var box = $('connect-choices');
      box.textContent = '';
      box.appendChild(el('p', { text: 'Which ' + (result.choices[0] || {}).kind + ' should ' + result.channelId
        + ' publish to?' }));
      result.choices.forEach(function (choice) {
        var button = el('button', { type: 'button', 'data-choice': choice.id, text: choice.name });
        button.addEventListener('click', function () { choose(result, choice, button); });
        box.appendChild(button);
      });
      box.hidden = false;
      say('Choose one to finish connecting ' + result.channelId + '.');
    }
  }

  function capability(cap, label) {
    if (!cap) { return el('td', { 'data-label': label, text: '—' }); }
    return el('td', { 'data-label': label }, [
      el('span', { className: cap.available ? 'ok' : 'no', text: cap.available ? 'available' : 'unavailable' }),
      cap.reason ? el('span', { className: 'reason-small', text: ' — ' + cap.reason }) : null
    ]);
  }

  // what the connection's retry safety lets Herald do after an unknown outcome of a create
  var RETRY_SAFETY = {
    client_id: { label: 'same id', text: 'sent again: Herald chose the post\'s id' },
    provider_key: { label: 'idempotency key', text: 'sent again with the same key, then read back' },
    read_back: { label: 'read back', text: 'read back first' },
    none: { label: 'operator', text: 'an operator decides' }
  };

  function retrySafety(value) {
    var known = RETRY_SAFETY[value] || { label: value, text: '' };
    return el('td', { 'data-label': 'After an unknown outcome', 'data-retry-safety': value || '' },
      [value ? el('span', { className: 'badge rs-' + value, title: value + ': ' + known.text, text: known.label }) : '—',
        value ? el('span', { className: 'reason-small', text: ' ' + known.text }) : null]);
  }

  function renderChannels(channels) {
    var rows = channels.map(function (c) {
      var caps = c.capabilities || {};
      var status = c.status || 'ACTIVE';
      return el('tr', { 'data-channel-id': c.channelId }, [
        el('th', { scope: 'row', 'data-label': 'Channel' }, [c.channelId + ' ', channelType(c.type)]),
        el('td', { 'data-label': 'Status' }, [H.badge(status),
          c.tokenExpiresAt ? el('span', { className: 'reason-small', text: ' token until ' + H.time(c.tokenExpiresAt) }) : null,
          c.apiVersion ? el('span', { className: 'reason-small', 'data-api-version': c.apiVersion.version,
            text: ' API ' + c.apiVersion.version + (c.apiVersion.sunsetAt ? ' until ' + H.time(c.apiVersion.sunsetAt) : ' (sunset unknown)') }) : null,
          c.budget ? el('span', { className: 'reason-small', 'data-budget-remaining': String(c.budget.remaining),
            text: ' budget ' + c.budget.remaining + ' left' + (c.budget.resetsAt ? ' until ' + H.time(c.budget.resetsAt) : '') }) : null]),
        capability(caps.publish, 'Publish'), capability(caps.reconcile, 'Read-back'), retrySafety(c.retrySafety),
        el('td', { 'data-label': 'Held', text: String(c.heldPublications || 0) })
      ]);
    });
    H.replaceRows($('channels').tBodies[0], rows, 'No channel connections in this workspace.', 6);
  }

  H.refreshChannels = function () {
    return loadTypes().then(function () { return H.api(H.wsPath('/channels')); }).then(function (channels) {
      H.renderIfChanged('channels', channels, function () {
        renderBanners(channels);
        renderChannels(channels);
        H.offerChannels(channels);
      });
    });
  };

  // ---- webhook deliveries ---------------------------------------------------------------------
  // a redelivery's answer stays beside its row when the refresh redraws the table
  var results = {};

  function deliveryRow(hook, d) {
    var shown = results[d.deliveryId] || { className: '', text: '' };
    var result = el('span', { className: 'redeliver-result ' + shown.className, role: 'status', text: shown.text });
    var say = function (className, text) {
      results[d.deliveryId] = { className: className, text: text };
      result.className = 'redeliver-result ' + className;
      result.textContent = text;
    };
    var button = el('button', { type: 'button', className: 'secondary small', 'data-redeliver': d.deliveryId,
      text: 'Redeliver', 'aria-label': 'Redeliver ' + d.deliveryId + ' to ' + hook.webhookId });
    button.addEventListener('click', function () {
      button.disabled = true;
      say('', 'Sending…');
      H.api(H.wsPath('/webhooks/' + encodeURIComponent(hook.webhookId) + '/deliveries/'
        + encodeURIComponent(d.deliveryId) + '/redeliver'), { method: 'POST' })
        .then(function () {
          say('ok', 'Sent again at ' + new Date().toLocaleTimeString() + ' (same id); the table shows its answer.');
        }, function (error) {
          if (error instanceof H.Unauthorized) { return; }
          say('error', 'Refused (' + H.problemText(error) + ')');
        })
        .then(function () { button.disabled = false; });
    });
    var answer = [d.lastStatusCode ? 'HTTP ' + d.lastStatusCode : null, d.lastError].filter(Boolean).join(' — ');
    return el('tr', { 'data-delivery-id': d.deliveryId }, [
      el('td', { 'data-label': 'Delivery' }, [el('code', { text: d.deliveryId })]),
      el('td', { 'data-label': 'Event', text: d.type }),
      el('td', { 'data-label': 'Status' }, [H.badge(d.status)]),
      el('td', { 'data-label': 'Tries', text: String(d.tries) }),
      el('td', { 'data-label': 'Last answer', className: 'answer', text: answer || 'no answer yet' }),
      el('td', { 'data-label': 'Next try', className: 'time', text: d.nextTryAt ? H.time(d.nextTryAt) : '—' }),
      el('td', { 'data-label': 'Action' }, [button, ' ', result])
    ]);
  }

  function renderWebhooks(hooks) {
    var box = $('webhooks');
    box.textContent = '';
    if (!hooks.length) {
      box.appendChild(el('p', { className: 'muted', text: 'No webhooks in this workspace.' }));
      return;
    }
    hooks.forEach(function (h) {
      var rows = h.failed.concat(h.pending).map(function (d) { return deliveryRow(h.hook, d); });
      var table = el('table', { className: 'grid stack', 'aria-label': 'Pending and failed deliveries of ' + h.hook.webhookId },
        [el('thead', {}, [el('tr', {}, ['Delivery', 'Event', 'Status', 'Tries', 'Last answer', 'Next try', 'Action']
          .map(function (t) { return el('th', { scope: 'col', text: t }); }))]), el('tbody')]);
      H.replaceRows(table.tBodies[0], rows, 'Nothing pending or failed.', 7);
      box.appendChild(el('section', { className: 'webhook', 'data-webhook-id': h.hook.webhookId }, [
        el('h3', { text: h.hook.webhookId + (h.hook.enabled ? '' : ' (disabled)') }),
        el('p', { className: 'muted url', text: h.hook.url + ' · ' + h.failed.length + ' failed, ' + h.pending.length
          + ' pending' }),
        el('div', { className: 'scroll' }, [table])
      ]));
    });
  }

  H.refreshWebhooks = function () {
    return H.api(H.wsPath('/webhooks')).then(function (page) {
      return Promise.all((page.items || []).map(function (hook) {
        var base = H.wsPath('/webhooks/' + encodeURIComponent(hook.webhookId) + '/deliveries?limit=20&status=');
        return Promise.all([H.api(base + 'FAILED'), H.api(base + 'PENDING')]).then(function (answers) {
          return { hook: hook, failed: answers[0].items, pending: answers[1].items };
        });
      }));
    }).then(function (hooks) {
      $('webhooks-error').textContent = '';
      H.renderIfChanged('webhooks', hooks, renderWebhooks);
    }, function (error) {
      if (error instanceof H.Unauthorized) { throw error; }
      $('webhooks-error').textContent = error.status === 403
        ? 'Webhook deliveries need a key with the operator or admin role.' : 'Could not load: ' + H.problemText(error);
    });
  };
  showReturn();
})();
