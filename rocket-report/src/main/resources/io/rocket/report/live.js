(function () {
  'use strict';
  // The live page of a running job: reads the status document (./status) every few seconds and draws it; or, made
  // from an event log by `rocket report --event-log`, draws the one document embedded in the page.
  var EMBEDDED = JSON.parse(document.getElementById('status-data').textContent);
  var PERIOD_MS = 2000;
  var KINDS = ['io', 'cpu', 'kernel', 'h2d', 'd2h'];
  var KIND_COLOURS = {io: '#8c564b', cpu: '#1f77b4', kernel: '#2ca02c', h2d: '#ff7f0e', d2h: '#e8a33d'};
  var RANK_COLOURS = ['#1f6fb2', '#d6604d', '#4dac26', '#8073ac', '#e08214', '#35978f', '#c51b7d', '#7f7f7f'];
  var main = document.getElementById('main');

  function node(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (text != null) {
      e.textContent = text;
    }
    return e;
  }
  function grouped(n) {
    return n == null ? '–' : Math.round(n).toLocaleString('en-US');
  }
  function span(s) {
    if (s == null) {
      return '–';
    }
    s = Math.round(s);
    if (s < 60) {
      return s + ' s';
    }
    if (s < 3600) {
      return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    }
    return Math.floor(s / 3600) + ' h ' + Math.floor(s % 3600 / 60) + ' min';
  }
  function share(f) {
    return f == null ? '–' : (100 * f).toFixed(1) + ' %';
  }

  // ---- plots: one section each, redrawn in place on every refresh ----------------------------------------------

  var sections = {};
  function section(id, title, caption) {
    if (!sections[id]) {
      var s = node('section', 'plot');
      s.id = 'plot-' + id;
      s.setAttribute('data-plot', id);
      var head = node('div', 'plot-head');
      head.appendChild(node('h2', null, title));
      s.appendChild(head);
      s.appendChild(node('p', 'caption', caption));
      var holder = node('div', 'holder');
      s.appendChild(holder);
      var legend = node('div', 'legend');
      s.appendChild(legend);
      main.appendChild(s);
      sections[id] = {section: s, holder: holder, legend: legend};
    }
    return sections[id];
  }
  function canvas(part, height) {
    var width = Math.max(320, part.holder.clientWidth || 800);
    var c = part.holder.querySelector('canvas');
    if (!c) {
      c = document.createElement('canvas');
      part.holder.appendChild(c);
    }
    var ratio = window.devicePixelRatio || 1;
    c.width = width * ratio;
    c.height = height * ratio;
    c.style.width = width + 'px';
    c.style.height = height + 'px';
    var ctx = c.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px system-ui, sans-serif';
    return {ctx: ctx, width: width, height: height, left: 84, right: width - 12, top: 10, bottom: height - 24};
  }
  function keys(part, items) {
    part.legend.textContent = '';
    items.forEach(function (it) {
      var k = node('span');
      var swatch = node('i');
      swatch.style.background = it[1];
      k.appendChild(swatch);
      k.appendChild(document.createTextNode(it[0]));
      part.legend.appendChild(k);
    });
  }
  function axes(p, xMax, yMax, xLabel) {
    var ctx = p.ctx;
    ctx.strokeStyle = '#d8dee4';
    ctx.fillStyle = '#5f6b76';
    ctx.lineWidth = 1;
    for (var k = 0; k <= 4 && yMax > 0; k++) {
      var y = p.bottom - (p.bottom - p.top) * k / 4;
      ctx.beginPath();
      ctx.moveTo(p.left, y);
      ctx.lineTo(p.right, y);
      ctx.stroke();
      ctx.textAlign = 'right';
      ctx.fillText(grouped(yMax * k / 4), p.left - 6, y + 4);
    }
    ctx.textAlign = 'center';
    for (var j = 0; j <= 5; j++) {
      var x = p.left + (p.right - p.left) * j / 5;
      ctx.fillText(xLabel(xMax * j / 5), x, p.bottom + 16);
    }
  }
  function line(p, xs, ys, xMax, yMax, colour, dashed) {
    var ctx = p.ctx;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.setLineDash(dashed ? [5, 4] : []);
    ctx.beginPath();
    for (var k = 0; k < xs.length; k++) {
      var x = p.left + (p.right - p.left) * (xMax > 0 ? xs[k] / xMax : 0);
      var y = p.bottom - (p.bottom - p.top) * (yMax > 0 ? ys[k] / yMax : 0);
      if (k === 0) {
        ctx.moveTo(x, y);
      } else {
        ctx.lineTo(x, y);
      }
    }
    ctx.stroke();
    ctx.setLineDash([]);
  }
  function seconds(s) {
    return span(s);
  }

  function progress(d, history) {
    var part = section('progress', 'Progress', 'Pairs done over the run (dashed: all the pairs of the job).');
    var p = canvas(part, 220);
    var xs = history.map(function (h) { return h.seconds; });
    var ys = history.map(function (h) { return h.pairs_done; });
    var xMax = Math.max(d.elapsed_seconds, xs.length ? xs[xs.length - 1] : 0, 1);
    axes(p, xMax, d.pairs_total, seconds);
    line(p, [0, xMax], [d.pairs_total, d.pairs_total], xMax, d.pairs_total, '#5f6b76', true);
    line(p, xs, ys, xMax, d.pairs_total, '#1f6fb2', false);
    part.section.setAttribute('data-points', String(xs.length));
    keys(part, [['pairs done', '#1f6fb2'], ['pairs of the job', '#5f6b76']]);
  }

  function rates(d, history) {
    var part = section('rates', 'Pairs per second per node',
      'Each node\'s pairs per second between two points of the history; lines that end together mean a balanced run.');
    var p = canvas(part, 220);
    var series = [];
    var yMax = 1;
    d.nodes.forEach(function (n, r) {
      var xs = [];
      var ys = [];
      for (var k = 1; k < history.length; k++) {
        var dt = history[k].seconds - history[k - 1].seconds;
        var a = history[k - 1].rank_pairs[r] || 0;
        var b = history[k].rank_pairs[r] || 0;
        if (dt > 0) {
          xs.push(history[k].seconds);
          ys.push(Math.max(0, (b - a) / dt));
          yMax = Math.max(yMax, ys[ys.length - 1]);
        }
      }
      series.push([xs, ys]);
    });
    var xMax = Math.max(d.elapsed_seconds, 1);
    axes(p, xMax, yMax * 1.1, seconds);
    var legend = [];
    series.forEach(function (s, r) {
      var colour = RANK_COLOURS[r % RANK_COLOURS.length];
      line(p, s[0], s[1], xMax, yMax * 1.1, colour, false);
      legend.push(['rank ' + r, colour]);
    });
    keys(part, legend);
  }

  function bars(part, rows, columns, colours, scale, unit) {
    var p = canvas(part, 34 + rows.length * 30);
    var ctx = p.ctx;
    var max = scale;
    rows.forEach(function (row) {
      max = Math.max(max, row.values.reduce(function (a, b) { return a + b; }, 0));
    });
    axes({ctx: ctx, left: p.left, right: p.right, top: p.bottom, bottom: p.bottom}, max, 0, unit);
    rows.forEach(function (row, i) {
      var y = p.top + i * 30;
      var x = p.left;
      ctx.fillStyle = '#1d2329';
      ctx.textAlign = 'right';
      ctx.fillText(row.label, p.left - 6, y + 15);
      row.values.forEach(function (v, k) {
        var w = max > 0 ? (p.right - p.left) * v / max : 0;
        ctx.fillStyle = colours[k];
        ctx.fillRect(x, y + 4, w, 20);
        x += w;
      });
    });
    if (scale > 0) {
      var sx = p.left + (p.right - p.left) * scale / max;
      ctx.strokeStyle = '#1d2329';
      ctx.setLineDash([5, 4]);
      ctx.beginPath();
      ctx.moveTo(sx, p.top);
      ctx.lineTo(sx, p.bottom);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    keys(part, columns.map(function (c, k) { return [c, colours[k]]; }));
  }

  function busy(d) {
    var part = section('busy', 'Busy fraction per resource',
      'Per node and kind of thread, the time its threads ran tasks divided by (its threads \u00d7 the node\'s time '
      + 'in the run): 100 % when every thread of the kind was busy all the time.');
    var rows = [];
    d.nodes.forEach(function (n) {
      KINDS.forEach(function (kind) {
        rows.push({label: 'rank ' + n.rank + ' ' + kind, values: [(n.busy_fraction || {})[kind] || 0],
          colour: KIND_COLOURS[kind]});
      });
    });
    var p = canvas(part, 34 + rows.length * 18);
    var ctx = p.ctx;
    var max = 1;
    axes({ctx: ctx, left: p.left + 60, right: p.right, top: p.bottom, bottom: p.bottom}, max, 0, share);
    rows.forEach(function (r, i) {
      var y = p.top + i * 18;
      ctx.fillStyle = '#1d2329';
      ctx.textAlign = 'right';
      ctx.fillText(r.label, p.left + 54, y + 12);
      ctx.fillStyle = r.colour;
      ctx.fillRect(p.left + 60, y + 3, (p.right - p.left - 60) * r.values[0] / max, 12);
    });
    keys(part, KINDS.map(function (k) { return [k, KIND_COLOURS[k]]; }));
  }

  function caches(d) {
    var part = section('cache', 'Cache hits per level',
      'Requests of each level over all nodes: hits and misses. L2\'s requests are L1\'s misses, L3\'s are L2\'s '
      + 'misses that other nodes were asked for.');
    var sum = function (f) {
      return d.nodes.reduce(function (a, n) { return a + (n[f] || 0); }, 0);
    };
    var l3Requests = sum('l3_requests');
    var rows = [
      {label: 'L1 (device)', values: [sum('l1_hits'), sum('l1_misses')]},
      {label: 'L2 (host)', values: [sum('l2_hits'), sum('l2_misses')]},
      {label: 'L3 (nodes)', values: [sum('l3_hits'), l3Requests - sum('l3_hits')]}
    ];
    bars(part, rows, ['hits', 'misses'], ['#2ca02c', '#d6604d'], 0, grouped);
  }

  function table(d) {
    var part = section('nodes', 'Nodes', 'The latest figures each node sent (about once a second while it changes).');
    part.holder.textContent = '';
    var t = node('table', 'nodes');
    var head = ['rank', 'host', 'state', 'pairs/s', 'pairs', 'L1 hit', 'L2 hit', 'L3 hit', 'L3 requests',
      'steals local/remote', 'direct memory used / max', 'GPU busy'];
    var tr = node('tr');
    head.forEach(function (h) { tr.appendChild(node('th', null, h)); });
    t.appendChild(tr);
    d.nodes.forEach(function (n) {
      var row = node('tr');
      row.setAttribute('data-rank', String(n.rank));
      row.setAttribute('data-state', n.state);
      [n.rank, n.host, n.state, grouped(n.pairs_per_second), grouped(n.pairs_done), share(n.l1_hit_rate),
        share(n.l2_hit_rate), share(n.l3_hit_rate), grouped(n.l3_requests), n.local_steals + ' / ' + n.remote_steals,
        grouped(n.direct_memory_used_bytes / 1e6) + ' / ' + grouped(n.direct_memory_max_bytes / 1e6) + ' MB',
        share(n.gpu_busy_fraction)].forEach(function (v) { row.appendChild(node('td', null, String(v))); });
      t.appendChild(row);
    });
    part.holder.appendChild(t);
  }

  function cards(d) {
    var box = document.getElementById('headline');
    box.textContent = '';
    var fraction = d.pairs_total > 0 ? d.pairs_done / d.pairs_total : 1;
    var lost = d.lost_ranks.length;
    [
      ['state', 'State', d.job.state, d.job.nodes + ' node' + (d.job.nodes === 1 ? '' : 's')
        + (lost ? ', ' + lost + ' lost' : ''), true],
      ['pairs_done', 'Pairs done', grouped(d.pairs_done), share(fraction) + ' of ' + grouped(d.pairs_total), true],
      ['pairs_per_second_now', 'Pairs / s now', grouped(d.pairs_per_second_now), 'last seconds'],
      ['pairs_per_second_overall', 'Pairs / s overall', grouped(d.pairs_per_second_overall), 'whole run so far'],
      ['eta_seconds', 'ETA', d.eta_seconds == null ? '–' : span(d.eta_seconds), 'at the recent rate'],
      ['elapsed_seconds', 'Elapsed', span(d.elapsed_seconds), 'since the run started'],
      ['recomputed_pairs', 'Recomputed', grouped(d.recomputed_pairs), 'pairs, after lost nodes'],
      ['bad_item_loads', 'Bad item loads', grouped(d.bad_item_loads), grouped(d.pair_errors) + ' pair errors']
    ].forEach(function (c) {
      var card = node('div', 'card' + (c[4] ? ' key' : ''));
      card.setAttribute('data-key', c[0]);
      card.setAttribute('data-value', c[2]);
      card.appendChild(node('div', 'label', c[1]));
      card.appendChild(node('div', 'value', c[2]));
      card.appendChild(node('div', 'sub', c[3]));
      box.appendChild(card);
    });
  }

  function draw(d) {
    var title = 'Rocket: ' + d.job.app + (d.job.nodes > 1 ? ' on ' + d.job.nodes + ' nodes' : '');
    document.getElementById('title').textContent = title;
    document.title = title;
    document.getElementById('sources').textContent = d.pair_space.description + ' · started ' + d.job.started
      + (EMBEDDED ? ' · from an event log' : ' · refreshed every ' + PERIOD_MS / 1000 + ' s');
    cards(d);
    var history = d.history || [];
    progress(d, history);
    rates(d, history);
    busy(d);
    caches(d);
    table(d);
    document.body.setAttribute('data-status-state', d.job.state);
    document.body.setAttribute('data-pairs-done', String(d.pairs_done));
  }

  function refresh() {
    fetch('status' + window.location.search, {cache: 'no-store'}).then(function (r) {
      if (r.status === 503) {
        return null; // the endpoint opens before the run: its devices are opening or its nodes joining
      }
      if (!r.ok) {
        throw new Error('status answered ' + r.status);
      }
      return r.json();
    }).then(function (d) {
      if (d === null) {
        document.getElementById('footer').textContent = 'Rocket live status · the run is starting';
        window.setTimeout(refresh, PERIOD_MS);
        return;
      }
      draw(d);
      document.getElementById('footer').textContent = 'Rocket live status · updated '
        + new Date().toLocaleTimeString();
      if (d.job.state === 'running') {
        window.setTimeout(refresh, PERIOD_MS);
      }
    }).catch(function (e) {
      // The run ended (its endpoint is gone) or the network failed: keep the last figures and say so.
      document.body.setAttribute('data-status-state', 'unreachable');
      document.getElementById('footer').textContent = 'Rocket live status · cannot reach the run: ' + e.message;
      window.setTimeout(refresh, PERIOD_MS * 2);
    });
  }

  if (EMBEDDED) {
    draw(EMBEDDED);
    document.getElementById('footer').textContent = 'Rocket run status rebuilt from an event log. The page is '
      + 'self-contained.';
  } else {
    refresh();
  }
})();
