// The web table's page: one seat's view, pushed over a WebSocket, and taps sent back.
// No library, no build step. The credential comes from the page's own URL: ?t=<link token> (Discord,
// the browser at home) or Telegram's init data in the #tgWebAppData fragment (a Mini App).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const REFUSED = new Set([4401, 4403, 4404]);  // the credential, the seat, the table: the reason says which
  let view = null;
  let socket = null;
  let retry = 0;
  let waiting = false;

  function credential() {
    const query = new URLSearchParams(location.search);
    if (query.get("t")) return "t=" + encodeURIComponent(query.get("t"));
    const fragment = new URLSearchParams(location.hash.slice(1));
    let init = fragment.get("tgWebAppData");
    try {
      if (init) sessionStorage.setItem("tgWebAppData", init);
      else init = sessionStorage.getItem("tgWebAppData");
    } catch (e) { /* no storage: the fragment only */ }
    if (!init) return "";
    const table = query.get("table") || query.get("tgWebAppStartParam") || "";
    return "tg=" + encodeURIComponent(init) + (table ? "&table=" + encodeURIComponent(table) : "");
  }

  function telegram(event) {  // tell a Telegram client the page is ready, without its script
    const data = JSON.stringify({eventType: event, eventData: ""});
    try {
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(event, "");
      else if (window.external && window.external.notify) window.external.notify(data);
      else if (window.parent !== window) window.parent.postMessage(data, "https://web.telegram.org");
    } catch (e) { /* not in Telegram */ }
  }

  function el(tag, props, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("data-")) node.setAttribute(k, v);
      else node[k] = v;
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function picture(card, label) {  // the card's picture; its label where the picture is missing
    const english = view.lang === "en" && (card[0] === "J" || card[0] === "Q");  // J and Q, not B and D
    const img = el("img", {src: "static/cards/" + (english ? "en/" : "") + card + ".svg", alt: label,
                           draggable: false});
    const red = card.endsWith("H") || card.endsWith("D");
    img.addEventListener("error", () => img.replaceWith(el("span", {class: red ? "face red" : "face"}, label)),
                         {once: true});
    return img;
  }

  function place(node, seat, rx, ry) {  // round the felt as this viewer sees it: he below, the next on his left
    const n = view.seats.length;
    const angle = Math.PI / 2 + ((seat - (view.seat ?? 0) + n) % n) * 2 * Math.PI / n;  // a watcher: seat 0 below
    node.style.left = (50 + rx * Math.cos(angle)).toFixed(1) + "%";
    node.style.top = (50 + ry * Math.sin(angle)).toFixed(1) + "%";
    return node;
  }

  function showSeats() {
    const box = $("seats");
    box.replaceChildren(...view.seats.map((s) => {
      const classes = ["seat"];
      if (s.turn) classes.push("turn");
      if (s.me) classes.push("me");
      if (!s.active) classes.push("out");
      const node = el("div", {class: classes.join(" "), "data-seat": String(s.seat)});
      node.append(el("span", {class: "name"}, s.me ? s.name + " (" + view.labels.you + ")" : s.name));
      if (s.note) node.append(el("span", {class: "note"}, s.note));
      return place(node, s.seat, 35, 40);
    }));
  }

  function cards(box, list, placed) {
    box.replaceChildren(...list.map((c) => {
      const node = el("div", {class: "played", "data-card": c.card, "data-seat": String(c.seat), title: c.label});
      node.append(picture(c.card, c.label));
      return placed ? place(node, c.seat, 14, 17) : node;
    }));
  }

  function tap(verb, arg) {
    if (!socket || socket.readyState !== WebSocket.OPEN || waiting) return;
    waiting = true;
    document.body.classList.add("waiting");
    socket.send(JSON.stringify({verb: verb, arg: arg, v: view.hand_version}));
  }

  function showHand() {
    const hand = view.hand.map((c) => {
      const b = el("button", {class: "card", type: "button", "data-card": c.card, "data-verb": c.verb,
                              "data-arg": c.arg, title: c.choice || c.label, disabled: !c.legal});
      b.append(picture(c.card, c.label));
      if (c.choice) b.append(el("span", {class: "choice"}, c.choice));
      b.addEventListener("click", () => tap(c.verb, c.arg));
      return b;
    });
    const offers = view.offers.map((o) => {
      const b = el("button", {class: "offer", type: "button", "data-verb": o.verb, "data-arg": o.arg}, o.label);
      b.addEventListener("click", () => tap(o.verb, o.arg));
      return b;
    });
    $("hand").replaceChildren(el("div", {class: "cards"}), el("div", {class: "offers"}));
    $("hand").firstChild.append(...hand);
    $("hand").lastChild.append(...offers);
  }

  function lines(box, list) {
    box.replaceChildren(...list.map((line) => el(box.tagName === "OL" ? "li" : "p", {}, line)));
  }

  function show(next) {
    view = next;
    waiting = false;
    document.body.classList.remove("waiting");
    document.documentElement.lang = view.lang;
    document.title = view.title;
    $("title").textContent = view.title;
    $("info").textContent = view.info;
    $("hand-label").textContent = view.watching ? view.labels.watching : view.labels.hand;
    document.body.classList.toggle("watching", !!view.watching);
    $("last-label").textContent = view.labels.last_trick;
    $("score-label").textContent = view.labels.score;
    $("story-label").textContent = view.labels.story;
    showSeats();
    cards($("trick"), view.trick, true);
    cards($("last-trick"), view.last_trick ? view.last_trick.cards : [], false);
    $("last-trick").title = view.last_trick ? view.last_trick.text : "";
    lines($("score"), view.score);
    lines($("story"), view.story.filter((line) => line));
    $("story").scrollTop = $("story").scrollHeight;
    showHand();
    say(view.status, "status");
    document.body.dataset.version = String(view.version);
  }

  // Watchers (Kiebitze): how many watch, shown to everyone at the table above the felt.
  function watchers(text) {
    let line = $("watchers");
    if (!line) {
      line = el("p", {id: "watchers"});
      line.setAttribute("aria-live", "polite");
      $("felt").before(line);
    }
    line.textContent = text;
    line.hidden = !text;
  }

  function say(text, kind) {
    const notice = $("notice");
    notice.textContent = text || "";
    notice.className = kind;
  }

  function connect() {
    const cred = credential();
    const base = location.pathname.replace(/[^/]*$/, "");
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + "ws?" + cred;
    socket = new WebSocket(url);
    socket.addEventListener("open", () => { retry = 0; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view") show(message.view);
      else if (message.type === "follow") location.search = "?" + message.query;  // his new table
      else if (message.type === "watchers") watchers(message.text);
      else if (message.type === "notice") {
        waiting = false;
        document.body.classList.remove("waiting");
        say(message.text, "refusal");
      }
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      if (REFUSED.has(event.code)) {
        say(event.reason || "–", "refusal");
        document.body.classList.add("closed");
        return;
      }
      say(view ? view.labels.offline : "…", "offline");
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    telegram("web_app_ready");
    telegram("web_app_expand");
    connect();
  });
})();
