// The day at a glance: outcomes per hour, open cases and the providers' answer times, from
// GET …/stats (hour buckets kept by Herald, so a page view costs the same however many exist).
(function () {
  'use strict';
  var H = window.HeraldConsole;
  var $ = H.$;
  var el = H.el;

  // colour and a word for every series: the legend and the summary say what the colour means
  var OUTCOMES = [
    { key: 'succeeded', label: 'succeeded', color: '#1a7f37', dash: [] },
    { key: 'failed', label: 'failed', color: '#b42318', dash: [6, 3] },
    { key: 'outcomeUnknown', label: 'outcome unknown', color: '#9a6700', dash: [2, 2] },
    { key: 'held', label: 'held', color: '#5a32a3', dash: [10, 3, 2, 3] }
  ];
  var OPEN = { key: 'openCases', label: 'open cases', color: '#0b5cad', dash: [] };
  var CHART_HEIGHT = 200;
  var charts = {};

  function windowChoice() {
    var checked = document.querySelector('input[name="stats-window"]:checked');
    return checked ? checked.value : '24h';
  }

  function chartWidth(box) { return Math.max(240, Math.floor(box.clientWidth)); }

  function seriesOf(list) {
    return [{ label: 'hour (UTC)' }].concat(list.map(function (s) {
      return { label: s.label, stroke: s.color, width: 2, dash: s.dash, points: { show: true, size: 5, fill: s.color } };
    }));
  }

  /** One chart per box, made once and then only handed new data: the page does not move on refresh. */
  function draw(name, box, list, data) {
    var chart = charts[name];
    if (chart && chart.seriesCount === list.length) {
      chart.plot.setData(data);
      return;
    }
    box.textContent = '';
    var plot = new window.uPlot({
      width: chartWidth(box), height: CHART_HEIGHT,
      legend: { show: false },
      cursor: { show: true, drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: function (u, min, max) { return [0, Math.max(1, max)]; } } },
      axes: [{ stroke: '#59636e', grid: { stroke: '#eaeef2' } },
        { stroke: '#59636e', grid: { stroke: '#eaeef2' }, size: 44 }],
      series: seriesOf(list),
      hooks: {
        draw: [function (u) {
          // what the browser test reads: how many values the chart drew as points
          var points = 0;
          for (var s = 1; s < u.data.length; s++) {
            u.data[s].forEach(function (v) { if (v !== null && v !== undefined) { points++; } });
          }
          box.dataset.points = String(points);
        }]
      }
    }, data, box);
    charts[name] = { plot: plot, seriesCount: list.length, box: box };
  }

  function legend(target, list, totals) {
    target.textContent = '';
    list.forEach(function (s) {
      var swatch = el('span', { className: 'swatch', 'aria-hidden': 'true' });
      swatch.style.backgroundColor = s.color;
      target.appendChild(el('li', {}, [swatch, el('span', { text: s.label + ' ' }),
        el('strong', { text: String(totals[s.key]) })]));
    });
  }

  function renderStats(stats) {
    var x = stats.hours.map(function (h) { return Date.parse(h.hour) / 1000; });
    var totals = { succeeded: 0, failed: 0, outcomeUnknown: 0, held: 0 };
    stats.hours.forEach(function (h) { OUTCOMES.forEach(function (s) { totals[s.key] += h[s.key]; }); });
    var outcomeData = [x].concat(OUTCOMES.map(function (s) { return stats.hours.map(function (h) { return h[s.key]; }); }));
    draw('outcomes', $('chart-outcomes'), OUTCOMES, outcomeData);
    legend($('legend-outcomes'), OUTCOMES, totals);
    var span = stats.window === '7d' ? 'the last 7 days' : 'the last 24 hours';
    $('summary-outcomes').textContent = 'In ' + span + ': ' + OUTCOMES.map(function (s) {
      return totals[s.key] + ' ' + s.label;
    }).join(', ') + '.';

    var open = stats.hours.map(function (h) { return h.openCases; });
    draw('open', $('chart-open'), [OPEN], [x, open]);
    var now = open.length ? open[open.length - 1] : 0;
    legend($('legend-open'), [OPEN], { openCases: now });
    $('summary-open').textContent = now + ' open now; at most ' + Math.max.apply(null, open.concat([0]))
      + ' in ' + span + '.';
    renderAnswerTimes(stats.answerTimes, span);
  }

  function renderAnswerTimes(channels, span) {
    var tbody = $('answer-times').tBodies[0];
    var slowest = channels.reduce(function (m, c) { return Math.max(m, c.p95Ms || 0); }, 1);
    H.replaceRows(tbody, channels.map(function (c) {
      var bar = function (ms, kind) {
        var fill = el('span', { className: 'bar ' + kind, 'aria-hidden': 'true' });
        fill.style.width = Math.max(2, Math.round(100 * (ms || 0) / slowest)) + '%';
        return el('td', { className: 'ms' }, [el('span', { className: 'value', text: ms === null ? '—' : '≤ ' + ms + ' ms' }),
          el('span', { className: 'track' }, [fill])]);
      };
      return el('tr', { 'data-channel-id': c.channelId }, [el('th', { scope: 'row', text: c.channelId }),
        el('td', { text: String(c.answers) }), bar(c.medianMs, 'median'), bar(c.p95Ms, 'p95')]);
    }), 'No provider answered in ' + span + '.', 4);
  }

  H.refreshOverview = function () {
    return H.api(H.wsPath('/stats?window=' + encodeURIComponent(windowChoice()))).then(function (stats) {
      H.renderIfChanged('stats', stats, renderStats);
    });
  };

  Array.prototype.forEach.call(document.querySelectorAll('input[name="stats-window"]'), function (input) {
    if (input.value === new URLSearchParams(location.search).get('window')) { input.checked = true; }
    input.addEventListener('change', function () {
      var url = new URL(location.href);
      url.searchParams.set('window', input.value);
      history.replaceState(null, '', url);
      H.refreshOverview().catch(function (error) { $('summary-outcomes').textContent = H.problemText(error); });
    });
  });

  // the charts follow their card's width (a phone turned, a window resized)
  if (window.ResizeObserver) {
    new ResizeObserver(function () {
      Object.keys(charts).forEach(function (name) {
        var chart = charts[name];
        var width = chartWidth(chart.box);
        if (width !== chart.plot.width) { chart.plot.setSize({ width: width, height: CHART_HEIGHT }); }
      });
    }).observe($('overview'));
  }
})();
