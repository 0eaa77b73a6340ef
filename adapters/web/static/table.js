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
  let seenResult = null;  // the number of the last deal whose result he moved on from (null: not known yet)
  let reopened = null;  // the number of a deal whose result he opened again from »Bisher«
  let review = null;  // his review of a finished deal (its steps), and the step he looks at
  let step = 0;
  const drawn = {};  // what each part of the page shows (its data as JSON): a part is drawn anew only when it changed

  function changed(part, ...data) {
    const key = JSON.stringify([view.lang, view.seat, ...data]);
    if (drawn[part] === key) return false;
    drawn[part] = key;
    return true;
  }

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

  // Signs the texts carry, drawn by the page (table.css), so that no emoji font is needed; other emoji are left out.
  const SIGNS = {"🏆": "trophy", "🥔": "potato", "🃏": "cards", "➡": "turn", "📋": "sheet"};
  const EMOJI = /([\u{1F000}-\u{1FFFF}\u27A1])\uFE0F?|\uFE0F/gu;

  function write(node, text) {  // ``text`` as ``node``'s content, its signs drawn; returns ``node``
    const parts = [];
    let at = 0;
    text = text || "";
    for (const m of text.matchAll(EMOJI)) {
      parts.push(text.slice(at, m.index));
      if (SIGNS[m[1]]) parts.push(el("span", {class: "sign " + SIGNS[m[1]], role: "img", title: m[1]}));
      at = m.index + m[0].length;
    }
    parts.push(text.slice(at));
    node.replaceChildren(...parts);
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
      if (view.trick_leader === s.seat) node.append(el("span", {class: "led"}, view.labels.led));
      return place(node, s.seat, 35, 40);
    }));
  }

  function cards(box, list) {  // the trick in play, each card before its player, the lead marked
    box.replaceChildren(...list.map((c, i) => {
      const node = el("div", {class: i ? "played" : "played lead", "data-card": c.card, "data-seat": String(c.seat),
                              title: c.name + ": " + c.label});
      node.append(picture(c.card, c.label));
      return place(node, c.seat, 14, 17);
    }));
  }

  function named(box, took, trick) {  // a completed trick: each card with its player, who led, who took it
    box.replaceChildren(...(trick ? trick.cards : []).map((c) => {
      const node = el("figure", {class: c.seat === trick.winner ? "won" : "", "data-card": c.card,
                                 "data-seat": String(c.seat), title: c.name + ": " + c.label});
      node.append(el("span", {class: "tag"}, c.seat === trick.leader ? view.labels.led : ""),
                  picture(c.card, c.label), el("figcaption", {}, c.name));
      return node;
    }));
    took.textContent = trick ? trick.took : "";
  }

  function showTurned() {  // Rams: the Kehrer (and a Bälli turned before it) pictured in the felt's corner
    $("turned").replaceChildren(...(view.turned || []).map((c) => {
      const node = el("figure", {"data-card": c.card, title: c.role + ": " + c.label});
      node.append(picture(c.card, c.label), el("figcaption", {}, c.role));
      return node;
    }));
  }

  function resultKey() { return "stammtisch.result." + view.table; }

  function movedOn() {  // he moved on from the deal's result: it shows no more (»Bisher« keeps it)
    reopened = null;
    if (!view || !view.result) return;
    seenResult = view.result.no;
    try { sessionStorage.setItem(resultKey(), String(seenResult)); } catch (e) { /* no storage: this page only */ }
    $("result").hidden = view.state !== "finished";
  }

  function showResult() {  // the last deal's result over the felt, until he moves on; the match's end stays
    const result = view.result;
    if (result && seenResult === null) {
      try { seenResult = Number(sessionStorage.getItem(resultKey()) ?? NaN); } catch (e) { seenResult = NaN; }
      if (Number.isNaN(seenResult)) seenResult = result.fresh ? result.no - 1 : result.no;  // a page opened later
    }
    const ended = view.state === "finished";
    $("result").hidden = !result || !(ended || result.no > seenResult || result.no === reopened);
    if (!result || !changed("result", result, view.sheet.length > 0, ended)) return;
    write($("result-title"), result.title);
    named($("result-trick"), $("result-took"), result.trick);
    $("result-lines").replaceChildren(...result.lines.map((line) => write(el("li"), line)));
    $("result-final").replaceChildren(...result.final.map((line) => write(el("li"), line)));
    $("result-sheet").textContent = view.labels.sheet;
    $("result-sheet").hidden = !view.sheet.length;
    $("result-close").textContent = view.labels.play_on;
    $("result-close").hidden = ended;
    $("result-review").textContent = view.labels.review;
    $("result-review").hidden = !!view.watching;
  }

  // »Nachbesprechung«: his review of the deal whose result shows, trick by trick, fetched when he asks.
  async function openReview() {
    const base = location.pathname.replace(/[^/]*$/, "");
    const answer = await fetch(base + "api/review?" + credential() + "&no=" + view.result.no);
    if (!answer.ok) {
      say(await answer.text(), "refusal");
      return;
    }
    review = await answer.json();
    const marked = review.steps.findIndex((s) => s.decisions.some((d) => d.mark));
    const other = review.steps.findIndex((s) => s.decisions.some((d) => !d.same));
    step = Math.max(marked >= 0 ? marked : other, 0);  // the first mistake first, else where the strong player differs
    showStep();
    if (!$("review-box").open) $("review-box").showModal();
  }

  function showStep() {
    const s = review.steps[step];
    write($("review-title"), review.title);
    write($("review-step"), s.title);
    named($("review-trick"), $("review-took"), s.trick);
    $("review-lines").replaceChildren(...s.decisions.map((d) => write(el("li", {class: d.mark ? "mark" : d.same
                                                                                  ? "same" : "other"}), d.text)));
    $("review-at").textContent = (step + 1) + " / " + review.steps.length;
    $("review-back").textContent = review.labels.back;
    $("review-next").textContent = review.labels.next;
    $("review-close").textContent = review.labels.close;
    $("review-back").disabled = step === 0;
    $("review-next").disabled = step === review.steps.length - 1;
  }

  function turn(by) {
    step = Math.min(Math.max(step + by, 0), review.steps.length - 1);
    showStep();
  }

  function showStory() {  // »Bisher«: the last deal's result (a tap shows it again), then this deal so far
    const items = [];
    if (view.result && view.state === "playing") {
      const again = el("button", {class: "quiet", type: "button"});
      again.addEventListener("click", () => { reopened = view.result.no; showResult(); });
      const deal = el("li", {class: "deal"});
      deal.append(write(again, view.result.title), ...view.result.lines.map((line) => write(el("div"), line)));
      items.push(deal);
    }
    items.push(...view.story.filter((line) => line).map((line) => write(el("li"), line)));
    $("story").replaceChildren(...items);
    $("story").scrollTop = $("story").scrollHeight;
  }

  function showSheet() {  // the score sheet, as the zettel command shows it
    $("sheet").replaceChildren(...view.sheet.map((line) => write(el("li"), line)));
    $("sheet-close").textContent = view.labels.close;
  }

  function openSheet() {
    showSheet();
    if (!$("sheet-box").open) $("sheet-box").showModal();
  }

  function tap(verb, arg) {
    if (!socket || socket.readyState !== WebSocket.OPEN || waiting) return;
    movedOn();
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
    $("hand").firstChild.style.setProperty("--n", String(hand.length));  // how far the cards overlap in one row
    $("hand").lastChild.append(...offers);
  }

  function lines(box, list) {
    box.replaceChildren(...list.map((line) => write(el(box.tagName === "OL" ? "li" : "p"), line)));
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
    if (changed("seats", view.seats, view.trick_leader)) showSeats();
    if (changed("trick", view.trick)) cards($("trick"), view.trick);
    if (changed("last", view.last_trick)) {
      named($("last-trick"), $("last-took"), view.last_trick);
      $("last-trick").title = view.last_trick ? view.last_trick.text : "";
    }
    if (changed("turned", view.turned)) showTurned();
    if (changed("score", view.score)) lines($("score"), view.score);
    $("sheet-open").textContent = view.labels.sheet;
    $("sheet-open").hidden = !view.sheet.length;
    if ($("sheet-box").open) showSheet();
    if (changed("story", view.story, view.result, view.state)) showStory();
    showResult();
    if (changed("hand", view.hand, view.offers)) showHand();
    say([view.status, view.away].filter(Boolean).join(" · "), "status");
    document.body.dataset.state = view.state;
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
    write(notice, text);
    notice.className = kind;
  }

  // »Meine Tische«: his open tables on his platform, each a link to its page (a watch link gets none).
  async function myTables(page) {
    const base = location.pathname.replace(/[^/]*$/, "");
    const answer = await fetch(base + "api/tables?" + credential() + "&page=" + page);
    if (!answer.ok) return;
    const data = await answer.json();
    write($("tables-head"), data.head);
    $("tables").replaceChildren(...data.rows.map((row) => {
      const item = el("li");
      item.append(write(el("a", {href: "?" + row.query}), row.text));
      return item;
    }));
    $("tables-pages").replaceChildren(...data.pages.map((p) => {
      const turn = el("button", {type: "button", class: "quiet"}, p.label);
      turn.addEventListener("click", () => myTables(p.page));
      return turn;
    }));
    $("tables-box").hidden = false;
  }

  function connect() {
    const cred = credential();
    const base = location.pathname.replace(/[^/]*$/, "");
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + "ws?" + cred;
    socket = new WebSocket(url);
    socket.addEventListener("open", () => { retry = 0; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view" && !view && !message.view.watching) myTables(0);
      if (message.type === "view") show(message.view);
      else if (message.type === "follow") location.search = "?" + message.query;  // his new table
      else if (message.type === "watchers") watchers(message.text);
      else if (message.type === "notice") {
        waiting = false;
        document.body.classList.remove("waiting");
        say(message.text, message.kind === "tipp" ? "tipp" : "refusal");  // a hint is no refusal
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
    $("result-close").addEventListener("click", movedOn);
    $("result-sheet").addEventListener("click", openSheet);
    $("sheet-open").addEventListener("click", openSheet);
    $("sheet-close").addEventListener("click", () => $("sheet-box").close());
    $("result-review").addEventListener("click", openReview);
    $("review-back").addEventListener("click", () => turn(-1));
    $("review-next").addEventListener("click", () => turn(1));
    $("review-close").addEventListener("click", () => $("review-box").close());
    telegram("web_app_ready");
    telegram("web_app_expand");
    connect();
  });
})();
