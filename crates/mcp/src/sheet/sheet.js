// The adventurer sheet in the browser: render(model) gives the markup render.rs gives on the
// server (keep the two in step); as an MCP App (body data-mode="app") it takes the tool result the
// host posts (SEP-1865, ext-apps specification 2026-01-26) and opens no connection of its own.
(function () {
  "use strict";
  var SLOTS = ["Weapon", "Chest", "Head", "Waist", "Foot", "Hand", "Neck", "Ring"];
  var STATS = [["strength", "STR"], ["dexterity", "DEX"], ["vitality", "VIT"], ["intelligence", "INT"],
    ["wisdom", "WIS"], ["charisma", "CHA"], ["luck", "LUCK"]];
  var EVENTS_SHOWN = 10;
  var ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

  function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return ESC[c]; }); }
  function val(v) { return typeof v === "number" ? String(v) : typeof v === "string" ? esc(v) : "–"; }
  function int(v) { return typeof v === "number" ? Math.trunc(v) : 0; }
  function obj(v) { return v !== null && typeof v === "object" ? v : {}; }

  function bar(cls, label, now, max) {
    var top = Math.max(int(max), int(now), 1);
    var pct = Math.min(Math.floor(Math.max(int(now), 0) * 100 / top), 100);
    return '<div class="bar ' + cls + (pct < 30 ? " low" : "") + '"><span style="width:' + pct + '%"></span><b>' +
      label + " " + val(now) + " / " + val(max) + "</b></div>";
  }
  function unknown(cls, title) {
    return '<section class="' + cls + '"><h2>' + title + '</h2><p class="none">not in this result</p></section>';
  }
  function beast(b) {
    if (b === null || typeof b !== "object" || Array.isArray(b)) return "";
    var start = b.starting_health == null ? b.health : b.starting_health;
    var h = '<section class="beast"><h2>Beast</h2><p><span class="name">' + val(b.name) + "</span> level " + val(b.level);
    if (typeof b.tier === "string") h += " " + esc(b.tier);
    return h + "</p>" + bar("beast-hp", "Health", b.health, start) + "</section>";
  }
  function stats(s) {
    if (s === null || typeof s !== "object" || Array.isArray(s)) return unknown("stats", "Stats");
    return '<section class="stats"><h2>Stats</h2><dl>' + STATS.map(function (x) {
      return "<div><dt>" + x[1] + "</dt><dd>" + val(s[x[0]]) + "</dd></div>";
    }).join("") + "</dl></section>";
  }
  function gear(items) {
    if (!Array.isArray(items)) return unknown("gear", "Gear");
    var h = '<section class="gear"><h2>Gear</h2><ul>';
    SLOTS.forEach(function (slot) {
      var i = items.find(function (x) { return obj(x).slot === slot; });
      h += i ? "<li><i>" + slot + "</i> <span>" + val(i.name) + "</span> <b>G" + val(i.greatness) + "</b></li>"
        : '<li class="empty"><i>' + slot + "</i> <span>empty</span></li>";
    });
    return h + "</ul></section>";
  }
  function bag(items) {
    if (!Array.isArray(items)) return unknown("bag", "Bag");
    if (!items.length) return '<section class="bag"><h2>Bag</h2><p class="none">empty</p></section>';
    return '<section class="bag"><h2>Bag</h2><ul>' + items.map(function (i) {
      return "<li><span>" + val(obj(i).name) + "</span> <b>G" + val(obj(i).greatness) + "</b></li>";
    }).join("") + "</ul></section>";
  }
  function market(items) {
    if (!Array.isArray(items) || !items.length) return "";
    return '<section class="market"><h2>Market</h2><ul>' + items.map(function (x) {
      var i = obj(x), v = typeof i.verdict === "string" ? i.verdict : "";
      return "<li><span>" + val(i.name) + "</span> <i>" + val(i.slot) + " " + val(i.tier) + "</i> <b>" + val(i.price) +
        'g</b> <em class="' + esc(v) + '">' + esc(v.replace(/_/g, " ")) + "</em></li>";
    }).join("") + "</ul></section>";
  }
  function events(lines) {
    if (!lines.length) return "";
    return '<section class="events"><h2>Last events</h2><ol>' + lines.slice(-EVENTS_SHOWN).map(function (e) {
      return "<li>" + esc(e) + "</li>";
    }).join("") + "</ol></section>";
  }

  // The sheet of model {adventurer: the full view, events: [line]}.
  function render(model) {
    var a = obj(obj(model).adventurer), ev = obj(model).events;
    var phase = typeof a.phase === "string" ? a.phase : "unknown";
    var h = "<header><h1>Adventurer <span>#" + val(a.adventurer_id) + '</span></h1><span class="phase ' + esc(phase) +
      '">' + esc(phase.replace(/_/g, " ")) + "</span></header>" + bar("hp", "Health", a.health, a.max_health);
    h += '<dl class="vitals"><div><dt>Level</dt><dd>' + val(a.level) + "</dd></div><div><dt>XP</dt><dd>" + val(a.xp) +
      "</dd></div><div><dt>Gold</dt><dd>" + val(a.gold) + "</dd></div>";
    if (int(a.stat_upgrades_available) > 0) h += "<div><dt>Stat points</dt><dd>" + int(a.stat_upgrades_available) + "</dd></div>";
    h += "</dl>" + beast(a.beast) + stats(a.stats) + gear(a.equipment) + bag(a.bag) + market(a.market);
    return h + events(Array.isArray(ev) ? ev.filter(function (e) { return typeof e === "string"; }) : []);
  }
  function show(model) { document.getElementById("sheet").innerHTML = render(model); }

  // A compact result's state ("STR 1 DEX 4 …", "Weapon: Short Sword G3", market lines) as a view.
  function fromCompact(s, m, id) {
    var names = {}, stats;
    STATS.forEach(function (x) { names[x[1]] = x[0]; });
    if (typeof s.stats === "string") {
      stats = {};
      s.stats.replace(/([A-Z]+) (\d+)/g, function (_, k, n) { stats[names[k]] = Number(n); });
    }
    function item(line, slotted) {
      var g = /^(?:(\w+): )?(.*) G(\d+)$/.exec(line) || [];
      return { slot: slotted ? g[1] : undefined, name: g[2] || line, greatness: g[3] ? Number(g[3]) : undefined };
    }
    var items = obj(m).items;
    return {
      adventurer_id: id, phase: s.phase, health: s.health, max_health: s.max_health, level: s.level, xp: s.xp,
      gold: s.gold, stat_upgrades_available: s.stat_points || 0, stats: stats, beast: s.beast || null,
      equipment: Array.isArray(s.equipment) ? s.equipment.map(function (l) { return item(l, true); }) : undefined,
      bag: Array.isArray(s.bag) ? s.bag.map(function (l) { return item(l, false); }) : undefined,
      market: Array.isArray(items) ? items.map(function (l) {
        var g = /^\d+ (.+?), (\w+) (T\d), (\d+)g: .*, ([a-z ]+)$/.exec(l) || [];
        return { name: g[1] || l, slot: g[2], tier: g[3], price: g[4] ? Number(g[4]) : undefined,
          verdict: (g[5] || "").replace(/ /g, "_") };
      }) : []
    };
  }
  function eventLine(e) {
    if (typeof e === "string") return e;
    var d = obj(obj(e).details);
    return String(d.type || "event") + (typeof d.name === "string" ? ": " + d.name : "");
  }
  // The model of a tool result (structuredContent, else its text), or null; partial when compact.
  function fromToolResult(result, id) {
    var r = obj(result), s = r.structuredContent;
    if (!s && Array.isArray(r.content)) {
      try { s = JSON.parse(r.content.map(function (c) { return c.text || ""; }).join("")); } catch (e) { s = null; }
    }
    s = obj(s);
    var ev = Array.isArray(s.events) ? s.events.map(eventLine) : [];
    if (r.isError) return { error: obj(s.error).message || "the call failed" };
    if (s.adventurer) return { adventurer: s.adventurer, events: ev };
    if (Array.isArray(s.legal_actions)) return { adventurer: s, events: ev };
    if (s.state) return { adventurer: fromCompact(s.state, s.market, s.adventurer_id || id), events: ev, partial: true };
    return null;
  }

  window.lsSheet = { render: render, show: show, fromToolResult: fromToolResult };
  var embedded = document.getElementById("state");
  window.lsSheet.state = embedded ? JSON.parse(embedded.textContent || "null") : null;
  if (document.body.dataset.mode === "app") app();
  if (document.body.dataset.mode === "page" && document.body.dataset.stream) follow(document.body.dataset.stream);

  // The live page: each server-sent `state` event is a whole model; data-live says whether the
  // stream is open (the browser reconnects by itself, and the server then sends the state again).
  function follow(url) {
    var source = new EventSource(url);
    source.addEventListener("state", function (e) { show(JSON.parse(e.data)); });
    source.onopen = function () { document.body.dataset.live = "on"; };
    source.onerror = function () { document.body.dataset.live = "off"; };
  }

  // The MCP App side: ui/initialize, then the tool input (its adventurer_id) and result; a compact
  // result is completed by reading ls://adventurer/{id} through the host when it offers that.
  function app() {
    var next = 1, pending = {}, host = {}, id = null;
    function send(msg) { window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, msg), "*"); }
    function request(method, params, then) { pending[next] = then; send({ id: next++, method: method, params: params }); }
    function answer(msg, result) { send({ id: msg.id, result: result }); }
    // The host's theme and style variables (HostContext: theme, styles.variables) over our defaults.
    function context(c) {
      var root = document.documentElement.style, vars = obj(obj(obj(c).styles).variables);
      if (obj(c).theme === "light" || obj(c).theme === "dark") root.colorScheme = c.theme;
      Object.keys(vars).forEach(function (k) { if (/^--[\w-]+$/.test(k)) root.setProperty(k, String(vars[k])); });
    }
    function display(model) {
      if (!model) return;
      if (model.error) {
        document.getElementById("sheet").innerHTML = '<p class="error">' + esc(model.error) + "</p>";
        return;
      }
      show(model);
      var known = model.adventurer.adventurer_id != null ? model.adventurer.adventurer_id : id;
      if (model.partial && known != null && obj(host.hostCapabilities).serverResources) {
        request("resources/read", { uri: "ls://adventurer/" + known }, function (res) {
          var text = obj(obj(res).contents && res.contents[0]).text;
          if (text) show({ adventurer: JSON.parse(text), events: model.events });
        });
      }
    }
    window.addEventListener("message", function (e) {
      if (e.source !== window.parent) return;
      var msg = obj(e.data);
      if (msg.id != null && !msg.method && pending[msg.id]) {
        var then = pending[msg.id];
        delete pending[msg.id];
        if (msg.result) then(msg.result);
      } else if (msg.method === "ui/notifications/tool-input") {
        var args = obj(obj(msg.params).arguments);
        if (args.adventurer_id != null) id = args.adventurer_id;
      } else if (msg.method === "ui/notifications/tool-result") {
        display(fromToolResult(msg.params, id));
      } else if (msg.method === "ui/notifications/host-context-changed") {
        context(msg.params);
      } else if (msg.method === "ui/resource-teardown" || msg.method === "ping") {
        answer(msg, {});
      }
    });
    request("ui/initialize", {
      protocolVersion: "2026-01-26", appInfo: { name: "loot-survivor-adventurer-card", version: "1" },
      appCapabilities: { availableDisplayModes: ["inline"] }
    }, function (result) {
      host = result;
      context(obj(result).hostContext);
      send({ method: "ui/notifications/initialized", params: {} });
      var size = function () {
        var r = document.documentElement.getBoundingClientRect();
        send({ method: "ui/notifications/size-changed", params: { width: Math.ceil(r.width), height: Math.ceil(r.height) } });
      };
      new ResizeObserver(size).observe(document.documentElement);
    });
  }
})();
