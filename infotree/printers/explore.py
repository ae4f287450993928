"""The report's interactive tree: zoom, pan, subtrees that open and close, a node's derivation on click.

A drawing of a real tree (hundreds of leaves) is far wider than a window; a static SVG opens
on blank space.  Here the page carries the boxes as data (their lines, branch values, fills,
children: :func:`tree_data`, from :func:`infotree.printers.drawing.boxes`) and a small script
(:data:`SCRIPT`, inline, nothing fetched) that measures the text with the browser's own font,
lays out the *open* part of the tree the way :func:`infotree.printers.drawing.layout` does,
and draws it as SVG:

- it opens with as many levels open as fit the window at a readable size, fitted to the
  window, the root at the top;
- the wheel zooms (about the pointer), a drag pans, *Fit* refits, *Open all* / *Close all*;
- the knob under a split (``+`` closed, ``−`` open) opens or closes its subtree; the tree is
  laid out again with the clicked node kept where it was;
- a click on a box shows that node's derivation (the report's section for it) beside the tree.

Without JavaScript the page shows what the script would replace: the static SVG drawing
(matplotlib's) or, without matplotlib or past the drawings' box limit, the text tree.
"""

from __future__ import annotations

import json

from .drawing import _walk, legend, look

__all__ = ["SCRIPT", "STYLE", "tree_data", "data_script"]

STYLE = """\
.infotree .explore { position: relative; border: 1px solid #999; height: 78vh; min-height: 320px; overflow: hidden;
  background: #fff; touch-action: none; }
.infotree .explore svg.view { width: 100%; height: 100%; cursor: grab; user-select: none; display: block; }
.infotree .explore svg.view.dragging { cursor: grabbing; }
.infotree .explore .bar { position: absolute; top: 6px; right: 6px; display: flex; gap: 4px; }
.infotree .explore .bar button { font: inherit; font-size: 0.85em; padding: 2px 8px; background: #fff;
  border: 1px solid #777; border-radius: 3px; cursor: pointer; }
.infotree .explore .panel { position: absolute; top: 40px; right: 6px; bottom: 6px; width: min(46%, 640px);
  overflow: auto; background: #fff; border: 1px solid #777; padding: 0 0.8em; display: none;
  box-shadow: 0 2px 8px rgba(0,0,0,0.25); }
.infotree .explore .panel.open { display: block; }
.infotree .explore .key { position: absolute; top: 6px; left: 6px; font-size: 0.85em; background: #fff; }
.infotree .explore .key span.swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #000;
  margin: 0 0.3em 0 0.8em; vertical-align: -0.1em; }
.infotree .explore g.box { cursor: pointer; }
.infotree .explore g.box.selected rect { stroke-width: 2.5; }
.infotree .explore g.knob { cursor: pointer; }
"""

# Plain ES2015 and standard DOM only (Chromium and Firefox alike).  Sizes in CSS pixels
# (12 px text); the layout is drawing.layout's: a subtree as wide as its children side by
# side or its own box, a node centred over its first and last child, elbow edges.
SCRIPT = r"""
(function () {
  "use strict";
  var host = document.getElementById("infotree-tree");
  var source = document.getElementById("infotree-data");
  if (!host || !source) return;
  var data = JSON.parse(source.textContent), N = data.nodes;
  var NS = "http://www.w3.org/2000/svg";
  var FONT = 12, LINE = 15, PAD = 6, HGAP = 18, VGAP = 48, BAR = 32, LABEL = 13, MARGIN = 12, KNOB = 7;
  var READABLE = 0.6, MOST = 1.5;
  var ctx = document.createElement("canvas").getContext("2d");
  var FAMILY = "'DejaVu Sans', Verdana, Arial, sans-serif";
  function measure(t, bold) { ctx.font = (bold ? "bold " : "") + FONT + "px " + FAMILY; return ctx.measureText(t).width; }
  N.forEach(function (n, i) {
    n.w = 0;
    n.l.forEach(function (t, k) { n.w = Math.max(n.w, measure(t, k === 0 || (n.p && k >= n.p))); });
    n.w += 2 * PAD;
    n.lw = n.e === null ? 0 : measure(n.e, false) + 6;
    n.h = n.l.length * LINE + 2 * PAD - (LINE - FONT);
    n.c.forEach(function (c) { N[c].up = i; N[c].depth = (n.depth || 0) + 1; });
    n.open = true;
  });
  N[0].depth = 0;
  var deepest = N.reduce(function (d, n) { return Math.max(d, n.depth); }, 0);

  function kids(n) { return n.open ? n.c : []; }
  function layout() {
    var order = [], stack = [0];
    while (stack.length) { var i = stack.pop(); order.push(i); var k = kids(N[i]); for (var j = k.length - 1; j >= 0; j--) stack.push(k[j]); }
    var levels = [];
    order.forEach(function (i) { var n = N[i]; levels[n.depth] = Math.max(levels[n.depth] || 0, n.h + (n.c.length ? KNOB : 0)); });
    var tops = [MARGIN];
    for (var d = 1; d < levels.length; d++) tops.push(tops[d - 1] + levels[d - 1] + VGAP);
    var span = {};
    for (var a = order.length - 1; a >= 0; a--) {
      var n = N[order[a]], k = kids(n), inner = -HGAP;
      k.forEach(function (c) { inner += span[c] + HGAP; });
      span[order[a]] = Math.max(n.w, n.lw, k.length ? inner : 0);
    }
    var left = {0: MARGIN};
    order.forEach(function (i) {
      var n = N[i], k = kids(n);
      n.y = tops[n.depth];
      if (k.length) {
        var inner = -HGAP; k.forEach(function (c) { inner += span[c] + HGAP; });
        var x = left[i] + (span[i] - inner) / 2;
        k.forEach(function (c) { left[c] = x; x += span[c] + HGAP; });
      } else n.x = left[i] + span[i] / 2;
    });
    for (var b = order.length - 1; b >= 0; b--) {
      var m = N[order[b]], kk = kids(m);
      if (kk.length) {
        var x0 = left[order[b]], half = m.w / 2;
        m.x = Math.min(Math.max((N[kk[0]].x + N[kk[kk.length - 1]].x) / 2, x0 + half), x0 + span[order[b]] - half);
      }
    }
    return {order: order, w: span[0] + 2 * MARGIN, h: tops[tops.length - 1] + levels[levels.length - 1] + MARGIN};
  }

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // the page: a bar of buttons, the key, the svg, the derivation panel
  var box = document.createElement("div"); box.className = "explore";
  var svg = el("svg", {"class": "view", role: "img", "aria-label": "decision tree"});
  box.appendChild(svg);
  var scene = el("g", {"class": "scene"}, svg);
  var bar = document.createElement("div"); bar.className = "bar"; box.appendChild(bar);
  function button(text, act) { var b = document.createElement("button"); b.type = "button"; b.textContent = text; b.addEventListener("click", act); bar.appendChild(b); return b; }
  var panel = document.createElement("div"); panel.className = "panel"; box.appendChild(panel);
  if (data.legend.length) {
    var key = document.createElement("div"); key.className = "key";
    data.legend.forEach(function (e) {
      var s = document.createElement("span"); s.className = "swatch"; s.style.background = e[1]; key.appendChild(s);
      key.appendChild(document.createTextNode(e[0]));
    });
    box.appendChild(key);
  }
  var fallback = host.querySelector(".static");
  if (fallback) fallback.style.display = "none";
  host.appendChild(box);

  var view = {x: 0, y: 0, s: 1}, laid = null, selected = null;
  function apply() { scene.setAttribute("transform", "translate(" + view.x + "," + view.y + ") scale(" + view.s + ")"); }

  function draw() {
    laid = layout();
    while (scene.firstChild) scene.removeChild(scene.firstChild);
    var edges = el("g", {"class": "edges"}, scene);
    laid.order.forEach(function (i) {
      var n = N[i], k = kids(n);
      if (!k.length) return;
      var barY = N[k[0]].y - BAR, xs = k.map(function (c) { return N[c].x; });
      var thick = function (on) { return on ? 2.6 : 1; };
      el("path", {d: "M" + n.x + " " + (n.y + n.h + KNOB) + "V" + barY, stroke: "#000", "stroke-width": thick(n.p), fill: "none"}, edges);
      el("path", {d: "M" + Math.min.apply(null, xs) + " " + barY + "H" + Math.max.apply(null, xs), stroke: "#000", "stroke-width": 1, fill: "none"}, edges);
      k.forEach(function (c) {
        var ch = N[c];
        if (ch.p) el("path", {d: "M" + n.x + " " + barY + "H" + ch.x, stroke: "#000", "stroke-width": 2.6, fill: "none"}, edges);
        el("path", {d: "M" + ch.x + " " + barY + "V" + ch.y, stroke: "#000", "stroke-width": thick(ch.p), fill: "none"}, edges);
        var lw = ch.lw;
        el("rect", {x: ch.x - lw / 2, y: ch.y - LABEL - 8, width: lw, height: 16, fill: "#fff"}, edges);
        var t = el("text", {x: ch.x, y: ch.y - LABEL + 4, "text-anchor": "middle", "font-size": FONT, "font-family": FAMILY,
                            "font-weight": ch.p ? "bold" : "normal"}, edges);
        t.textContent = ch.e;
      });
    });
    laid.order.forEach(function (i) {
      var n = N[i];
      var g = el("g", {"class": "box" + (selected === i ? " selected" : ""), "data-i": i}, scene);
      var leaf = n.k === "leaf" || n.k === "empty";
      el("rect", {x: n.x - n.w / 2, y: n.y, width: n.w, height: n.h, rx: leaf ? 7 : 0,
                  fill: n.f || (leaf ? "#ebebeb" : "#fff"), stroke: "#000", "stroke-width": n.p ? 2.6 : 1,
                  "stroke-dasharray": n.k === "empty" ? "5 3" : n.k === "summary" ? "2 2" : "none"}, g);
      n.l.forEach(function (line, k) {
        var t = el("text", {x: n.x, y: n.y + PAD + FONT * 0.85 + k * LINE, "text-anchor": "middle", "font-size": FONT,
                            "font-family": FAMILY, "font-weight": k === 0 || (n.p && k >= n.p) ? "bold" : "normal"}, g);
        t.textContent = line;
      });
      g.addEventListener("click", function () { if (!moved) choose(i); });
      if (n.c.length) {
        var kn = el("g", {"class": "knob", "data-i": i, "data-open": n.open ? "1" : "0"}, scene);
        var cy = n.y + n.h + KNOB;
        el("circle", {cx: n.x, cy: cy, r: KNOB, fill: "#fff", stroke: "#000", "stroke-width": 1}, kn);
        el("path", {d: "M" + (n.x - 4) + " " + cy + "H" + (n.x + 4) + (n.open ? "" : "M" + n.x + " " + (cy - 4) + "V" + (cy + 4)),
                    stroke: "#000", "stroke-width": 1.5}, kn);
        var tip = el("title", {}, kn); tip.textContent = (n.open ? "close" : "open") + " this subtree";
        kn.addEventListener("click", function (ev) { ev.stopPropagation(); if (!moved) toggle(i); });
      }
    });
    apply();
  }

  function choose(i) {
    selected = i;
    var n = N[i], section = n.d === null ? null : document.getElementById("node-" + n.d);
    panel.innerHTML = "";
    var close = document.createElement("button"); close.type = "button"; close.textContent = "close";
    close.style.cssFloat = "right"; close.style.marginTop = "0.6em";
    close.addEventListener("click", function () { panel.className = "panel"; selected = null; draw(); });
    panel.appendChild(close);
    if (section) { var copy = section.cloneNode(true); copy.removeAttribute("id"); panel.appendChild(copy); }
    else { var p = document.createElement("p"); p.textContent = n.l.join("; ") + " (no candidates compared here)"; panel.appendChild(p); }
    panel.className = "panel open";
    draw();
  }

  function toggle(i) {
    var n = N[i], sx = n.x * view.s + view.x, sy = n.y * view.s + view.y;
    n.open = !n.open;
    draw();
    view.x = sx - n.x * view.s; view.y = sy - n.y * view.s;  // the clicked node stays where it was
    apply();
  }

  function openTo(depth) { N.forEach(function (n) { n.open = n.depth < depth; }); }
  function fit() {
    var r = svg.getBoundingClientRect(), w = r.width || 800, h = r.height || 600;
    var s = Math.min(w / laid.w, h / laid.h, MOST);
    view.s = Math.max(s, READABLE);
    view.x = laid.w * view.s <= w ? (w - laid.w * view.s) / 2 : w / 2 - N[0].x * view.s;  // too wide: the root centred
    view.y = data.legend.length ? 24 : 0;  // below the key
    apply();
  }
  function start() {
    var r = svg.getBoundingClientRect(), w = r.width || 800, depth = 1;
    openTo(depth);
    while (depth <= deepest) {  // open levels while the whole open part fits at a readable size
      openTo(depth + 1);
      var l = layout();
      if (l.w * READABLE > w) { openTo(depth); break; }
      depth++;
    }
    draw(); fit();
  }

  button("Fit", function () { fit(); });
  button("Open all", function () { openTo(deepest + 1); draw(); fit(); });
  button("Close all", function () { openTo(1); draw(); fit(); });

  var drag = null, moved = false;
  svg.addEventListener("pointerdown", function (ev) {
    drag = {x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y}; moved = false;
  });
  svg.addEventListener("pointermove", function (ev) {
    if (!drag) return;
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!moved) { moved = true; svg.setPointerCapture(ev.pointerId); svg.classList.add("dragging"); }
    view.x = drag.vx + dx; view.y = drag.vy + dy; apply();
  });
  function release() { drag = null; svg.classList.remove("dragging"); setTimeout(function () { moved = false; }, 0); }
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);
  svg.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var r = svg.getBoundingClientRect(), cx = ev.clientX - r.left, cy = ev.clientY - r.top;
    var s = Math.min(8, Math.max(0.05, view.s * Math.exp(-ev.deltaY * 0.0015)));
    view.x = cx - (cx - view.x) * s / view.s; view.y = cy - (cy - view.y) * s / view.s; view.s = s;
    apply();
  }, {passive: false});
  start();
})();
"""


def tree_data(tree, *, path=None, **opts) -> dict:
    """The boxes as the script reads them: per box in pre-order its lines ``l``, branch value ``e``,
    kind ``k``, fill ``f``, children ``c`` (indices), derivation ``d`` (the node's pre-order
    number, when the report has a section for it) and ``p`` (on a highlighted path: the first of the
    lines that say the row's outcome; 0 off the path)."""
    from .cells import has_derivation
    from .drawing import boxes

    root = boxes(tree, path=path, **opts)
    order = list(_walk(root))
    where = {id(b): i for i, b in enumerate(order)}
    nodes = [{"l": b.lines, "e": b.edge, "k": b.kind, "f": b.fill, "c": [where[id(c)] for c in b.children],
              "d": b.index if has_derivation(b.node) else None, "p": b.path_from if b.on_path else 0} for b in order]
    return {"nodes": nodes, "legend": [list(e) for e in legend(tree, look(**opts))]}


def data_script(tree, **opts) -> str:
    """The ``<script type="application/json">`` element; ``<``, ``>`` and ``&`` escaped so no name
    can close the element or open another."""
    text = json.dumps(tree_data(tree, **opts), ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="infotree-data">{text}</script>\n'
