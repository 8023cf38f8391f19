(function () {
  'use strict';

  var DATA = JSON.parse(document.getElementById('report-data').textContent);
  var DPR = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
  var FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  var FONT_BOLD = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  var FONT_SMALL = '11px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  var INK = '#1d2329';
  var MUTED = '#5f6b76';
  var GRID = '#e4e8ec';

  // Colours: each task category has a family, each known task its own shade within it.
  var CATEGORY = {
    io: ['#8d6e3f', '#b8955c', '#6b5230'],
    cpu: ['#2f6db5', '#7aa6dc', '#1c4a80'],
    copy: ['#d9822b', '#f2b86b', '#a85d12'],
    kernel: ['#2d8a48', '#93d3a2', '#1b5e30'],
    net: ['#8e55b0', '#c7a2dd', '#5f3379'],
    other: ['#7b8791', '#aab4bc', '#56616a']
  };
  var KNOWN = {
    'read': ['io', 0], 'parse': ['cpu', 0], 'postprocess': ['cpu', 1], 'h2d': ['copy', 0],
    'd2h item': ['copy', 1], 'd2h result': ['copy', 2], 'compare': ['kernel', 0], 'preprocess': ['kernel', 1],
    'remote fetch': ['net', 0]
  };
  var KIND_COLOUR = {
    io: CATEGORY.io[0], cpu: CATEGORY.cpu[0], h2d: CATEGORY.copy[0], d2h: CATEGORY.copy[2],
    kernel: CATEGORY.kernel[0], net: CATEGORY.net[0], worker: '#9aa5ae', other: CATEGORY.other[0]
  };
  var SERIES = ['#1f6fb2', '#e5731b', '#2f9e44', '#c92a2a', '#7048e8', '#8c5a2b', '#d6336c', '#5c6b73',
    '#a39e0f', '#1098ad', '#364fc7', '#e8590c'];
  var HIT = '#2f9e44';
  var MISS = '#d9480f';
  var TIMEOUT = '#868e96';

  var nameColours = (function () {
    var used = {};
    var out = [];
    var names = (DATA.timeline && DATA.timeline.names) || [];
    names.forEach(function (n) {
      var known = KNOWN[n.name];
      var family = known ? known[0] : (CATEGORY[n.category] ? n.category : 'other');
      var shade = known ? known[1] : (used[family] || 0) % CATEGORY[family].length;
      if (!known) {
        used[family] = (used[family] || 0) + 1;
      }
      out.push(CATEGORY[family][shade]);
    });
    return out;
  })();

  function colourOfName(name) {
    var names = (DATA.timeline && DATA.timeline.names) || [];
    for (var i = 0; i < names.length; i++) {
      if (names[i].name === name) {
        return nameColours[i];
      }
    }
    return CATEGORY.other[0];
  }

  // ---- formatting --------------------------------------------------------------------------------------------

  function fmtInt(n) {
    return n == null ? '–' : Math.round(n).toLocaleString('en-US');
  }

  function fmtNum(v, digits) {
    if (v == null || !isFinite(v)) {
      return '–';
    }
    return v.toLocaleString('en-US', {maximumFractionDigits: digits, minimumFractionDigits: digits});
  }

  function fmtSeconds(s) {
    if (s == null || !isFinite(s)) {
      return '–';
    }
    var a = Math.abs(s);
    if (a === 0) {
      return '0 s';
    }
    if (a < 1e-3) {
      return fmtNum(s * 1e6, a < 1e-5 ? 2 : 1) + ' µs';
    }
    if (a < 1) {
      return fmtNum(s * 1e3, a < 1e-2 ? 2 : 1) + ' ms';
    }
    if (a < 600) {
      return fmtNum(s, a < 10 ? 2 : 1) + ' s';
    }
    return fmtNum(s / 60, 1) + ' min';
  }

  function fmtPct(v, digits) {
    return v == null || !isFinite(v) ? '–' : fmtNum(v * 100, digits == null ? 1 : digits) + ' %';
  }

  function fmtBytes(b) {
    if (b == null) {
      return '–';
    }
    var units = ['B', 'KB', 'MB', 'GB', 'TB'];
    var u = 0;
    while (b >= 1000 && u < units.length - 1) {
      b /= 1000;
      u++;
    }
    return fmtNum(b, u === 0 ? 0 : 1) + ' ' + units[u];
  }

  /** A tick label for a time in seconds, precise enough for the step between ticks. */
  function fmtTick(s, step) {
    if (step >= 60 && s >= 60) {
      return fmtNum(s / 60, step % 60 === 0 ? 0 : 1) + ' min';
    }
    if (step >= 0.1) {
      return fmtNum(s, decimals(step)) + ' s';
    }
    if (step >= 1e-4) {
      return fmtNum(s * 1e3, decimals(step * 1e3)) + ' ms';
    }
    return fmtNum(s * 1e6, decimals(step * 1e6)) + ' µs';
  }

  function decimals(step) {
    return Math.max(0, Math.min(6, Math.ceil(-Math.log10(step) - 1e-9)));
  }

  function niceStep(range, count) {
    var raw = range / Math.max(1, count);
    var p = Math.pow(10, Math.floor(Math.log10(raw)));
    var f = raw / p;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
  }

  function ticks(min, max, count) {
    if (!(max > min)) {
      max = min + 1;
    }
    var step = niceStep(max - min, count);
    var out = [];
    for (var v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
      out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    }
    return {values: out, step: step};
  }

  // ---- DOM and canvas helpers --------------------------------------------------------------------------------

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        e.setAttribute(k, attrs[k]);
      });
    }
    if (text != null) {
      e.textContent = text;
    }
    return e;
  }

  function canvasIn(holder, width, height) {
    var c = holder.querySelector('canvas');
    if (!c) {
      c = document.createElement('canvas');
      holder.appendChild(c);
    }
    c.width = Math.round(width * DPR);
    c.height = Math.round(height * DPR);
    c.style.width = width + 'px';
    c.style.height = height + 'px';
    var ctx = c.getContext('2d');
    ctx.setTransform(DPR, 0, 0, DPR, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    return ctx;
  }

  function widthOf(holder) {
    return Math.max(640, Math.floor(holder.clientWidth || 1000));
  }

  function text(ctx, s, x, y, align, colour, font) {
    ctx.font = font || FONT;
    ctx.fillStyle = colour || INK;
    ctx.textAlign = align || 'left';
    ctx.fillText(s, x, y);
  }

  function fitText(ctx, s, maxWidth) {
    if (ctx.measureText(s).width <= maxWidth) {
      return s;
    }
    while (s.length > 1 && ctx.measureText(s + '…').width > maxWidth) {
      s = s.slice(0, -1);
    }
    return s + '…';
  }

  var tip = document.getElementById('tip');

  function showTip(event, lines) {
    tip.textContent = lines.join('\n');
    tip.hidden = false;
    var x = event.clientX + 14;
    var y = event.clientY + 14;
    var w = tip.offsetWidth;
    var h = tip.offsetHeight;
    if (x + w > window.innerWidth - 4) {
      x = event.clientX - w - 14;
    }
    if (y + h > window.innerHeight - 4) {
      y = event.clientY - h - 14;
    }
    tip.style.left = Math.max(4, x) + 'px';
    tip.style.top = Math.max(4, y) + 'px';
  }

  function hideTip() {
    tip.hidden = true;
  }

  function legend(container, items) {
    var box = container.querySelector('.legend');
    if (!box) {
      box = el('div', {'class': 'legend'});
      container.appendChild(box);
    }
    box.textContent = '';
    items.forEach(function (it) {
      var span = el('span');
      var sw = el('i');
      sw.style.background = it.colour;
      if (it.outline) {
        sw.style.background = 'transparent';
        sw.style.border = '1.5px solid ' + it.colour;
      }
      span.appendChild(sw);
      span.appendChild(document.createTextNode(it.label));
      box.appendChild(span);
    });
  }

  /** Cartesian frame: axes, grid and tick labels; returns the scales. */
  function frame(ctx, box, x, y) {
    ctx.strokeStyle = GRID;
    ctx.lineWidth = 1;
    var yt = ticks(y.min, y.max, Math.max(3, Math.floor(box.h / 48)));
    yt.values.forEach(function (v) {
      var py = Math.round(box.t + box.h - (v - y.min) / (y.max - y.min) * box.h) + 0.5;
      if (py < box.t - 1) {
        return;
      }
      ctx.beginPath();
      ctx.moveTo(box.l, py);
      ctx.lineTo(box.l + box.w, py);
      ctx.stroke();
      text(ctx, y.format(v, yt.step), box.l - 6, py, 'right', MUTED, FONT_SMALL);
    });
    if (x) {
      var xt = ticks(x.min, x.max, Math.max(3, Math.floor(box.w / 90)));
      xt.values.forEach(function (v) {
        var px = Math.round(box.l + (v - x.min) / (x.max - x.min) * box.w) + 0.5;
        if (px > box.l + box.w + 1) {
          return;
        }
        ctx.beginPath();
        ctx.moveTo(px, box.t);
        ctx.lineTo(px, box.t + box.h);
        ctx.stroke();
        text(ctx, x.format(v, xt.step), px, box.t + box.h + 12, 'center', MUTED, FONT_SMALL);
      });
      if (x.title) {
        text(ctx, x.title, box.l + box.w / 2, box.t + box.h + 30, 'center', INK, FONT);
      }
    }
    ctx.strokeStyle = '#9aa5ae';
    ctx.beginPath();
    ctx.moveTo(box.l + 0.5, box.t);
    ctx.lineTo(box.l + 0.5, box.t + box.h + 0.5);
    ctx.lineTo(box.l + box.w, box.t + box.h + 0.5);
    ctx.stroke();
    if (y.title) {
      ctx.save();
      ctx.translate(14, box.t + box.h / 2);
      ctx.rotate(-Math.PI / 2);
      text(ctx, y.title, 0, 0, 'center', INK, FONT);
      ctx.restore();
    }
    return {
      x: function (v) {
        return box.l + (v - x.min) / (x.max - x.min) * box.w;
      },
      y: function (v) {
        return box.t + box.h - (v - y.min) / (y.max - y.min) * box.h;
      }
    };
  }

  function hline(ctx, box, py, colour, dash, label, labelBelow) {
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.6;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(box.l, Math.round(py) + 0.5);
    ctx.lineTo(box.l + box.w, Math.round(py) + 0.5);
    ctx.stroke();
    ctx.restore();
    ctx.font = FONT_BOLD;
    var w = ctx.measureText(label).width;
    var ly = labelBelow ? py + 10 : py - 9;
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.fillRect(box.l + 6, ly - 8, w + 6, 16);
    text(ctx, label, box.l + 9, ly, 'left', colour, FONT_BOLD);
  }

  // ---- plot sections -----------------------------------------------------------------------------------------

  var plots = [];
  var main = document.getElementById('main');

  /** A section with title, paper reference, caption, toolbar (PNG export) and a canvas holder. */
  function Plot(id, title, figure, caption) {
    this.id = id;
    this.section = el('section', {'class': 'plot', id: 'plot-' + id, 'data-plot': id, 'data-state': 'pending'});
    var head = el('div', {'class': 'plot-head'});
    head.appendChild(el('h2', null, title));
    if (figure) {
      head.appendChild(el('span', {'class': 'figref'}, figure));
    }
    this.toolbar = el('div', {'class': 'toolbar'});
    head.appendChild(this.toolbar);
    this.section.appendChild(head);
    this.caption = el('p', {'class': 'caption'}, caption);
    this.section.appendChild(this.caption);
    this.holder = el('div', {'class': 'holder'});
    this.section.appendChild(this.holder);
    main.appendChild(this.section);
    var self = this;
    var png = el('button', {type: 'button', 'data-action': 'png', title: 'Save this plot as a PNG image'}, 'PNG');
    png.addEventListener('click', function () {
      self.exportPng();
    });
    this.toolbar.appendChild(png);
    this.regions = [];
    this.holder.addEventListener('mousemove', function (ev) {
      var c = self.canvas();
      if (!c || self.custom) {
        return;
      }
      var rect = c.getBoundingClientRect();
      var lines = self.tipAt(ev.clientX - rect.left, ev.clientY - rect.top);
      if (lines) {
        showTip(ev, lines);
      } else {
        hideTip();
      }
    });
    this.holder.addEventListener('mouseleave', hideTip);
    plots.push(this);
  }

  /** The tooltip lines for a point of the canvas: those of the region under it, if any. */
  Plot.prototype.tipAt = function (x, y) {
    for (var i = this.regions.length - 1; i >= 0; i--) {
      var r = this.regions[i];
      if (x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h) {
        return r.lines;
      }
    }
    return null;
  };

  Plot.prototype.canvas = function () {
    return this.holder.querySelector('canvas');
  };

  Plot.prototype.exportPng = function () {
    var c = this.canvas();
    if (!c) {
      return;
    }
    var a = document.createElement('a');
    a.download = 'rocket-' + this.id + '.png';
    a.href = c.toDataURL('image/png');
    document.body.appendChild(a);
    a.click();
    a.remove();
  };

  Plot.prototype.drawn = function (points) {
    this.section.setAttribute('data-state', 'drawn');
    this.section.setAttribute('data-points', String(points));
  };

  /** The plot has nothing to show: a note says why; a blank canvas would mislead. */
  Plot.prototype.empty = function (reason) {
    this.section.setAttribute('data-state', 'empty');
    this.section.setAttribute('data-points', '0');
    this.holder.textContent = '';
    this.holder.appendChild(el('div', {'class': 'empty'}, reason));
    var png = this.toolbar.querySelector('[data-action=png]');
    if (png) {
      png.disabled = true;
    }
  };

  Plot.prototype.note = function (s) {
    this.section.appendChild(el('p', {'class': 'plot-note'}, s));
  };

  // ---- header and headline -----------------------------------------------------------------------------------

  function header() {
    document.getElementById('title').textContent = DATA.title;
    var src = 'Traces: ' + DATA.traces.join(', ') + (DATA.summary ? ' · summary: ' + DATA.summary
      : ' · no summary') + ' · made ' + DATA.generated;
    document.getElementById('sources').textContent = src;
    var notes = document.getElementById('notes');
    (DATA.notes || []).forEach(function (n) {
      notes.appendChild(el('li', null, n));
    });
  }

  function headline() {
    var h = DATA.headline;
    var box = document.getElementById('headline');
    box.setAttribute('data-source', h.source);
    var p = h.devices || 1;
    var cards = [
      ['R', 'R (reuse)', h.reuse == null ? '–' : fmtNum(h.reuse, 2),
        'loads per item; 1 is perfect reuse' + (h.loads != null ? ' (' + fmtInt(h.loads) + ' loads)' : ''), true],
      ['system_efficiency', 'System efficiency', fmtPct(h.systemEfficiency, 1), '(T_min / p) / wall time', true],
      ['wall_seconds', 'Wall time', fmtSeconds(h.wallSeconds),
        (h.nodes || 1) > 1 ? 'from when the cluster formed to the end of the run' : 'start to end of the run'],
      ['t_min_seconds', 'T_min', fmtSeconds(h.tMinSeconds),
        h.tMinSeconds != null ? 'T_min / p = ' + fmtSeconds(h.tMinSeconds / p) + ' (p = ' + p + ')' : 'not known'],
      ['pairs', 'Pairs', fmtInt(h.pairs), h.items != null ? fmtInt(h.items) + ' items' : ''],
      ['pairs_per_second', 'Pairs / s', h.pairsPerSecond == null ? '–' : fmtInt(h.pairsPerSecond), 'whole run'],
      ['nodes', 'Nodes', fmtInt(h.nodes), fmtInt(h.devices) + ' device' + (h.devices === 1 ? '' : 's')]
    ];
    cards.forEach(function (c) {
      var card = el('div', {'class': 'card' + (c[4] ? ' key' : ''), 'data-key': c[0], 'data-value': c[2]});
      card.appendChild(el('div', {'class': 'label'}, c[1]));
      card.appendChild(el('div', {'class': 'value'}, c[2]));
      card.appendChild(el('div', {'class': 'sub'}, c[3]));
      box.appendChild(card);
    });
    var from = el('div', {'class': 'card'});
    from.appendChild(el('div', {'class': 'label'}, 'Figures from'));
    from.appendChild(el('div', {'class': 'value'}, h.source === 'summary' ? 'summary' : 'trace'));
    from.appendChild(el('div', {'class': 'sub'}, h.source === 'summary' ? 'as the run measured them'
      : 'estimated; pass --summary for exact'));
    box.appendChild(from);
  }

  // ---- (a) timeline ------------------------------------------------------------------------------------------

  function timeline() {
    var tl = DATA.timeline;
    var plot = new Plot('timeline', 'Timeline per thread', 'paper Fig. 6',
      'One lane per node, one row per thread; a box per task, coloured by task (I/O brown, CPU blue, copies '
      + 'orange, kernels green, network purple). Wheel to zoom at the pointer, drag to pan, double-click to reset; '
      + 'hover a box for its details.');
    var rows = [];
    var laneCount = tl.lanes.length;
    tl.lanes.forEach(function (lane, li) {
      lane.threads.forEach(function (t) {
        var n = t.s.length;
        var start = new Float64Array(n);
        var acc = 0;
        var maxDur = 0;
        for (var i = 0; i < n; i++) {
          acc += t.s[i];
          start[i] = acc;
          if (t.d[i] > maxDur) {
            maxDur = t.d[i];
          }
        }
        rows.push({lane: li, thread: t, start: start, maxDur: maxDur});
      });
    });
    var span = Math.max(tl.spanMicros, 1);
    var view = {t0: 0, t1: span};
    var GUTTER = 190;
    var AXIS = 26;
    var ROW = 15;
    var LANE_HEAD = 22;
    var layout = [];
    var height = AXIS + 6;
    var lastLane = -1;
    rows.forEach(function (r) {
      if (r.lane !== lastLane) {
        layout.push({lane: r.lane, y: height});
        height += LANE_HEAD;
        lastLane = r.lane;
      }
      r.y = height;
      height += ROW;
    });
    height += 8;

    var bar = plot.toolbar;
    function button(label, title, fn) {
      var b = el('button', {type: 'button', title: title, 'data-action': label}, label);
      b.addEventListener('click', fn);
      bar.insertBefore(b, bar.firstChild);
      return b;
    }
    button('Reset', 'Show the whole run', function () {
      view.t0 = 0;
      view.t1 = span;
      draw();
    });
    button('−', 'Zoom out', function () {
      zoom(2, 0.5);
    });
    button('+', 'Zoom in', function () {
      zoom(0.5, 0.5);
    });
    var hint = el('span', {'class': 'hint'});
    bar.insertBefore(hint, bar.firstChild);

    var present = {};
    rows.forEach(function (r) {
      for (var i = 0; i < r.thread.k.length; i++) {
        present[r.thread.k[i]] = true;
      }
    });
    legend(plot.section, tl.names.map(function (n, i) {
      return present[i] ? {label: n.name + ' (' + n.category + ')', colour: nameColours[i]} : null;
    }).filter(Boolean));
    plot.section.insertBefore(plot.section.querySelector('.legend'), plot.holder);
    plot.holder.classList.add('timeline-holder');
    plot.custom = true;
    plot.section.setAttribute('data-lanes', String(laneCount));
    plot.section.setAttribute('data-rows', String(rows.length));
    plot.section.setAttribute('data-boxes', String(tl.boxes));

    var width = widthOf(plot.holder);
    document.body.setAttribute('data-node-lanes', String(laneCount));
    if (!tl.boxes) {
      plot.empty('The traces hold no tasks (only counters or thread names).');
      return plot;
    }

    function zoom(factor, at) {
      var w = view.t1 - view.t0;
      var centre = view.t0 + w * at;
      var nw = Math.min(span * 1.02, Math.max(10, w * factor));
      view.t0 = centre - nw * at;
      view.t1 = view.t0 + nw;
      clamp();
      draw();
    }

    function clamp() {
      var w = view.t1 - view.t0;
      if (view.t0 < -0.01 * span) {
        view.t0 = -0.01 * span;
      }
      if (view.t0 + w > span * 1.01) {
        view.t0 = span * 1.01 - w;
      }
      view.t1 = view.t0 + w;
    }

    function firstVisible(r, t0) {
      var lo = 0;
      var hi = r.start.length;
      var from = t0 - r.maxDur;
      while (lo < hi) {
        var mid = (lo + hi) >> 1;
        if (r.start[mid] < from) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    function draw() {
      var ctx = canvasIn(plot.holder, width, height);
      var plotW = width - GUTTER - 10;
      var scale = plotW / (view.t1 - view.t0);
      var tk = ticks(view.t0 / 1e6, view.t1 / 1e6, Math.max(4, Math.floor(plotW / 110)));
      ctx.strokeStyle = GRID;
      ctx.lineWidth = 1;
      tk.values.forEach(function (v) {
        var px = Math.round(GUTTER + (v * 1e6 - view.t0) * scale) + 0.5;
        if (px < GUTTER || px > GUTTER + plotW) {
          return;
        }
        ctx.beginPath();
        ctx.moveTo(px, AXIS - 4);
        ctx.lineTo(px, height - 6);
        ctx.stroke();
        text(ctx, fmtTick(v, tk.step), px, AXIS - 13, 'center', MUTED, FONT_SMALL);
      });
      layout.forEach(function (l) {
        ctx.fillStyle = '#eef2f6';
        ctx.fillRect(0, l.y, width, LANE_HEAD - 3);
        var lane = tl.lanes[l.lane];
        var threads = lane.threads.length;
        text(ctx, lane.label + '  ·  ' + threads + ' thread' + (threads === 1 ? '' : 's') + '  ·  ' + lane.file,
          8, l.y + (LANE_HEAD - 3) / 2, 'left', INK, FONT_BOLD);
      });
      var drawn = 0;
      var acc = null;
      var accBest = null;
      var accName = null;
      ctx.save();
      rows.forEach(function (r, ri) {
        var t = r.thread;
        ctx.font = FONT_SMALL;
        ctx.fillStyle = KIND_COLOUR[t.kind] || KIND_COLOUR.other;
        ctx.fillRect(8, r.y + 3, 4, ROW - 6);
        text(ctx, fitText(ctx, t.name, GUTTER - 24), 17, r.y + ROW / 2, 'left', INK, FONT_SMALL);
        if (ri % 2 === 0) {
          ctx.fillStyle = '#fafbfc';
          ctx.fillRect(GUTTER, r.y, plotW, ROW);
        }
        var i = firstVisible(r, view.t0);
        var n = r.start.length;
        // Boxes narrower than a pixel and a half add their busy time to the pixel they fall in; the pixel is then
        // painted once, in the colour of the task that filled most of it, as dark as it was busy.
        var pw = Math.ceil(plotW) + 1;
        if (!acc || acc.length < pw) {
          acc = new Float32Array(pw);
          accBest = new Float32Array(pw);
          accName = new Int32Array(pw);
        }
        var lo = pw;
        var hi = -1;
        for (; i < n; i++) {
          var s = r.start[i];
          if (s > view.t1) {
            break;
          }
          var e = s + t.d[i];
          if (e < view.t0) {
            continue;
          }
          var x0 = GUTTER + (s - view.t0) * scale;
          var x1 = GUTTER + (e - view.t0) * scale;
          if (x0 < GUTTER) {
            x0 = GUTTER;
          }
          if (x1 > GUTTER + plotW) {
            x1 = GUTTER + plotW;
          }
          var merged = t.n && t.n[i] > 1;
          if (x1 - x0 >= 1.5) {
            ctx.globalAlpha = merged && t.d[i] > 0 ? 0.3 + 0.7 * Math.min(1, t.b[i] / t.d[i]) : 1;
            ctx.fillStyle = nameColours[t.k[i]];
            ctx.fillRect(x0, r.y + 2, x1 - x0, ROW - 4);
            drawn++;
            continue;
          }
          var px = Math.min(pw - 1, Math.max(0, Math.floor(x0 - GUTTER)));
          var busyPx = Math.max(0.03, (merged ? t.b[i] : t.d[i]) * scale);
          acc[px] += busyPx;
          if (busyPx > accBest[px]) {
            accBest[px] = busyPx;
            accName[px] = t.k[i];
          }
          lo = Math.min(lo, px);
          hi = Math.max(hi, px);
        }
        for (var p = lo; p <= hi; p++) {
          if (acc[p] > 0) {
            ctx.globalAlpha = 0.25 + 0.75 * Math.min(1, acc[p]);
            ctx.fillStyle = nameColours[accName[p]];
            ctx.fillRect(GUTTER + p, r.y + 2, 1, ROW - 4);
            drawn++;
            acc[p] = 0;
            accBest[p] = 0;
          }
        }
        ctx.globalAlpha = 1;
      });
      ctx.restore();
      ctx.strokeStyle = '#9aa5ae';
      ctx.beginPath();
      ctx.moveTo(GUTTER + 0.5, AXIS - 4);
      ctx.lineTo(GUTTER + 0.5, height - 6);
      ctx.stroke();
      hint.textContent = 'showing ' + fmtSeconds((view.t1 - view.t0) / 1e6) + ' of ' + fmtSeconds(span / 1e6);
      plot.drawn(drawn);
      plot.section.setAttribute('data-view', view.t0.toFixed(0) + '-' + view.t1.toFixed(0));
    }

    function rowAt(y) {
      for (var i = 0; i < rows.length; i++) {
        if (y >= rows[i].y && y < rows[i].y + ROW) {
          return rows[i];
        }
      }
      return null;
    }

    function boxAt(r, t) {
      var scale = (width - GUTTER - 10) / (view.t1 - view.t0);
      var slack = 2 / scale;
      var best = -1;
      for (var i = firstVisible(r, t - slack); i < r.start.length && r.start[i] <= t + slack; i++) {
        if (r.start[i] + r.thread.d[i] >= t - slack) {
          best = i;
          if (r.start[i] <= t && r.start[i] + r.thread.d[i] >= t) {
            break;
          }
        }
      }
      return best;
    }

    var c = null;
    var drag = null;

    function attach() {
      c = plot.canvas();
      c.addEventListener('wheel', function (ev) {
        var rect = c.getBoundingClientRect();
        var x = ev.clientX - rect.left - GUTTER;
        var plotW = width - GUTTER - 10;
        if (x < 0) {
          return;
        }
        ev.preventDefault();
        zoom(ev.deltaY < 0 ? 1 / 1.3 : 1.3, Math.max(0, Math.min(1, x / plotW)));
      }, {passive: false});
      c.addEventListener('mousedown', function (ev) {
        drag = {x: ev.clientX, t0: view.t0, t1: view.t1};
        c.classList.add('dragging');
      });
      window.addEventListener('mouseup', function () {
        drag = null;
        if (c) {
          c.classList.remove('dragging');
        }
      });
      c.addEventListener('mousemove', function (ev) {
        var rect = c.getBoundingClientRect();
        var plotW = width - GUTTER - 10;
        if (drag) {
          var dt = (ev.clientX - drag.x) / plotW * (drag.t1 - drag.t0);
          view.t0 = drag.t0 - dt;
          view.t1 = drag.t1 - dt;
          clamp();
          draw();
          hideTip();
          return;
        }
        var x = ev.clientX - rect.left;
        var y = ev.clientY - rect.top;
        var r = x > GUTTER ? rowAt(y) : null;
        if (!r) {
          hideTip();
          return;
        }
        var t = view.t0 + (x - GUTTER) / plotW * (view.t1 - view.t0);
        var i = boxAt(r, t);
        if (i < 0) {
          hideTip();
          return;
        }
        var th = r.thread;
        var lines = [tl.lanes[r.lane].label + ' · ' + th.name, tl.names[th.k[i]].name + ' (' + tl.names[th.k[i]].category + ')',
          'start ' + fmtSeconds(r.start[i] / 1e6) + ', duration ' + fmtSeconds(th.d[i] / 1e6)];
        if (th.n && th.n[i] > 1) {
          lines.push(fmtInt(th.n[i]) + ' tasks merged, busy ' + fmtSeconds(th.b[i] / 1e6) + ' of it; named after the '
            + 'task that took most of it');
        }
        showTip(ev, lines);
      });
      c.addEventListener('mouseleave', hideTip);
      c.addEventListener('dblclick', function () {
        view.t0 = 0;
        view.t1 = span;
        draw();
      });
    }

    draw();
    attach();
    plot.redraw = function () {
      width = widthOf(plot.holder);
      draw();
    };
    if (tl.quantumMicros > 0) {
      plot.note('Thinned for size: ' + fmtInt(tl.tasks) + ' tasks as ' + fmtInt(tl.boxes) + ' boxes; tasks of a '
        + 'thread closer than ' + fmtSeconds(tl.quantumMicros / 1e6) + ' are merged into one box, drawn as dark as '
        + 'the thread was busy in it.');
    }
    document.body.setAttribute('data-node-lanes', String(laneCount));
    return plot;
  }

  // ---- (b) busy time per resource (paper Fig. 8) -------------------------------------------------------------

  function busy() {
    var b = DATA.busy;
    var plot = new Plot('busy', 'Busy time per resource', 'paper Fig. 8',
      'Time the threads of each kind spent running tasks, per thread (a kind\'s total divided by its threads), '
      + 'stacked by task; the kernel bar has compare at the bottom and preprocess on top. Dashed: wall time. '
      + 'Dotted: T_min / p, the run time if the p devices only ever computed (every item loaded once). A kernel bar '
      + 'reaching the wall time means the devices never waited.');
    var kinds = [];
    var kindLabel = {};
    b.nodes.forEach(function (n) {
      n.kinds.forEach(function (k) {
        if (kinds.indexOf(k.kind) < 0) {
          kinds.push(k.kind);
          kindLabel[k.kind] = k.label;
        }
      });
    });
    if (!kinds.length) {
      plot.empty('The traces have no resource threads.');
      return plot;
    }
    var multi = b.nodes.length > 1;
    var p = b.devices || 1;
    var tMinP = b.tMinSeconds != null ? b.tMinSeconds / p : null;
    var partNames = [];
    b.nodes.forEach(function (n) {
      n.kinds.forEach(function (k) {
        k.parts.forEach(function (part) {
          if (partNames.indexOf(part.name) < 0) {
            partNames.push(part.name);
          }
        });
      });
    });
    legend(plot.section, partNames.map(function (name) {
      return {label: name, colour: colourOfName(name)};
    }).concat([{label: 'wall time', colour: INK, outline: true}, {label: 'T_min / p', colour: '#c92a2a', outline: true}]));
    plot.section.insertBefore(plot.section.querySelector('.legend'), plot.holder);

    function draw() {
      var width = widthOf(plot.holder);
      var height = 380;
      var ctx = canvasIn(plot.holder, width, height);
      var box = {l: 70, t: 20, w: width - 90, h: height - 20 - (multi ? 62 : 48)};
      var maxV = b.wallSeconds || 0;
      if (tMinP != null) {
        maxV = Math.max(maxV, tMinP);
      }
      b.nodes.forEach(function (n) {
        n.kinds.forEach(function (k) {
          maxV = Math.max(maxV, k.perThreadSeconds);
        });
      });
      maxV = maxV * 1.12 || 1;
      var s = frame(ctx, box, null, {min: 0, max: maxV, title: 'busy seconds per thread', format: fmtTick});
      var regions = [];
      plot.regions = regions;
      var groupW = box.w / kinds.length;
      var nodes = b.nodes.length;
      var barW = Math.min(70, (groupW * 0.78) / nodes);
      var bars = 0;
      kinds.forEach(function (kind, gi) {
        var gx = box.l + gi * groupW + (groupW - barW * nodes) / 2;
        var minThreads = Infinity;
        var maxThreads = 0;
        b.nodes.forEach(function (n, ni) {
          var k = null;
          n.kinds.forEach(function (x) {
            if (x.kind === kind) {
              k = x;
            }
          });
          var x = gx + ni * barW;
          if (!k) {
            return;
          }
          minThreads = Math.min(minThreads, k.threads);
          maxThreads = Math.max(maxThreads, k.threads);
          var y = box.t + box.h;
          var scale = k.threads > 0 ? 1 / k.threads : 0;
          regions.push({x: x, y: box.t, w: barW, h: box.h, lines: [n.label + ' · ' + k.label,
            fmtSeconds(k.perThreadSeconds) + ' per thread (' + fmtSeconds(k.busySeconds) + ' over ' + k.threads
            + ' thread' + (k.threads === 1 ? '' : 's') + ')'].concat(k.parts.map(function (part) {
            return part.name + ': ' + fmtSeconds(part.seconds * scale) + ' per thread';
          })).concat(['wall time ' + fmtSeconds(b.wallSeconds) + ': busy ' + fmtPct(k.perThreadSeconds
            / b.wallSeconds)])});
          k.parts.forEach(function (part) {
            var h = (s.y(0) - s.y(part.seconds * scale));
            ctx.fillStyle = colourOfName(part.name);
            ctx.fillRect(x + 2, y - h, barW - 4, h);
            y -= h;
          });
          if (k.perThreadSeconds === 0) {
            ctx.fillStyle = '#c8d0d6';
            ctx.fillRect(x + 2, box.t + box.h - 1, barW - 4, 1);
          }
          ctx.strokeStyle = 'rgba(0,0,0,0.25)';
          ctx.strokeRect(x + 2.5, s.y(k.perThreadSeconds) + 0.5, barW - 5, s.y(0) - s.y(k.perThreadSeconds));
          var valueText = fmtSeconds(k.perThreadSeconds);
          ctx.font = FONT_SMALL;
          if (ctx.measureText(valueText).width <= barW - 2) {
            text(ctx, valueText, x + barW / 2, s.y(k.perThreadSeconds) - 8, 'center', INK, FONT_SMALL);
          }
          if (multi) {
            text(ctx, 'r' + n.rank, x + barW / 2, box.t + box.h + 11, 'center', MUTED, FONT_SMALL);
          }
          bars++;
        });
        var threadsLabel = (minThreads === maxThreads ? String(maxThreads) : minThreads + '–' + maxThreads)
          + ' thread' + (maxThreads === 1 ? '' : 's') + (multi ? ' per node' : '');
        var ly = box.t + box.h + (multi ? 28 : 14);
        text(ctx, kindLabel[kind], box.l + gi * groupW + groupW / 2, ly, 'center', INK, FONT_BOLD);
        text(ctx, threadsLabel, box.l + gi * groupW + groupW / 2, ly + 15, 'center', MUTED, FONT_SMALL);
      });
      var wallY = s.y(b.wallSeconds);
      var tminY = tMinP != null ? s.y(tMinP) : null;
      var close = tminY != null && Math.abs(wallY - tminY) < 18;
      hline(ctx, box, wallY, INK, [7, 5], 'wall time ' + fmtSeconds(b.wallSeconds), false);
      if (tminY != null) {
        hline(ctx, box, tminY, '#c92a2a', [2, 3], 'T_min / p = ' + fmtSeconds(tMinP) + ' (p = ' + p + ')',
          close && tminY >= wallY);
      }
      plot.drawn(bars);
    }

    draw();
    plot.redraw = draw;
    if (tMinP == null) {
      plot.note('T_min is not known: the traces have no compare tasks and no summary was given.');
    }
    return plot;
  }

  // ---- (c) throughput per device (paper Fig. 14) -------------------------------------------------------------

  function throughput() {
    var th = DATA.throughput;
    var plot = new Plot('throughput', 'Pairs per second per device', 'paper Fig. 14',
      'Compare tasks finished per second on each device over the run, counted in ' + th.bins + ' bins of '
      + fmtSeconds(th.binSeconds) + ' and averaged over a rolling window (the paper uses one minute). Devices that '
      + 'end together mean a balanced run; a faster device shows as a higher line.');
    if (!th.devices.length) {
      plot.empty('No compare tasks in the traces, so no throughput to show.');
      return plot;
    }
    var select = el('select', {title: 'Rolling average over this many bins', 'data-action': 'smooth'});
    [1, 3, 5, 10, 20].forEach(function (k) {
      var o = el('option', {value: String(k)}, k === 1 ? 'no averaging' : 'rolling mean of ' + k + ' bins ('
        + fmtSeconds(k * th.binSeconds) + ')');
      if (k === 5) {
        o.selected = true;
      }
      select.appendChild(o);
    });
    select.addEventListener('change', draw);
    plot.toolbar.insertBefore(select, plot.toolbar.firstChild);
    var total = 0;
    th.devices.forEach(function (d) {
      total += d.pairs;
    });
    legend(plot.section, th.devices.map(function (d, i) {
      return {label: d.label + ' — ' + fmtInt(d.pairs) + ' pairs', colour: SERIES[i % SERIES.length]};
    }));
    plot.section.insertBefore(plot.section.querySelector('.legend'), plot.holder);

    function smooth(counts, k) {
      var out = new Array(counts.length);
      var half = Math.floor(k / 2);
      for (var i = 0; i < counts.length; i++) {
        var sum = 0;
        var n = 0;
        for (var j = Math.max(0, i - half); j <= Math.min(counts.length - 1, i - half + k - 1); j++) {
          sum += counts[j];
          n++;
        }
        out[i] = sum / n / th.binSeconds;
      }
      return out;
    }

    function draw() {
      var k = parseInt(select.value, 10) || 1;
      var series = th.devices.map(function (d) {
        return smooth(d.counts, k);
      });
      var maxV = 0;
      series.forEach(function (s) {
        s.forEach(function (v) {
          maxV = Math.max(maxV, v);
        });
      });
      maxV = maxV * 1.1 || 1;
      var width = widthOf(plot.holder);
      var height = 340;
      var ctx = canvasIn(plot.holder, width, height);
      var box = {l: 74, t: 16, w: width - 94, h: height - 16 - 46};
      var span = th.binSeconds * th.bins;
      var sc = frame(ctx, box, {min: 0, max: span, title: 'time since the first task', format: fmtTick},
        {min: 0, max: maxV, title: 'pairs / s', format: function (v) {
          return fmtInt(v);
        }});
      var points = 0;
      plot.tipAt = function (x, y) {
        if (x < box.l || x > box.l + box.w || y < box.t || y > box.t + box.h) {
          return null;
        }
        var bin = Math.min(th.bins - 1, Math.max(0, Math.floor((x - box.l) / box.w * th.bins)));
        return ['at ' + fmtSeconds((bin + 0.5) * th.binSeconds) + (k > 1 ? ' (rolling mean of ' + k + ' bins)' : '')]
          .concat(th.devices.map(function (d, i) {
            return d.label + ': ' + fmtInt(series[i][bin]) + ' pairs/s';
          }));
      };
      ctx.save();
      series.forEach(function (s, i) {
        ctx.strokeStyle = SERIES[i % SERIES.length];
        ctx.lineWidth = 1.8;
        ctx.beginPath();
        s.forEach(function (v, b) {
          var x = sc.x((b + 0.5) * th.binSeconds);
          var y = sc.y(v);
          if (b === 0) {
            ctx.moveTo(x, y);
          } else {
            ctx.lineTo(x, y);
          }
          points++;
        });
        ctx.stroke();
      });
      ctx.restore();
      plot.drawn(points);
    }

    draw();
    plot.redraw = draw;
    plot.note('All devices together: ' + fmtInt(total) + ' pairs, ' + fmtInt(total / (th.binSeconds * th.bins))
      + ' pairs/s over the traced span.');
    return plot;
  }

  // ---- (d) cache hits per level and L3 hits per hop (paper Fig. 11) ------------------------------------------

  function cacheLevels() {
    var cf = DATA.cache;
    var plot = new Plot('cache', 'Cache hits and misses per level', 'cf. paper Fig. 11',
      'Requests to each cache level and how many it served (hits) or passed on (misses). A request reaches L2 '
      + 'only on an L1 miss and the distributed cache (L3, other nodes\' host caches) only on an L2 miss; an L3 '
      + 'miss (or timeout) loads the item from its file. Figures from the ' + cf.source + '.');
    var levels = cf.levels.filter(function (l) {
      return l.requests > 0 || l.level !== 'L3';
    });
    if (!levels.some(function (l) {
      return l.requests > 0;
    })) {
      plot.empty('No cache requests recorded (no summary, and the traces have no cache counter tracks).');
      return plot;
    }
    legend(plot.section, [{label: 'hits', colour: HIT}, {label: 'misses', colour: MISS}]);
    plot.section.insertBefore(plot.section.querySelector('.legend'), plot.holder);

    function draw() {
      var width = widthOf(plot.holder);
      var rowH = 44;
      var height = 30 + levels.length * rowH + 24;
      var ctx = canvasIn(plot.holder, width, height);
      var box = {l: 170, t: 16, w: width - 170 - 190, h: levels.length * rowH};
      var t = ticks(0, 100, 5);
      ctx.strokeStyle = GRID;
      t.values.forEach(function (v) {
        var x = Math.round(box.l + v / 100 * box.w) + 0.5;
        ctx.beginPath();
        ctx.moveTo(x, box.t);
        ctx.lineTo(x, box.t + box.h);
        ctx.stroke();
        text(ctx, v + ' %', x, box.t + box.h + 12, 'center', MUTED, FONT_SMALL);
      });
      plot.regions = [];
      levels.forEach(function (l, i) {
        var y = box.t + i * rowH + 8;
        var h = rowH - 16;
        plot.regions.push({x: box.l, y: y, w: box.w, h: h, lines: [l.label, fmtInt(l.requests) + ' requests',
          fmtInt(l.hits) + ' hits (' + fmtPct(l.requests ? l.hits / l.requests : null, 2) + ')',
          fmtInt(l.misses) + ' misses' + (l.level === 'L3' ? ' (timeouts included)' : ''),
          fmtInt(l.evictions) + ' evictions']});
        text(ctx, l.level, 10, y + h / 2 - 7, 'left', INK, FONT_BOLD);
        text(ctx, l.label.replace(/ \(L\d\)$/, ''), 10, y + h / 2 + 8, 'left', MUTED, FONT_SMALL);
        var hitW = l.requests ? l.hits / l.requests * box.w : 0;
        ctx.fillStyle = HIT;
        ctx.fillRect(box.l, y, hitW, h);
        ctx.fillStyle = MISS;
        ctx.fillRect(box.l + hitW, y, l.requests ? box.w - hitW : 0, h);
        if (!l.requests) {
          ctx.fillStyle = '#eef2f6';
          ctx.fillRect(box.l, y, box.w, h);
          text(ctx, 'no requests', box.l + 8, y + h / 2, 'left', MUTED, FONT_SMALL);
        }
        var hitText = fmtInt(l.hits) + ' hits (' + fmtPct(l.requests ? l.hits / l.requests : null) + ')';
        var missText = fmtInt(l.misses) + ' misses';
        ctx.font = FONT_BOLD;
        if (l.requests && ctx.measureText(hitText).width + 12 < hitW) {
          text(ctx, hitText, box.l + 6, y + h / 2, 'left', '#fff', FONT_BOLD);
        }
        if (l.requests && ctx.measureText(missText).width + 12 < box.w - hitW) {
          text(ctx, missText, box.l + box.w - 6, y + h / 2, 'right', '#fff', FONT_BOLD);
        }
        text(ctx, fmtInt(l.requests) + ' requests', box.l + box.w + 10, y + h / 2 - 7, 'left', INK, FONT_SMALL);
        text(ctx, fmtPct(l.requests ? l.hits / l.requests : null) + ' hit, ' + fmtInt(l.evictions) + ' evictions',
          box.l + box.w + 10, y + h / 2 + 8, 'left', MUTED, FONT_SMALL);
      });
      plot.drawn(levels.length);
    }

    draw();
    plot.redraw = draw;
    return plot;
  }

  function hops() {
    var cf = DATA.cache;
    var hp = cf.hops;
    var plot = new Plot('hops', 'Distributed cache (L3): hits per hop', 'paper Fig. 11',
      'How each node\'s L3 requests ended, as a share of its requests: served by the first node asked (hop 1), '
      + 'by a later one, or a miss (no node had the item: loaded from its file) or a timeout.');
    if (!hp || !hp.rows.length) {
      plot.empty(DATA.timeline.lanes.length > 1
        ? 'No L3 figures: the run had the distributed cache off, or neither the summary nor the traces record it.'
        : 'Single-node run: there is no distributed cache (L3), so no hops to show.');
      return plot;
    }
    var hopCount = Math.max(hp.hops, 1);
    var segs = [];
    for (var h = 0; h < hopCount; h++) {
      segs.push({label: hp.hops === 0 ? 'hits (hop not recorded)' : 'hit at hop ' + (h + 1),
        colour: ['#1b7a35', '#3fae5a', '#86cf96', '#b9e4c3', '#dff3e3'][Math.min(h, 4)]});
    }
    segs.push({label: 'miss', colour: MISS});
    segs.push({label: 'timeout', colour: TIMEOUT});
    legend(plot.section, segs);
    plot.section.insertBefore(plot.section.querySelector('.legend'), plot.holder);

    function draw() {
      var width = widthOf(plot.holder);
      var height = 340;
      var ctx = canvasIn(plot.holder, width, height);
      var box = {l: 64, t: 16, w: width - 84, h: height - 16 - 56};
      var sc = frame(ctx, box, null, {min: 0, max: 100, title: '% of L3 requests', format: function (v) {
        return fmtNum(v, 0) + ' %';
      }});
      var n = hp.rows.length;
      var groupW = box.w / n;
      var barW = Math.min(90, groupW * 0.6);
      var segments = 0;
      plot.regions = [];
      hp.rows.forEach(function (r, i) {
        var x = box.l + i * groupW + (groupW - barW) / 2;
        var values = [];
        for (var h = 0; h < hopCount; h++) {
          values.push(r.hitsByHop[h] || 0);
        }
        values.push(r.misses);
        values.push(r.timeouts);
        var total = values.reduce(function (a, b) {
          return a + b;
        }, 0);
        var y = sc.y(0);
        plot.regions.push({x: x, y: box.t, w: barW, h: box.h, lines: [r.label + ': ' + fmtInt(r.requests)
          + ' L3 requests'].concat(values.map(function (v, s) {
          return segs[s].label + ': ' + fmtInt(v) + (total ? ' (' + fmtPct(v / total) + ')' : '');
        }))});
        values.forEach(function (v, s) {
          if (!total || !v) {
            return;
          }
          var hgt = v / total * box.h;
          ctx.fillStyle = segs[s].colour;
          ctx.fillRect(x, y - hgt, barW, hgt);
          if (hgt >= 15) {
            text(ctx, fmtPct(v / total, 0), x + barW / 2, y - hgt / 2, 'center', '#fff', FONT_BOLD);
          }
          y -= hgt;
          segments++;
        });
        if (!total) {
          text(ctx, 'no requests', x + barW / 2, sc.y(50), 'center', MUTED, FONT_SMALL);
        }
        text(ctx, r.label, x + barW / 2, box.t + box.h + 14, 'center', INK, r.label === 'all nodes' ? FONT_BOLD : FONT);
        text(ctx, fmtInt(r.requests) + ' requests', x + barW / 2, box.t + box.h + 30, 'center', MUTED, FONT_SMALL);
      });
      plot.drawn(segments);
    }

    draw();
    plot.redraw = draw;
    if (hp.hops === 0) {
      plot.note('The traces count L3 hits but not at which hop; pass the run summary (--summary) for hits per hop.');
    }
    return plot;
  }

  // ---- (f) steals and helps ----------------------------------------------------------------------------------

  function steals() {
    var st = DATA.steals;
    var plot = new Plot('steals', 'Steals and helps per node', null,
      'Work stealing between devices of a node (local) and between nodes (remote): successful steals as filled '
      + 'bars, attempts as outlines. Helps: a node ahead of the others took over part of the slowest node\'s next '
      + 'window. Lent: regions this node gave to thieves.');
    if (!st.nodes.length) {
      plot.empty(DATA.summary
        ? 'Steals and helps are recorded per node in the summary of a cluster run; this single-node summary has '
        + 'none.'
        : 'Steals and helps are recorded only in the run summary of a cluster run; pass it with --summary.');
      return plot;
    }
    var groups = [
      {label: 'local steals', ok: 'localSuccesses', tries: 'localAttempts', colour: '#1f6fb2'},
      {label: 'remote steals', ok: 'remoteSuccesses', tries: 'remoteAttempts', colour: '#7048e8'},
      {label: 'helps', ok: 'helps', tries: 'helpAttempts', colour: '#e5731b'},
      {label: 'regions lent', ok: 'regionsLent', tries: null, colour: '#2f9e44'}
    ];
    legend(plot.section, groups.map(function (g) {
      return {label: g.label, colour: g.colour};
    }).concat([{label: 'attempts', colour: '#5f6b76', outline: true}]));
    plot.section.insertBefore(plot.section.querySelector('.legend'), plot.holder);

    function draw() {
      var width = widthOf(plot.holder);
      var height = 320;
      var ctx = canvasIn(plot.holder, width, height);
      var box = {l: 64, t: 16, w: width - 84, h: height - 16 - 40};
      var maxV = 1;
      st.nodes.forEach(function (n) {
        groups.forEach(function (g) {
          maxV = Math.max(maxV, n[g.ok], g.tries ? n[g.tries] : 0);
        });
      });
      maxV *= 1.15;
      var sc = frame(ctx, box, null, {min: 0, max: maxV, title: 'count', format: function (v) {
        return fmtInt(v);
      }});
      var groupW = box.w / st.nodes.length;
      var barW = Math.min(40, groupW * 0.8 / groups.length);
      var bars = 0;
      plot.regions = [];
      st.nodes.forEach(function (n, i) {
        var gx = box.l + i * groupW + (groupW - barW * groups.length) / 2;
        groups.forEach(function (g, j) {
          var x = gx + j * barW;
          if (g.tries) {
            ctx.strokeStyle = g.colour;
            ctx.lineWidth = 1.5;
            ctx.setLineDash([3, 2]);
            ctx.strokeRect(x + 3.5, sc.y(n[g.tries]) + 0.5, barW - 7, sc.y(0) - sc.y(n[g.tries]));
            ctx.setLineDash([]);
          }
          ctx.fillStyle = g.colour;
          ctx.fillRect(x + 3, sc.y(n[g.ok]), barW - 6, sc.y(0) - sc.y(n[g.ok]));
          plot.regions.push({x: x, y: box.t, w: barW, h: box.h, lines: [n.label + ' · ' + g.label,
            g.tries ? n[g.ok] + ' of ' + n[g.tries] + ' attempts succeeded' : n[g.ok] + ' regions']});
          var label = g.tries ? n[g.ok] + '/' + n[g.tries] : String(n[g.ok]);
          text(ctx, label, x + barW / 2, sc.y(Math.max(n[g.ok], g.tries ? n[g.tries] : 0)) - 8, 'center', INK,
            FONT_SMALL);
          bars++;
        });
        text(ctx, n.label, box.l + i * groupW + groupW / 2, box.t + box.h + 14, 'center', INK, FONT_BOLD);
      });
      plot.drawn(bars);
    }

    draw();
    plot.redraw = draw;

    var table = el('table', {'class': 'nodes'});
    var head = el('tr');
    ['node', 'devices', 'pairs', 'loads', 'local steals', 'remote steals', 'helps', 'lent', 'sent', 'received',
      'wall'].forEach(function (h) {
      head.appendChild(el('th', null, h));
    });
    table.appendChild(head);
    st.nodes.forEach(function (n) {
      var tr = el('tr');
      [n.label, fmtInt(n.devices), fmtInt(n.pairs), fmtInt(n.loads), n.localSuccesses + ' / ' + n.localAttempts,
        n.remoteSuccesses + ' / ' + n.remoteAttempts, n.helps + ' / ' + n.helpAttempts, fmtInt(n.regionsLent),
        fmtBytes(n.bytesSent), fmtBytes(n.bytesReceived), fmtSeconds(n.wallSeconds)].forEach(function (v) {
        tr.appendChild(el('td', null, v));
      });
      table.appendChild(tr);
    });
    plot.section.appendChild(table);
    return plot;
  }

  // ---- page --------------------------------------------------------------------------------------------------

  header();
  headline();
  var sections = [timeline, busy, throughput, cacheLevels, hops, steals];
  sections.forEach(function (make) {
    try {
      make();
    } catch (e) {
      var message = (e && e.message) || String(e);
      document.body.setAttribute('data-js-error', make.name + ': ' + message);
      var banner = document.getElementById('js-error');
      banner.textContent = 'This page hit a script error, some plots may be missing: ' + make.name + ': ' + message;
      banner.hidden = false;
    }
  });

  var drawn = 0;
  var empty = 0;
  plots.forEach(function (p) {
    var state = p.section.getAttribute('data-state');
    if (state === 'drawn') {
      drawn++;
      var c = p.canvas();
      try {
        p.section.setAttribute('data-png-bytes', String(c ? c.toDataURL('image/png').length : 0));
      } catch (e) {
        p.section.setAttribute('data-png-bytes', '0');
      }
    } else if (state === 'empty') {
      empty++;
    }
  });
  document.body.setAttribute('data-plots-drawn', String(drawn));
  document.body.setAttribute('data-plots-empty', String(empty));
  document.body.setAttribute('data-plots', plots.map(function (p) {
    return p.id + ':' + p.section.getAttribute('data-state');
  }).join(' '));
  if (!document.body.hasAttribute('data-node-lanes')) {
    document.body.setAttribute('data-node-lanes', '0');
  }
  document.body.setAttribute('data-report-state', 'done');
  if (location.hash === '#selftest') {
    selfTest();
  } else if (location.hash.length > 1) {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) {
      target.scrollIntoView();
    }
  }

  /**
   * Opened as REPORT.html#selftest, the page exercises its controls (zoom buttons, wheel, hover) and records the
   * outcome in data-selftest on the body: "ok" or what went wrong. Automated checks use it.
   */
  function selfTest() {
    var problems = [];
    var tlSection = document.getElementById('plot-timeline');
    if (tlSection && tlSection.getAttribute('data-state') === 'drawn') {
      var before = tlSection.getAttribute('data-view');
      tlSection.querySelector('[data-action="+"]').click();
      var zoomed = tlSection.getAttribute('data-view');
      if (zoomed === before) {
        problems.push('zoom button did not change the view');
      }
      var c = tlSection.querySelector('canvas');
      var rect = c.getBoundingClientRect();
      c.dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: rect.left + rect.width * 0.6,
        clientY: rect.top + 40, bubbles: true, cancelable: true}));
      if (tlSection.getAttribute('data-view') === zoomed) {
        problems.push('wheel did not zoom');
      }
      tlSection.querySelector('[data-action=Reset]').click();
      if (tlSection.getAttribute('data-view') !== before) {
        problems.push('reset did not restore the whole run');
      }
    }
    var busySection = document.getElementById('plot-busy');
    if (busySection && busySection.getAttribute('data-state') === 'drawn') {
      var plot = plots.filter(function (p) {
        return p.id === 'busy';
      })[0];
      var region = plot.regions[plot.regions.length - 1];
      var canvas = busySection.querySelector('canvas');
      var r = canvas.getBoundingClientRect();
      canvas.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + region.x + region.w / 2,
        clientY: r.top + region.y + region.h - 2, bubbles: true}));
      if (tip.hidden || !tip.textContent) {
        problems.push('hovering a bar showed no tooltip');
      }
      hideTip();
    }
    plots.forEach(function (p) {
      if (p.section.getAttribute('data-state') === 'drawn' && !(+p.section.getAttribute('data-png-bytes') > 1000)) {
        problems.push(p.id + ' did not export as PNG');
      }
    });
    document.body.setAttribute('data-selftest', problems.length ? 'failed: ' + problems.join('; ') : 'ok');
  }

  var resizeTimer = null;
  var lastWidth = window.innerWidth;
  window.addEventListener('resize', function () {
    if (window.innerWidth === lastWidth) {
      return;
    }
    lastWidth = window.innerWidth;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      plots.forEach(function (p) {
        if (p.redraw && p.section.getAttribute('data-state') === 'drawn') {
          p.redraw();
        }
      });
    }, 150);
  });
})();
