// Find any case: the publication list with filters and cursor paging. The page's URL carries the
// filters (and the page's cursor), so a filtered list can be shared as a link.
(function () {
  'use strict';
  var H = window.HeraldConsole;
  var $ = H.$;
  var el = H.el;

  // the URL's parameter for each control of the form
  var FIELDS = { q: 'find-q', status: 'find-status', channelId: 'find-channel', calendarEntryId: 'find-entry',
    from: 'find-from', to: 'find-to' };
  var FLAGS = { needsDecision: 'find-needs-decision', held: 'find-held' };
  var cursors = [];

  function fromUrl() {
    var params = new URLSearchParams(location.search);
    Object.keys(FIELDS).forEach(function (name) {
      var value = params.get(name) || '';
      if (name === 'from' || name === 'to') { value = value.replace(/:00Z$|Z$/, '').substring(0, 16); }
      if (name === 'channelId' && value && !$('find-channel').querySelector('option[value="' + CSS.escape(value) + '"]')) {
        $('find-channel').appendChild(el('option', { value: value, text: value }));
      }
      $(FIELDS[name]).value = value;
    });
    Object.keys(FLAGS).forEach(function (name) { $(FLAGS[name]).checked = params.get(name) === 'true'; });
    cursors = params.get('cursor') ? [params.get('cursor')] : [];
  }

  /** The filters as the console's URL carries them. */
  function filters() {
    var f = {};
    Object.keys(FIELDS).forEach(function (name) {
      var value = $(FIELDS[name]).value.trim();
      // the time inputs are in UTC, as everything on this page
      if (value && (name === 'from' || name === 'to')) { value = value + ':00Z'; }
      if (value) { f[name] = value; }
    });
    Object.keys(FLAGS).forEach(function (name) { if ($(FLAGS[name]).checked) { f[name] = 'true'; } });
    return f;
  }

  function apiQuery(f, cursor) {
    var q = new URLSearchParams();
    Object.keys(f).forEach(function (name) {
      // HELD is also a flag of the list, which answers the same with or without the HELD status known
      if (name === 'status' && f[name] === 'HELD') { q.set('held', 'true'); } else { q.set(name, f[name]); }
    });
    if (cursor) { q.set('cursor', cursor); }
    q.set('limit', '20');
    return q.toString();
  }

  function writeUrl(f) {
    var url = new URL('/console', location.href);
    var current = new URLSearchParams(location.search);
    url.searchParams.set('ws', H.state.ws);
    ['pub', 'window'].forEach(function (k) { if (current.get(k)) { url.searchParams.set(k, current.get(k)); } });
    Object.keys(f).forEach(function (k) { url.searchParams.set(k, f[k]); });
    if (cursors.length) { url.searchParams.set('cursor', cursors[cursors.length - 1]); }
    history.replaceState(null, '', url);
    $('find-link').href = url.href;
  }

  H.caseItem = function (view, withReason) {
    var selected = view.publicationId === H.state.selected;
    var button = el('button', {
      type: 'button', className: 'case-item' + (selected ? ' selected' : ''),
      'data-publication-id': view.publicationId, 'data-status': view.status,
      'aria-pressed': selected ? 'true' : 'false'
    }, [
      H.badge(view.status),
      el('span', { className: 'what', text: view.channelId + ' (' + view.channelType + ') · ' + view.action }),
      el('span', { className: 'entry', text: view.calendarEntryId + ' v' + view.contentVersion }),
      el('span', { className: 'muted when', text: 'since ' + H.time(view.updatedAt) }),
      withReason && (view.decisionReason || view.heldReason)
        ? el('span', { className: 'why', text: view.decisionReason || view.heldReason }) : null
    ]);
    button.addEventListener('click', function () { H.select(view.publicationId); });
    return el('li', {}, [button]);
  };

  H.renderList = function (list, items, emptyText, withReason) {
    list.textContent = '';
    if (!items.length) {
      list.appendChild(el('li', { className: 'muted empty', text: emptyText }));
      return;
    }
    items.forEach(function (view) { list.appendChild(H.caseItem(view, withReason)); });
  };

  H.refreshFind = function () {
    var f = filters();
    var cursor = cursors.length ? cursors[cursors.length - 1] : null;
    return H.api(H.wsPath('/publications?' + apiQuery(f, cursor))).then(function (page) {
      $('find-error').textContent = '';
      H.renderIfChanged('find', { page: page, selected: H.state.selected }, function () {
        H.renderList($('found'), page.items, 'No publication matches these filters.', true);
        $('find-next').disabled = !page.nextCursor;
        $('find-next').dataset.cursor = page.nextCursor || '';
        $('find-previous').disabled = !cursors.length;
        $('find-page').textContent = 'Page ' + (cursors.length + 1) + ' · ' + page.items.length + ' shown'
          + (page.nextCursor ? ', more after' : '');
      });
    }, function (error) {
      if (error instanceof H.Unauthorized) { throw error; }
      // a bad filter is the operator's to fix: say which, keep the rest of the page live
      $('find-error').textContent = 'Refused (' + H.problemText(error) + ')';
    });
  };

  /** The channels the list can filter on, from the channels view. */
  H.offerChannels = function (channels) {
    var select = $('find-channel');
    var chosen = select.value;
    Array.prototype.slice.call(select.options, 1).forEach(function (o) { o.remove(); });
    channels.forEach(function (c) { select.appendChild(el('option', { value: c.channelId, text: c.channelId })); });
    if (chosen && !select.querySelector('option[value="' + CSS.escape(chosen) + '"]')) {
      select.appendChild(el('option', { value: chosen, text: chosen }));
    }
    select.value = chosen;
  };

  $('find-form').addEventListener('submit', function (e) {
    e.preventDefault();
    cursors = [];
    writeUrl(filters());
    H.refreshFind();
  });
  $('find-clear').addEventListener('click', function () {
    $('find-form').reset();
    cursors = [];
    writeUrl(filters());
    H.refreshFind();
  });
  $('find-next').addEventListener('click', function () {
    if (!$('find-next').dataset.cursor) { return; }
    cursors.push($('find-next').dataset.cursor);
    writeUrl(filters());
    H.refreshFind().then(function () { $('found-title').focus(); });
  });
  $('find-previous').addEventListener('click', function () {
    cursors.pop();
    writeUrl(filters());
    H.refreshFind().then(function () { $('found-title').focus(); });
  });

  H.startFind = function () {
    fromUrl();
    writeUrl(filters());
  };
})();
